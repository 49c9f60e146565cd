from __future__ import annotations

import pytest

from lore.docs import search_docs
from lore.docs.search import fts_query
from lore.errors import IndexNotFoundError, InvalidArgumentError, QueryError, UnknownAlgorithmError


def crumbs(out):
    return [r["breadcrumb"] for r in out["results"]]


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
def test_modes_find_the_retry_sections(db, mode):
    out = search_docs(db, "retry exponential backoff", mode=mode, limit=3)
    assert out["mode"] == mode and out["total"] == len(out["results"]) <= 3
    assert set(crumbs(out)[:2]) == {"Configure > Retries", "Error handling > Retry policy"}
    top = out["results"][0]
    assert top["score"] == pytest.approx(1.0 if mode != "vector" else top["explanation"]["vector"]["cosine"])
    cite = top["citations"][0]
    assert set(cite) >= {"source_file", "source_type", "chunk_index", "total_chunks", "page", "metadata"}
    assert cite["total_chunks"] > cite["chunk_index"] >= 0


def test_hybrid_explains_both_rankers(db):
    out = search_docs(db, "retry backoff", mode="hybrid")
    exp = out["results"][0]["explanation"]
    assert set(exp) >= {"keyword", "vector"}
    assert exp["keyword"]["rrf"] == pytest.approx(1 / 61, abs=1e-6)
    assert out["model"] == "hashing-v1-384"


def test_all_terms_required_and_phrases(db):
    assert search_docs(db, "backoff bread", mode="keyword")["total"] == 0
    assert search_docs(db, "backoff bread", mode="keyword", any_terms=True)["total"] >= 2
    assert crumbs(search_docs(db, '"connect timeout"', mode="keyword")) == ["Configure > Timeouts"]
    assert search_docs(db, '"timeout connect"', mode="keyword")["total"] == 0


@pytest.mark.parametrize(
    "query", ["timeout*", "-timeout", "(timeout)", '"timeout', "timeout:", "{timeout}^", "'timeout'"]
)
def test_fts_syntax_characters_are_text(db, query):
    assert search_docs(db, query, mode="keyword")["total"] >= 1


@pytest.mark.parametrize(
    "query",
    ["timeout OR bread", "bread AND timeout", "NEAR(timeout bread)", "title:timeout", "timeout NEAR/2 bread"],
)
def test_fts_operators_are_words(db, query):
    # each operator is a required plain word, absent from the docs: no syntax error, no match
    assert search_docs(db, query, mode="keyword")["total"] == 0


def test_fts_query_quotes_every_word():
    assert fts_query("a:b c") == '"a" AND "b" AND "c"'
    for bad in ("", "   ", "***", '""'):
        with pytest.raises(QueryError):
            fts_query(bad)


def test_errors(db, tmp_path):
    with pytest.raises(QueryError, match="empty"):
        search_docs(db, "  ")
    with pytest.raises(UnknownAlgorithmError, match="mode"):
        search_docs(db, "x", mode="fuzzy")
    with pytest.raises(IndexNotFoundError):
        search_docs(tmp_path / "none.db", "x")


def test_limit_clamped_and_has_more(db):
    out = search_docs(db, "the", mode="keyword", limit=0)
    assert out["limit"] == 1 and out["total"] == 1 and out["has_more"]
    assert search_docs(db, "the", mode="keyword", limit=1000)["limit"] == 100


def test_filters_and_min_score(db):
    out = search_docs(db, "timeout", mode="hybrid", library="acme")
    assert out["total"] >= 1 and all(
        r["citations"][0]["metadata"]["library"] == "acme" for r in out["results"]
    )
    out = search_docs(db, "timeout", mode="vector", tags=["api", "http"])
    assert all(r["citations"][0]["source_file"].startswith("guide/") for r in out["results"])
    assert search_docs(db, "timeout", mode="keyword", topic="nothing")["total"] == 0
    out = search_docs(db, "timeout retry", mode="hybrid", any_terms=True, min_score=0.9)
    assert all(r["score"] >= 0.9 for r in out["results"])


def test_title_boost(db):
    from lore.docs.search import TITLE_BOOST

    assert TITLE_BOOST == 1.5
    out = search_docs(db, "configure", mode="keyword", limit=100)
    off = search_docs(db, "configure", mode="keyword", limit=100, title_boost=1)
    plain = {r["chunk_id"]: r["score"] for r in off["results"]}
    boosted = [r for r in out["results"] if "title_boost" in r["explanation"]]
    assert boosted and all(r["document"]["title"] == "Configure" for r in boosted)
    assert all(r["explanation"]["title_boost"] == 1.5 for r in boosted)
    for r in out["results"]:
        factor = 1.5 if r["document"]["title"] == "Configure" else 1.0
        assert r["score"] == pytest.approx(plain[r["chunk_id"]] * factor, abs=1e-5)
    assert all("title_boost" not in r["explanation"] for r in off["results"])
    assert search_docs(db, "configure", mode="keyword", title_boost=3)["title_boost"] == 3
    # only a title holding every query word is boosted
    partial = search_docs(db, "configure timeouts", mode="keyword", any_terms=True, limit=100)
    assert all("title_boost" not in r["explanation"] for r in partial["results"])
    with pytest.raises(InvalidArgumentError, match="title_boost must be a factor from 1"):
        search_docs(db, "configure", title_boost=0.5)


def test_cli_title_boost(db):
    import json

    from typer.testing import CliRunner

    from lore.cli import app

    args = ["docs", "search", "configure", "--mode", "keyword", "--db", str(db), "--json"]
    default = json.loads(CliRunner().invoke(app, args).output)
    off = json.loads(CliRunner().invoke(app, [*args, "--title-boost", "1"]).output)
    assert default["title_boost"] == 1.5 and off["title_boost"] == 1.0
    assert default["results"] == search_docs(db, "configure", mode="keyword")["results"]
    assert off["results"] == search_docs(db, "configure", mode="keyword", title_boost=1)["results"]


def test_expansion_follows_links_with_decay(db):
    base = search_docs(db, "server does not answer", mode="keyword")
    assert crumbs(base) == ["Error handling > Timeouts"]
    out = search_docs(db, "server does not answer", mode="keyword", expand=1)
    # the section links to guide/configure (its closest chunk) and to :ref:`retry-policy`
    assert {r["document"]["path"] for r in out["results"][1:]} == {"errors.rst", "guide/configure.md"}
    assert "Error handling > Retry policy" in crumbs(out)
    for extra in out["results"][1:]:
        assert extra["explanation"]["hops"] == 1 and extra["score"] == pytest.approx(0.5)
        assert extra["explanation"]["expanded_from"] == out["results"][0]["chunk_id"]
    two = search_docs(db, "status codes 404", mode="keyword", expand=2)
    assert all(r["score"] <= 1.0 for r in two["results"])


def test_keyword_only_store_falls_back(docs_dir):
    from lore.store.db import connect

    path = docs_dir / ".lore" / "index.db"
    connect(path, create=True).close()
    out = search_docs(path, "anything", mode="hybrid")
    assert out["total"] == 0 and "note" in out
    with pytest.raises(QueryError, match="no vectors"):
        search_docs(path, "anything", mode="vector")


def test_store_of_a_missing_model(docs_dir, monkeypatch):
    import lore.docs.search as search_mod
    from lore.errors import MissingExtraError
    from lore.text.embed import MINILM_ID, HashingEmbedder

    class FakeMiniLM(HashingEmbedder):
        model_id = MINILM_ID

        def __init__(self):
            super().__init__()
            self.model_id = MINILM_ID

    path = docs_dir / ".lore" / "index.db"
    from lore.docs import add_documents

    add_documents(path, [docs_dir / "guide"], embedder=FakeMiniLM())
    monkeypatch.setattr(search_mod, "minilm_available", lambda: False)
    out = search_docs(path, "timeout", mode="hybrid")
    assert out["total"] >= 1 and "embed extra" in out["note"] and out["model"] is None
    with pytest.raises(MissingExtraError, match=r"lore-graph\[embed\]"):
        search_docs(path, "timeout", mode="vector")
