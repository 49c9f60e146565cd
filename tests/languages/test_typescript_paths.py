"""TypeScript values read through a property path: ``if (this.error instanceof HTTPError)
this.error.toResponse()`` narrows the path on the lines of the branch (hono's ``context.error``: lore had
answered ``Error.getResponse``, outside the project, a member the runtime's class lacks), one small program
each, with what must stay unnarrowed beside it.

Rules: docs/languages/typescript.md (round 13).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

LIB = ("export class HTTPError extends Error {\n  toResponse() { return 1; }\n}\n"
       "export class Other {\n  toResponse() { return 2; }\n}\n")
NARROWED = "src.lib.HTTPError.toResponse"


def _bound(got, callee: str) -> set:
    return {q for q, _r in got[callee]}


def test_an_instanceof_test_of_a_property_path_narrows_it_in_the_branch(tmp_path):
    use = ("import { HTTPError } from './lib';\n"
           "export class Ctx {\n  error?: Error;\n  go() {\n"
           "    if (this.error instanceof HTTPError) {\n      this.error.toResponse();\n    }\n  }\n"
           "  one() {\n    if (this.error instanceof HTTPError) return this.error.toResponse();\n  }\n"
           "  after() {\n    if (this.error instanceof HTTPError) {\n      return 1;\n    }\n"
           "    this.error.toResponse();\n  }\n}\n"
           "export function f(context: { error: Error }) {\n"
           "  if (context.error instanceof HTTPError && context.error.toResponse()) {\n"
           "    context.error.toResponse();\n  }\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.Ctx.go")
    assert _bound(got, "this.error.toResponse") == {NARROWED}
    assert _bound(edges(tmp_path, {}, "src.use.Ctx.one"), "this.error.toResponse") == {NARROWED}
    assert _bound(edges(tmp_path, {}, "src.use.f"), "context.error.toResponse") == {NARROWED}
    # after the branch the path is what its declaration says again
    assert NARROWED not in _bound(edges(tmp_path, {}, "src.use.Ctx.after"), "this.error.toResponse")


def test_a_path_stays_unnarrowed_where_the_test_may_not_hold(tmp_path):
    use = ("import { HTTPError } from './lib';\n"
           "export function assigned(context: { error: Error }) {\n"
           "  if (context.error instanceof HTTPError) {\n    context.error = new Error('x');\n"
           "    context.error.toResponse();\n  }\n}\n"
           "export function either(context: { error: Error }) {\n"
           "  if (context.error instanceof HTTPError || Math.random() > 0) {\n    context.error.toResponse();\n  }\n}\n"
           "export function guard(context: { error: Error }) {\n"
           "  if (!(context.error instanceof HTTPError)) return;\n  context.error.toResponse();\n}\n"
           "export function read(mk: () => { e: Error }) {\n"
           "  if (mk().e instanceof HTTPError) {\n    mk().e.toResponse();\n  }\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.assigned")
    assert NARROWED not in _bound(got, "context.error.toResponse")  # assigned in the branch: no longer the test's
    assert NARROWED not in _bound(edges(tmp_path, {}, "src.use.either"), "context.error.toResponse")
    # a guard narrows a path nowhere after it (any call between may have assigned it)
    assert NARROWED not in _bound(edges(tmp_path, {}, "src.use.guard"), "context.error.toResponse")
    got = edges(tmp_path, {}, "src.use.read")
    assert NARROWED not in _bound(got, "mk().e.toResponse")  # a call's result: another value each time


def test_a_runtime_class_narrows_no_path(tmp_path):
    use = ("import { HTTPError } from './lib';\n"
           "export class Ctx {\n  error?: HTTPError;\n  go() {\n"
           "    if (this.error instanceof Error) {\n      this.error.toResponse();\n    }\n  }\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.Ctx.go")
    assert _bound(got, "this.error.toResponse") == {NARROWED}  # the declared subclass, as TypeScript keeps it
