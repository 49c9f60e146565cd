"""The Parquet edge store under the Ray engine: the same JSON as the SQLite rows and the local engine."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("ray")
pytest.importorskip("pyarrow")

from typer.testing import CliRunner  # noqa: E402

from lore.cli import app  # noqa: E402
from lore.graphs import build  # noqa: E402
from lore.store import db as store_db  # noqa: E402

LORE_INDEX = Path(__file__).resolve().parents[2] / "lore" / "index"


def run(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def test_ray_engine_answers_the_same_from_parquet(ray_local, tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(LORE_INDEX, root / "pyindex", ignore=shutil.ignore_patterns("__pycache__"))
    db = str(tmp_path / "i.db")
    run("index", str(root), "--db", db, "--edge-store", "parquet", "--executor", "ray")
    questions = [("graph", "related", "pyindex.walk.walk", "--algorithm", a) for a in ("overlap", "pagerank")]
    questions.append(("graph", "callers", "pyindex.walk.is_test_path"))

    def answers(engine: str) -> list[str]:
        build._MEMORY.clear()
        shutil.rmtree(build._cache_path(Path(db)), ignore_errors=True)
        extra = ("--engine", engine) if engine == "ray" else ()
        return [run(*q, "--db", db, "--json", *(extra if q[1] == "related" else ())) for q in questions]

    conn = store_db.connect(db)
    try:
        assert build.edge_arrays(conn, db)[1] == "parquet"
    finally:
        conn.close()
    ray_parquet, local_parquet = answers("ray"), answers("local")
    run("index", str(root), "--db", db, "--edge-store", "sqlite")
    ray_sqlite = answers("ray")
    assert ray_parquet == local_parquet == ray_sqlite
    assert '"results": []' not in ray_parquet[0]
