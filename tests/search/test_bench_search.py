"""The search benchmark's protocol (lore.bench.search): queries, honest docstring removal, metrics."""

from __future__ import annotations

import json
import shutil

from lore.bench.search import docstring_leaks, metrics, pick_queries, quality, remove_docstrings
from lore.search.vectors import clear_cache, refresh_code_vectors
from lore.store import search as store
from lore.store.db import connect
from lore.text.tokens import body_text

from .conftest import ids_by_qname


def test_docstrings_are_gone_from_every_indexed_text(keyword_db, tmp_path):
    db = tmp_path / "q.db"
    shutil.copy(keyword_db, db)
    conn = connect(db)
    try:
        queries = pick_queries(conn, 10, 0)
        assert [q for _i, q, _t in queries] == [
            "app.net.HttpClient.retry_request", "app.net.getUserById", "app.util.backoff_delay"
        ]
        assert len(docstring_leaks(conn, queries)) == 3  # the check sees them before removal
        remove_docstrings(conn, [i for i, _q, _t in queries])
        assert docstring_leaks(conn, queries) == []
        # the class body held its method's docstring too
        ids = ids_by_qname(db)
        head = " ".join(body_text("Retry a failed request with exponential backoff.").split()[:6])
        columns, docstring = store.symbol_index_texts(conn, ids["app.net.HttpClient"])
        assert docstring == "Talks to the server." and "def send" in columns[5]  # its own: kept
        assert not any(head in c for c in columns)
    finally:
        conn.close()


def test_quality_runs_every_mode_with_baselines(keyword_db, tmp_path):
    db = tmp_path / "q.db"
    shutil.copy(keyword_db, db)
    conn = connect(db)
    try:
        queries = pick_queries(conn, 10, 0)
        remove_docstrings(conn, [i for i, _q, _t in queries])
        refresh_code_vectors(conn, embedder="hashing", full=True)
        clear_cache()
        got = quality(conn, queries, {"keyword": {"mode": "keyword"}, "hybrid": {"mode": "hybrid"}}, seed=0)
    finally:
        conn.close()
    assert set(got) == {"baseline/fts5-plain-any", "baseline/random-of-candidates", "keyword", "keyword+expand",
                        "hybrid", "hybrid+expand"}
    assert got["keyword"]["recall@10"] == 1.0  # each name says what its docstring said


def test_metrics_count_only_the_top_ten_for_mrr():
    assert metrics([1, 2, 11, None]) == {"recall@1": 0.25, "recall@5": 0.5, "recall@10": 0.5, "mrr": 0.375}


def test_bench_search_command_on_a_small_repo(keyword_db):
    import typer
    from typer.testing import CliRunner

    from lore.cli.bench import bench_search_command

    app = typer.Typer()
    app.command()(bench_search_command)  # the one command of this app: no name to give
    root = keyword_db.parent.parent
    res = CliRunner().invoke(app, [str(root), "--queries", "3", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["queries"] == 3 and report["docstring_leaks"] == [] and report["gate_failures"] == []
    assert report["quality"]["keyword"]["recall@10"] == 1.0
    assert "hybrid+expand (defaults)" in " ".join(report["speed"])
    bad = CliRunner().invoke(app, [str(root / "nope")])
    assert bad.exit_code != 0 and "not a directory" in str(bad.exception)
