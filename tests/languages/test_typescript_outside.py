"""TypeScript calls of project code that must not be bound outside the project (or to an invented
builtin), and narrowings written on one line, one small program each.

Rules: docs/languages/typescript.md ("Calls that stay inside the project").
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402


def test_a_member_a_runtime_base_lacks_is_no_invented_builtin(tmp_path):
    src = ("export class AppError extends Error {\n  code = 'x';\n"
           "  describe() {\n    this.hint();\n    return this.toString();\n  }\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.AppError.describe")
    assert got["this.hint"] == {(None, "unresolved")}  # Error has no ``hint``: never js.global.Error.hint
    assert got["this.toString"] == {("js.global.Error.toString", "builtin")}  # what Error does have


def test_instanceof_narrows_a_branch_written_on_the_conditions_line(tmp_path):
    src = ("export class Shape {\n  area() { return 1; }\n}\n"
           "export class Circle extends Shape {\n  radius() { return 2; }\n}\n"
           "export class Wheel {\n  radius() { return 3; }\n}\n"
           "export function f(s: Shape) {\n  if (s instanceof Circle) return s.radius();\n"
           "  if (s instanceof Circle && s.radius()) { s.area(); }\n  return s.area();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert got["s.radius"] == {("src.a.Circle.radius", "annotated_type")}  # both, never Wheel's
    assert {q for q, _r in got["s.area"]} == {"src.a.Shape.area"}


def test_a_package_the_tsconfig_maps_into_the_repository_is_its_files(tmp_path):
    files = {"tsconfig.json": '{\n  // a monorepo importing its own packages by name\n  "compilerOptions": {\n'
                              '    "paths": {\n      "@demo/core": ["./packages/core/src"],\n'
                              '      "@demo/core/*": ["./packages/core/src/*"],\n    },\n  },\n}\n',
             "packages/core/src/index.ts": "export { Router } from './router';\n",
             "packages/core/src/router.ts": ("export class Router {\n  add(p: string) { return this; }\n}\n"
                                             "export function route(p: string) { return new Router(); }\n"),
             "apps/web/main.ts": ("import { Router } from '@demo/core';\nimport { route } from '@demo/core/router';\n"
                                  "import { other } from '@other/pkg';\n"
                                  "export function main() {\n  new Router().add('/');\n  route('/x');\n  other();\n}\n")}
    got = edges(tmp_path, files, "apps.web.main.main")
    assert {q for q, _r in got["Router().add"]} == {"packages.core.src.router.Router.add"}
    assert got["route"] == {("packages.core.src.router.route", "import")}
    assert got["other"] == {("@other/pkg.other", "external")}  # no pattern maps it: a package


def test_paths_resolve_against_base_url_and_an_extended_config(tmp_path):
    files = {"configs/base.json": '{"compilerOptions": {"baseUrl": "../src", "paths": {"lib": ["./lib/main.ts"]}}}',
             "tsconfig.json": '{"extends": "./configs/base"}',
             "app/tsconfig.json": '{"compilerOptions": {"paths": {"lib": ["./nowhere.ts"]}}}',  # one program: the root's
             "src/lib/main.ts": "export function boot() { return 1; }\n",
             "src/util.ts": "export function util() { return 2; }\n",
             "app/run.ts": ("import { boot } from 'lib';\nimport { util } from 'util';\n"
                            "export function run() {\n  boot();\n  util();\n}\n")}
    got = edges(tmp_path, files, "app.run.run")
    assert got["boot"] == {("src.lib.main.boot", "import")}
    assert got["util"] == {("src.util.util", "import")}  # a bare name under baseUrl, before any package


def test_a_member_read_on_a_name_that_is_a_type_and_a_value_is_the_values(tmp_path):
    files = {"src/typed.ts": ("export interface TypedResponse<T> {\n  json(): Promise<T>;\n}\n"
                              "export interface TypedResponseCtor {\n  json<T>(data: T): TypedResponse<T>;\n}\n"),
             "src/Response.ts": ("import { Response as Original } from '@whatwg-node/fetch';\n"
                                 "import { TypedResponse, TypedResponseCtor } from './typed';\n"
                                 "export const Response = Original as TypedResponseCtor;\n"
                                 "export type Response<T = any> = TypedResponse<T>;\n"),
             "src/use.ts": "import { Response } from './Response';\nexport function h() {\n  Response.json({});\n}\n"}
    got = edges(tmp_path, files, "src.use.h")
    # the const's cast type, never the alias's TypedResponse.json (a type has no members at run time)
    assert {q for q, _r in got["Response.json"]} == {"src.typed.TypedResponseCtor.json"}


def test_a_property_of_a_callable_type_is_no_call_of_its_signature(tmp_path):
    files = {"src/types.ts": ("export class Route {\n  handle() { return 1; }\n}\n"
                              "export interface RouteHandler {\n  (req: string): Route;\n}\n"
                              "export interface Opts {\n  handler: RouteHandler;\n}\n"),
             "src/run.ts": ("import type { Opts, RouteHandler } from './types';\n"
                            "export function run(opts: Opts, h: RouteHandler) {\n"
                            "  opts.handler('e').handle();\n  h('e');\n}\n")}
    got = edges(tmp_path, files, "src.run.run")
    assert got["opts.handler"] == {(None, "unresolved")}  # what the property holds runs, not the signature
    assert {q for q, _r in got["opts.handler().handle"]} == {"src.types.Route.handle"}  # which types the result
    assert got["h"] == {("src.types.RouteHandler.__call__", "annotated_type")}  # a name holding it: as before


def test_a_tsconfig_that_is_a_symlink_or_huge_is_not_read(tmp_path):
    import os

    from lore.languages.javascript._config import config_of

    outside = tmp_path / "outside.json"
    outside.write_text('{"compilerOptions": {"baseUrl": "."}}')
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink(outside, repo / "tsconfig.json")
    assert config_of(repo, "tsconfig.json") is None  # would read a file outside the repository
    (repo / "jsconfig.json").write_text('{"compilerOptions": {"baseUrl": "."}}' + " " * (1 << 20))
    assert config_of(repo, "jsconfig.json") is None
    (repo / "small.json").write_text('{"compilerOptions": {"baseUrl": "."}}')
    assert config_of(repo, "small.json") is not None
