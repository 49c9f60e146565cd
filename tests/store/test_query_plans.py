"""The hot queries read the big tables through an index, never by a full scan (issue 33: the kernel has
1.1M symbols and 5M edges; an index dropped to save disk must not turn `callers` into a scan).

Every statement the queries run is recorded (expanded, as SQLite traced it) and explained; a plan line
``SCAN <table>`` (a full scan of the table or of one of its indexes) on a big table fails the test (an
FTS5 ``MATCH``, which SQLite also calls a scan of the virtual table, reads the inverted index).
The planner's statistics are removed first: on a small repository ``ANALYZE`` makes a scan look as
cheap as a lookup, and the kernel's plans are the question here.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from lore import index_repo, open_index
from lore.queries.graph import lore_graph

ROOT = Path(__file__).resolve().parents[2]
BIG = ("symbols", "symbol_refs", "type_refs", "symbol_relationships", "file_records", "fts_text",
       "symbols_fts", "files_fts")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("plans") / "repo"
    shutil.copytree(ROOT / "lore" / "store", root / "lore" / "store", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests" / "fixtures" / "c", root / "csrc")
    index_repo(root, workers=1, history="off")
    conn = sqlite3.connect(root / ".lore" / "index.db")
    conn.execute("DELETE FROM sqlite_stat1")
    conn.commit()
    conn.close()
    return root


def _scans(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, str]]:
    out = []
    for sql in statements:
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head not in ("SELECT", "WITH"):
            continue
        for row in conn.execute("EXPLAIN QUERY PLAN " + sql):
            detail = row[-1]
            words = detail.split()
            if words[:1] != ["SCAN"] or len(words) < 2 or words[1] not in BIG:
                continue
            if "VIRTUAL TABLE INDEX" in detail and "M" in detail.rsplit(":", 1)[-1]:
                continue  # an FTS5 MATCH: the inverted index answers it
            out.append((detail, sql[:200]))
    return out


def _traced(root: Path, ask) -> tuple[list[str], list[tuple[str, str]]]:
    with open_index(root) as idx:
        ask(idx)  # once, so that caches (the graph, the name tables) are built before the trace
        got: list[str] = []
        idx.conn.set_trace_callback(got.append)
        try:
            ask(idx)
        finally:
            idx.conn.set_trace_callback(None)
        return got, _scans(idx.conn, got)


QUERIES = {
    "callers": lambda idx: lore_graph(idx, kind="callers", source_id="write.put_records"),
    "callers of a C function": lambda idx: lore_graph(idx, kind="callers", source_id="util_twice"),
    "calls": lambda idx: lore_graph(idx, kind="call", source_id="store.write.delete_files"),
    "related": lambda idx: lore_graph(idx, kind="related", source_id="store.write.delete_files"),
    "show": lambda idx: idx.symbol("store.write.delete_files"),
    "short name": lambda idx: idx.symbol("put_records"),
}


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_hot_queries_read_the_big_tables_through_an_index(repo, name):
    statements, scans = _traced(repo, QUERIES[name])
    assert statements, "nothing was traced"
    assert scans == []


def test_an_unknown_name_is_answered_without_a_scan(repo):
    def ask(idx):
        with pytest.raises(Exception):  # noqa: B017 - the error names the nearest names; its type is the CLI's
            idx.symbol("delete_filez")
    statements, scans = _traced(repo, ask)
    assert statements and scans == []


def test_search_reads_the_big_tables_through_an_index(repo):
    statements, scans = _traced(repo, lambda idx: idx.search("delete files"))
    assert any("MATCH" in s for s in statements)
    assert scans == []


def test_the_test_sees_a_scan_when_an_index_is_missing(repo, tmp_path):
    """The check itself: without ``refs_callee``, `callers` scans symbol_refs and the test says so."""
    db = tmp_path / "copy.db"
    shutil.copy(repo / ".lore" / "index.db", db)
    conn = sqlite3.connect(db)
    conn.execute("DROP INDEX refs_callee")
    conn.commit()
    conn.close()
    with open_index(db) as idx:
        got: list[str] = []
        idx.conn.set_trace_callback(got.append)
        lore_graph(idx, kind="callers", source_id="write.put_records")
        idx.conn.set_trace_callback(None)
        assert any("symbol_refs" in d for d, _ in _scans(idx.conn, got))
