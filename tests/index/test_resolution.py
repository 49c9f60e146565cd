"""Resolution accuracy on small programs with hand-checked call graphs, per category."""

from __future__ import annotations

import sqlite3

import pytest

from lore import index_repo
from tests.conftest import write_tree

from .resolution_cases import CASES

HEURISTIC = {"same_file_name", "unique_name", "ambiguous_name"}


def edges_of(root) -> tuple[set[str], set[str]]:
    """(strict edges, heuristic edges) as 'caller -> callee' qualified names."""
    index_repo(root, workers=1)
    conn = sqlite3.connect(root / ".lore" / "index.db")
    rows = conn.execute(
        """SELECT a.qualified_name, b.qualified_name, r.resolution FROM symbol_refs r
           JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id"""
    ).fetchall()
    conn.close()
    strict = {f"{a} -> {b}" for a, b, res in rows if res not in HEURISTIC}
    heur = {f"{a} -> {b}" for a, b, res in rows if res in HEURISTIC}
    return strict, heur


CASE_IDS = [(cat, i) for cat, cases in CASES.items() for i in range(len(cases))]


@pytest.mark.parametrize(("category", "number"), CASE_IDS, ids=[f"{c}-{i}" for c, i in CASE_IDS])
def test_case(tmp_path, category, number):
    files, expected = CASES[category][number]
    root = write_tree(tmp_path / "case", files)
    strict, _heur = edges_of(root)
    missing = expected - strict
    extra = strict - expected
    assert not missing and not extra, f"missing edges: {sorted(missing)}; unexpected edges: {sorted(extra)}"
