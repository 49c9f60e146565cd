"""TypeScript types a project adds to the runtime's or a package's: the object part of a parameter's
intersection (``req: Request & { store: Store }``), one small program each, with what must stay
outside or unbound beside it.

Rules: docs/languages/typescript.md (round 9).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

LIB = ("export class Store {\n  get(k: string) { return k; }\n}\n"
       "export class Client {\n  query(q: string) { return q; }\n}\n")


def test_the_object_part_of_a_parameters_intersection_holds_its_members(tmp_path):
    use = ("import { Store, Client } from './lib';\n"
           "export function f(\n  r: Request & {\n    store: Store;\n    up(): Client;\n  },\n"
           "  c: Client & {\n    extra: Store;\n  },\n) {\n"
           "  r.store.get('a');\n  r.up().query('q');\n  r.json();\n  c.query('q');\n  c.extra.get('b');\n}\n"
           "export function g<T>(\n  x: T & {\n    store: Store;\n  },\n) {\n  x.store.get('d');\n  x.other();\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.f")
    # the members the project's part declares bind there, never invented on the runtime's Request
    assert got["r.store.get"] == {("src.lib.Store.get", "annotated_type")}
    assert {q for q, _r in got["r.up"]} == {"src.use.f.r$.up"}
    assert {q for q, _r in got["r.up().query"]} == {"src.lib.Client.query"}
    # the runtime's own members stay the runtime's; a project class's part keeps its members
    assert got["r.json"] == {("js.global.Request.json", "builtin")}
    assert got["c.query"] == {("src.lib.Client.query", "annotated_type")}
    assert {q for q, _r in got["c.extra.get"]} == {"src.lib.Store.get"}
    got = edges(tmp_path, {}, "src.use.g")
    assert {q for q, _r in got["x.store.get"]} == {"src.lib.Store.get"}
    # a type parameter's part gives no members: a member nobody declares stays unbound
    assert got["x.other"] == {(None, "unresolved")}


def test_an_intersection_without_a_single_object_part_is_not_made_an_interface(tmp_path):
    use = ("import { Store } from './lib';\n"
           "export function f(\n  r: Request & {\n    store: Store;\n  } & {\n    more: Store;\n  },\n"
           "  s: Request & Store,\n) {\n  r.json();\n  s.get('a');\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.f")
    assert got["r.json"] == {("js.global.Request.json", "builtin")}
    assert got["s.get"] == {("src.lib.Store.get", "annotated_type")}


GLOBAL = ("export class User {\n  name() { return 'n'; }\n}\n"
          "declare global {\n  interface Request {\n    user(): User;\n  }\n}\n"
          "export function inLib(req: Request) {\n  req.user();\n  req.json();\n}\n")


def test_a_member_a_declare_global_block_adds_to_a_runtime_type_binds_there(tmp_path):
    use = ("export function f(req: Request) {\n  req.user().name();\n  req.json();\n}\n"
           "export function k() {\n  const r = new Request('u');\n  r.clone();\n}\n")
    other = "class Request {\n  own() { return 1; }\n}\nexport function g(req: Request) {\n  req.own();\n  req.user();\n}\n"
    got = edges(tmp_path, {"src/lib.ts": GLOBAL, "src/use.ts": use, "src/other.ts": other,
                           "src/plain.js": "export function h() {\n  new Request('x');\n}\n"}, "src.use.f")
    assert got["req.user"] == {("src.lib.Request.user", "annotated_type")}
    assert {q for q, _r in got["req.user().name"]} == {"src.lib.User.name"}
    # the runtime's own members stay the runtime's
    assert got["req.json"] == {("js.global.Request.json", "builtin")}
    # a construction is the runtime's constructor, never the interface
    got = edges(tmp_path, {}, "src.use.k")
    assert got["Request"] == {("js.global.Request", "builtin")}
    assert got["r.clone"] == {("js.global.Request.clone", "builtin")}
    # a file's own Request wins; JavaScript reads no augmentation
    got = edges(tmp_path, {}, "src.other.g")
    assert got["req.own"] == {("src.other.Request.own", "annotated_type")}
    assert got["req.user"] == {(None, "unresolved")}
    assert edges(tmp_path, {}, "src.plain.h")["Request"] == {("js.global.Request", "builtin")}
    # in the declaring file, the runtime's members are still found through the augmentation
    got = edges(tmp_path, {}, "src.lib.inLib")
    assert got["req.json"] == {("js.global.Request.json", "builtin")}


USER = "export class User {\n  name() { return 'n'; }\n}\n"
PLUGIN = ("import { User } from './user';\nimport 'fw';\n"
          "declare module 'fw' {\n  interface App {\n    plugin(): User;\n    prop: User;\n  }\n}\n")


def test_a_member_a_declare_module_block_adds_to_a_packages_type_binds_there(tmp_path):
    use = ("import { App, make } from 'fw';\nexport function f(app: App) {\n"
           "  app.plugin().name();\n  app.prop.name();\n  app.listen();\n}\n"
           "export function g() {\n  const a = make();\n  a.plugin();\n  App.plugin();\n}\n")
    other = ("import { App } from 'other';\nexport function h(app: App) {\n  app.plugin();\n}\n")
    got = edges(tmp_path, {"src/user.ts": USER, "src/plugin.ts": PLUGIN, "src/use.ts": use,
                           "src/other.ts": other}, "src.use.f")
    # what the project's block declares, on a value the package's interface types
    assert got["app.plugin"] == {("src.plugin.App.plugin", "annotated_type")}
    assert got["app.plugin().name"] == {("src.user.User.name", "constructor_type")}
    assert got["app.prop.name"] == {("src.user.User.name", "annotated_type")}
    # a member the block does not declare stays the package's
    assert got["app.listen"] == {("fw.App.listen", "external")}
    # a value of unknown type, and another package's App, get nothing from the block; nor does the name
    # read as a value (a package class's static side: the block declares its instances' members)
    got = edges(tmp_path, {}, "src.use.g")
    assert got["a.plugin"] == {(None, "unresolved")}
    assert got["App.plugin"] == {("fw.App.plugin", "external")}
    assert edges(tmp_path, {}, "src.other.h")["app.plugin"] == {("other.App.plugin", "external")}


def test_a_declare_module_block_on_a_project_module_adds_to_its_interface(tmp_path):
    files = {"src/user.ts": USER,
             "src/local.ts": "export interface Ctx {\n  base(): number;\n}\nexport interface Other {\n  x(): number;\n}\n",
             "src/aug.ts": ("import { User } from './user';\n"
                            "declare module './local' {\n  interface Ctx {\n    user(): User;\n  }\n}\n"),
             "src/use.ts": ("import { Ctx, Other } from './local';\nexport function h(c: Ctx, o: Other) {\n"
                            "  c.user().name();\n  c.base();\n  c.other();\n  o.user();\n}\n")}
    got = edges(tmp_path, files, "src.use.h")
    assert got["c.user"] == {("src.aug.Ctx.user", "annotated_type")}
    assert {q for q, _r in got["c.user().name"]} == {"src.user.User.name"}
    assert got["c.base"] == {("src.local.Ctx.base", "annotated_type")}
    # nothing declares these: they stay unbound
    assert got["c.other"] == {(None, "unresolved")}
    assert got["o.user"] == {(None, "unresolved")}


AUTH = ("import { FastifyRequest } from 'fastify';\n"
        "declare module 'fastify' {\n  interface FastifyRequest {\n    verifyAccess: typeof verifyAccess;\n"
        "    limit: typeof LIMIT;\n  }\n}\nconst LIMIT = 3;\n"
        "export function verifyAccess(this: FastifyRequest, role: string) {\n  return role;\n}\n"
        "export function isAdmin(this: FastifyRequest) {\n  this.verifyAccess('admin');\n  this.limit.toFixed();\n}\n"
        "export function loose() {\n  this.verifyAccess('x');\n}\n")


def test_a_member_typed_typeof_a_function_calls_it_and_this_takes_its_declared_type(tmp_path):
    use = ("import { FastifyRequest } from 'fastify';\n"
           "export function route(req: FastifyRequest) {\n  req.verifyAccess('user');\n  req.headers.get('a');\n}\n")
    got = edges(tmp_path, {"src/auth.ts": AUTH, "src/use.ts": use}, "src.auth.isAdmin")
    # ``this: FastifyRequest``: this is that type, whose member holds the function ``typeof`` names
    assert {q for q, _r in got["this.verifyAccess"]} == {"src.auth.verifyAccess"}
    assert got["this.limit.toFixed"] == {("js.global.Number.toFixed", "builtin")}
    # a function that declares no this: nothing is known of it
    assert edges(tmp_path, {}, "src.auth.loose")["this.verifyAccess"] == {(None, "unresolved")}
    got = edges(tmp_path, {}, "src.use.route")
    assert {q for q, _r in got["req.verifyAccess"]} == {"src.auth.verifyAccess"}
    assert got["req.headers.get"] == {("fastify.FastifyRequest.headers.get", "external")}


ALIAS = ("export class Client {\n  query(q: string) { return q; }\n}\nexport class Store {\n  get(k: string) { return k; }\n}\n"
         "export type Ctx<T> = T & {\n  extra(): void;\n};\nexport type Either<T> = T | Store;\n")


def test_an_alias_that_intersects_its_own_parameter_has_the_arguments_members(tmp_path):
    use = ("import { Client, Store, Ctx, Either } from './lib';\n"
           "export function g(c: Ctx<Client>, s: Ctx<Store>, e: Either<Client>) {\n"
           "  c.query('q');\n  c.extra();\n  s.query('q');\n  s.get('k');\n  e.query('q');\n}\n")
    got = edges(tmp_path, {"src/lib.ts": ALIAS, "src/use.ts": use}, "src.use.g")
    assert got["c.query"] == {("src.lib.Client.query", "annotated_type")}
    assert got["c.extra"] == {("src.lib.Ctx.extra", "annotated_type")}
    assert got["s.get"] == {("src.lib.Store.get", "annotated_type")}
    # a member the argument lacks is not read from it; a union's parameter is not intersected (both as before)
    assert all(r != "annotated_type" for _q, r in got["s.query"] | got["e.query"])
