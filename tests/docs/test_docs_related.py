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


def test_related_min_score_default_per_model(db, chunk_of):
    src = chunk_of("cooking.md", "Baking bread")
    out = get_related(db, src)
    assert out["min_score"] == 0.15 and all(r["score"] >= 0.15 for r in out["results"])


def test_related_uses_the_stored_vector(db, chunk_of, monkeypatch):
    import lore.text.embed as embed

    def boom(*a, **k):
        raise AssertionError("get_related must not call a model")

    monkeypatch.setattr(embed.HashingEmbedder, "embed", boom)
    src = chunk_of("guide/configure.md", "Configure > Retries")
    assert get_related(db, src)["total"] >= 1


def test_include_linked_blends_linked_documents(db, chunk_of):
    src = chunk_of("guide/install.md", "Install > From source")  # links to configure.md#timeouts
    plain = get_related(db, src, min_score=-1.0, limit=100)
    linked = get_related(db, src, min_score=-1.0, limit=100, include_linked=True)
    before = {r["chunk_id"]: r["score"] for r in plain["results"]}
    for r in linked["results"]:
        if r["document"]["path"] == "guide/configure.md":
            assert r["explanation"]["linked"] in ("out", "both")
            c = r["explanation"]["cosine"]
            assert r["score"] == pytest.approx(c + related_mod.LINK_WEIGHT * (1 - c), abs=1e-5)
            assert r["score"] >= before[r["chunk_id"]]
        else:
            assert "linked" not in r["explanation"]
    assert linked["results"][0]["document"]["path"] == "guide/configure.md"


def test_unknown_chunk(db):
    with pytest.raises(UnknownChunkError, match="unknown chunk 9999"):
        get_related(db, 9999)
    with pytest.raises(UnknownChunkError):
        get_related(db, "abc")
