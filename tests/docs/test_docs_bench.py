"""The benchmark's ground-truth plumbing on a tiny corpus (no download)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "docs" / "bench_docs.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_docs", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_score(bench):
    assert bench.score([1, 2, 3], {3}) == {"recall@5": 1.0, "recall@10": 1.0, "mrr": pytest.approx(1 / 3)}
    assert bench.score([9] * 10 + [1], {1})["mrr"] == 0.0
    assert bench.score(list(range(20)), set(range(100, 120)))["recall@10"] == 0.0


def test_prepare_hides_headings_and_builds_truth(bench, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.rst").write_text(
        "Guide\n=====\n\n.. _retry-rules:\n\nRetry rules explained\n---------------------\n\nBack off.\n"
    )
    (src / "b.rst").write_text(
        "Other\n=====\n\nSee :ref:`the rules <retry-rules>` and :doc:`a`; :doc:`werkzeug:test` stays.\n"
    )
    out = tmp_path / "out"
    headings, labels, links = bench.prepare(src, out)
    assert headings == {"Section 1": "Retry rules explained"}
    assert labels == {"retry-rules": ("a.rst", "Section 1")}
    text = (out / "a.rst").read_text()
    assert "Retry rules" not in text and "retry-rules" not in text and "Section 1\n---------" in text
    other = (out / "b.rst").read_text()
    assert other == "Other\n=====\n\nSee  and ; :doc:`werkzeug:test` stays.\n"  # no trace of the truth
    assert links == [("b.rst", other.index(" and"), "a.rst", "Section 1"), ("b.rst", other.index(";"), "a.rst", None)]

    from lore.docs.ingest import ingest
    from lore.store.db import connect
    from lore.text.embed import get_embedder

    conn = connect(tmp_path / "i.db", create=True)
    try:
        ingest(conn, [out], embedder=get_embedder("hashing"), root=out, progress=False)
        chunks, by_doc = bench.chunk_table(conn)
        ((query, relevant),) = bench.search_truth(headings, chunks)
        assert query == "Retry rules explained" and [chunks[c]["breadcrumb"] for c in relevant] == [
            "Guide > Section 1"
        ]
        ((source, rel),) = bench.related_truth(chunks, by_doc, links)
        assert chunks[source]["path"] == "b.rst" and rel == set(by_doc["a.rst"])
    finally:
        conn.close()
