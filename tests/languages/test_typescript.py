"""TypeScript / TSX parser: interfaces, types, enums, annotations as type references and receiver types."""

from __future__ import annotations

import pytest

from lore.languages.typescript import _parser as typescript

SRC = b"""
export interface Repo<T> extends Base { save(x: T): Promise<void>; }
export type Users = Map<string, User>;
export enum Color { Red }
namespace util { export function f(): void {} }
/** A service. */
export class Service implements Repo<User> {
  private cache: Cache;
  constructor(private repo: UserRepo, n?: number) {}
  async find(id: number): Promise<User | undefined> { const u: User = await this.repo.get(id); return u; }
}
export function over(x: string): void;
"""


def test_symbols():
    pf = typescript.parse("src/s.ts", SRC, "src.s")
    got = {s.qualified_name: (s.kind, s.is_declaration) for s in pf.symbols}
    assert got["src.s.Repo"] == ("interface", False)
    assert got["src.s.Repo.save"] == ("method", True)
    assert got["src.s.Users"] == ("type_alias", False)
    assert got["src.s.Color"] == ("enum", False)
    assert got["src.s.util"] == ("namespace", False)
    assert got["src.s.util.f"] == ("function", False)
    assert got["src.s.over"] == ("function", True)
    svc = next(s for s in pf.symbols if s.name == "Service")
    assert svc.docstring == "A service."


def test_types_relations_and_receivers():
    pf = typescript.parse("src/s.ts", SRC, "src.s")
    find = next(s for s in pf.symbols if s.name == "find")
    assert find.params == [("id", "Number")]  # a number is the runtime's Number (its methods are Number's)
    assert find.return_type == "User"  # Promise<User | undefined> -> User
    refs = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert {("Service", "Cache", "field"), ("Service", "UserRepo", "field"), ("constructor", "UserRepo", "param"),
            ("find", "User", "return"), ("find", "User", "annotation"), ("Users", "User", "generic")} <= refs
    assert not {r for r in refs if r[1] == "T"}  # a type parameter is no type reference
    rels = {(pf.symbols[r.source].name, r.target, r.kind) for r in pf.relations}
    # type Users = Map<string, User>: a Map (the runtime's class), never a User
    assert rels == {("Repo", "Base", "extends"), ("Service", "Repo", "implements"), ("Users", "Map", "extends")}
    binds = {(pf.symbols[b.owner].name, b.name): b.annotation for b in pf.bindings}
    assert binds[("Service", "self.repo")] == "UserRepo"
    assert binds[("Service", "self.cache")] == "Cache"


def test_tsx_uses_its_grammar():
    src = b"export function App(p: Props) { const s = new Store(); return <div>{s.title()}</div>; }"
    pf = typescript.parse("src/App.tsx", src, "src.App")
    assert pf.language == "tsx" and pf.syntax_errors == 0
    assert [c.callee for c in pf.calls] == ["Store", "s.title"]


@pytest.mark.parametrize("path", ["bad.ts", "bad.tsx"])
@pytest.mark.parametrize("src", [b"", b"\xff\xfe<\x00", b"interface { x: ", b"<" * 3000])
def test_bad_input_never_raises(path, src):
    assert typescript.parse(path, src, "bad").symbols[0].kind == "module"


def test_overloads_require_imports_export_assignment_and_type_parameters():
    src = b"""
import u = require('./util');
export function pick(a: string): string;
export function pick(a: number): number;
export function pick(a: any): any { return u.norm(a); }
export class Box<T> { items: Array<T> = []; get(i: number): T { return this.items[i]; } }
export = Box;
"""
    pf = typescript.parse("src/b.ts", src, "src.b")
    assert [s.qualified_name for s in pf.symbols] == ["src.b", "src.b.pick", "src.b.Box", "src.b.Box.get"]
    assert not pf.symbols[1].is_declaration  # the implementation stands for its overloads
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [("./util", "module.exports", "u")]
    assert {(b.name, b.alias_of) for b in pf.bindings} >= {("module.exports", "Box"), ("default", "Box")}
    assert not [t for t in pf.type_refs if t.type_name == "T"]


def test_tsx_components_are_calls():
    src = b"export const App = () => <Layout title='x'><Badge /></Layout>;"
    pf = typescript.parse("src/App.tsx", src, "src.App")
    assert [c.callee for c in pf.calls] == ["Layout", "Badge"]
