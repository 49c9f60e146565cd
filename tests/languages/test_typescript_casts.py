"""TypeScript receivers whose type is written at the call: a type assertion (``(x as Foo).m()``) and an
intersection whose first part is the runtime's (``Request & Extra``), one small program each.

Rules: docs/languages/typescript.md ("Calls that stay inside the project").
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

EXTRA = "export interface Extra {\n  hello(): void\n}\nexport class Store {\n  hello() { return 1; }\n}\n"


def test_a_cast_receiver_is_the_asserted_type(tmp_path):
    src = EXTRA + ("export function f(stream: ReadableStream, store: Store, anyv: Store) {\n"
                   "  (stream as unknown as Extra).hello();\n"
                   "  (<Extra><unknown>stream).hello();\n"
                   "  (store as any).hello();\n"
                   "  (anyv as unknown).hello();\n"
                   "}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    calls = {k: v for k, v in got.items() if k.endswith(".hello")}
    asserted = [v for k, v in calls.items() if k.startswith("as:")]
    assert asserted == [{("src.a.Extra.hello", "annotated_type")}] * 2  # never js.global.ReadableStream.hello
    assert {q for q, _r in calls["store.hello"]} == {"src.a.Store.hello"}  # ``any`` says nothing: the value's own type


def test_a_cast_to_a_type_written_in_place_binds_no_member_of_the_values_type(tmp_path):
    src = ("export function f(stream: ReadableStream) {\n"
           "  (stream as unknown as { abort?: () => void }).abort?.();\n"
           "  (stream as ReadableStream).cancel();\n"
           "}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert not any(q and "abort" in q for v in got.values() for q, _r in v)  # no ReadableStream.abort
    assert {q for k, v in got.items() if k.endswith(".cancel") for q, _r in v} == {"js.global.ReadableStream.cancel"}


def test_an_intersection_with_a_runtime_type_finds_the_projects_part(tmp_path):
    src = EXTRA + ("export function f(x: Request & Extra, y: Extra & Request, z: Request & { up(): void }) {\n"
                   "  x.hello();\n  y.hello();\n  x.json();\n  z.headers.get('a');\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert got["x.hello"] == {("src.a.Extra.hello", "annotated_type")}  # never js.global.Request.hello
    assert got["y.hello"] == {("src.a.Extra.hello", "annotated_type")}
    assert not any(q and q.startswith("js.global.Request.json") for q, _r in got["x.json"])  # unknown on Extra: unbound
    assert got["z.headers.get"] == {("js.global.Request.headers.get", "builtin")}  # only the runtime's part is named


def test_an_intersection_whose_first_part_is_a_packages_finds_the_projects_part(tmp_path):
    files = {"src/types.ts": ("import { Type, type Builder } from 'typebox';\n"
                              "export const Extra = {\n  Numeric: (p?: unknown) => Type.Number(p),\n}\n"
                              "export interface Mine {\n  mine(): void\n}\n"
                              "const t = Object.assign({}, Type) as unknown as Omit<Builder, 'S'> & typeof Extra;\n"
                              "export const u: Builder & Mine = Type as any;\n"
                              "export { t };\n"),
             "src/use.ts": ("import { t, u } from './types';\nimport type { Other } from 'other';\n"
                            "import type { Mine } from './types';\n"
                            "export function f(o: Other & Mine, m: Mine & Other) {\n"
                            "  t.Numeric();\n  t.Object();\n  u.mine();\n  o.mine();\n  m.mine();\n}\n")}
    got = edges(tmp_path, files, "src.use.f")
    assert got["t.Numeric"] == {("src.types.Extra.Numeric", "import")}  # never typebox's Builder.Numeric
    assert not any(q and "Builder" in q for q, _r in got["t.Object"])  # the project's part lacks it: no invention
    assert {q for q, _r in got["u.mine"]} == {"src.types.Mine.mine"}
    assert got["o.mine"] == {("src.types.Mine.mine", "annotated_type")}  # not other's Other.mine
    assert got["m.mine"] == {("src.types.Mine.mine", "annotated_type")}  # the project's part first, as before


def test_a_parameters_object_type_written_in_place_types_its_members(tmp_path):
    src = ("export interface Client {\n  query(q: string): void\n}\n"
           "export class Other {\n  query(q: string) { return 1; }\n}\n"
           "export function pg(opts: {\n  client: Client\n  log(m: string): void\n}) {\n"
           "  opts.client.query('x');\n  opts.log('y');\n}\n"
           "export function oneLine(opts: { client: Client }) {\n  opts.client.query('z');\n}\n"
           "export function run() {\n  pg({ client: new Other(), log() {} });\n  oneLine({ client: new Other() });\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.pg")
    assert got["opts.client.query"] == {("src.a.Client.query", "annotated_type")}  # never Other.query
    assert got["opts.log"] == {("src.a.pg.opts$.log", "annotated_type")}  # the member the type declares
    one = edges(tmp_path, {"src/a.ts": src}, "src.a.oneLine")
    assert not any(q for q, _r in one["opts.client.query"])  # on the function's first line: not made, unbound
    calls = edges(tmp_path, {"src/a.ts": src}, "src.a.run")
    assert calls["pg"] == {("src.a.pg", "module_global")}  # the function's line still stands for the function


def test_a_destructured_parameters_object_type_types_the_names_it_takes(tmp_path):
    src = ("export interface Client {\n  query(q: string): void\n}\n"
           "export class Other {\n  query(q: string) { return 1; }\n}\n"
           "export const compose = ({\n  client,\n  other: o,\n}: {\n  client: Client\n  other: Other\n}) => {\n"
           "  client.query('a');\n  o.query('b');\n  client.missing();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.compose")
    assert got["client.query"] == {("src.a.Client.query", "annotated_type")}  # not also Other's (a name guess)
    assert got["o.query"] == {("src.a.Other.query", "annotated_type")}
    assert not any(q for q, _r in got["client.missing"])  # Client declares none: nothing invented


def test_a_getter_of_a_class_with_a_generic_base_is_the_classs_own(tmp_path):
    src = ("import { Callable } from '@ark/util';\n"
           "export abstract class BaseNode<d = unknown> extends Callable<() => void> {\n  toJson() { return ''; }\n}\n"
           "export abstract class BaseRoot<d = unknown> extends BaseNode<d> {\n  recurse() { return ''; }\n}\n"
           "export class AliasNode extends BaseRoot<string> {\n  get resolution(): BaseRoot {\n"
           "    return this as any;\n  }\n  inner() {\n    this.resolution.recurse();\n    this.missing.recurse();\n  }\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.AliasNode.inner")
    assert got["this.resolution.recurse"] == {("src.a.BaseRoot.recurse", "constructor_type")}  # not Callable's
    assert not any(q and q.startswith("src.") for q, _r in got["this.missing.recurse"])  # nothing invented inside


def test_a_function_merged_with_a_namespace_is_called_and_read_as_both(tmp_path):
    files = {"src/driver.ts": ("export class Db {\n  select() { return 1; }\n}\n"
                               "export function drizzle(): Db & { $client: number } {\n  return new Db() as any;\n}\n"
                               "export namespace drizzle {\n  export function mock() { return 1; }\n}\n"),
             "src/use.ts": ("import { drizzle } from './driver';\nexport const db = drizzle();\n"
                            "export function f() {\n  db.select();\n  drizzle.mock();\n  drizzle.missing();\n}\n")}
    got = edges(tmp_path, files, "src.use.f")
    assert got["db.select"] == {("src.driver.Db.select", "constructor_type")}  # the function's declared return
    assert got["drizzle.mock"] == {("src.driver.drizzle.mock", "import")}  # the namespace's member
    assert not any(q for q, _r in got["drizzle.missing"])
    top = edges(tmp_path, files, "src.use")
    assert top["drizzle"] == {("src.driver.drizzle", "import")}  # an import, never a name guess
