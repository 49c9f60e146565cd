"""TypeScript members of one name read through the class or through an instance: ``static create()``
beside ``create()``. One small program, with the runtime's answer beside it.

Rules: docs/languages/typescript.md (round 10).
"""

from __future__ import annotations

import sqlite3

from lore import index_repo
from lore.store import callsites

DUAL = ("export class Dual {\n  static create() { return new Dual(); }\n  create() { return 2; }\n  run() {}\n}\n"
        "export function f() {\n  Dual.create().run();\n  new Dual().create().toFixed();\n"
        "  const d = new Dual();\n  d.create();\n  Dual.create();\n}\n"
        "export class One {\n  static make() { return new One(); }\n  go() {}\n}\n"
        "export function g() {\n  One.make().go();\n  new One().make();\n}\n")


def _targets(tmp_path, files: dict[str, str], caller: str) -> dict[str, set[tuple[str | None, int | None]]]:
    """callee as written -> {(bound qualified name, the bound definition's first line)} for ``caller``'s calls."""
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        rows = callsites.call_site_edges(conn, ("typescript",), tests=True)
        lines = dict(conn.execute("SELECT id, start_line FROM symbols"))
    finally:
        conn.close()
    out: dict[str, set[tuple[str | None, int | None]]] = {}
    for r in rows:
        if r.caller == caller:
            out.setdefault(r.callee_name, set()).add((r.callee_qname, lines.get(r.callee_id)))
    return out


def test_a_read_through_the_class_reaches_the_static_member_and_an_instance_the_other(tmp_path):
    got = _targets(tmp_path, {"src/d.ts": DUAL}, "src.d.f")
    # the static create returns a Dual: its run, never a run invented on the instance create's number
    assert got["Dual.create"] == {("src.d.Dual.create", 2)}
    assert got["Dual.create().run"] == {("src.d.Dual.run", 4)}
    # through an instance: the instance's create, whose number is the runtime's
    assert got["d.create"] == {("src.d.Dual.create", 3)}
    assert got["Dual().create"] == {("src.d.Dual.create", 3)}
    assert got["Dual().create().toFixed"] == {("js.global.Number.toFixed", 0)}


def test_a_static_member_alone_of_its_name_is_read_as_before(tmp_path):
    got = _targets(tmp_path, {"src/d.ts": DUAL}, "src.d.g")
    assert got["One.make().go"] == {("src.d.One.go", 15)}
    assert got["One().make"] == {("src.d.One.make", 14)}
