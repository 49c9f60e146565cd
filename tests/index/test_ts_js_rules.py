"""TypeScript and JavaScript resolution rules, one small program each (and what must stay unbound).

Each program is written to a temporary directory and indexed; the call edges of one caller are read
back with their resolution. The rules are described in ``docs/languages/typescript.md``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lore import index_repo
from lore.store import callsites
from lore.store.schema import CONFIDENCE


def edges(tmp_path: Path, files: dict[str, str], caller: str) -> dict[str, set[tuple[str | None, str]]]:
    """callee as written -> {(bound qualified name or None, resolution)} for the calls made by ``caller``."""
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        rows = callsites.call_site_edges(conn, ("typescript", "tsx", "javascript"), tests=True)
    finally:
        conn.close()
    out: dict[str, set[tuple[str | None, str]]] = {}
    for r in rows:
        if r.caller == caller:
            out.setdefault(r.callee_name, set()).add((r.callee_qname, r.resolution))
    return out


VIEW = "export class GithubView {\n  render(name: string) { return name; }\n}\n"


def test_a_name_guess_never_reaches_a_module_the_file_does_not_import(tmp_path):
    got = edges(tmp_path, {"src/view.ts": VIEW,
                           "src/routes.ts": "export function page(res: any) {\n  res.render('home');\n}\n"},
                "src.routes.page")
    assert got["res.render"] == {(None, "unresolved")}


def test_a_name_guess_reaches_an_imported_module_and_says_it_guessed(tmp_path):
    got = edges(tmp_path, {"src/view.ts": VIEW,
                           "src/routes.ts": "import { GithubView } from './view';\n"
                                            "export function page(res: any) {\n  res.render('home');\n}\n"},
                "src.routes.page")
    assert got["res.render"] == {("src.view.GithubView.render", "unique_name")}


def test_a_name_guess_reaches_through_a_barrel(tmp_path):
    got = edges(tmp_path, {"src/views/github.ts": VIEW,
                           "src/views/index.ts": "export * from './github';\n",
                           "src/routes.ts": "import * as views from './views';\n"
                                            "export function page(res: any) {\n  res.render('home');\n}\n"},
                "src.routes.page")
    assert got["res.render"] == {("src.views.github.GithubView.render", "unique_name")}


def test_commonjs_a_guess_reaches_what_require_names(tmp_path):
    files = {"lib/view.js": "class View {\n  render(n) { return n; }\n}\nmodule.exports = View;\n",
             "lib/index.js": "module.exports = require('./view');\n",
             "app.js": "const View = require('./lib');\nfunction page(res) {\n  res.render('x');\n}\n",
             "other.js": "function page2(res) {\n  res.render('x');\n}\n"}
    got = edges(tmp_path, files, "app.page")
    assert got["res.render"] == {("lib.view.View.render", "unique_name")}
    assert edges(tmp_path, {}, "other.page2")["res.render"] == {(None, "unresolved")}


def test_a_dom_class_is_never_a_project_class_of_the_same_name(tmp_path):
    files = {"src/headers.ts": "export class Headers {\n  get(k: string) { return k; }\n}\n",
             "src/client.ts": "import './headers';\nexport function send() {\n"
                              "  const h = new Headers();\n  h.get('a');\n}\n"}
    got = edges(tmp_path, files, "src.client.send")
    assert got["Headers"] == {("js.global.Headers", "builtin")}
    assert got["h.get"] == {("js.global.Headers.get", "builtin")}


def test_a_method_call_never_guesses_a_module_function(tmp_path):
    files = {"src/constants.ts": "export function validate(x: unknown) { return !!x; }\n",
             "src/ky.ts": "import { validate } from './constants';\n"
                          "export function check(schema: any) {\n  schema.validate(1);\n  validate(2);\n}\n"}
    got = edges(tmp_path, files, "src.ky.check")
    assert got["schema.validate"] == {(None, "unresolved")}
    assert got["validate"] == {("src.constants.validate", "import")}


OPTIONS = ("export type Base = { stringify?: (v: unknown) => string };\n"
           "export interface Retry {\n  delay?: (n: number) => number;\n  limit: number;\n}\n"
           "export type Options = Required<Omit<Base, 'x'>> & {\n"
           "  parseJson?: (t: string) => unknown;\n  retry: Retry;\n};\n")


def test_members_of_interfaces_and_object_types_type_the_receiver(tmp_path):
    """``this.#options.parseJson()``: a private field of an option type whose property is a function."""
    client = ("import type { Options, Retry } from './options';\n"
              "export class Client {\n  #options: Options;\n"
              "  constructor(input: Options) { this.#options = { ...input }; }\n"
              "  run() {\n    this.#options.parseJson('x');\n    this.#options.retry.delay(1);\n"
              "    this.#options.stringify(2);\n  }\n}\n"
              "export function wait<T extends Retry>(r: T) {\n  r.delay(2);\n}\n")
    got = edges(tmp_path, {"src/options.ts": OPTIONS, "src/client.ts": client}, "src.client.Client.run")
    assert got["this.options.parseJson"] == {("src.options.Options.parseJson", "annotated_type")}
    assert got["this.options.retry.delay"] == {("src.options.Retry.delay", "annotated_type")}
    assert got["this.options.stringify"] == {("src.options.Base.stringify", "annotated_type")}  # Required<Omit<Base>> &
    assert edges(tmp_path, {}, "src.client.wait")["r.delay"] == {("src.options.Retry.delay", "annotated_type")}


def test_super_calls_the_base_constructor_or_the_base(tmp_path):
    files = {"src/errors.ts": "export class KyError extends Error {}\n"
                              "export class HTTPError extends KyError {\n  constructor() {\n    super('x');\n  }\n}\n"
                              "export class Base {\n  constructor(public n: number) {}\n}\n"
                              "export class Derived extends Base {\n  constructor() {\n    super(1);\n  }\n}\n"}
    got = edges(tmp_path, files, "src.errors.HTTPError.constructor")
    assert got["super().constructor"] == {("src.errors.KyError", "self_method")}
    got = edges(tmp_path, {}, "src.errors.Derived.constructor")
    assert got["super().constructor"] == {("src.errors.Base.constructor", "self_method")}


def test_guesses_keep_their_confidence(tmp_path):
    files = {"src/a.ts": "export class A {\n  close() {}\n}\n", "src/b.ts": "export class B {\n  close() {}\n}\n",
             "src/use.ts": "import { A } from './a';\nimport { B } from './b';\n"
                           "export function shut(x: any) {\n  x.close();\n}\n"}
    got = edges(tmp_path, files, "src.use.shut")
    assert got["x.close"] == {("src.a.A.close", "ambiguous_name"), ("src.b.B.close", "ambiguous_name")}
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        rows = callsites.call_site_edges(conn, ("typescript",))
    finally:
        conn.close()
    assert sorted(r.confidence for r in rows if r.callee_name == "x.close") == [CONFIDENCE["ambiguous_name"] / 2] * 2


def test_calling_a_value_of_a_callable_type_calls_its_call_signature(tmp_path):
    files = {"src/types.ts": "export interface EventHandler {\n  (event: string): number;\n  name?: string;\n}\n"
                             "export type Hook = (e: string) => void;\n",
             "src/run.ts": "import type { EventHandler, Hook } from './types';\n"
                           "export function run(handler: EventHandler, hook: Hook) {\n"
                           "  handler('e');\n  hook('e');\n}\n"}
    got = edges(tmp_path, files, "src.run.run")
    assert got["handler"] == {("src.types.EventHandler.__call__", "annotated_type")}
    assert got["hook"] == {("src.types.Hook.__call__", "annotated_type")}


def test_a_default_import_of_a_module_without_a_default_export_is_the_module(tmp_path):
    files = {"lib/utils.js": "function forEach(xs, f) { return xs.map(f); }\n"
                             "function isArray(x) { return Array.isArray(x); }\nexport default { forEach, isArray };\n",
             "lib/cjs.js": "exports.merge = function (a, b) { return a; };\n",
             "lib/use.js": "import utils from './utils.js';\nimport cjs from './cjs.js';\n"
                           "export function run(xs) {\n  utils.forEach(xs, String);\n  cjs.merge(1, 2);\n}\n"}
    got = edges(tmp_path, files, "lib.use.run")
    assert got["utils.forEach"] == {("lib.utils.forEach", "import")}
    assert got["cjs.merge"] == {("lib.cjs.merge", "import")}


def test_a_method_of_the_callers_own_file_does_not_win_a_guess(tmp_path):
    """``option.name()`` with ``option`` untyped: ``Command.name`` (this file) and ``Option.name`` (imported)."""
    files = {"lib/option.js": "class Option {\n  name() { return 'o'; }\n}\nexports.Option = Option;\n",
             "lib/command.js": "const { Option } = require('./option');\nclass Command {\n  name() { return 'c'; }\n"
                               "  help(option) {\n    return option.name();\n  }\n}\nexports.Command = Command;\n"}
    got = edges(tmp_path, files, "lib.command.Command.help")
    assert got["option.name"] == {("lib.command.Command.name", "ambiguous_name"),
                                  ("lib.option.Option.name", "ambiguous_name")}


def test_a_method_returning_this_chains(tmp_path):
    files = {"src/builder.ts": "export class Builder {\n  add(x: number): this { return this; }\n"
                               "  build(): number { return 1; }\n}\n"
                               "export function make(b: Builder) {\n  return b.add(1).add(2).build();\n}\n"}
    got = edges(tmp_path, files, "src.builder.make")
    assert got["b.add().add().build"] == {("src.builder.Builder.build", "constructor_type")}


def test_jsdoc_types_type_javascript_parameters(tmp_path):
    files = {"lib/option.js": "class Option {\n  name() { return 'o'; }\n}\nexports.Option = Option;\n",
             "lib/command.js": "const { Option } = require('./option');\nclass Command {\n  name() { return 'c'; }\n"
                               "  /**\n   * @param {Option} option\n   * @return {Command}\n   */\n"
                               "  help(option) {\n    option.name();\n    return this;\n  }\n}\n"
                               "function run(cmd, opt) {\n  /** nothing declared */\n  cmd.help(opt).name();\n}\n"
                               "/** @param {Command} cmd */\nfunction run2(cmd, opt) {\n  cmd.help(opt).name();\n}\n"
                               "exports.Command = Command;\n"}
    got = edges(tmp_path, files, "lib.command.Command.help")
    assert got["option.name"] == {("lib.option.Option.name", "annotated_type")}
    got = edges(tmp_path, {}, "lib.command.run2")
    assert got["cmd.help().name"] == {("lib.command.Command.name", "constructor_type")}


def test_a_getter_read_as_a_member_gives_what_it_returns(tmp_path):
    files = {"src/request.ts": "export class HonoRequest {\n  header(n: string) { return n; }\n}\n",
             "src/context.ts": "import { HonoRequest } from './request';\nexport class Context {\n"
                               "  #req?: HonoRequest;\n  get req(): HonoRequest {\n    return this.#req ?? new HonoRequest();\n  }\n"
                               "  header(n: string) { return n; }\n}\n"
                               "export function cors(c: Context) {\n  return c.req.header('origin');\n}\n"}
    got = edges(tmp_path, files, "src.context.cors")
    assert got["c.req.header"] == {("src.request.HonoRequest.header", "constructor_type")}


def test_this_in_a_function_of_an_exported_object_literal_is_the_literal(tmp_path):
    files = {"lib/request.js": "module.exports = {\n  get(field) {\n    return field;\n  },\n"
                               "  get host() {\n    return this.get('Host');\n  },\n"
                               "  toJSON() {\n    return this.other();\n  },\n};\n"}
    got = edges(tmp_path, files, "lib.request.host")
    assert got["get"] == {("lib.request.get", "module_global")}
    assert edges(tmp_path, {}, "lib.request.toJSON")["this.other"] == {(None, "unresolved")}


def test_an_annotation_names_the_type_of_a_name_declared_as_type_and_value(tmp_path):
    """``interface $constructor`` beside ``function $constructor`` (declaration merging): ``x: $constructor``
    is the interface; ``x.init()`` its member, never the function's local ``init``."""
    files = {"src/core.ts": "export interface $constructor {\n  init(inst: unknown): void;\n}\n"
                            "export function $constructor(name: string) {\n  function init(inst: unknown) {}\n"
                            "  return { init };\n}\n",
             "src/schemas.ts": "import * as core from './core';\n"
                               "export const ZodType: core.$constructor = core.$constructor('x') as any;\n"
                               "export function make(inst: unknown, other: any) {\n  ZodType.init(inst);\n"
                               "  other.init(inst);\n}\n"}
    got = edges(tmp_path, files, "src.schemas.make")
    assert got["ZodType.init"] == {("src.core.$constructor.init", "annotated_type")}
    assert got["other.init"] == {(None, "unresolved")}  # never the function's local init


def test_a_member_of_a_member_of_an_unknown_value_is_not_guessed(tmp_path):
    files = {"src/context.ts": "export class Context {\n  header(n: string) { return n; }\n}\n",
             "src/cors.ts": "import type { Context } from './context';\n"
                            "export function cors(c: any) {\n  c.req.header('origin');\n  c.header('x');\n}\n"}
    got = edges(tmp_path, files, "src.cors.cors")
    assert got["c.req.header"] == {(None, "unresolved")}
    assert got["c.header"] == {("src.context.Context.header", "unique_name")}


def test_an_object_literal_of_names_is_a_namespace_of_them(tmp_path):
    files = {"src/jwt/jwt.ts": "export const sign = (x: string) => x;\nexport function verify(x: string) { return x; }\n",
             "src/jwt/index.ts": "import { sign, verify } from './jwt';\nexport const Jwt = { sign, verify, check: verify };\n",
             "src/mw.ts": "import { Jwt } from './jwt';\nexport function go() {\n  Jwt.sign('a');\n  Jwt.check('b');\n}\n"}
    got = edges(tmp_path, files, "src.mw.go")
    assert got["Jwt.sign"] == {("src.jwt.jwt.sign", "import")}
    assert got["Jwt.check"] == {("src.jwt.jwt.verify", "import")}


def test_a_spread_namespace_import_gives_the_literal_its_names(tmp_path):
    files = {"src/schemas.ts": "export function tuple(x: number) { return x; }\n",
             "src/conv.ts": "import * as _schemas from './schemas';\nconst z = { ..._schemas, all: _schemas };\n"
                            "export function convert() {\n  z.tuple(1);\n}\n"}
    got = edges(tmp_path, files, "src.conv.convert")
    assert got["z.tuple"] == {("src.schemas.tuple", "module_global")}


def test_a_plain_data_literal_is_no_namespace(tmp_path):
    files = {"src/a.ts": "const limit = 3;\nconst opts = { limit, retries: limit };\nexport function f() {\n  return opts;\n}\n"}
    edges(tmp_path, files, "src.a.f")
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        kinds = {q: k for q, k in conn.execute("SELECT qualified_name, kind FROM symbols")}
    finally:
        conn.close()
    assert "src.a.opts" not in kinds


def test_runtime_types_bind_the_runtimes_methods_never_a_project_method(tmp_path):
    files = {"src/router.ts": "export class Router {\n  split(p: string) { return p; }\n  push(p: string) { return p; }\n}\n",
             "src/use.ts": "import { Router } from './router';\n"
                           "export function f(path: string, parts: readonly string[], m: Map<string, Router>, u: 'a' | 'b' | undefined) {\n"
                           "  path.split('/').map(String).join(',');\n  parts.push('x');\n  m.get('k');\n  u.split('');\n"
                           "  Object.keys(m).forEach(String);\n  /x/.test(path);\n  const acc = [];\n  acc.push(1);\n}\n"}
    got = edges(tmp_path, files, "src.use.f")
    assert got["path.split"] == {("js.global.String.split", "builtin")}
    assert got["path.split().map().join"] == {("js.global.Array.join", "builtin")}
    assert got["parts.push"] == {("js.global.Array.push", "builtin")}
    assert got["m.get"] == {("js.global.Map.get", "builtin")}
    assert got["u.split"] == {("js.global.String.split", "builtin")}
    assert got["Object.keys().forEach"] == {("js.global.Array.forEach", "builtin")}
    assert got["RegExp().test"] == {("js.global.RegExp.test", "builtin")}
    assert got["acc.push"] == {("js.global.Array.push", "builtin")}


def test_javascript_literals_are_the_runtimes_classes(tmp_path):
    files = {"a.js": "function g(s) {\n  const parts = [];\n  parts.push(s);\n  return `x${s}`.trim();\n}\n"}
    got = edges(tmp_path, files, "a.g")
    assert got["parts.push"] == {("js.global.Array.push", "builtin")}
    assert got["String().trim"] == {("js.global.String.trim", "builtin")}


def test_a_closures_local_never_shadows_the_modules_import_after_it(tmp_path):
    files = {"src/checks.ts": "export function run(x: number) { return x; }\n",
             "src/schemas.ts": "import * as checks from './checks';\n"
                               "function make(init: (x: number) => void) { return init; }\n"
                               "export const A = make((x) => {\n  const checks: string[] = [];\n  checks.push('x');\n});\n"
                               "export const B = make((x) => {\n  checks.run(x);\n});\n"}
    got = edges(tmp_path, files, "src.schemas")
    assert got["checks.push"] == {("js.global.Array.push", "builtin")}
    assert got["checks.run"] == {("src.checks.run", "import")}


def test_a_member_of_an_interface_it_lacks_is_the_same_named_values(tmp_path):
    files = {"src/core.ts": "export interface $constructor<T> {\n  init(inst: T): void;\n}\n"
                            "export function $constructor<T>(name: string): $constructor<T> {\n  return null as any;\n}\n",
             "src/checks.ts": "import * as core from './core';\nexport interface $ZodCheck { x: number }\n"
                              "export const $ZodCheck: core.$constructor<$ZodCheck> = core.$constructor('$ZodCheck');\n",
             "src/schemas.ts": "import * as checks from './checks';\nexport function make(inst: any) {\n"
                               "  checks.$ZodCheck.init(inst);\n}\n"}
    got = edges(tmp_path, files, "src.schemas.make")
    assert got["checks.$ZodCheck.init"] == {("src.core.$constructor.init", "annotated_type")}


def test_a_loop_over_a_declared_array_gives_its_elements_type(tmp_path):
    files = {"src/router.ts": "export class Router {\n  match(p: string) { return p; }\n}\n",
             "src/bench.ts": "import { Router } from './router';\nexport class Bench {\n  routers: Router[] = [];\n"
                             "  run(rs: readonly Router[] | undefined, obj: object) {\n"
                             "    for (const r of rs) { r.match('x'); }\n    for (const s of this.routers) { s.match('y'); }\n"
                             "    for (const k in obj) { k.split(''); }\n  }\n}\n"}
    got = edges(tmp_path, files, "src.bench.Bench.run")
    assert got["r.match"] == {("src.router.Router.match", "annotated_type")}
    assert got["s.match"] == {("src.router.Router.match", "annotated_type")}
    assert got["k.split"] == {("js.global.String.split", "builtin")}


def test_aliases_and_assertions_of_runtime_types_and_shapes_written_in_place(tmp_path):
    files = {"src/a.ts": "type AnyMap = Map<any, any>;\ninterface MapState { copy_: AnyMap | undefined }\n"
                         "export class Context {\n  header() {}\n}\n"
                         "export function f(state: MapState, y: unknown, opts: { ctx: Context }) {\n"
                         "  state.copy_!.set(1, 2);\n  (y as string).toLowerCase();\n  opts.header();\n}\n"}
    got = edges(tmp_path, files, "src.a.f")
    assert got["state.copy_.set"] == {("js.global.Map.set", "builtin")}
    assert got["String().toLowerCase"] == {("js.global.String.toLowerCase", "builtin")}
    # an object type written in place is no Context: at most a guess that says so
    assert got["opts.header"] == {("src.a.Context.header", "unique_name")}


def test_an_object_type_written_in_place_is_an_interface_of_its_members(tmp_path):
    files = {"src/app.ts": "export interface Adapter {\n  handler: {\n    mapResponse(r: unknown): unknown;\n"
                           "    hook?: (x: number) => void;\n  };\n  readonly res: { readonly headers: Headers };\n}\n"
                           "export class App {\n  adapter: Adapter;\n  run() {\n"
                           "    this.adapter.handler.mapResponse(1);\n    this.adapter.handler.hook(2);\n"
                           "    this.adapter.res.headers.set('a', 'b');\n  }\n}\n"
                           "export function cache(options: { cacheName: (c: number) => string; wait?: boolean }) {\n"
                           "  options.cacheName(1);\n}\n"}
    got = edges(tmp_path, files, "src.app.App.run")
    assert got["this.adapter.handler.mapResponse"] == {("src.app.Adapter.handler.mapResponse", "annotated_type")}
    assert got["this.adapter.handler.hook"] == {("src.app.Adapter.handler.hook", "annotated_type")}
    assert got["this.adapter.res.headers.set"] == {("js.global.Headers.set", "builtin")}
    # a parameter's object type is no symbol: it would start on the line of its function
    assert edges(tmp_path, {}, "src.app.cache")["options.cacheName"] == {(None, "unresolved")}


def test_destructured_names_are_members_of_the_declared_type_or_the_value(tmp_path):
    files = {"src/a.ts": "export class Request2 {\n  json() {}\n}\n"
                         "export class Context {\n  header() {}\n  get req(): Request2 { return new Request2(); }\n}\n"
                         "export interface Opts { ctx: Context; onDone: (x: number) => void }\n"
                         "export function f({ ctx, onDone: done }: Opts, c: Context) {\n"
                         "  ctx.header();\n  done(1);\n  const { req } = c;\n  req.json();\n}\n"}
    got = edges(tmp_path, files, "src.a.f")
    assert {q for q, _r in got["ctx.header"]} == {"src.a.Context.header"}
    assert {q for q, _r in got["done"]} == {"src.a.Opts.onDone"}
    assert {q for q, _r in got["req.json"]} == {"src.a.Request2.json"}


CTX = ("export class Context {\n  send() {}\n  get response(): Resp { return new Resp(); }\n}\n"
       "export class Resp {\n  redirect(u: string) {}\n}\n"
       "export interface Middleware<T extends Context = Context> {\n  (context: T, next: () => Promise<void>): unknown;\n}\n"
       "export type Handler = (c: Context) => void;\n"
       "export class App {\n  use(...middleware: Middleware[]) { return this; }\n"
       "  all(path: string, mw: string | Middleware) {}\n}\n")


def test_a_callbacks_parameters_are_typed_by_where_it_is_written(tmp_path):
    files = {"src/ctx.ts": CTX,
             "src/use.ts": "import { App, Middleware, Handler } from './ctx';\nconst app = new App();\n"
                           "app.use(async (ctx, next) => {\n  ctx.send();\n});\n"
                           "app.use((a) => a.send(), (b) => b.response.redirect('/'));\n"
                           "export function serve(): Middleware {\n  return async (ctx, next) => {\n"
                           "    ctx.response.redirect('x');\n  };\n}\n"
                           "export const h: Handler = (c) => { c.send(); };\n"
                           "export class R {\n  go(app: App) {\n    app.all('/', async (ctx) => { ctx.send(); });\n  }\n}\n"}
    got = edges(tmp_path, files, "src.use")
    assert got["ctx.send"] == {("src.ctx.Context.send", "annotated_type")}  # argument 0 of use(...middleware)
    assert got["a.send"] == {("src.ctx.Context.send", "annotated_type")}
    assert {q for q, _r in got["b.response.redirect"]} == {"src.ctx.Resp.redirect"}  # a later rest argument
    assert {q for q, _r in edges(tmp_path, {}, "src.use.serve")["ctx.response.redirect"]} == {"src.ctx.Resp.redirect"}
    assert edges(tmp_path, {}, "src.use.h")["c.send"] == {("src.ctx.Context.send", "annotated_type")}
    assert edges(tmp_path, {}, "src.use.R.go")["ctx.send"] == {("src.ctx.Context.send", "annotated_type")}


def test_a_callback_of_an_unknown_function_binds_nothing_by_its_parameters(tmp_path):
    files = {"src/ctx.ts": CTX,
             "src/use.ts": "export function f(x: any) {\n  x.use((ctx) => { ctx.send(); });\n}\n"}
    assert edges(tmp_path, files, "src.use.f")["ctx.send"] == {(None, "unresolved")}


def test_a_callback_typed_through_a_union_alias_of_an_overloaded_method(tmp_path):
    files = {"src/ctx.ts": CTX,
             "src/mw.ts": "import { Context } from './ctx';\n"
                          "export interface Mw<S, T extends Context = Context> { (context: T, next: () => void): unknown }\n"
                          "export interface MwObject<S> { handleRequest(): void }\n"
                          "export type MwOrObject<S, T extends Context = Context> = Mw<S, T> | MwObject<S>;\n"
                          "export class Application<AS> {\n"
                          "  use<S>(m: MwOrObject<S, Context>, ...ms: MwOrObject<S, Context>[]): Application<AS>;\n"
                          "  use<S>(...middleware: MwOrObject<S, Context>[]): Application<AS> { return this; }\n}\n"
                          "const app = new Application();\napp.use(async (ctx) => {\n  const r = ctx.response;\n"
                          "  r.redirect('/');\n});\n"}
    got = edges(tmp_path, files, "src.mw")
    assert {q for q, _r in got["r.redirect"]} == {"src.ctx.Resp.redirect"}


def test_a_construct_signature_gives_what_it_declares(tmp_path):
    files = {"src/srv.ts": "export interface Server {\n  listen(): void;\n}\n"
                           "export interface ServerConstructor {\n  new (port: number): Server;\n  type?: string;\n}\n"
                           "export type Ctor = new (port: number) => Server;\n"
                           "export class App {\n  #serverConstructor: ServerConstructor;\n  make: Ctor;\n  run() {\n"
                           "    const server = new this.#serverConstructor(1);\n    server.listen();\n"
                           "    const s2 = new this.make(2);\n    s2.listen();\n  }\n}\n"}
    got = edges(tmp_path, files, "src.srv.App.run")
    assert got["server.listen"] == {("src.srv.Server.listen", "constructor_type")}
    assert got["s2.listen"] == {("src.srv.Server.listen", "constructor_type")}


def test_a_getter_beside_its_setter_is_what_reading_the_member_runs(tmp_path):
    files = {"src/c.ts": "export class Req {\n  json() {}\n}\n"
                         "export class Context {\n  #req: Req | undefined;\n  get req(): Req { return this.#req!; }\n"
                         "  set req(r: Req) { this.#req = r; }\n}\n"
                         "export function f(c: Context) {\n  c.req.json();\n}\n"}
    got = edges(tmp_path, files, "src.c.f")
    assert {q for q, _r in got["c.req.json"]} == {"src.c.Req.json"}


def test_a_generic_call_signature_types_its_parameter_by_the_constraint(tmp_path):
    src = ("export interface Internals { run(x: number): number }\n"
           "export interface Schema { _zod: Internals }\n"
           "export type SafeParse = <T extends Schema>(schema: T, value: unknown) => number;\n"
           "export const safeParse: SafeParse = (schema, value) => schema._zod.run(1);\n")
    got = edges(tmp_path, {"src/parse.ts": src}, "src.parse.safeParse")
    assert got["schema._zod.run"] == {("src.parse.Internals.run", "annotated_type")}


def test_a_function_returned_by_a_value_of_a_declared_function_type_takes_its_return_type(tmp_path):
    src = ("export interface Schema { run(x: number): number }\n"
           "export type Parse = (schema: Schema) => number;\n"
           "export const make: (name: string) => Parse = (name) => (schema) => schema.run(1);\n")
    got = edges(tmp_path, {"src/parse.ts": src}, "src.parse.make")
    assert got["schema.run"] == {("src.parse.Schema.run", "annotated_type")}


def test_an_element_of_a_typed_map_or_array_has_the_declared_element_type(tmp_path):
    src = ("export class Route { handle() { return 1; } }\n"
           "export function dispatch(routes: Map<string, Route>, stack: Route[], name: string) {\n"
           "  routes.get(name)!.handle();\n"
           "  stack.find((r) => r !== undefined)?.handle();\n"
           "}\n")
    got = edges(tmp_path, {"src/router.ts": src}, "src.router.dispatch")
    assert got["routes.get().handle"] == {("src.router.Route.handle", "annotated_type")}
    assert got["stack.find().handle"] == {("src.router.Route.handle", "annotated_type")}
    assert got["routes.get"] == {("js.global.Map.get", "builtin")}  # the container's own member stays the runtime's


def test_a_member_an_index_signature_types_binds_its_types_member(tmp_path):
    src = ("export class Route { handle() { return 1; } }\n"
           "export interface Routes { [name: string]: Route }\n"
           "export interface Slots { [i: number]: Route; size: number }\n"
           "export function dispatch(routes: Routes, slots: Slots) {\n"
           "  routes.home.handle();\n"
           "  slots.first.handle();\n"
           "}\n")
    got = edges(tmp_path, {"src/router.ts": src}, "src.router.dispatch")
    assert got["routes.home.handle"] == {("src.router.Route.handle", "annotated_type")}
    assert got["slots.first.handle"] == {(None, "unresolved")}  # a number index names no member


def test_a_callback_of_an_element_method_gets_an_element(tmp_path):
    src = ("export class Route { handle() { return 1; } }\n"
           "export class Page { handle() { return 2; } }\n"
           "export function dispatch(routes: Route[], byName: Map<string, Route>) {\n"
           "  routes.forEach((r) => r.handle());\n"
           "  byName.forEach((route, name) => route.handle());\n"
           "  return routes.reduce((n, each) => n + each.handle(), 0);\n"
           "}\n")
    got = edges(tmp_path, {"src/router.ts": src}, "src.router.dispatch")
    assert got["r.handle"] == {("src.router.Route.handle", "annotated_type")}
    assert got["route.handle"] == {("src.router.Route.handle", "annotated_type")}
    assert got["each.handle"] == {("src.router.Route.handle", "annotated_type")}


def test_a_function_assigned_to_a_variable_of_a_function_type_returns_what_the_type_says(tmp_path):
    src = ("export class Route { handle() { return 1; } }\n"
           "export class Page { handle() { return 2; } }\n"
           "export type Factory = (name: string) => Route;\n"
           "export const make: Factory = (name) => build(name);\n"
           "export const other: (name: string) => Route = (name) => build(name);\n"
           "declare function build(name: string): any;\n"
           "export function dispatch() {\n"
           "  make('a').handle();\n"
           "  other('b').handle();\n"
           "}\n")
    got = edges(tmp_path, {"src/router.ts": src}, "src.router.dispatch")
    assert got["make().handle"] == {("src.router.Route.handle", "constructor_type")}
    assert got["other().handle"] == {("src.router.Route.handle", "constructor_type")}


def test_a_class_field_of_a_function_type_is_a_method_the_class_declares(tmp_path):
    src = ("export class Route { handle() { return 1; } }\n"
           "export class Pending {\n"
           "  #resolve: (value: Route) => void;\n"
           "  lookup?: (name: string) => Route;\n"
           "  constructor(resolve: (value: Route) => void) { this.#resolve = resolve; }\n"
           "  settle(r: Route) {\n"
           "    this.#resolve(r);\n"
           "    this.lookup!('home').handle();\n"
           "  }\n"
           "}\n")
    got = edges(tmp_path, {"src/pending.ts": src}, "src.pending.Pending.settle")
    assert got["this.resolve"] == {("src.pending.Pending.resolve", "self_method")}
    assert got["this.lookup"] == {("src.pending.Pending.lookup", "self_method")}
    assert got["this.lookup().handle"] == {("src.pending.Route.handle", "constructor_type")}


def test_a_variable_declared_with_one_type_keeps_it_whatever_is_assigned_later(tmp_path):
    src = ("export class Route { handle() { return 1; } }\n"
           "export class Page { handle() { return 2; } }\n"
           "export interface Middleware { (ctx: number): Route }\n"
           "export function run(next: any, pages: any) {\n"
           "  let fn: Middleware | undefined;\n"
           "  if (!fn) fn = next;\n"
           "  fn(1);\n"
           "  let either: Route | Page = new Route();\n"
           "  either = new Page();\n"
           "  either.handle();\n"  # a union narrows by assignment: the Page
           "}\n")
    got = edges(tmp_path, {"src/mw.ts": src}, "src.mw.run")
    assert got["fn"] == {("src.mw.Middleware.__call__", "annotated_type")}
    assert got["either.handle"] == {("src.mw.Page.handle", "constructor_type")}
