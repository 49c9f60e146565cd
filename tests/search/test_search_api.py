"""The search() entry point: modes, fallback, filters, expansion, files, bad input, vectors refresh."""

from __future__ import annotations

import sqlite3

import pytest

from lore.api import open_index
from lore.errors import InvalidArgumentError, QueryError, UnknownAlgorithmError
from lore.index import index_repo
from lore.search.api import search
from lore.search.expand import expand_hits
from lore.search.vectors import refresh_code_vectors, vector_index
from lore.store.db import connect

from .conftest import ids_by_qname


def qnames(out: dict) -> list[str]:
    return [r["qualified_name"] for r in out["results"]]


def test_envelope_and_row_fields(keyword_db):
    out = search(keyword_db, "retry request", mode="keyword")
    assert set(out) >= {"query", "generation", "total", "truncated", "results", "model"}
    assert out["query"]["mode"] == "keyword" and out["query"]["limit"] == 5 and out["query"]["expand"] == 1
    assert out["generation"] >= 1
    row = out["results"][0]
    assert set(row) >= {
        "id",
        "name",
        "qualified_name",
        "kind",
        "path",
        "line",
        "score",
        "found_by",
        "is_test",
    }
    assert row["qualified_name"] == "app.net.HttpClient.retry_request" and row["score"] == 1.0


def test_hybrid_without_vectors_falls_back_to_keyword(keyword_db):
    out = search(keyword_db, "retry request")
    assert "keyword" in out["fallback"] and out["model"] is None
    assert qnames(out)[0] == "app.net.HttpClient.retry_request"
    with pytest.raises(QueryError, match="no code vectors"):
        search(keyword_db, "retry request", mode="vector")


@pytest.mark.parametrize("mode", ["hybrid", "vector"])
def test_vector_modes_with_vectors(vector_db, mode):
    out = search(vector_db, "retry failed request backoff", mode=mode, expand=0, min_score=0.0, limit=10)
    assert "fallback" not in out and out["model"] == "hashing-v1-384"
    assert "app.net.HttpClient.retry_request" in qnames(out)[:3]
    assert out["results"][0]["score"] == 1.0
    top = out["results"][0]["found_by"]
    assert "vector" in top and "cosine" in top["vector"]


def test_expansion_brings_the_class_with_its_path(keyword_db):
    out = search(keyword_db, "retry request", mode="keyword", expand=1, min_score=0.5, limit=10)
    rows = {r["qualified_name"]: r for r in out["results"]}
    cls = rows["app.net.HttpClient"]
    assert cls["score"] == pytest.approx(0.95)
    fb = cls["found_by"]
    assert fb["seed_qualified_name"] == "app.net.HttpClient.retry_request" and fb["hops"] == 1
    assert fb["path"][0]["edge"] == "contains" and fb["path"][0]["direction"] == "in"
    # calls out: retry_request -> backoff_delay (0.8)
    assert rows["app.util.backoff_delay"]["score"] == pytest.approx(0.8)
    assert all(r["score"] >= 0.5 for r in out["results"])
    none = search(keyword_db, "retry request", mode="keyword", expand=0, min_score=0.5, limit=10)
    assert "app.net.HttpClient" not in qnames(none)


def test_expansion_decay_override_and_min_score_pruning(keyword_db):
    out = search(keyword_db, "retry request", mode="keyword", expand=2, decay=0.5, min_score=0.3, limit=20)
    scores = {r["qualified_name"]: r["score"] for r in out["results"]}
    assert scores["app.net.HttpClient"] == pytest.approx(0.5)
    assert all(s >= 0.3 for s in scores.values())
    # two hops at 0.5 give 0.25 < 0.3: nothing two hops away survives
    assert all(len(r["found_by"].get("path", [])) <= 1 for r in out["results"])


def test_incoming_imports_are_not_followed(keyword_db):
    ids = ids_by_qname(keyword_db)
    conn = connect(keyword_db, readonly=True)
    try:
        got = expand_hits(conn, {ids["app.util"]: 1.0}, hops=1, min_score=0.0)
        # contains out, never the importers app.net / app.other
        assert ids["app.util.parse"] in got and ids["app.net"] not in got and ids["app.other"] not in got
        out = expand_hits(conn, {ids["app.other"]: 1.0}, hops=1, min_score=0.0)
        edges = {step["edge"] for _s, p in out.values() for step in p["path"]}
        assert "imports" in edges  # outgoing imports are followed
        assert out[ids["app.util.parse"]][0] == pytest.approx(0.7)
    finally:
        conn.close()


def test_each_symbol_keeps_its_best_score(keyword_db):
    ids = ids_by_qname(keyword_db)
    conn = connect(keyword_db, readonly=True)
    try:
        got = expand_hits(
            conn, {ids["app.net.HttpClient.retry_request"]: 1.0, ids["app.net"]: 0.6}, hops=2, min_score=0.1
        )
        score, prov = got[ids["app.net.HttpClient"]]
        assert score == pytest.approx(0.95) and prov["seed"] == ids["app.net.HttpClient.retry_request"]
    finally:
        conn.close()


def test_filters_kind_path_and_tests(keyword_db):
    out = search(keyword_db, "retry request", mode="keyword", kind="method", expand=1, min_score=0, limit=20)
    assert {r["kind"] for r in out["results"]} == {"method"}
    out = search(keyword_db, "retry request", mode="keyword", path_prefix="tests/", min_score=0, limit=20)
    assert out["results"] and all(r["path"].startswith("tests/") and r["is_test"] for r in out["results"])
    out = search(keyword_db, "retry request", mode="keyword", include_tests=False, min_score=0, limit=20)
    assert out["results"] and not any(r["is_test"] for r in out["results"])


def test_limit_truncates_and_reports_total(keyword_db):
    out = search(keyword_db, "request", mode="keyword", expand=0, min_score=0, limit=1)
    assert len(out["results"]) == 1 and out["total"] > 1 and out["truncated"]
    assert search(keyword_db, "request", mode="keyword", limit=0)["results"] == []


def test_file_search_exact_name_first(keyword_db):
    out = search(keyword_db, "util.py", files=True, mode="keyword")
    assert out["results"][0]["path"] == "app/util.py" and out["results"][0]["score"] == 1.0
    assert out["results"][0]["found_by"]["exact_path"] is True
    assert out["query"]["min_score"] == 0.3 and out["query"]["limit"] == 10
    out = search(keyword_db, "app/net.py", files=True)
    assert out["results"][0]["path"] == "app/net.py" and "HttpClient" in out["results"][0]["exports"]
    assert "app.util" in out["results"][0]["imports"]
    out = search(keyword_db, "backoff delay", files=True, mode="keyword")  # an exported name
    assert [r["path"] for r in out["results"]][:1] == ["app/util.py"]


def test_file_search_with_vectors(vector_db):
    out = search(vector_db, "network clients", files=True, mode="vector", min_score=0)
    assert out["results"][0]["path"] == "app/net.py"


@pytest.mark.parametrize(
    ("opts", "error"),
    [
        ({"expand": 4}, InvalidArgumentError),
        ({"expand": -1}, InvalidArgumentError),
        ({"limit": -1}, InvalidArgumentError),
        ({"top_k": 0}, InvalidArgumentError),
        ({"min_score": 1.5}, InvalidArgumentError),
        ({"decay": 0}, InvalidArgumentError),
        ({"mode": "fuzzy"}, UnknownAlgorithmError),
        ({"files": True, "expand": 1}, InvalidArgumentError),
        ({"files": True, "kind": "function"}, InvalidArgumentError),
    ],
)
def test_bad_options_are_one_clear_error(keyword_db, opts, error):
    with pytest.raises(error) as exc:
        search(keyword_db, "retry", **opts)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_query(keyword_db, query):
    with pytest.raises(QueryError, match="empty"):
        search(keyword_db, query)


def test_index_search_and_open_connection(keyword_db):
    with open_index(keyword_db.parent.parent, readonly=True) as idx:
        out = idx.search("getUserById", mode="keyword")
    assert out["results"][0]["qualified_name"] == "app.net.getUserById"
    conn = sqlite3.connect(keyword_db)
    try:
        assert search(conn, "getUserById", mode="keyword")["results"][0]["name"] == "getUserById"
    finally:
        conn.close()


def test_vectors_refresh_only_changed_symbols_and_cache_reloads(fresh_repo):
    db = fresh_repo / ".lore" / "index.db"
    conn = connect(db)
    try:
        first = refresh_code_vectors(conn, embedder="hashing")
        assert first["symbol"]["embedded"] > 5 and first["symbol"]["unchanged"] == 0
        before = vector_index(conn, "symbol", first["model"])
        again = refresh_code_vectors(conn, embedder="hashing")
        assert again["symbol"]["checked"] == 0 and again["file"]["checked"] == 0  # nothing written since
        assert vector_index(conn, "symbol", first["model"]) is before  # cached
        (fresh_repo / "app" / "util.py").write_text(
            '"""Helpers used everywhere."""\n\n\ndef backoff_delay(attempt):\n    """Jittered wait."""\n'
            "    return attempt\n"
        )
        index_repo(fresh_repo)
        third = refresh_code_vectors(conn, embedder="hashing")
        # only app/util.py is read (its module and backoff_delay); the new docstring is embedded
        assert third["symbol"]["checked"] == 2 and third["symbol"]["embedded"] == 1
        assert third["file"] == {"checked": 1, "embedded": 1, "unchanged": 0, "removed": 0}
        after = vector_index(conn, "symbol", first["model"])
        assert after is not before and len(after) == len(before)  # parse, load_config: kept for now
        out = search(conn, "parse text load config", mode="vector", expand=0, min_score=0, limit=50)
        assert not {"app.util.parse", "app.util.load_config"} & set(qnames(out))  # but never a hit
        assert search(conn, "jittered wait", mode="vector", expand=0)["results"][0]["qualified_name"] == (
            "app.util.backoff_delay"
        )
        full = refresh_code_vectors(conn, embedder="hashing", full=True)
        assert full["symbol"]["removed"] == 2 and full["symbol"]["embedded"] == 0
        assert len(vector_index(conn, "symbol", first["model"])) == len(before) - 2
    finally:
        conn.close()


def test_build_code_vectors_entry_point(fresh_repo):
    from lore.search.api import build_code_vectors

    assert build_code_vectors(fresh_repo, only_if_present=True) == {"model": None}
    first = build_code_vectors(fresh_repo, embedder="hashing")
    assert first["model"] == "hashing-v1-384" and first["symbol"]["embedded"] > 0
    again = build_code_vectors(fresh_repo, only_if_present=True)  # keeps the stored model
    assert again["model"] == "hashing-v1-384" and again["symbol"]["embedded"] == 0
    assert "fallback" not in search(fresh_repo, "retry request")


def test_file_search_relaxes_all_words_too(keyword_db):
    out = search(keyword_db, "util bread", files=True, mode="keyword")
    assert out["relaxed"] == "no file has all the words; ranked by any of: util"
    assert [r["path"] for r in out["results"]][:1] == ["app/util.py"]
    assert "relaxed" not in search(keyword_db, "app util", files=True, mode="keyword")


def test_expansion_never_adds_the_hits_own_module(keyword_db):
    out = search(keyword_db, "getUserById", mode="keyword", expand=1, min_score=0, limit=20)
    assert qnames(out) == ["app.net.getUserById"]  # its file is its path, not a row
    # a module that is a hit itself still expands to what it contains
    out = search(keyword_db, "helpers used everywhere", mode="keyword", kind=None, expand=1, min_score=0.5, limit=20)
    assert "app.util" in qnames(out) and "app.util.parse" in qnames(out)


def test_expanded_ties_go_to_the_row_with_its_own_evidence(keyword_db):
    out = search(keyword_db, "http client", mode="keyword", expand=1, min_score=0, limit=20)
    rows = {r["qualified_name"]: r for r in out["results"]}
    send, retry = rows["app.net.HttpClient.send"], rows["app.net.HttpClient.retry_request"]
    assert send["score"] == retry["score"] == pytest.approx(0.95)
    assert send["found_by"]["keyword"]["bm25"] > retry["found_by"]["keyword"]["bm25"]
    assert retry["id"] < send["id"]  # so the id alone would have put retry_request first
    assert qnames(out).index("app.net.HttpClient.send") < qnames(out).index("app.net.HttpClient.retry_request")


def _edit_util(root):
    (root / "app" / "util.py").write_text(
        '"""Helpers used everywhere."""\n\n\ndef backoff_delay(attempt):\n    """Jittered wait."""\n'
        "    return attempt\n"
    )


def test_changed_symbols_never_get_stale_vectors(fresh_repo):
    from lore.search.api import build_code_vectors

    db = fresh_repo / ".lore" / "index.db"
    build_code_vectors(db, embedder="hashing")
    assert "stale" not in search(db, "retry request")
    _edit_util(fresh_repo)
    index_repo(fresh_repo)  # the bare indexer: code vectors are not refreshed
    out = search(db, "retry attempt backoff", expand=0, min_score=0, limit=20)
    # app/util.py was rewritten: its module and backoff_delay; their vectors describe the old text
    assert out["stale"].startswith("2 symbols changed since the code vectors were made")
    delay = next(r for r in out["results"] if r["qualified_name"] == "app.util.backoff_delay")
    assert "keyword" in delay["found_by"] and "vector" not in delay["found_by"]
    assert any("vector" in r["found_by"] for r in out["results"])  # the others keep theirs
    files = search(db, "util", files=True, mode="vector", min_score=0)
    assert files["stale"].startswith("1 file changed") and "app/util.py" not in [r["path"] for r in files["results"]]


def test_lore_index_keeps_code_vectors_fresh(fresh_repo):
    from lore.api import index_repo as lore_index
    from lore.search.api import build_code_vectors

    db = fresh_repo / ".lore" / "index.db"
    assert "code_vectors" not in lore_index(fresh_repo).seconds  # no vectors: nothing to do
    build_code_vectors(db, embedder="hashing")
    assert "code_vectors" not in lore_index(fresh_repo).seconds  # no change: nothing to do
    _edit_util(fresh_repo)
    report = lore_index(fresh_repo)
    assert report.changed == ["app/util.py"] and "code_vectors" in report.seconds
    out = search(db, "jittered wait attempt", mode="vector", expand=0, min_score=0)
    assert "stale" not in out and out["results"][0]["qualified_name"] == "app.util.backoff_delay"
    # only the rewritten file was read again: one symbol text changed, nothing else embedded
    again = build_code_vectors(db)
    assert again["symbol"]["embedded"] == 0 and again["file"]["embedded"] == 0
    # a rebuild drops every table; the vectors are made again with the same model
    report = lore_index(fresh_repo, rebuild=True)
    assert report.rebuilt_reason and "code_vectors" in report.seconds
    assert search(db, "retry request")["model"] == "hashing-v1-384"


def test_build_code_vectors_replace_drops_other_models(fresh_repo):
    import numpy as np

    from lore.search.api import build_code_vectors
    from lore.store import search as store
    from lore.store.db import write_transaction

    db = fresh_repo / ".lore" / "index.db"
    conn = connect(db)
    try:
        with write_transaction(conn):
            store.put_vectors(conn, "symbol", "other-model-8", [(1, "h", np.ones(8, dtype=np.float32))])
    finally:
        conn.close()
    kept = build_code_vectors(db, embedder="hashing")
    assert "dropped" not in kept
    out = build_code_vectors(db, embedder="hashing", replace=True)
    assert out["dropped"] == ["other-model-8"] and out["symbol"]["embedded"] == 0
    conn = connect(db, readonly=True)
    try:
        assert [m for m, _n in store.vector_models(conn, "symbol")] == ["hashing-v1-384"]
    finally:
        conn.close()


def test_index_embed_after_a_change_counts_what_the_refresh_embedded(tmp_path):
    """``index_repo(embed=True)`` after an edit: the vectors refresh first brings the changed symbols up
    to date, and the summary still counts them (it used to say 0 embedded)."""
    from lore import index_repo

    (tmp_path / "m.py").write_text("def f():\n    g()\n\ndef g():\n    pass\n")
    first = index_repo(tmp_path, embed=True, workers=1).code_vectors
    assert first["symbol"]["embedded"] == 3
    (tmp_path / "m.py").write_text("def f():\n    g()\n\ndef g():\n    return 1\n\ndef h():\n    pass\n")
    got = index_repo(tmp_path, embed=True, workers=1).code_vectors
    assert got["symbol"]["embedded"] == 2 and got["symbol"]["checked"] == 4
    assert got["symbol"]["embedded"] + got["symbol"]["unchanged"] == got["symbol"]["checked"]
