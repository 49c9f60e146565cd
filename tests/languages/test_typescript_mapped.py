"""Mapped types over the keys of their type parameters (TypeScript): ``type Merge<A, B> = { [K in keyof (A &
B)]: ... }`` and ``type Prettify<T> = { [K in keyof T]: T[K] } & {}`` have the members of their arguments (B's
before A's), and an argument naming a constrained type parameter (``Merge<Rev, T>`` with ``Rev extends
RequestEvent``) names its constraint. Small programs, each with what must stay unbound beside it.

Rules: docs/languages/typescript.md (round 12).
"""

from __future__ import annotations

import sqlite3

from lore import index_repo
from lore.store import callsites

TYPES = ("export class HttpResponse {\n  type(t: string) { return this; }\n  status(n: number) { return this; }\n}\n"
         "export class RequestEvent {\n  get response(): HttpResponse { return new HttpResponse(); }\n}\n"
         "export type EObject = Record<string, any>;\n"
         "export type Merge<A, B> = {\n"
         "  [K in keyof (A & B)]: K extends keyof B ? B[K] : (K extends keyof A ? A[K] : never);\n"
         "};\n"
         "export type Prettify<T> = { [K in keyof T]: T[K] } & {};\n"
         "export interface Other { zed(): void }\n"
         "export type OverOther<T> = { [K in keyof Other]: T };\n"
         "export type Fixed<T> = { [K in 'a' | 'b']: T };\n"
         "export interface Extra { extra(): number }\n"
         "export type NextFunction = (err?: Error) => Promise<void>;\n"
         "export type Handler<T = EObject, Rev extends RequestEvent = RequestEvent> = (\n"
         "  rev: Merge<Rev, T>,\n  next: NextFunction,\n) => unknown;\n")
USE = ("import { Merge, Prettify, OverOther, Fixed, RequestEvent, EObject, Extra, Handler } from './types';\n"
       "export function direct(rev: Merge<RequestEvent, EObject>, x: Merge<RequestEvent, Extra>,\n"
       "                       p: Prettify<RequestEvent>, q: OverOther<RequestEvent>, f: Fixed<RequestEvent>) {\n"
       "  rev.response.type('a');\n  x.extra();\n  x.response.status(1);\n  p.response.type('b');\n"
       "  q.response.type('c');\n  f.response.type('d');\n"
       "}\n"
       "export function typed(name: string) {\n"
       "  const typeFn: Handler = async (rev, next) => {\n"
       "    rev.response.type(name);\n"
       "    return next();\n"
       "  };\n"
       "  return typeFn;\n"
       "}\n")


def _targets(tmp_path, files: dict[str, str]) -> dict[str, dict[str, set[str | None]]]:
    """caller -> callee as written -> {bound qualified name}."""
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        rows = callsites.call_site_edges(conn, ("typescript",), tests=True)
    finally:
        conn.close()
    out: dict[str, dict[str, set[str | None]]] = {}
    for r in rows:
        out.setdefault(r.caller, {}).setdefault(r.callee_name, set()).add(r.callee_qname)
    return out


def test_a_mapped_type_over_its_parameters_keys_has_their_members(tmp_path):
    got = _targets(tmp_path, {"src/types.ts": TYPES, "src/use.ts": USE})["src.use.direct"]
    assert got["rev.response.type"] == {"src.types.HttpResponse.type"}
    assert got["x.extra"] == {"src.types.Extra.extra"}  # B's members
    assert got["x.response.status"] == {"src.types.HttpResponse.status"}  # then A's
    assert got["p.response.type"] == {"src.types.HttpResponse.type"}  # { [K in keyof T]: T[K] } & {}
    # keys of another type, or written out: the argument's members are not the mapped type's
    assert got["q.response.type"] == {None}
    assert got["f.response.type"] == {None}


def test_a_constrained_parameter_as_an_argument_names_its_constraint(tmp_path):
    got = _targets(tmp_path, {"src/types.ts": TYPES, "src/use.ts": USE})["src.use.typed.typeFn"]
    # rev: Merge<Rev, T> with Rev extends RequestEvent (nhttp's Handler): a RequestEvent's members
    assert got["rev.response.type"] == {"src.types.HttpResponse.type"}
    assert got["next"] == {"src.types.NextFunction.__call__"}
