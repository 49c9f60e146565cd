"""A class merged with a namespace of its name, and object literals under ``satisfies`` (TypeScript): ``class
Cookie`` then ``namespace Cookie { export function parse() }`` is one value, the class, whose static members
the namespace adds; ``const api = {...} satisfies Api`` (or ``as const``) is a namespace of its functions as the
bare literal is. Small programs, each with what must stay unbound beside it.

Rules: docs/languages/typescript.md (round 12).
"""

from __future__ import annotations

from .test_typescript_literals import _targets

COOKIE = ("export class Cookie {\n"                                                 # 1
          "  constructor(public name: string) {}\n"
          "  set(v: string) { return this; }\n"
          "}\n"
          "export namespace Cookie {\n"                                             # 5
          "  export function parse(s: string) { return new Cookie(s); }\n"
          "  export class Jar { add() { return 1; } }\n"
          "}\n"
          "export namespace Other {\n  export function parse(s: string) { return s; }\n}\n"
          "export function local() {\n"
          "  const c = new Cookie('a');\n  c.set('x').set('y');\n"
          "  Cookie.parse('a').set('b');\n  new Cookie.Jar().add();\n"
          "  Other.parse('a');\n  Cookie.missing();\n  c.parse2();\n"
          "}\n")
REMOTE = ("import { Cookie } from './ck';\n"
          "export function remote() {\n"
          "  const c = new Cookie('a');\n  c.set('x');\n  Cookie.parse('a').set('b');\n  new Cookie.Jar().add();\n"
          "}\n")
SATISFIES = ("interface Api { json(v: unknown): string; text(v: string): string }\n"
             "const handlers = {\n"
             "  json(v: unknown) { return JSON.stringify(v); },\n"
             "  text(v: string) { return v; },\n"
             "} satisfies Api;\n"
             "const fixed = { run() { return 1; } } as const;\n"
             "const plain = { n: 1 } satisfies Record<string, number>;\n"
             "export function use() {\n"
             "  handlers.json(1);\n  handlers.text('a');\n  fixed.run();\n  handlers.missing();\n  plain.toString();\n"
             "}\n")


def test_a_class_merged_with_a_namespace_is_the_class_with_the_namespace_s_members(tmp_path):
    got = _targets(tmp_path, {"src/ck.ts": COOKIE}, "src.ck.local")
    assert got["Cookie"] == {"src.ck.Cookie.constructor"}  # was a same-file name guess (the namespace won)
    assert got["c.set"] == {"src.ck.Cookie.set"} and got["c.set().set"] == {"src.ck.Cookie.set"}
    assert got["Cookie.parse"] == {"src.ck.Cookie.parse"}
    assert got["Cookie.parse().set"] == {"src.ck.Cookie.set"}
    assert got["Cookie.Jar().add"] == {"src.ck.Cookie.Jar.add"}
    assert got["Other.parse"] == {"src.ck.Other.parse"}  # a namespace of its own stays one
    assert got["Cookie.missing"] == {None} and got["c.parse2"] == {None}


def test_an_import_of_a_merged_class_reaches_both_sides(tmp_path):
    got = _targets(tmp_path, {"src/ck.ts": COOKIE, "src/ck2.ts": REMOTE}, "src.ck2.remote")
    assert got["Cookie"] == {"src.ck.Cookie.constructor"}
    assert got["c.set"] == {"src.ck.Cookie.set"}
    assert got["Cookie.parse().set"] == {"src.ck.Cookie.set"}
    assert got["Cookie.Jar().add"] == {"src.ck.Cookie.Jar.add"}


def test_a_literal_under_satisfies_or_as_const_is_a_namespace_of_its_functions(tmp_path):
    got = _targets(tmp_path, {"src/s.ts": SATISFIES}, "src.s.use")
    assert got["handlers.json"] == {"src.s.handlers.json"}
    assert got["handlers.text"] == {"src.s.handlers.text"}
    assert got["fixed.run"] == {"src.s.fixed.run"}
    assert got["handlers.missing"] == {None}
    assert got["plain.toString"] != {"src.s.plain.toString"}  # a literal without functions makes none
