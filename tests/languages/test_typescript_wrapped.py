"""TypeScript types that keep their argument: a method returning ``this`` under a type that wraps it
(``HasDefault<this>``, where ``type HasDefault<T> = T & {...}``), one small program each, with what must
stay unbound beside it.

Rules: docs/languages/typescript.md (rows "methods returning a wrapped ``this``" ...).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

BUILDER = ("export type NotNull<T> = T & { __brand: 1 };\nexport type HasDefault<T> = T & { _: { d: true } };\n"
           "export type IsPK<T> = T & { _: { pk: true } };\n"
           "export class Opt<T> {\n  constructor(public inner: T) {}\n  unwrap() { return this.inner; }\n}\n"
           "export abstract class Column<C> {\n"
           "  primaryKey(): C extends true ? IsPK<HasDefault<NotNull<this>>> : IsPK<NotNull<this>> {\n"
           "    return this as C extends true ? IsPK<HasDefault<NotNull<this>>> : IsPK<NotNull<this>>;\n  }\n"
           "  default(v: number): HasDefault<this> {\n    return this as HasDefault<this>;\n  }\n"
           "  optional(): Opt<this> {\n    return new Opt(this);\n  }\n}\n")
COMMON = ("import { Column, type HasDefault, type NotNull } from './column';\n"
          "export class AutoColumn<C> extends Column<C> {\n"
          "  autoincrement(): NotNull<HasDefault<this>> {\n    this.auto = true;\n"
          "    return this as NotNull<HasDefault<this>>;\n  }\n}\n"
          "export class Double<C> extends AutoColumn<C> {\n  precision() { return 2; }\n}\n"
          "export type DoubleInitial<N> = Double<{ name: N }>;\n"
          "export function double(): DoubleInitial<''>;\nexport function double(n?: string) {\n  return new Double(n);\n}\n")


def test_a_method_returning_this_under_a_wrapping_type_keeps_the_receiver(tmp_path):
    use = ("import { double, Double } from './common';\n"
           "export function table(d: Double<1>) {\n"
           "  double().primaryKey().autoincrement().default(0).precision();\n"
           "  d.autoincrement().default(1);\n"
           "  d.optional().unwrap();\n"
           "  d.optional().precision();\n}\n")
    got = edges(tmp_path, {"src/column.ts": BUILDER, "src/common.ts": COMMON, "src/use.ts": use}, "src.use.table")
    assert {q for q, _r in got["double().primaryKey().autoincrement"]} == {"src.common.AutoColumn.autoincrement"}
    assert {q for q, _r in got["double().primaryKey().autoincrement().default"]} == {"src.column.Column.default"}
    # the chain keeps the subclass the call started from
    assert {q for q, _r in got["double().primaryKey().autoincrement().default().precision"]} == \
        {"src.common.Double.precision"}
    assert {q for q, _r in got["d.autoincrement().default"]} == {"src.column.Column.default"}
    # Opt<this> built anew is an Opt, not the receiver: its own member binds, the receiver's does not
    assert {q for q, _r in got["d.optional().unwrap"]} == {"src.column.Opt.unwrap"}
    assert got["d.optional().precision"] == {(None, "unresolved")}


def test_a_cast_of_this_to_another_type_is_that_type(tmp_path):
    src = ("export class Other {\n  other() { return 1; }\n}\n"
           "export class Mine {\n  mine() { return 1; }\n"
           "  to(): Other {\n    return this as unknown as Other;\n  }\n"
           "  wrapped(): Array<this> {\n    return [this];\n  }\n}\n"
           "export function f(m: Mine) {\n  m.to().other();\n  m.to().mine();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert {q for q, _r in got["m.to().other"]} == {"src.a.Other.other"}
    assert got["m.to().mine"] == {(None, "unresolved")}


def test_a_destructured_parameter_typed_on_the_functions_line_takes_its_properties_types(tmp_path):
    src = ("export class Client {\n  query(q: string) { return 1; }\n}\n"
           "export class Other {\n  query(q: string) { return 2; }\n}\n"
           "export function f({ client, other: o, name }: { client: Client; other: Other; name: string }) {\n"
           "  client.query('');\n  o.query('');\n  name.trim();\n}\n"
           "export const g = ({ client, run }: { client?: Client; run: (c: Client) => void } = {}) => {\n"
           "  client!.query('');\n  run.query('');\n};\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert got["client.query"] == {("src.a.Client.query", "annotated_type")}  # was a guess among both query
    assert got["o.query"] == {("src.a.Other.query", "annotated_type")}
    assert got["name.trim"] == {("js.global.String.trim", "builtin")}
    got = edges(tmp_path, {}, "src.a.g")
    assert {q for q, _r in got["client.query"]} == {"src.a.Client.query"}
    assert not any(r == "annotated_type" for _q, r in got["run.query"])  # a function type types no member


def test_a_function_returning_a_cast_or_a_generic_construction_gives_that_type(tmp_path):
    files = {"src/router.ts": ("export class Ev {}\nexport class Router<Rev extends Ev = Ev> {\n"
                               "  get(p: string): this { return this; }\n  put(p: string) { return 1; }\n}\n"),
             "src/app.ts": ("import { Router, Ev } from './router.ts';\n"
                            "export class App<RS = object, Rev extends Ev = Ev> extends Router<Rev> {\n"
                            "  listen() { return 1; }\n}\n"
                            "export function app<RS = object, Rev extends Ev = Ev>(o = {}) {\n"
                            "  return new App<RS, Rev>(o);\n}\n"
                            "export interface Plain {\n  listen(): number\n}\n"
                            "export class Other {\n  listen() { return 1; }\n  other() { return 2; }\n}\n"
                            "export function mk(x: any) {\n  return x as Plain;\n}\n"
                            "export function keep(x: Other) {\n  return x as unknown as Plain;\n}\n"),
             "examples/ex.ts": ("import { app, mk, keep } from '../src/app.ts';\nexport function f() {\n"
                                "  const b = app();\n  b.get('/');\n  b.put('/');\n  b.listen();\n"
                                "  mk(1).listen();\n  keep(new Other()).listen();\n  keep(new Other()).other();\n}\n")}
    got = edges(tmp_path, files, "examples.ex.f")
    assert {q for q, _r in got["b.get"]} == {"src.router.Router.get"}  # was unbound: return new App<RS, Rev>()
    assert {q for q, _r in got["b.listen"]} == {"src.app.App.listen"}
    assert {q for q, _r in got["mk().listen"]} == {"src.app.Plain.listen"}  # was a guess among both listen
    assert {q for q, _r in got["keep().listen"]} == {"src.app.Plain.listen"}  # the cast, not the parameter
    assert not any(r in ("annotated_type", "constructor_type") for _q, r in got["keep().other"])  # at most a guess


def test_a_conditional_expression_gives_either_branchs_value(tmp_path):
    src = ("export class Client {\n  query(q: string) { return 1; }\n  only() { return 1; }\n}\n"
           "export class Other {\n  query(q: string) { return 2; }\n}\n"
           "export class Third {\n  query(q: string) { return 3; }\n}\n"
           "export function f(c: boolean, h: Client) {\n  const z = c ? new Client() : h;\n  z.query('');\n"
           "  const w = c ? new Client() : new Other();\n  w.query('');\n"
           "  let u;\n  u = c ? new Client() : undefined;\n  u!.only();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert got["z.query"] == {("src.a.Client.query", "constructor_type")}  # was a guess among the three
    assert {q for q, _r in got["w.query"]} == {"src.a.Client.query", "src.a.Other.query"}  # never Third's
    assert {q for q, _r in got["u.only"]} == {"src.a.Client.only"}


def test_an_alias_finds_a_member_on_its_projects_part_before_the_runtimes(tmp_path):
    files = {"src/t.ts": ("import type { Other } from 'pkg';\n"
                          "export interface TypedBody<T> {\n  json(): Promise<T>;\n  text(): Promise<string>;\n}\n"
                          "export type TypedRequest<T = any> = Omit<Request, 'json' | 'headers'> & TypedBody<T> & {\n"
                          "  parsedUrl: URL;\n};\n"
                          "export type Mixed = Other & TypedBody<string>;\n"),
             "src/use.ts": ("import type { TypedRequest, Mixed } from './t';\n"
                            "export function h(request: TypedRequest, m: Mixed) {\n"
                            "  request.json();\n  request.clone();\n  m.json();\n}\n")}
    got = edges(tmp_path, files, "src.use.h")
    assert got["request.json"] == {("src.t.TypedBody.json", "annotated_type")}  # was js.global.Request.json
    assert got["m.json"] == {("src.t.TypedBody.json", "annotated_type")}  # not pkg's Other.json
    assert got["request.clone"] == {("js.global.Request.clone", "builtin")}  # only the runtime's part has it


def test_a_parameter_declared_with_one_type_keeps_it_when_reassigned(tmp_path):
    src = ("export type TObject = { [k: string]: any };\n"
           "export class Foo {\n  go() { return 1; }\n}\nexport class Bar {\n  go() { return 2; }\n}\n"
           "export function f(last: TObject, b: Foo, u: Foo | Bar) {\n"
           "  last = Array.isArray(last) ? last : [last];\n  last.forEach(1);\n"
           "  b = make();\n  b.go();\n  u = new Bar();\n  u.go();\n}\n"
           "function make(): any {\n  return new Bar();\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.f")
    assert got["last.forEach"] == {(None, "unresolved")}  # a TObject, never js.global.Array.forEach
    assert got["b.go"] == {("src.a.Foo.go", "annotated_type")}
    assert got["u.go"] == {("src.a.Bar.go", "constructor_type")}  # a union is narrowed by the assignment
