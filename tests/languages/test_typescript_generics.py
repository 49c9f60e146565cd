"""TypeScript values with type arguments and fluent results, one small program each (and what must stay
unbound): ``b: Box<Foo>`` then ``b.get().bar()``, defaults, interfaces, ``return this`` chains.

Rules: docs/languages/typescript.md ("Type arguments and returned values"); resolver side in
lore/index/_generics.py and lore/languages/javascript/_returns.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

FOO = "export class Foo {\n  bar() { return 1; }\n}\nexport class Qux {\n  bar() { return 2; }\n}\n"


def test_a_method_typed_by_a_type_parameter_gives_the_argument(tmp_path):
    src = FOO + ("export class Box<T> {\n  constructor(private v: T) {}\n  get(): T { return this.v; }\n"
                 "  async later(): Promise<T> { return this.v; }\n}\n"
                 "export async function use(b: Box<Foo>, q: Box<Qux>) {\n  b.get().bar();\n  q.get().bar();\n"
                 "  (await b.later()).bar();\n  b.get();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["b.get().bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["q.get().bar"] == {("src.a.Qux.bar", "annotated_type")}
    assert got["b.later().bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["b.get"] == {("src.a.Box.get", "annotated_type")}  # the call itself binds as before


def test_a_field_an_interface_member_and_a_default_are_read_with_the_arguments(tmp_path):
    src = FOO + ("export interface Res<T> {\n  data: T;\n  first(): T;\n}\n"
                 "export class Holder<T = Foo> {\n  v!: T;\n  get(): T { return this.v; }\n}\n"
                 "export function use(r: Res<Qux>, h: Holder) {\n  r.data.bar();\n  r.first().bar();\n"
                 "  h.get().bar();\n  h.v.bar();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["r.data.bar"] == {("src.a.Qux.bar", "annotated_type")}
    assert got["r.first().bar"] == {("src.a.Qux.bar", "annotated_type")}
    assert got["h.get().bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["h.v.bar"] == {("src.a.Foo.bar", "annotated_type")}


def test_a_construction_with_type_arguments_is_a_generic_instance(tmp_path):
    src = FOO + ("export class Box<T> {\n  v!: T;\n  get(): T { return this.v; }\n}\n"
                 "export function use() {\n  const b = new Box<Foo>();\n  b.get().bar();\n"
                 "  const m = new Map<string, Qux>();\n  m.get('a')!.bar();\n  const c = new Box();\n  c.v.bar();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["b.get().bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["m.get().bar"] == {("src.a.Qux.bar", "annotated_type")}
    assert got["c.v.bar"] == {(None, "unresolved")}  # no argument: T is nothing known


def test_a_parameter_nobody_gives_stays_unbound(tmp_path):
    # Box<T> read without an argument, an argument of the runtime's (string), a base extended without
    # arguments: nothing is known, so nothing is guessed
    src = FOO + ("export class Box<T> {\n  v!: T;\n  get(): T { return this.v; }\n}\n"
                 "export class Sub extends Box {}\n"
                 "export function use(b: Box, s: Box<string>, u: Sub) {\n  b.get().bar();\n  s.v.bar();\n"
                 "  u.get().bar();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["b.get().bar"] == {(None, "unresolved")}
    assert got["s.v.bar"] == {("js.global.String.bar", "builtin")}  # a string's, never a project method
    assert got["u.get().bar"] == {(None, "unresolved")}


def test_a_base_extended_with_arguments_gives_its_members_those_types(tmp_path):
    src = FOO + ("export class Base<T> {\n  v!: T;\n  get(): T { return this.v; }\n}\n"
                 "export class Sub extends Base<Foo> {\n  own() { return 1; }\n}\n"
                 "export function use(s: Sub) {\n  s.get().bar();\n  s.v.bar();\n  s.own();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["s.get().bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["s.v.bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["s.own"] == {("src.a.Sub.own", "annotated_type")}


def test_return_this_makes_a_fluent_chain(tmp_path):
    src = ("export class App {\n  use(f: string) { this.fs.push(f); return this; }\n  fs: string[] = [];\n"
           "  listen() {}\n  handler() { return (x: number) => x; }\n}\n"
           "export function main(app: App) {\n  app.use('a').use('b').listen();\n  new App().use('c').listen();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.main")
    assert got["app.use().use().listen"] == {("src.a.App.listen", "constructor_type")}
    assert got["App().use().listen"] == {("src.a.App.listen", "constructor_type")}


def test_return_this_of_a_base_gives_the_subclass_it_was_called_on(tmp_path):
    # TypeScript's polymorphic ``this``: the chain goes on with App, not with the class declaring use()
    # (whose external base would otherwise answer listen(): EventEmitter.listen, a call outside)
    src = ("import { EventEmitter } from 'node:events';\n"
           "export class Base extends EventEmitter {\n  use(f: string) { return this; }\n"
           "  mount(): this { return this; }\n  copy() { return new Base(); }\n}\n"
           "export class App extends Base {\n  listen() {}\n  min(n: number) {\n    return this.mount();\n  }\n}\n"
           "export function main(app: App) {\n  new App().use('a').listen();\n  app.mount().use('b').listen();\n"
           "  app.copy().listen();\n  app.min(1).listen();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.main")
    assert {q for q, _r in got["app.min().listen"]} == {"src.a.App.listen"}  # min gives what this.mount() gives
    assert got["App().use().listen"] == {("src.a.App.listen", "constructor_type")}
    assert {q for q, _r in got["app.mount().use().listen"]} == {"src.a.App.listen"}
    assert ("src.a.App.listen", "constructor_type") not in got["app.copy().listen"]  # a new Base is no App


def test_a_proxy_is_read_as_its_target(tmp_path):
    # new Proxy<T>(target: T, handler): a T (the runtime's Proxy has no members of its own)
    src = FOO + ("export function wrap(f: Foo) {\n  return new Proxy(f, {});\n}\n"
                 "export function use(q: Qux) {\n  wrap(new Foo()).bar();\n  const p = new Proxy(q, {});\n  p.bar();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert {q for q, _r in got["wrap().bar"]} == {"src.a.Foo.bar"}
    assert {q for q, _r in got["p.bar"]} == {"src.a.Qux.bar"}


def test_returns_that_disagree_or_belong_to_a_closure_say_nothing(tmp_path):
    src = FOO + ("export function pick(k: boolean) {\n  if (k) { return new Foo(); }\n  return new Qux();\n}\n"
                 "export function outer() {\n  [1].map(() => { return new Qux(); });\n  return 1;\n}\n"
                 "export function use() {\n  pick(true).bar();\n  outer().bar();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert ("src.a.Qux.bar", "constructor_type") not in got["outer().bar"]
    assert all(r != "constructor_type" for _q, r in got["pick().bar"])


def test_javascript_return_this_chains_too(tmp_path):
    src = ("class Query {\n  where(k) { this.k = k; return this; }\n  run() { return 1; }\n}\n"
           "function main() {\n  new Query().where('a').where('b').run();\n}\nmodule.exports = { main, Query };\n")
    got = edges(tmp_path, {"q.js": src}, "q.main")
    assert got["Query().where().where().run"] == {("q.Query.run", "constructor_type")}


def test_an_interface_merged_into_a_class_leaves_one_type_the_class(tmp_path):
    # declaration merging: ``interface S`` after ``class S`` must not hide the class's methods
    src = ("export class S {\n  test() { return this; }\n  other() {}\n}\n"
           "export interface S {\n  test(): S;\n  extra(): S;\n}\n"
           "export function use(s: S) {\n  s.test().other();\n  new S().other();\n  s.extra();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["s.test().other"] == {("src.a.S.other", "constructor_type")}
    assert got["S().other"] == {("src.a.S.other", "constructor_type")}
    assert got["s.extra"] == {("src.a.S.extra", "annotated_type")}  # the interface's member is the class's


def test_an_overloaded_method_returns_what_its_signatures_say(tmp_path):
    src = ("export class S {\n  test(a: string): this;\n  test(a: number): this;\n"
           "  test(a: any) { return make(a); }\n  other() {}\n}\n"
           "export class T {\n  pick(a: string): S;\n  pick(a: number): T;\n  pick(a: any) { return a; }\n}\n"
           "declare function make(a: any): any;\n"
           "export function use(s: S, t: T) {\n  s.test(1).other();\n  t.pick(1).other();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["s.test().other"] == {("src.a.S.other", "constructor_type")}
    assert got["t.pick().other"] == {(None, "unresolved")}  # signatures that disagree say nothing


def test_a_cast_and_an_indexed_access_type_give_their_types(tmp_path):
    src = ("export class Foo {\n  bar() { return 1; }\n}\nexport interface QC {\n  compile(n: number): string;\n"
           "  foo: Foo;\n}\n"
           "export function use(x: unknown, c: QC['compile'], f: QC['foo'], a: QC['missing']) {\n"
           "  const y = x as Foo;\n  y.bar();\n  const z = <Foo>x;\n  z.bar();\n  const w = x as any;\n  w.bar();\n"
           "  c(1);\n  f.bar();\n  a();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["y.bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["z.bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert ("src.a.Foo.bar", "annotated_type") not in got["w.bar"]
    assert got["c"] == {("src.a.QC.compile", "annotated_type")}
    assert got["f.bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["a"] == {(None, "unresolved")}


def test_instanceof_narrows_a_name_in_its_branch(tmp_path):
    src = ("export class HttpError extends Error {\n  getResponse() { return 1; }\n}\n"
           "export class Other {\n  close() { return 2; }\n}\n"
           "export function handle(err: Error, o: unknown, p: unknown) {\n"
           "  if (err instanceof HttpError && err.message) {\n    err.getResponse();\n  }\n  err.getResponse();\n"
           "  if (!(o instanceof Other)) throw o;\n  o.close();\n"
           "  if (p instanceof Other || p) {\n    p.close();\n  }\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.handle")
    # inside the branch an HttpError; after it the declared Error again, which has no getResponse: unbound
    # (since round 14; never guessed, never invented on the runtime's Error)
    assert got["err.getResponse"] == {("src.a.HttpError.getResponse", "annotated_type"), (None, "unresolved")}
    assert got["o.close"] == {("src.a.Other.close", "annotated_type")}  # a guard that throws
    assert ("src.a.Other.close", "annotated_type") not in got["p.close"]  # ``||``: nothing is certain


def test_javascript_instanceof_narrows_too(tmp_path):
    src = ("class HttpError extends Error {\n  getResponse() { return 1; }\n}\n"
           "function handle(err) {\n  if (err instanceof HttpError)\n    err.getResponse();\n}\n"
           "module.exports = { handle, HttpError };\n")
    got = edges(tmp_path, {"a.js": src}, "a.handle")
    assert got["err.getResponse"] == {("a.HttpError.getResponse", "annotated_type")}


def test_a_conditional_type_alias_is_the_class_its_branches_name(tmp_path):
    src = ("export class Builder {\n  where() { return this; }\n}\nexport class Other {\n  where() { return 1; }\n}\n"
           "export type Pick1<T> = T extends string ? Builder : T extends number ? Builder : never;\n"
           "export type Pick2<T> = T extends string ? Builder : Other;\n"
           "export function use(a: Pick1<string>, b: Pick2<number>) {\n  a.where().where();\n  b.where();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert {q for q, _r in got["a.where().where"]} == {"src.a.Builder.where"}
    assert ("src.a.Builder.where", "annotated_type") not in got["b.where"]  # either branch: no one class


def test_an_element_read_by_index_has_the_collections_element_type(tmp_path):
    src = ("export class Router {\n  add() {}\n}\nexport class Node {\n  build() {}\n}\n"
           "export class Smart {\n  #children: Record<string, Node> = {};\n  routers: Router[] = [];\n"
           "  run(routers: Router[], k: string) {\n    for (let i = 0; i < 2; i++) {\n      const router = routers[i];\n"
           "      router.add();\n    }\n    const c = this.#children[k];\n    c.build();\n    const r = this.routers[0];\n"
           "    r.add();\n    const s = routers['x'];\n    s.add();\n"
           "    const all = this.routers;\n    const t = all[1];\n    t.add();\n  }\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.Smart.run")
    assert got["router.add"] == {("src.a.Router.add", "annotated_type")}
    assert got["c.build"] == {("src.a.Node.build", "annotated_type")}  # a Record's value
    assert got["r.add"] == {("src.a.Router.add", "annotated_type")}
    assert got["s.add"] == {(None, "unresolved")}  # a member named by a string is no element
    assert got["t.add"] == {("src.a.Router.add", "annotated_type")}  # through a local alias of the field


def test_a_member_typed_by_a_constrained_parameter_takes_the_bases_argument(tmp_path):
    src = ("export interface Def {\n  kind: string;\n}\nexport class Parser {\n  parse() {}\n}\n"
           "export interface ArrDef extends Def {\n  type: Parser;\n}\n"
           "export class Base<D extends Def = Def> {\n  _def!: D;\n  def(): D { return this._def; }\n}\n"
           "export class Arr extends Base<ArrDef> {\n  run() {\n    const d = this._def;\n    d.type.parse();\n"
           "    this.def().type.parse();\n  }\n}\n"
           "export function use(b: Base) {\n  b._def.type.parse();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.Arr.run")
    assert got["d.type.parse"] == {("src.a.Parser.parse", "annotated_type")}
    assert got["this.def().type.parse"] == {("src.a.Parser.parse", "annotated_type")}
    # a plain Base: D is its constraint (Def), which has no ``type``
    assert ("src.a.Parser.parse", "annotated_type") not in edges(tmp_path, {}, "src.a.use")["b._def.type.parse"]


def test_instanceof_a_runtime_class_keeps_the_declared_subclass_and_a_guard_ends_with_its_block(tmp_path):
    src = ("export class HttpError extends Error {\n  getResponse() { return 1; }\n}\n"
           "export class Other {\n  close() { return 2; }\n}\n"
           "export function handle(err: HttpError, xs: unknown[], o: unknown) {\n"
           "  if (err instanceof Error) {\n    err.getResponse();\n  }\n"
           "  for (const x of xs) {\n    if (!(o instanceof Other)) continue;\n    o.close();\n  }\n  o.close();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.handle")
    assert got["err.getResponse"] == {("src.a.HttpError.getResponse", "annotated_type")}
    # inside the loop's block the guard's type; after it unknown again (a marked name guess)
    assert got["o.close"] == {("src.a.Other.close", "annotated_type"), ("src.a.Other.close", "unique_name")}
