"""Indexing: full build, incremental refresh, id stability, crash safety, bad input."""

from __future__ import annotations

import os
import sqlite3
import time

import pytest

from lore import IndexBusyError, SchemaVersionError, index_repo, open_index
from lore.index import indexer, resolve_pool
from lore.store import db as store_db


def q(root, sql, *args):
    conn = sqlite3.connect(root / ".lore" / "index.db")
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def ids_by_qname(root):
    return dict(q(root, "SELECT qualified_name, id FROM symbols WHERE file_id IS NOT NULL"))


def bump(path):
    """Rewrite a file so its mtime surely changes."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))


def test_full_index_reports_and_stores(sample_repo):
    r = index_repo(sample_repo, workers=1)
    assert r.full and r.generation == 1
    assert sorted(r.added) == ["shop/__init__.py", "shop/models.py", "shop/orders.py", "shop/report.py",
                               "tests/test_orders.py"]
    assert r.edges["symbol_refs"] > 5
    modes = q(sample_repo, "PRAGMA journal_mode")
    assert modes[0][0] == "wal"
    tests = q(sample_repo, "SELECT path FROM files WHERE is_test = 1")
    assert tests == [("tests/test_orders.py",)]


def test_no_change_does_not_bump_generation(sample_repo):
    index_repo(sample_repo, workers=1)
    r = index_repo(sample_repo, workers=1)
    assert not r.changed_any and r.generation == 1
    # touching a file without changing its content does not re-parse it either
    bump(sample_repo / "shop/models.py")
    r = index_repo(sample_repo, workers=1)
    assert not r.changed_any and r.generation == 1


def test_incremental_refresh_keeps_ids_and_reresolves(sample_repo):
    index_repo(sample_repo, workers=1)
    before = ids_by_qname(sample_repo)
    models = sample_repo / "shop/models.py"
    models.write_text(models.read_text() + "\n\ndef discount(item: Item) -> float:\n    return item.total(1) * 0.9\n")
    bump(models)
    (sample_repo / "shop/report.py").unlink()
    r = index_repo(sample_repo, workers=1)
    assert r.changed == ["shop/models.py"] and r.removed == ["shop/report.py"] and not r.added
    assert r.generation == 2
    after = ids_by_qname(sample_repo)
    for qn, sid in before.items():
        if not qn.startswith("shop.report"):
            assert after[qn] == sid, qn  # unchanged symbols keep their ids
    assert "shop.report.summarize" not in after
    assert "shop.models.discount" in after
    # the new function's call resolved through its annotation
    edges = q(sample_repo, """SELECT b.qualified_name, r.resolution FROM symbol_refs r
                              JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id
                              WHERE a.qualified_name = 'shop.models.discount'""")
    assert ("shop.models.Item.total", "annotated_type") in edges
    # no edge points at a deleted symbol
    dangling = q(sample_repo, "SELECT COUNT(*) FROM symbol_refs WHERE callee_id IS NOT NULL AND callee_id NOT IN (SELECT id FROM symbols)")
    assert dangling == [(0,)]


def test_refresh_matches_full_rebuild(sample_repo, tmp_path):
    """Incremental results equal a from-scratch index of the same tree (modulo ids)."""
    index_repo(sample_repo, workers=1)
    orders = sample_repo / "shop/orders.py"
    orders.write_text(orders.read_text().replace("class RushOrder(Order):", "class RushOrder(Order):\n    speed = 2\n"))
    bump(orders)
    (sample_repo / "shop/extra.py").write_text("from .orders import RushOrder\n\ndef rush():\n    return RushOrder(None).amount()\n")
    index_repo(sample_repo, workers=1)

    def edge_set(db):
        conn = sqlite3.connect(db)
        rows = conn.execute("""SELECT a.qualified_name, COALESCE(b.qualified_name, r.callee_name), r.resolution, r.line
                               FROM symbol_refs r JOIN symbols a ON a.id = r.caller_id
                               LEFT JOIN symbols b ON b.id = r.callee_id""").fetchall()
        conn.close()
        return sorted(rows)

    fresh_db = tmp_path / "fresh.db"
    index_repo(sample_repo, db=fresh_db, workers=1)
    assert edge_set(sample_repo / ".lore" / "index.db") == edge_set(fresh_db)


def test_crash_mid_index_keeps_previous_index(sample_repo, monkeypatch):
    index_repo(sample_repo, workers=1)
    before = q(sample_repo, "SELECT COUNT(*) FROM symbol_refs")
    f = sample_repo / "shop/models.py"
    f.write_text(f.read_text() + "\ndef added():\n    pass\n")
    bump(f)

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(resolve_pool, "resolve_files", boom)
    with pytest.raises(KeyboardInterrupt):
        index_repo(sample_repo, workers=1)
    monkeypatch.undo()
    assert q(sample_repo, "SELECT COUNT(*) FROM symbol_refs") == before
    assert q(sample_repo, "SELECT value FROM meta WHERE key='generation'") == [("1",)]
    assert "shop.models.added" not in ids_by_qname(sample_repo)
    r = index_repo(sample_repo, workers=1)  # the next run picks the change up
    assert r.changed == ["shop/models.py"]


def test_reader_during_write_sees_last_commit(sample_repo):
    index_repo(sample_repo, workers=1)
    reader = sqlite3.connect(sample_repo / ".lore" / "index.db")
    reader.execute("BEGIN")
    n0 = reader.execute("SELECT COUNT(*) FROM symbols").fetchone()[0]
    f = sample_repo / "shop/models.py"
    f.write_text(f.read_text() + "\ndef more():\n    pass\n")
    bump(f)
    index_repo(sample_repo, workers=1)
    assert reader.execute("SELECT COUNT(*) FROM symbols").fetchone()[0] == n0  # snapshot isolation
    reader.rollback()
    assert reader.execute("SELECT COUNT(*) FROM symbols").fetchone()[0] == n0 + 1
    reader.close()


def test_second_writer_is_refused(sample_repo):
    index_repo(sample_repo, workers=1)
    lock = indexer._Lock(sample_repo / ".lore" / "index.db")
    with lock, pytest.raises(IndexBusyError, match="another process"):
        index_repo(sample_repo, workers=1)


def test_bad_input_is_skipped_and_counted(make_repo):
    root = make_repo({
        "ok.py": "def f():\n    pass\n",
        "syntax.py": "def g(:\n    return\n\ndef h():\n    f()\n",
        "latin1.py": "x = '\xe9'\n".encode("latin-1") + b"def k():\n    pass\n",
        "binary.py": b"\x00\x01\x02def x(): pass",
        "huge.py": "x = 1\n" * 50_000,
        ".gitignore": "ignored/\n*.gen.py\n",
        "ignored/a.py": "def nope(): pass\n",
        "gen.gen.py": "def nope2(): pass\n",
        "vendor/lib.py": "def vendored(): pass\n",
    })
    r = index_repo(root, workers=1, max_file_size=100_000, exclude=["vendor/"])
    paths = {p for (p,) in q(root, "SELECT path FROM files")}
    assert paths == {"ok.py", "syntax.py", "latin1.py"}
    assert r.skipped == {"binary": 1, "larger than 100000 bytes": 1}
    assert r.syntax_error_files == ["syntax.py"]
    names = set(ids_by_qname(root))
    assert {"syntax.h", "latin1.k"} <= names


def test_incompatible_schema_is_refused_by_readers_and_rebuilt_by_index(sample_repo):
    index_repo(sample_repo, workers=1)
    db = sample_repo / ".lore" / "index.db"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaVersionError, match="rebuild"):
        open_index(sample_repo)
    r = index_repo(sample_repo, workers=1)
    assert r.rebuilt_reason.startswith("schema version 999")
    assert open_index(sample_repo).generation == 1


def test_not_a_lore_index_is_refused(tmp_path):
    bogus = tmp_path / "x.db"
    bogus.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(SchemaVersionError):
        store_db.connect(bogus)


def test_parallel_parse_and_resolve_match_serial(sample_repo, tmp_path, monkeypatch):
    monkeypatch.setattr(indexer, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 1)
    index_repo(sample_repo, db=tmp_path / "par.db", workers=2)
    monkeypatch.setattr(indexer, "PARALLEL_THRESHOLD", 10_000)
    index_repo(sample_repo, db=tmp_path / "ser.db", workers=1)

    def dump(db):
        conn = sqlite3.connect(db)
        rows = conn.execute("SELECT qualified_name, kind, start_line FROM symbols ORDER BY id").fetchall()
        rows += sorted(conn.execute("""SELECT a.qualified_name, COALESCE(b.qualified_name, r.callee_name), r.resolution
                                       FROM symbol_refs r JOIN symbols a ON a.id = r.caller_id
                                       LEFT JOIN symbols b ON b.id = r.callee_id""").fetchall())
        conn.close()
        return rows

    assert dump(tmp_path / "par.db") == dump(tmp_path / "ser.db")


def test_mtime_only_change_is_cheap(sample_repo):
    index_repo(sample_repo, workers=1)
    t = time.perf_counter()
    r = index_repo(sample_repo, workers=1)
    assert not r.changed_any
    assert time.perf_counter() - t < 5  # sanity only; speed is measured in benchmarks/perf
