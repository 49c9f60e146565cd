"""Index a small program and read its call graph as (caller, callee, resolution) triples.

Shared by the value-flow, type-flow and no-invented-edges tests: each case is a small program with
the edges a careful reader expects, the edges that must never appear, and the call sites that must
stay unresolved (with their raw callee text).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from lore import index_repo
from tests.conftest import write_tree

HEURISTIC = frozenset({"same_file_name", "unique_name", "ambiguous_name"})
RULE = "rule"  # in an expected triple: any resolution that is not a name heuristic, not unresolved


@dataclass
class Graph:
    """The call edges of one indexed tree."""

    triples: set[tuple[str, str, str]] = field(default_factory=set)
    unresolved: set[tuple[str, str]] = field(default_factory=set)
    callee_rows: list[dict] = field(default_factory=list)
    symbols: list[dict] = field(default_factory=list)

    @property
    def pairs(self) -> set[tuple[str, str]]:
        return {(a, b) for a, b, _ in self.triples}

    def resolutions(self, caller: str, callee: str) -> set[str]:
        return {r for a, b, r in self.triples if a == caller and b == callee}

    def has(self, caller: str, callee: str, res: str) -> bool:
        got = self.resolutions(caller, callee)
        if res == RULE:
            return any(r not in HEURISTIC and r != "unresolved" for r in got)
        return res in got


def index_graph(tmp_path: Path, files: dict[str, str]) -> Graph:
    """Index ``files`` (written dedented under ``tmp_path``) and read back every call edge."""
    root = write_tree(tmp_path / "repo", files)
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute(
            """SELECT a.qualified_name AS caller, b.qualified_name AS callee, r.resolution, r.callee_name,
                      r.confidence, b.start_line AS callee_line, f.path AS callee_path, b.kind AS callee_kind
               FROM symbol_refs r JOIN symbols a ON a.id = r.caller_id
               LEFT JOIN symbols b ON b.id = r.callee_id LEFT JOIN files f ON f.id = b.file_id"""
        ).fetchall()
        symbols = [dict(r) for r in conn.execute(
            "SELECT s.qualified_name, s.name, s.kind, s.start_line, f.path FROM symbols s "
            "LEFT JOIN files f ON f.id = s.file_id")]
    finally:
        conn.close()
    g = Graph(symbols=symbols)
    for r in rows:
        if r["callee"] is None:
            g.unresolved.add((r["caller"], r["callee_name"]))
        else:
            g.triples.add((r["caller"], r["callee"], r["resolution"]))
            g.callee_rows.append(dict(r))
    return g


@dataclass
class Case:
    """A small program and what its call graph must (and must not) contain."""

    files: dict[str, str]
    expect: set[tuple[str, str, str]] = field(default_factory=set)  # (caller, callee, resolution or RULE)
    forbid: set[tuple[str, str]] = field(default_factory=set)  # (caller, callee): never, by any resolution
    unresolved: set[tuple[str, str]] = field(default_factory=set)  # (caller, raw callee text): unbound
    xfail: str = ""  # why this case does not pass yet (strict: it fails the suite once it does)


def check(g: Graph, case: Case) -> None:
    """Assert the case's expectations on the indexed graph, listing every difference at once."""
    problems = []
    for caller, callee, res in sorted(case.expect):
        if not g.has(caller, callee, res):
            problems.append(f"missing {caller} -> {callee} [{res}], found {sorted(g.resolutions(caller, callee))}")
    for caller, callee in sorted(case.forbid):
        if (caller, callee) in g.pairs:
            problems.append(f"invented {caller} -> {callee} {sorted(g.resolutions(caller, callee))}")
    for caller, raw in sorted(case.unresolved):
        if (caller, raw) not in g.unresolved:
            bound = sorted(r["callee"] + " [" + r["resolution"] + "]" for r in g.callee_rows
                           if r["caller"] == caller and r["callee_name"] == raw)
            problems.append(f"{caller}: {raw!r} should stay unresolved, bound to {bound}")
    assert not problems, "\n".join(problems)
