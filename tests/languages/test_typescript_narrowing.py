"""TypeScript narrowing beyond ``if (e instanceof A)`` (round 14), and members a runtime class lacks: a value
declared ``Error`` or ``Response`` gets no invented ``Error.toResponse`` [builtin] and no same-name guess,
one small program each, with what must stay unnarrowed beside it.

Rules: docs/languages/typescript.md (round 14).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_ts_js_rules import edges  # noqa: E402

from .test_typescript_paths import LIB, NARROWED, _bound  # noqa: E402


def test_guards_conjunctions_ternaries_and_switch_true_narrow(tmp_path):
    use = ("import { HTTPError } from './lib';\n"
           "function isHTTP(x: number, e: unknown): e is HTTPError { return e instanceof HTTPError; }\n"
           "function mustHTTP(e: unknown): asserts e is HTTPError { if (!(e instanceof HTTPError)) throw e; }\n"
           "export function guard(err: Error) {\n  if (isHTTP(1, err)) {\n    err.toResponse();\n  }\n}\n"
           "export function asserted(err: Error) {\n  mustHTTP(err);\n  err.toResponse();\n}\n"
           "export function both(err: Error) {\n  err instanceof HTTPError && err.toResponse();\n}\n"
           "export function tern(err: Error) {\n  return err instanceof HTTPError ? err.toResponse() : 0;\n}\n"
           "export function sw(err: Error) {\n  switch (true) {\n    case err instanceof HTTPError:\n"
           "      err.toResponse();\n      break;\n  }\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.guard")
    assert _bound(got, "err.toResponse") == {NARROWED}
    for fn in ("asserted", "both", "tern", "sw"):
        assert _bound(edges(tmp_path, {}, f"src.use.{fn}"), "err.toResponse") == {NARROWED}, fn


def test_narrowing_stays_where_the_test_may_not_hold(tmp_path):
    lib = LIB + "export class Base {\n  m() { return 1; }\n}\nexport class Sub extends Base {\n  m() { return 2; }\n}\n"
    use = ("import { HTTPError, Base, Sub } from './lib';\n"
           "function isSub(e: unknown): boolean { return e instanceof Sub; }\n"
           "export function notGuard(b: Base) {\n  if (isSub(b)) {\n    b.m();\n  }\n}\n"
           "export function other(b: Base) {\n  return b instanceof Sub ? 1 : b.m();\n}\n"
           "export function notFirst(b: Base) {\n  b.m() && b instanceof Sub && b.m();\n}\n"
           "export function falls(b: Base, c: Base) {\n  switch (true) {\n    case c instanceof Sub:\n"
           "      c.m();\n    case b instanceof Sub:\n      b.m();\n      break;\n  }\n}\n"
           "function isS(e: unknown): e is Sub { return e instanceof Sub; }\n"
           "export function called(b: Base) {\n  isS(b);\n  b.m();\n}\n")
    got = edges(tmp_path, {"src/lib.ts": lib, "src/use.ts": use}, "src.use.notGuard")
    assert _bound(got, "b.m") == {"src.lib.Base.m"}  # a boolean function is no type guard
    # the alternative reads b on the consequence's line: not narrowed (TypeScript answers Base.m there)
    assert _bound(edges(tmp_path, {}, "src.use.other"), "b.m") == {"src.lib.Base.m"}
    assert _bound(edges(tmp_path, {}, "src.use.notFirst"), "b.m") == {"src.lib.Base.m"}  # b.m() before the test
    assert _bound(edges(tmp_path, {}, "src.use.falls"), "b.m") == {"src.lib.Base.m"}  # c's case falls into b's
    # a type guard called as a statement asserts nothing (only ``asserts e is T`` does)
    assert _bound(edges(tmp_path, {}, "src.use.called"), "b.m") == {"src.lib.Base.m"}


def test_a_runtime_class_lacking_the_member_binds_nothing(tmp_path):
    use = ("import { HTTPError } from './lib';\n"
           "export function plain(err: Error, r: Response) {\n  err.toResponse();\n  r.toResponse();\n"
           "  err.toString();\n  r.json();\n}\n"
           "export function either(err: HTTPError | Error) {\n  err.toResponse();\n}\n"
           "export function made() {\n  const err = new HTTPError();\n  err.toResponse();\n}\n")
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/use.ts": use}, "src.use.plain")
    # Error and Response have no toResponse: unbound, neither invented on them nor guessed by name
    assert _bound(got, "err.toResponse") == {None}
    assert _bound(got, "r.toResponse") == {None}
    assert _bound(got, "err.toString") == {"js.global.Error.toString"}  # what they have stays
    assert _bound(got, "r.json") == {"js.global.Response.json"}
    assert NARROWED in _bound(edges(tmp_path, {}, "src.use.either"), "err.toResponse")
    assert _bound(edges(tmp_path, {}, "src.use.made"), "err.toResponse") == {NARROWED}


def test_a_project_member_added_to_a_runtime_class_still_binds(tmp_path):
    glob = ("export {};\ndeclare global {\n  interface Error {\n    toResponse(): number;\n  }\n}\n")
    use = "export function f(err: Error) {\n  err.toResponse();\n}\n"
    got = edges(tmp_path, {"src/lib.ts": LIB, "src/glob.ts": glob, "src/use.ts": use}, "src.use.f")
    assert NARROWED not in _bound(got, "err.toResponse")
    assert None not in _bound(got, "err.toResponse")
