"""The sharded Parquet edge store: same graph and answers as SQLite, generations, crash safety, damage."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyarrow")

from typer.testing import CliRunner  # noqa: E402

from lore.cli import app  # noqa: E402
from lore.errors import EdgeStoreError, InvalidArgumentError, MissingExtraError  # noqa: E402
from lore.graphs import build  # noqa: E402
from lore.index import index_repo  # noqa: E402
from lore.store import db as store_db  # noqa: E402
from lore.store import parquet  # noqa: E402

LORE_INDEX = Path(__file__).resolve().parents[2] / "lore" / "index"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of lore's indexer package: hundreds of symbols, duplicate call edges, every relation."""
    root = tmp_path / "repo"
    shutil.copytree(LORE_INDEX, root / "pyindex", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def stamp_of(db: str | Path) -> str:
    conn = store_db.connect(db)
    try:
        return store_db.index_stamp(conn)
    finally:
        conn.close()


def fresh_graph(db: str | Path) -> tuple[build.CodeGraph, str]:
    """A graph built now (no in-memory or on-disk cache) and where its edges came from."""
    build._MEMORY.clear()
    shutil.rmtree(build._cache_path(Path(db)), ignore_errors=True)
    conn = store_db.connect(db)
    try:
        return build.build_graph(conn, db), build.edge_arrays(conn, db)[1]
    finally:
        conn.close()


def same_graph(a: build.CodeGraph, b: build.CodeGraph) -> None:
    assert a.stamp == b.stamp and np.array_equal(a.nodes.ids, b.nodes.ids)
    for name in build.RELATIONS:
        x, y = a.matrix(name), b.matrix(name)
        assert x.shape == y.shape and x.nnz == y.nnz, name
        for part in ("data", "indices", "indptr"):
            assert getattr(x, part).tobytes() == getattr(y, part).tobytes(), (name, part)


def test_shards_hold_the_sqlite_graph(repo, tmp_path):
    report = index_repo(repo, db=tmp_path / "i.db", edge_store="parquet")
    stamp = stamp_of(report.db)
    folder = parquet.state_dir(report.db, stamp)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["stamp"] == stamp and manifest["relations"]["calls"]["rows"] > 200
    g_parquet, source = fresh_graph(report.db)
    assert source == "parquet"
    index_repo(repo, db=tmp_path / "i.db", edge_store="sqlite")  # no code change: same generation, no shards
    assert stamp_of(report.db) == stamp and not parquet.store_dir(report.db).exists()
    g_sqlite, source = fresh_graph(report.db)
    assert source == "sqlite"
    same_graph(g_parquet, g_sqlite)
    assert g_sqlite.matrix("calls").nnz < manifest["relations"]["calls"]["rows"]  # duplicates were summed


def test_small_shards_read_back_in_order(repo, tmp_path):
    report = index_repo(repo, db=tmp_path / "i.db")
    conn = store_db.connect(report.db)
    try:
        stamp = store_db.index_stamp(conn)
        parquet.write_state(conn, report.db, stamp, rows_per_shard=7)
        expected = {n: parquet.rows_to_arrays(rows(conn)) for n, rows in parquet.RELATION_ROWS.items()}
    finally:
        conn.close()
    shards = json.loads((parquet.state_dir(report.db, stamp) / "manifest.json").read_text())["relations"]["calls"]
    assert len(shards["shards"]) == -(-shards["rows"] // 7) > 10
    got = parquet.read_state(report.db, stamp)
    for name, cols in expected.items():
        for a, b in zip(cols, got[name], strict=True):
            assert a.tobytes() == b.tobytes(), name
    with pytest.raises(ValueError):
        parquet.write_state(store_db.connect(report.db), report.db, stamp, rows_per_shard=0)


def run(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def test_cli_answers_are_byte_identical(repo, tmp_path):
    db = str(tmp_path / "i.db")
    run("index", str(repo), "--db", db, "--edge-store", "parquet")
    conn = store_db.connect(db)
    try:
        qnames = [r[0] for r in conn.execute(
            "SELECT s.qualified_name FROM symbols s JOIN symbol_refs r ON r.callee_id = s.id WHERE s.kind != 'external' "
            # each with callees of its own too (a method a base class only declares calls nothing)
            "AND EXISTS (SELECT 1 FROM symbol_refs o WHERE o.caller_id = s.id AND o.callee_id IS NOT NULL) "
            "GROUP BY s.id ORDER BY COUNT(*) DESC, s.id LIMIT 2")]
    finally:
        conn.close()
    questions = [("graph", "callers", qnames[0]), ("graph", "call", qnames[1])]
    questions += [("graph", "related", q, "--algorithm", a) for q in qnames for a in ("overlap", "pagerank", "fusion")]

    def answers() -> list[str]:
        build._MEMORY.clear()
        shutil.rmtree(build._cache_path(Path(db)), ignore_errors=True)
        return [run(*q, "--db", db, "--json") for q in questions]

    with_parquet = answers()
    assert build.edge_arrays(store_db.connect(db), db)[1] == "parquet"
    run("index", str(repo), "--db", db, "--edge-store", "sqlite")
    without = answers()
    assert build.edge_arrays(store_db.connect(db), db)[1] == "sqlite"
    assert with_parquet == without
    assert all(json.loads(a)["results"] for a in with_parquet)


def test_generations_refresh_and_prune(repo, tmp_path):
    db = tmp_path / "i.db"
    first = index_repo(repo, db=db, edge_store="parquet")
    s1 = stamp_of(db)
    (repo / "pyindex" / "more.py").write_text("from .walk import walk\n\n\ndef go(r):\n    return walk(r)\n")
    second = index_repo(repo, db=db)  # the index's choice is kept without the option
    s2 = stamp_of(db)
    assert second.generation == first.generation + 1
    assert {p.name for p in parquet.store_dir(db).iterdir()} == {s1.replace(":", "-"), s2.replace(":", "-")}
    (repo / "pyindex" / "more.py").unlink()
    index_repo(repo, db=db)
    s3 = stamp_of(db)
    assert {p.name for p in parquet.store_dir(db).iterdir()} == {s2.replace(":", "-"), s3.replace(":", "-")}
    g, source = fresh_graph(db)
    assert source == "parquet" and g.stamp == s3
    rebuilt = index_repo(repo, db=db, rebuild=True)  # a rebuild keeps the choice too, under a new identity
    assert rebuilt.rebuilt_reason and parquet.is_valid(db, stamp_of(db)) and stamp_of(db).split(":")[0] != s3.split(":")[0]


def test_damaged_shard_falls_back_and_is_repaired(repo, tmp_path, caplog):
    db = tmp_path / "i.db"
    index_repo(repo, db=db, edge_store="parquet")
    stamp = stamp_of(db)
    g_good, _ = fresh_graph(db)
    shard = parquet.state_dir(db, stamp) / "calls-00000.parquet"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    with pytest.raises(EdgeStoreError, match="lore index"):
        parquet.read_state(db, stamp)
    with caplog.at_level(logging.WARNING, logger="lore"):
        g_fallback, source = fresh_graph(db)
    assert source == "sqlite" and "reading the edges from SQLite instead" in caplog.text
    assert len([r for r in caplog.records if r.name == "lore"]) == 2  # one line per build, nothing else
    same_graph(g_good, g_fallback)
    report = index_repo(repo, db=db)  # nothing changed in the code, but the damaged state is rewritten
    assert not report.changed_any and parquet.is_valid(db, stamp)
    shutil.rmtree(parquet.state_dir(db, stamp))  # a state gone (pruned under a slow reader): SQLite again
    assert fresh_graph(db)[1] == "sqlite"


def test_missing_pyarrow(repo, tmp_path, monkeypatch, caplog):
    db = tmp_path / "i.db"
    index_repo(repo, db=db, edge_store="parquet")
    g_good, _ = fresh_graph(db)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(MissingExtraError, match=r"lore-graph\[ray\]"):
        index_repo(repo, db=tmp_path / "other.db", edge_store="parquet")
    assert not (tmp_path / "other.db").exists()
    with caplog.at_level(logging.WARNING, logger="lore"):
        g, source = fresh_graph(db)
    assert source == "sqlite" and "pip install" in caplog.text
    same_graph(g_good, g)


def test_unknown_names_are_one_line_exit_2(repo, tmp_path):
    with pytest.raises(InvalidArgumentError):
        index_repo(repo, db=tmp_path / "i.db", edge_store="csv")
    for opt, value in (("--executor", "spark"), ("--edge-store", "csv")):
        res = CliRunner().invoke(app, ["index", str(repo), "--db", str(tmp_path / "i.db"), opt, value])
        assert res.exit_code == 2 and res.output.strip().count("\n") == 0 and value in res.output
    assert not (tmp_path / "i.db").exists()


KILLER = textwrap.dedent("""
    import os, signal, sys
    from lore.store import parquet
    from lore.index import index_repo
    original = parquet.write_state
    def write_then_die(conn, db_path, stamp, **kw):
        if sys.argv[3] == "after":
            original(conn, db_path, stamp, **kw)  # the new state's folder exists, its commit never happens
        else:
            kw["rows_per_shard"] = 5
            real = parquet._write_bytes
            count = [0]
            def die_midway(path, data):
                count[0] += 1
                if count[0] == 3:
                    os.kill(os.getpid(), signal.SIGKILL)
                real(path, data)
            parquet._write_bytes = die_midway
            original(conn, db_path, stamp, **kw)
        os.kill(os.getpid(), signal.SIGKILL)
    parquet.write_state = write_then_die
    index_repo(sys.argv[1], db=sys.argv[2])
""")


@pytest.mark.parametrize("when", ["midway", "after"])
def test_killed_writer_leaves_the_last_good_set(repo, tmp_path, when):
    db = tmp_path / "i.db"
    index_repo(repo, db=db, edge_store="parquet")
    before = stamp_of(db)
    g_before, _ = fresh_graph(db)
    (repo / "pyindex" / "more.py").write_text("from .walk import walk\n\n\ndef go(r):\n    return walk(r)\n")
    proc = subprocess.run([sys.executable, "-c", KILLER, str(repo), str(db), when], capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()[-2000:]
    assert stamp_of(db) == before  # the SQLite store is the last committed one...
    g_after, source = fresh_graph(db)
    assert source == "parquet"  # ... and so are the shards readers take
    same_graph(g_before, g_after)
    leftovers = {p.name for p in parquet.store_dir(db).iterdir()}
    assert before.replace(":", "-") in leftovers and len(leftovers) == 2  # plus the dead writer's folder
    report = index_repo(repo, db=db)
    assert report.added == ["pyindex/more.py"]
    now = stamp_of(db)
    assert parquet.is_valid(db, now) and not any(p.name.startswith(".tmp") for p in parquet.store_dir(db).iterdir())
    assert sorted(os.listdir(parquet.store_dir(db))) == sorted({before.replace(":", "-"), now.replace(":", "-")})
