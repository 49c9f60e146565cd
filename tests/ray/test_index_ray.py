"""``lore index --executor ray`` writes the very store a local run writes: every table, row for row, id for id."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("ray")

from lore.index import _parse, index_repo, resolve_pool  # noqa: E402
from lore.parsers.records import decode  # noqa: E402
from lore.store import db as store_db  # noqa: E402
from lore.store import parquet  # noqa: E402

HERE = Path(__file__).resolve().parent
VOLATILE_META = {"index_id", "created_at", "updated_at", "scanned_at_ns"}  # random identity and clock times


def dump(db: Path) -> dict[str, list[tuple]]:
    """Every table of the index (FTS shadow tables included), rows sorted, with rowids where the table has them.

    ``file_records.data`` is compared decoded: it is a marshal blob, and marshal marks a string as
    interned when the process that parsed the file happened to intern it (a Ray worker has imported
    other modules than a pool worker), so equal records can differ in a few bytes.
    """
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        index_id = dict(conn.execute("SELECT key, value FROM meta")).get("index_id") or "?"
        out: dict[str, list[tuple]] = {}
        for name in names:
            try:
                rows = conn.execute(f'SELECT rowid, * FROM "{name}"').fetchall()
            except sqlite3.OperationalError:  # WITHOUT ROWID, or a virtual table without one
                rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
            if name == "meta":
                rows = [r for r in rows if r[1] not in VOLATILE_META]
            if name == "derived_state":  # stamped with the random identity: compared without it
                rows = [(r[0], r[1], r[2].replace(index_id, "<index_id>"), *r[3:]) for r in rows]
            if name == "file_records":
                rows = [(r[0], r[1], decode(r[2]), *r[3:]) for r in rows]  # rowid, file_id, data, ...
            out[name] = sorted(rows, key=repr)
        return out
    finally:
        conn.close()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Every language fixture plus lore's own indexer package (Python with imports, classes, flow)."""
    root = tmp_path / "repo"
    shutil.copytree(HERE.parent / "fixtures", root / "fixtures")
    shutil.copytree(HERE.parent.parent / "lore" / "index", root / "pyindex", ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture
def small_batches(monkeypatch):
    """Many Ray tasks, and resolution in chunks both ways, even on a small repository (the real thresholds
    want hundreds of files). Both executors then cut the files into the same ``2 * workers`` chunks."""
    monkeypatch.setattr(_parse, "RAY_BATCH_FILES", 5)
    monkeypatch.setattr(_parse, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(resolve_pool, "RAY_MIN_FILES", 2)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 1)


def test_ray_index_is_the_local_index(ray_local, repo, tmp_path, small_batches):
    local = index_repo(repo, db=tmp_path / "local.db", workers=2)
    ray = index_repo(repo, db=tmp_path / "ray.db", executor="ray", workers=2)
    assert local.symbols > 300 and local.edges["symbol_refs"] > 300
    assert (ray.symbols, ray.edges, ray.added) == (local.symbols, local.edges, local.added)
    a, b = dump(tmp_path / "local.db"), dump(tmp_path / "ray.db")
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], name


def test_ray_refresh_is_the_local_refresh(ray_local, repo, tmp_path, small_batches):
    """Incremental runs with either executor, and from one executor to the other, agree too."""
    index_repo(repo, db=tmp_path / "local.db", workers=2)
    index_repo(repo, db=tmp_path / "ray.db", executor="ray", workers=2)
    mod = repo / "pyindex" / "walk.py"
    mod.write_text(mod.read_text() + "\n\ndef added_helper():\n    return is_test_path('x')\n")
    (repo / "pyindex" / "config.py").unlink()
    (repo / "pyindex" / "extra.py").write_text("from .walk import walk\n\n\ndef go(root):\n    return walk(root)\n")
    local = index_repo(repo, db=tmp_path / "local.db", workers=2)
    ray = index_repo(repo, db=tmp_path / "ray.db", executor="ray", workers=2)
    assert (ray.changed, ray.added, ray.removed) == (local.changed, local.added, local.removed) == (
        ["pyindex/walk.py"], ["pyindex/extra.py"], ["pyindex/config.py"])
    assert ray.reresolved_files == local.reresolved_files > 1
    assert dump(tmp_path / "local.db") == dump(tmp_path / "ray.db")
    assert not index_repo(repo, db=tmp_path / "ray.db", executor="ray", workers=2).changed_any


def test_ray_index_with_parquet_edges(ray_local, repo, tmp_path, small_batches):
    ray = index_repo(repo, db=tmp_path / "ray.db", executor="ray", workers=2, edge_store="parquet")
    local = index_repo(repo, db=tmp_path / "local.db", workers=2, edge_store="parquet")
    conn_r, conn_l = store_db.connect(ray.db), store_db.connect(local.db)
    try:
        got_r = parquet.read_state(ray.db, store_db.index_stamp(conn_r))
        got_l = parquet.read_state(local.db, store_db.index_stamp(conn_l))
    finally:
        conn_r.close()
        conn_l.close()
    for name in parquet.RELATION_ROWS:
        for col_r, col_l in zip(got_r[name], got_l[name], strict=True):
            assert col_r.tolist() == col_l.tolist(), name
    assert len(got_r["calls"][0]) > 100


def test_cli_executor_ray(ray_local, repo, tmp_path):
    from typer.testing import CliRunner

    from lore.cli import app

    res = CliRunner().invoke(app, ["index", str(repo / "pyindex"), "--db", str(tmp_path / "c.db"), "--executor", "ray",
                                   "--json"])
    assert res.exit_code == 0, res.output
    assert dump(tmp_path / "c.db")["symbols"]


def test_ray_workers_read_cpp_files_with_the_drivers_macro_table(ray_local, tmp_path, small_batches):
    """A namespace macro one header defines (the project-wide C++ table) reaches Ray's workers too: they are not
    forked from the driver, so without it their C++ parses lose the namespace a local run finds."""
    root = tmp_path / "cpp"
    (root / "include").mkdir(parents=True)
    (root / "include" / "config.h").write_text(
        "#pragma once\n#define LIB_BEGIN namespace lib {\n#define LIB_END }\n#define LIB_API\n")
    (root / "render.cpp").write_text('#include "include/config.h"\nLIB_BEGIN\n'
                                     "class LIB_API Canvas {\npublic:\n    int draw();\n};\n"
                                     "int Canvas::draw() { return 1; }\nint render() { return 2; }\nLIB_END\n")
    for i in range(6):  # several Ray tasks of 5 files
        (root / f"use{i}.cpp").write_text('#include "include/config.h"\nLIB_BEGIN\nint render();\n'
                                          f"int use{i}() {{ Canvas c; return c.draw() + render(); }}\nLIB_END\n")
    local = index_repo(root, db=tmp_path / "local.db", workers=2)
    ray = index_repo(root, db=tmp_path / "ray.db", executor="ray", workers=2)
    names = {q for (q,) in sqlite3.connect(tmp_path / "local.db").execute("SELECT qualified_name FROM symbols")}
    assert any(q.endswith("lib.Canvas.draw") for q in names), sorted(names)
    assert (ray.symbols, ray.edges) == (local.symbols, local.edges)
    assert dump(tmp_path / "local.db") == dump(tmp_path / "ray.db")
