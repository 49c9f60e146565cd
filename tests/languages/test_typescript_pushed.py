"""TypeScript callbacks pushed onto a typed array of functions: ``options.interceptors.push((o) =>
o.next())`` with ``interceptors: Interceptor[]`` and ``type Interceptor = (o: Options) => void`` types
``o`` by the element type's call signature (orpc's client and server plugins, whose element type is
generic, ``Interceptor<Opts, R>[]``, and whose callback's parameter takes the name of the array's owner,
``options.interceptors.push((options) => options.next())``), one small program each, with what must stay
unbound beside it.

Rules: docs/languages/typescript.md (round 13).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

LIB = ("export class Options {\n  next() { return 1; }\n}\n"
       "export class Other {\n  next() { return 2; }\n}\n"
       "export type Interceptor = (o: Options, n: number) => unknown;\n"
       "export interface Handler {\n  (o: Options): void;\n}\n"
       "export interface Config {\n  interceptors: Interceptor[];\n  handlers: Array<Handler>;\n"
       "  names: string[];\n  any: any[];\n}\n")


def test_a_callback_pushed_onto_a_typed_array_of_functions_takes_the_element_types_parameters(tmp_path):
    use = ("import { Config } from './lib';\n"
           "export function plug(options: Config) {\n"
           "  options.interceptors.push((o) => o.next());\n"
           "  options.handlers.unshift((h) => {\n    h.next();\n  });\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.plug")
    assert {q for q, _r in got["o.next"]} == {"src.lib.Options.next"}
    assert {q for q, _r in got["h.next"]} == {"src.lib.Options.next"}


def test_a_callback_pushed_onto_another_array_stays_as_it_was(tmp_path):
    use = ("import { Config, Options } from './lib';\n"
           "export function plug(options: Config, made: Options[], loose: unknown[]) {\n"
           "  options.names.push((s) => s.next());\n"
           "  options.any.push((a) => a.next());\n"
           "  made.push((m) => m.next());\n"
           "  loose.push((l) => l.next());\n"
           "  options.interceptors.concat((x) => x.next());\n"
           "  options.interceptors.push((o, n, extra) => extra.next());\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.plug")
    # runtime or unknown elements, elements without a call signature, another method, a parameter the
    # signature lacks: no type from the array (what was there before, a guess at most)
    for callee in ("s.next", "a.next", "m.next", "l.next", "x.next", "extra.next"):
        assert ("src.lib.Options.next", "annotated_type") not in got[callee], callee


GENERIC = ("export type InterceptorOptions<TOptions, TResult> = Omit<TOptions, 'next'> & {\n"
           "  next(options?: TOptions): TResult\n}\n"
           "export type Interceptor<TOptions, TResult> = (options: InterceptorOptions<TOptions, TResult>) => TResult\n"
           "export class Other {\n  next() { return 2; }\n}\n"
           "export interface LinkOptions<T> {\n  interceptors?: Interceptor<{ path: string; ctx: T }, Promise<unknown>>[]\n}\n"
           "export class Plugin<T> {\n  init(options: LinkOptions<T>): void {\n    options.interceptors ??= []\n"
           "    options.interceptors.push(async (options) => {\n      return options.next()\n    })\n"
           "    options.interceptors.unshift((o) => o.next())\n  }\n}\n")


def test_a_generic_element_type_and_a_parameter_named_like_the_arrays_owner(tmp_path):
    got = edges(tmp_path, {"src/i.ts": GENERIC}, "src.i.Plugin.init")
    assert got["options.next"] == {("src.i.InterceptorOptions.next", "annotated_type")}
    assert got["o.next"] == {("src.i.InterceptorOptions.next", "annotated_type")}
    # the call the callback is given to reads the outer ``options``, not the callback's parameter
    assert got["options.interceptors.push"] == {("js.global.Array.push", "builtin")}
