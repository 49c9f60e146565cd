"""Indexing: full build, incremental refresh, id stability, crash safety, bad input."""

from __future__ import annotations

import os
import sqlite3
import time

import pytest

from lore import IndexBusyError, NotAnIndexError, SchemaVersionError, index_repo, lore_graph, open_index
from lore.index import _parse, resolve_pool
from lore.index._lock import WriterLock
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



def test_refresh_that_drops_a_function_leaves_no_edge_without_its_symbols(tmp_path):
    """A changed file whose function is gone: the edges that started in it go too (they used to stay,
    pointing at a symbol id that no longer exists, and every graph query then failed)."""
    root = tmp_path / "repo"
    root.mkdir()
    for i in range(3):
        (root / f"m{i}.py").write_text(
            f"from m{(i + 1) % 3} import f{(i + 1) % 3}_0\n\n"
            + "".join(f"def f{i}_{k}(x):\n    return f{i}_{(k + 1) % 3}(x) + f{(i + 1) % 3}_0(x)\n\n" for k in range(3)))
    index_repo(root, workers=1)
    for i in range(3):  # the last function of every file goes
        path = root / f"m{i}.py"
        path.write_text(path.read_text().split(f"def f{i}_2")[0])
        bump(path)
    index_repo(root, workers=1)
    orphans = q(root, """SELECT
        (SELECT count(*) FROM symbol_refs r WHERE NOT EXISTS (SELECT 1 FROM symbols s WHERE s.id = r.caller_id)),
        (SELECT count(*) FROM symbol_refs r WHERE r.callee_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.id = r.callee_id)),
        (SELECT count(*) FROM type_refs r WHERE NOT EXISTS (SELECT 1 FROM symbols s WHERE s.id = r.symbol_id)),
        (SELECT count(*) FROM symbol_relationships r WHERE NOT EXISTS (SELECT 1 FROM symbols s WHERE s.id = r.source_id))""")
    assert orphans == [(0, 0, 0, 0)]
    idx = open_index(root)  # the graph builds and answers: every edge names a real symbol
    got = lore_graph(idx, kind="related", source_id="m0.f0_0", algorithm="overlap")["results"]
    assert got and all(r["qualified_name"] != "m0.f0_2" for r in got)
    assert sorted(r["qualified_name"] for r in lore_graph(idx, kind="call", source_id="m0.f0_0")["results"]) == [
        "m0.f0_1", "m1.f1_0"]

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
    lock = WriterLock(sample_repo / ".lore" / "index.db")
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
    again = index_repo(root, workers=1, max_file_size=100_000, exclude=["vendor/"])
    assert not again.changed_any and again.unchanged == 3  # skipped files are not "unchanged" ones
    assert again.skipped == {"binary": 1, "larger than 100000 bytes": 1}  # and are counted every run


def test_incompatible_schema_is_refused_by_readers_and_rebuilt_by_index(sample_repo):
    index_repo(sample_repo, workers=1)
    db = sample_repo / ".lore" / "index.db"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")  # an older lore's (a newer one's is
    conn.commit()  # refused: tests/faults/test_damaged_index.py)
    conn.close()
    with pytest.raises(SchemaVersionError, match="rebuild"):
        open_index(sample_repo)
    r = index_repo(sample_repo, workers=1)
    assert r.rebuilt_reason.startswith("schema version 1 ") and r.full
    idx = open_index(sample_repo)
    assert idx.generation == 2  # generations only ever grow, across rebuilds too
    assert [s["qualified_name"] for s in idx.symbols(kind="class")] == [
        "shop.models.Item", "shop.orders.Order", "shop.orders.RushOrder"]
    idx.close()


@pytest.mark.parametrize("content", ["text", "sqlite"])
def test_not_a_lore_index_is_refused_and_left_alone(tmp_path, sample_repo, content):
    bogus = tmp_path / "x.db"
    if content == "text":
        bogus.write_bytes(b"this is not sqlite at all" * 100)
    else:
        conn = sqlite3.connect(bogus)
        conn.execute("CREATE TABLE users (name TEXT)")
        conn.commit()
        conn.close()
    before = bogus.read_bytes()
    with pytest.raises(NotAnIndexError, match="not a lore index"):
        store_db.connect(bogus)
    with pytest.raises(NotAnIndexError, match="another --db path"):
        index_repo(sample_repo, db=bogus, workers=1)
    with pytest.raises(NotAnIndexError):
        index_repo(sample_repo, db=bogus, workers=1, rebuild=True)
    assert bogus.read_bytes() == before


def test_parallel_parse_and_resolve_match_serial(sample_repo, tmp_path, monkeypatch):
    monkeypatch.setattr(_parse, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 1)
    index_repo(sample_repo, db=tmp_path / "par.db", workers=2)
    monkeypatch.setattr(_parse, "PARALLEL_THRESHOLD", 10_000)
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
    """A touched file is hashed again, found equal, and nothing else happens (speed: benchmarks/perf)."""
    index_repo(sample_repo, workers=1)
    bump(sample_repo / "shop/models.py")
    r = index_repo(sample_repo, workers=1)
    assert not r.changed_any and r.generation == 1 and r.unchanged == 5
    assert "resolve" not in r.seconds  # no write transaction, no resolution
    assert q(sample_repo, "SELECT mtime_ns FROM files WHERE path = 'shop/models.py'") == [
        ((sample_repo / "shop/models.py").stat().st_mtime_ns,)]  # the new mtime is recorded: not re-hashed next time


# -- real processes: kill -9 in the middle of a write, a second process reading during a write -------------
PAUSING_INDEXER = """
import os, sys, time
from pathlib import Path
from lore import index_repo

root, marker, go, rebuild = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4] == "1"

def progress(phase, done, total):
    # resolution starts after the new symbols were written, inside the one open transaction
    if phase == "resolve" and not marker.exists():
        marker.write_text(str(os.getpid()))
        while not go.exists():
            time.sleep(0.02)

report = index_repo(root, workers=1, rebuild=rebuild, progress=progress)
print(report.generation)
"""


def start_pausing_indexer(root, tmp_path, *, rebuild=False):
    import subprocess
    import sys

    marker, go = tmp_path / "paused", tmp_path / "go"
    for p in (marker, go):
        p.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", PAUSING_INDEXER, str(root), str(marker), str(go), str(int(rebuild))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not marker.exists():
        if proc.poll() is not None:
            raise AssertionError(f"the indexer ended before pausing: {proc.communicate()}")
        assert time.monotonic() < deadline, "the indexer never reached the resolve phase"
        time.sleep(0.02)
    return proc, go


def snapshot(root):
    conn = sqlite3.connect(f"file:{root / '.lore' / 'index.db'}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return (conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0],
                conn.execute("SELECT id, qualified_name FROM symbols ORDER BY id").fetchall(),
                conn.execute("SELECT caller_id, callee_id, line, resolution FROM symbol_refs"
                             " ORDER BY caller_id, line, col, callee_id").fetchall())
    finally:
        conn.close()


def grow(root, n=40):
    """Change one file and add n more, so the next run has real work inside its transaction."""
    f = root / "shop/models.py"
    f.write_text(f.read_text() + "\ndef added():\n    return Item('x', 1.0).total(2)\n")
    bump(f)
    for i in range(n):
        (root / f"shop/gen_{i}.py").write_text(f"from shop.models import Item\n\ndef g{i}():\n    return Item('a', {i}).total(1)\n")


@pytest.mark.parametrize("rebuild", [False, True], ids=["refresh", "rebuild"])
def test_kill_9_mid_index_leaves_the_previous_index_intact(sample_repo, tmp_path, rebuild):
    import signal

    index_repo(sample_repo, workers=1)
    before = snapshot(sample_repo)
    grow(sample_repo)
    proc, _go = start_pausing_indexer(sample_repo, tmp_path, rebuild=rebuild)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert snapshot(sample_repo) == before  # readable, intact, same generation
    with open_index(sample_repo, readonly=True) as idx:
        assert "shop.gen_0.g0" not in {s["qualified_name"] for s in idx.symbols()}
    r = index_repo(sample_repo, workers=1, rebuild=rebuild)  # the lock died with the process
    assert r.generation == 2 and ("shop/gen_0.py" in r.added or rebuild)
    with open_index(sample_repo, readonly=True) as idx:
        assert "shop.gen_0.g0" in {s["qualified_name"] for s in idx.symbols()}


def test_kill_9_during_the_first_index_leaves_no_index(sample_repo, tmp_path):
    import signal

    from lore.errors import IndexNotFoundError

    proc, _go = start_pausing_indexer(sample_repo, tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    with pytest.raises(IndexNotFoundError, match="interrupted.*run `lore index`"):
        open_index(sample_repo)
    assert index_repo(sample_repo, workers=1).full


def test_another_process_reads_while_the_index_is_written(sample_repo, tmp_path):
    import json
    import subprocess
    import sys

    index_repo(sample_repo, workers=1)
    grow(sample_repo)
    writer, go = start_pausing_indexer(sample_repo, tmp_path)
    try:
        # the writer holds its transaction open; a reader in another process is neither blocked nor
        # shown half-written rows: it sees the last commit
        reader = subprocess.run([sys.executable, "-m", "lore", "stats", "--db", str(sample_repo), "--json"],
                                capture_output=True, text=True, timeout=60)
        assert reader.returncode == 0, reader.stderr
        stats = json.loads(reader.stdout)
        assert stats["generation"] == 1 and stats["files"] == 5
    finally:
        go.write_text("go")
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    assert out.strip() == "2"
    reader = subprocess.run([sys.executable, "-m", "lore", "stats", "--db", str(sample_repo), "--json"],
                            capture_output=True, text=True, timeout=60)
    assert json.loads(reader.stdout)["files"] == 45


def test_an_index_another_lore_wrote_is_rebuilt_once(tmp_path):
    """Unchanged files are never parsed or resolved again, so an index written by a lore whose parsers
    or resolver made other records or edges (another ``INDEX_FORMAT``) is rebuilt by the next run,
    documents kept; then it is current again."""
    import sqlite3

    from lore.store.schema import INDEX_FORMAT

    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def f():\n    return g()\n\ndef g():\n    return 1\n")
    db = tmp_path / "i.db"
    first = index_repo(root, db=db, workers=1)
    assert not first.rebuilt_reason
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key = 'index_format'").fetchone() == (str(INDEX_FORMAT),)
    conn.execute("DELETE FROM symbol_refs")  # what an older resolver left: no edge at all
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'index_format'")
    conn.commit()
    conn.close()
    again = index_repo(root, db=db, workers=1)
    assert again.rebuilt_reason.startswith(f"index format 0 -> {INDEX_FORMAT}")
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM symbol_refs").fetchone()[0] > 0
    conn.close()
    assert not index_repo(root, db=db, workers=1).rebuilt_reason  # current again: nothing to do
