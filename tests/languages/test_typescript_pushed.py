"""TypeScript callbacks pushed onto a typed array of functions: ``options.interceptors.push((o) =>
o.next())`` with ``interceptors: Interceptor[]`` and ``type Interceptor = (o: Options) => void`` types
``o`` by the element type's call signature (orpc's client and server plugins), one small program each,
with what must stay unbound beside it.

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
