from __future__ import annotations

import pytest

from lore.docs import get_related
from lore.docs import related as related_mod
from lore.errors import InvalidArgumentError, UnknownChunkError


def paths(out):
    return [r["document"]["path"] for r in out["results"]]


def test_related_excludes_source_document_by_default(db, chunk_of):
    src = chunk_of("guide/configure.md", "Configure > Retries")
    out = get_related(db, src, min_score=-1.0, limit=100)
    assert out["source"]["chunk_id"] == src
    assert "guide/configure.md" not in paths(out)
    assert paths(out)[0] == "errors.rst"  # the retry-policy section reads most alike
    assert out["results"][0]["breadcrumb"] == "Error handling > Retry policy"
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)
    assert out["total"] == len(out["results"]) and out["has_more"] is False


def test_related_exclude_other_or_nothing(db, chunk_of):
    src = chunk_of("guide/configure.md", "Configure > Retries")
    out = get_related(db, src, min_score=-1.0, limit=100, exclude_document="errors.rst")
    assert "errors.rst" not in paths(out) and "guide/configure.md" in paths(out)
    assert src not in [r["chunk_id"] for r in out["results"]]  # never the chunk itself
    out = get_related(db, src, min_score=-1.0, limit=100, exclude_document=False)
    assert {"errors.rst", "guide/configure.md"} <= set(paths(out))
    with pytest.raises(InvalidArgumentError, match="unknown document"):
        get_related(db, src, exclude_document="nope.md")


def test_related_filters_still_fill_the_limit(db, chunk_of):
    src = chunk_of("errors.rst", "Error handling > Retry policy")
    out = get_related(db, src, library="acme", limit=3, min_score=-1.0)
    assert len(out["results"]) == 3 and out["has_more"]  # over-fetch: the filter does not starve the limit
    assert set(paths(out)) <= {"guide/install.md", "guide/configure.md"}
    assert get_related(db, src, tags="api", topic="guides", min_score=-1.0)["total"] > 0
    assert get_related(db, src, tags=["api", "missing"], min_score=-1.0)["total"] == 0


def test_related_min_score_defaults_to_zero(db, chunk_of):
    src = chunk_of("cooking.md", "Baking bread")
    out = get_related(db, src, limit=100)
    assert out["min_score"] == 0.0 and all(r["score"] >= 0.0 for r in out["results"])
    every = get_related(db, src, limit=100, min_score=-1.0)
    assert [r for r in every["results"] if r["score"] >= 0.0] == out["results"]
    assert get_related(db, src, limit=100, min_score=None)["results"] == out["results"]


def test_related_uses_the_stored_vector(db, chunk_of, monkeypatch):
    import lore.text.embed as embed

    def boom(*a, **k):
        raise AssertionError("get_related must not call a model")

    monkeypatch.setattr(embed.HashingEmbedder, "embed", boom)
    src = chunk_of("guide/configure.md", "Configure > Retries")
    assert get_related(db, src)["total"] >= 1


def test_include_linked_adds_the_top_chunk_of_each_linked_document(db, chunk_of):
    src = chunk_of("guide/install.md", "Install > From source")  # links to configure.md#timeouts
    configure = {chunk_of("guide/configure.md", b) for b in ("Configure", "Configure > Timeouts", "Configure > Retries")}
    plain = get_related(db, src, min_score=0.99, limit=10)
    assert plain["results"] == []  # nothing is that close
    linked = get_related(db, src, min_score=0.99, limit=10, include_linked=True)
    # one chunk of the linked document, even below min_score, at max(cosine, 0.6)
    assert len(linked["results"]) == 1
    hit = linked["results"][0]
    assert hit["chunk_id"] in configure and hit["explanation"]["linked"] in ("out", "both")
    assert hit["score"] == pytest.approx(max(hit["explanation"]["cosine"], related_mod.LINKED_SCORE), abs=1e-6)
    everything = get_related(db, src, min_score=-1.0, limit=100)
    cos = {r["chunk_id"]: r["score"] for r in everything["results"]}
    assert hit["chunk_id"] == max(configure, key=lambda c: (cos[c], -c))  # its chunk most like the source
    assert hit["explanation"]["cosine"] == pytest.approx(cos[hit["chunk_id"]], abs=1e-6)


def test_include_linked_is_once_per_document_and_reranked(db, chunk_of):
    src = chunk_of("guide/install.md", "Install > From source")
    plain = get_related(db, src, min_score=-1.0, limit=100)
    linked = get_related(db, src, min_score=-1.0, limit=100, include_linked=True)
    # configure.md is already among the results: nothing is added or rescored
    assert linked["results"] == plain["results"]
    top2 = get_related(db, src, min_score=-1.0, limit=2, include_linked=True)
    scores = [r["score"] for r in top2["results"]]
    assert len(top2["results"]) == 2 and scores == sorted(scores, reverse=True)
    docs = [r["document"]["path"] for r in top2["results"]]
    assert "guide/configure.md" in docs and docs.count("guide/configure.md") <= 2


def test_unknown_chunk(db):
    with pytest.raises(UnknownChunkError, match="unknown chunk 9999"):
        get_related(db, 9999)
    with pytest.raises(UnknownChunkError):
        get_related(db, "abc")


def test_cli_related_defaults_and_linked(db, chunk_of):
    import json

    from typer.testing import CliRunner

    from lore.cli import app

    src = chunk_of("guide/install.md", "Install > From source")
    res = CliRunner().invoke(app, ["docs", "related", str(src), "--db", str(db), "--json", "--limit", "100"])
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["min_score"] == 0.0
    assert out["results"] == get_related(db, src, limit=100)["results"]
    res = CliRunner().invoke(
        app, ["docs", "related", str(src), "--db", str(db), "--json", "--min-score", "0.99", "--include-linked"]
    )
    (only,) = json.loads(res.output)["results"]
    assert only["document"]["path"] == "guide/configure.md" and only["score"] >= 0.6
