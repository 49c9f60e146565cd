"""TypeScript callbacks typed by their callee (contextual typing), one small program each, and what must
stay unbound: ``group(p, run: (g: App) => App)`` then ``app.group('/v1', (g) => g.get())``.

Rules: docs/languages/typescript.md ("Sixth round"); parser side in lore/languages/typescript/_callbacks.py,
resolver side in lore/index/_values.py (``contextual_value``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

FOO = "export class Foo {\n  bar() { return 1; }\n}\nexport class Qux {\n  bar() { return 2; }\n}\n"


def test_a_callback_parameter_takes_the_inline_function_type_of_the_callee(tmp_path):
    src = FOO + ("export class App {\n  get(p: string): this { return this; }\n"
                 "  group(prefix: string, run: (g: App, f: Foo) => App): this { return this; }\n"
                 "  with(run?: (q: Qux) => void) { return this; }\n}\n"
                 "export function use(app: App) {\n  app.group('/v1', (g, f) => { g.get('/'); f.bar(); return g; });\n"
                 "  app.with((q) => q.bar());\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["g.get"] == {("src.a.App.get", "annotated_type")}
    assert got["f.bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["q.bar"] == {("src.a.Qux.bar", "annotated_type")}  # an optional parameter


def test_this_in_the_function_type_is_the_class_and_constructors_type_their_callbacks(tmp_path):
    src = FOO + ("export class Builder {\n  step(): this { return this; }\n"
                 "  use(fn: (b: this) => this): this { return fn(this); }\n}\n"
                 "export class Task {\n  constructor(private work: (f: Foo) => void) {}\n}\n"
                 "export interface Ctx<T> {\n  v: T;\n  json(): T;\n}\n"
                 "export function handle<T>(cb: (ctx: Ctx<Foo>) => T): T { return cb(null as any); }\n"
                 "export function use(b: Builder) {\n  b.use((x) => x.step());\n  new Task((f) => f.bar());\n"
                 "  handle((c) => c.json().bar());\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["x.step"] == {("src.a.Builder.step", "annotated_type")}
    assert got["f.bar"] == {("src.a.Foo.bar", "annotated_type")}
    assert got["c.json().bar"] == {("src.a.Foo.bar", "annotated_type")}


def test_a_promise_callback_takes_the_promised_value(tmp_path):
    src = FOO + ("export async function load(): Promise<Foo> { return new Foo(); }\n"
                 "export function use(p: Promise<Qux>) {\n  p.then((v) => v.bar());\n  load().then((w) => w.bar());\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    assert got["v.bar"] == {("src.a.Qux.bar", "annotated_type")}
    assert {t for t, _res in got["w.bar"]} == {"src.a.Foo.bar"}  # typed by what load() returns


def test_unknown_or_ambiguous_callees_and_own_annotations(tmp_path):
    # an unknown callee gives nothing; overload signatures whose callbacks differ leave the parameter
    # untyped (the implementation's ``any`` too); a parameter's own annotation wins over the callee's
    src = FOO + ("export interface Emitter {\n  on(e: 'a', cb: (x: Foo) => void): void;\n"
                 "  on(e: 'b', cb: (x: Qux) => void): void;\n}\n"
                 "export class Bus {\n  on(e: 'a', cb: (x: Foo) => void): void;\n  on(e: 'b', cb: (x: Qux) => void): void;\n"
                 "  on(e: string, cb: any): void {}\n  run(cb: (x: Foo) => void) {}\n}\n"
                 "declare const lib: any;\n"
                 "export function use(em: Emitter, bus: Bus) {\n  lib.go((u) => u.bar());\n  em.on('a', (y) => y.bar());\n"
                 "  bus.on('a', (z) => z.bar());\n  bus.run((k: Qux) => k.bar());\n}\n")
    got = edges(tmp_path, {"src/a.ts": src}, "src.a.use")
    for site in ("u.bar", "y.bar", "z.bar"):  # at most the name guess of before, never a typed answer
        assert {res for _t, res in got[site]} <= {"unresolved", "ambiguous_name"}, site
    assert got["k.bar"] == {("src.a.Qux.bar", "annotated_type")}
