"""Fields and parameter properties that hold functions, and what a returned object literal names (TypeScript):
a class field called as ``this.#query()`` and a constructor parameter property of a function type are
methods the class declares (TypeScript answers their declarations; a package's base class never gets them
invented); a returned literal's shorthand names of the function's own functions are its members, and its
lines start at its first member. Small programs, each with what must stay unbound beside it.

Rules: docs/languages/typescript.md (round 12).
"""

from __future__ import annotations

import sqlite3

from lore import index_repo
from lore.store import callsites

FIELDS = ("type InternalQuery = (sql: string) => Promise<Row>;\n"                   # 1
          "export class Row { cells() { return 1; } }\n"                             # 2
          "export class Wrapper {\n"                                                 # 3
          "  #query: InternalQuery;\n"                                               # 4
          "  private other: InternalQuery;\n"                                        # 5
          "  count: number;\n"                                                       # 6
          "  plain: Row;\n"                                                          # 7
          "  constructor(q: InternalQuery) {\n"
          "    this.#query = q;\n    this.other = q;\n    this.count = 1;\n    this.plain = new Row();\n"
          "  }\n"
          "  async all() {\n"
          "    const r = await this.#query('x');\n"
          "    r.cells();\n"
          "    this.plain.cells();\n"
          "    return this.count;\n"
          "  }\n"
          "}\n"
          "export function useW(w: Wrapper) {\n  w.other('a');\n  w.plain.cells();\n}\n")

PROPS = ("import { Base } from 'some-pkg';\n"                                        # 1
         "type Mapper = (rows: number[]) => Out;\n"                                  # 2
         "export class Out { done() { return 1; } }\n"                               # 3
         "export class Query extends Base {\n"                                       # 4
         "  constructor(\n"                                                          # 5
         "    private db: number,\n"                                                 # 6
         "    private customResultMapper?: (rows: number[]) => Out,\n"               # 7
         "    private mapper2?: Mapper,\n"                                           # 8
         "    private plain?: Out,\n"                                                # 9
         "  ) {\n    super();\n  }\n"
         "  run() {\n"
         "    this.customResultMapper!([1]).done();\n"
         "    this.mapper2!([1]);\n"
         "    this.plain!.done();\n"
         "    this.missing();\n"
         "  }\n"
         "}\n"
         "export class Inline extends Base {\n"
         "  constructor(private f: () => Out) { super(); }\n"
         "  run() { return 1; }\n"
         "}\n"
         "export function make() { return new Query(1); }\n")

RETURNED = ("export function createAdapter(n: number) {\n"                            # 1
            "  const store = { n };\n"                                                # 2
            "  function handler(x: number) { return x + 1; }\n"                       # 3
            "  const createConfig = (app: string) => ({ app });\n"                    # 4
            "  let later = 1;\n"                                                      # 5
            "  return { handler, createConfig, context: store, later, outer };\n"     # 6
            "}\n"
            "export function outer() { return 1; }\n"                                 # 8
            "const createContext = (parent: number) => ({\n"                          # 9
            "  getValue() {\n"                                                        # 10
            "    return parent;\n"
            "  },\n"
            "});\n"
            "export function use() {\n"
            "  const ws = createAdapter(1);\n"
            "  ws.createConfig('a');\n  ws.handler(2);\n"
            "  ws.outer();\n  ws.later();\n  ws.context();\n"
            "  createContext(1).getValue();\n"
            "}\n")


def _index(tmp_path, files: dict[str, str]) -> sqlite3.Connection:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    return sqlite3.connect(tmp_path / ".lore" / "index.db")


def _targets(conn: sqlite3.Connection, caller: str) -> dict[str, set[str | None]]:
    """callee as written -> {bound qualified name} for ``caller``'s calls."""
    out: dict[str, set[str | None]] = {}
    for r in callsites.call_site_edges(conn, ("typescript",), tests=True):
        if r.caller == caller:
            out.setdefault(r.callee_name, set()).add(r.callee_qname)
    return out


def _symbols(conn: sqlite3.Connection, prefix: str) -> dict[str, tuple[str, int]]:
    rows = conn.execute("SELECT qualified_name, kind, start_line FROM symbols WHERE qualified_name LIKE ?",
                        (prefix + "%",))
    return {q: (k, line) for q, k, line in rows}


def test_a_field_called_through_this_is_a_method_of_the_class(tmp_path):
    conn = _index(tmp_path, {"src/b.ts": FIELDS})
    try:
        got = _targets(conn, "src.b.Wrapper.all")
        syms = _symbols(conn, "src.b.Wrapper.")
    finally:
        conn.close()
    assert got["this.query"] == {"src.b.Wrapper.query"}  # #query: InternalQuery, an alias of a function type
    assert syms["src.b.Wrapper.query"] == ("method", 4)
    assert got["r.cells"] == {"src.b.Row.cells"}  # what the alias's call signature returns (Promise<Row>)
    assert syms["src.b.Wrapper.other"] == ("method", 5)  # typed by a function alias of the file
    # other fields never called through ``this`` stay fields: no symbol, their members read as before
    assert "src.b.Wrapper.count" not in syms and "src.b.Wrapper.plain" not in syms
    assert got["this.plain.cells"] == {"src.b.Row.cells"}


def test_a_parameter_property_holding_a_function_is_the_class_s_not_a_package_base_s(tmp_path):
    conn = _index(tmp_path, {"src/d.ts": PROPS})
    try:
        got = _targets(conn, "src.d.Query.run")
        syms = _symbols(conn, "src.d.")
        made = _targets(conn, "src.d.make")
    finally:
        conn.close()
    # was some-pkg.Base.customResultMapper [external]: a member invented on the package's class
    assert got["this.customResultMapper"] == {"src.d.Query.customResultMapper"}
    assert got["this.customResultMapper().done"] == {"src.d.Out.done"}
    assert got["this.mapper2"] == {"src.d.Query.mapper2"}  # a function-type alias, called through this
    assert syms["src.d.Query.customResultMapper"] == ("method", 7)
    # a parameter property holding no function is a field as before; a name the class lacks is the base's
    assert "src.d.Query.plain" not in syms and "src.d.Query.db" not in syms
    assert got["this.plain.done"] == {"src.d.Out.done"}
    assert got["this.missing"] == {"some-pkg.Base.missing"}
    # on the constructor's own first line none is made: that line keeps meaning the constructor
    assert "src.d.Inline.f" not in syms
    assert made["Query"] == {"src.d.Query.constructor"}


def test_a_returned_literal_names_the_function_s_own_functions_and_starts_at_its_first_member(tmp_path):
    conn = _index(tmp_path, {"src/a.ts": RETURNED})
    try:
        got = _targets(conn, "src.a.use")
        syms = _symbols(conn, "src.a.")
    finally:
        conn.close()
    assert got["ws.createConfig"] == {"src.a.createAdapter.createConfig"}
    assert got["ws.handler"] == {"src.a.createAdapter.handler"}
    # an outer function, a variable, a renamed value: not the literal's functions, unbound as before
    assert got["ws.outer"] == {None} and got["ws.later"] == {None} and got["ws.context"] == {None}
    # ``=> ({`` on the function's first line: the literal's lines start at its first member (line 10)
    assert syms["src.a.createContext"] == ("function", 9)
    assert syms["src.a.createContext.<return>"] == ("namespace", 10)
    assert got["createContext().getValue"] == {"src.a.createContext.<return>.getValue"}


OPTIONS = ("type GetUrl = (opts: Base) => Base;\n"                                     # 1
           "export type OnError<T> = (e: T) => void;\n"                                # 2
           "export class Base { run() { return 1; } }\n"                               # 3
           "export interface ContentOptions {\n"                                       # 4
           "  getUrl: GetUrl;\n"                                                       # 5
           "  onError?: OnError<string>;\n"                                            # 6
           "  base: Base;\n"                                                           # 7
           "  other?: Elsewhere;\n"                                                    # 8
           "}\n"
           "export function use(opts: ContentOptions) {\n"
           "  opts.getUrl(new Base()).run();\n"
           "  opts.onError?.('x');\n"
           "  opts.base.run();\n"
           "  opts.other();\n"
           "}\n")


def test_a_property_typed_by_a_function_alias_of_its_file_is_a_method(tmp_path):
    conn = _index(tmp_path, {"src/o.ts": OPTIONS})
    try:
        got = _targets(conn, "src.o.use")
        syms = _symbols(conn, "src.o.ContentOptions.")
    finally:
        conn.close()
    assert got["opts.getUrl"] == {"src.o.ContentOptions.getUrl"}  # TypeScript answers the property
    assert got["opts.onError"] == {"src.o.ContentOptions.onError"}  # a generic alias, optional
    assert got["opts.getUrl().run"] == {"src.o.Base.run"}  # what the alias's signature returns
    assert syms["src.o.ContentOptions.getUrl"] == ("method", 5)
    # a property of a class type, or of a type this file does not declare, is no method
    assert "src.o.ContentOptions.base" not in syms and "src.o.ContentOptions.other" not in syms
    assert got["opts.base.run"] == {"src.o.Base.run"}
    assert got["opts.other"] == {None}


PRIVATE = ("export class Ser {\n"                                                      # 1
           "  serialize(data: unknown): object { return this.#serialize(data, true); }\n"  # 2
           "  #serialize(data: unknown, top: boolean): object { return {}; }\n"          # 3
           "  #cache: Map<string, number> = new Map();\n"                                # 4
           "  #only() { return this.#cache.get('a'); }\n"                                # 5
           "  run() { return this.#only(); }\n"                                          # 6
           "}\n"
           "export class User {\n"
           "  constructor(private ser: Ser) {}\n"
           "  go() { this.ser.serialize(1); }\n"
           "}\n")


def test_a_private_member_beside_a_public_one_of_its_name_is_a_member_of_its_own(tmp_path):
    conn = _index(tmp_path, {"src/p.ts": PRIVATE})
    try:
        outside = _targets(conn, "src.p.User.go")
        inside = _targets(conn, "src.p.Ser.serialize")
        run = _targets(conn, "src.p.Ser.run")
        syms = _symbols(conn, "src.p.Ser.")
    finally:
        conn.close()
    # was src.p.Ser.serialize of line 3 (the private one) for both: a wrong edge from outside the class
    assert outside["this.ser.serialize"] == {"src.p.Ser.serialize"}
    assert syms["src.p.Ser.serialize"] == ("method", 2)
    assert inside["this.#serialize"] == {"src.p.Ser.#serialize"}
    assert syms["src.p.Ser.#serialize"] == ("method", 3)
    # a private member without a public twin keeps its plain name, as before
    assert run["this.only"] == {"src.p.Ser.only"}
    assert "src.p.Ser.#only" not in syms


SHADOW = ("import type { Server } from './types';\n"                                  # 1
          "type Handler = (event: string) => number;\n"                               # 2
          "export class LambdaServer implements Server {\n"                           # 3
          "  readonly fetch: Handler;\n"                                               # 4
          "  constructor() { this.fetch = (e) => 1; }\n"
          "}\n"
          "export function toHandler() {\n"
          "  const server = new LambdaServer();\n"
          "  return (e: string) => server.fetch(e);\n"
          "}\n")
TYPES = ("export type ServerHandler = (request: string) => number;\n"
         "export interface Server {\n  fetch: ServerHandler;\n}\n")


def test_a_class_field_typed_by_a_function_alias_is_the_class_s_not_an_interface_s(tmp_path):
    conn = _index(tmp_path, {"src/aws.ts": SHADOW, "src/types.ts": TYPES})
    try:
        rows = [r for r in callsites.call_site_edges(conn, ("typescript",), tests=True)
                if r.callee_name == "server.fetch"]
    finally:
        conn.close()
    # TypeScript answers the class's own field; the interface the class implements declares it too
    assert {r.callee_qname for r in rows} == {"src.aws.LambdaServer.fetch"}


PROMISED = ("import type { Promisable } from 'type-fest';\n"
            "type MaybePromise<T> = T | Promise<T>;\n"
            "export interface Link { call(): number }\n"
            "type Resolver = () => Promisable<Link>;\n"
            "export class Dyn {\n"
            "  #next: () => MaybePromise<Link>;\n"
            "  constructor(\n    private readonly linkResolver: Resolver,\n    n: () => Link,\n  ) { this.#next = n; }\n"
            "  next() { return this.#next(); }\n"
            "  async go() {\n"
            "    const l = await this.linkResolver();\n    l.call();\n"
            "    const m = await this.#next();\n    m.call();\n"
            "  }\n"
            "}\n")


def test_a_promisable_result_is_its_value_and_a_private_twin_field_is_called(tmp_path):
    conn = _index(tmp_path, {"src/p.ts": PROMISED})
    try:
        go = _targets(conn, "src.p.Dyn.go")
        nxt = _targets(conn, "src.p.Dyn.next")
    finally:
        conn.close()
    assert go["this.linkResolver"] == {"src.p.Dyn.linkResolver"}
    assert go["l.call"] == {"src.p.Link.call"}  # was type-fest.Promisable.call [external] once typed at all
    assert go["this.#next"] == {"src.p.Dyn.#next"}  # a private field beside a public next()
    assert nxt["this.#next"] == {"src.p.Dyn.#next"}
    assert go["m.call"] == {"src.p.Link.call"}


GUESSED = ("type InternalQuery = (sql: string) => Promise<number>;\n"
           "export class StatementWrapper {\n"
           "  #query: InternalQuery;\n"
           "  constructor(q: InternalQuery) { this.#query = q; }\n"
           "  all() { return this.#query('x'); }\n"
           "  #secret() { return 1; }\n"
           "  open() { return this.#secret(); }\n"
           "}\n"
           "export function connect(getConnection: () => Promise<any>) {\n"
           "  return getConnection().then((c) => c.query('x')).then((c) => c.secret());\n"
           "}\n")


def test_no_name_guess_reaches_a_private_member(tmp_path):
    conn = _index(tmp_path, {"src/g.ts": GUESSED})
    try:
        got = _targets(conn, "src.g.connect")
        inside = _targets(conn, "src.g.StatementWrapper.open")
    finally:
        conn.close()
    # c is a package's connection: c.secret() was a unique-name guess of the private #secret, and c.query()
    # would be one of the field #query now that it is a method; only this.#x reaches a #x member
    assert got["c.query"] == {None} and got["c.secret"] == {None}
    assert inside["this.secret"] == {"src.g.StatementWrapper.secret"}


BUILDER = ("export interface Sub { done(): number }\n"
           "export interface WithBuilder { (alias: string): { as(q: number): Sub } }\n"
           "export class Db {\n"
           "  $with: WithBuilder = (alias: string) => {\n"
           "    const as = (q: number) => { return { done() { return q; } }; };\n"
           "    return { as };\n"
           "  };\n"
           "  plain = (alias: string) => {\n"
           "    const as = (q: number) => q;\n"
           "    return { as };\n"
           "  };\n"
           "}\n"
           "export function use(db: Db) {\n  db.$with('a').as(1);\n  db.plain('a').as(1);\n}\n")


def test_a_field_s_declared_type_decides_what_its_function_returns(tmp_path):
    conn = _index(tmp_path, {"src/w.ts": BUILDER})
    try:
        got = _targets(conn, "src.w.use")
    finally:
        conn.close()
    assert got["db.plain().as"] == {"src.w.Db.plain.as"}  # no declared type: the returned literal's
    # $with: WithBuilder: what WithBuilder's signature returns (TypeScript's answer), never the literal's
    assert got["db.$with().as"] != {"src.w.Db.$with.as"}
