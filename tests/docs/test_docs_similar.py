"""The ``search_similar`` contract from Python and the CLI: envelope, fields, clamped limit, failures as answers."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from lore.cli import app as lore_app
from lore.docs import search_similar
from lore.text.embed import get_embedder

runner = CliRunner()
FIELDS = [
    "id",
    "content",
    "similarity",
    "created_at",
    "source_file",
    "source_type",
    "chunk_index",
    "page_number",
    "total_chunks",
    "metadata",
]


def _cosines(db: Path, query: str) -> dict[int, float]:
    """The expected answer, computed here from the stored vectors."""
    q = np.asarray(get_embedder("hashing").embed([query])[0], dtype=np.float64)
    q /= np.linalg.norm(q)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT chunk_id, vector FROM chunk_vectors").fetchall()
    out = {}
    for cid, blob in rows:
        v = np.frombuffer(blob, dtype=np.float32).astype(np.float64)
        out[cid] = float(v @ q / np.linalg.norm(v))
    return out


def test_envelope_fields_and_order(db):
    found = search_similar(db, "retry with exponential backoff")
    assert list(found) == ["success", "count", "documents"]
    assert found["success"] is True and found["count"] == len(found["documents"]) == 5  # default limit
    cos = _cosines(db, "retry with exponential backoff")
    best = sorted(cos, key=lambda c: (-cos[c], c))[:5]
    assert [d["id"] for d in found["documents"]] == best
    for d in found["documents"]:
        assert list(d) == FIELDS
        assert d["similarity"] == pytest.approx(cos[d["id"]], abs=1e-5)
        assert d["page_number"] is None and 0 <= d["chunk_index"] < d["total_chunks"]
        assert d["source_type"] in {"md", "rst", "txt"} and d["source_file"] != "unknown"
        assert len(d["created_at"]) == 19 and d["created_at"][10] == " "
        meta = json.loads(d["metadata"])
        assert isinstance(d["metadata"], str) and meta["title"]
    types = {d["source_file"]: d["source_type"] for d in search_similar(db, "notes", limit=100)["documents"]}
    assert types["notes.txt"] == "txt" and types["errors.rst"] == "rst" and types["cooking.md"] == "md"


@pytest.mark.parametrize(("given", "expected"), [(0, 1), (-3, 1), (1, 1), (7, 7), (1000, None)])
def test_limit_is_clamped_not_refused(db, given, expected):
    found = search_similar(db, "configure", limit=given)
    total = len(_cosines(db, "configure"))
    assert found["success"] is True
    assert found["count"] == (min(total, 100) if expected is None else expected)


@pytest.mark.parametrize("query", ["", "   ", None, 42])
def test_missing_query_is_a_failure_envelope(db, query):
    assert search_similar(db, query) == {
        "success": False,
        "error": "Query parameter is required",
        "count": 0,
        "documents": [],
    }


def test_failures_never_raise(tmp_path: Path, db):
    out = search_similar(tmp_path / "nowhere" / "index.db", "x")
    assert out["success"] is False and out["count"] == 0 and out["documents"] == []
    assert out["error"].startswith("Failed to search: ") and "lore index" in out["error"]
    bad = search_similar(db, "x", limit="many")
    assert bad["success"] is False and "limit must be an integer" in bad["error"]


def test_empty_store_is_success_with_no_documents(tmp_path: Path):
    from lore.store.db import connect

    conn = connect(tmp_path / "index.db", create=True)
    conn.close()
    assert search_similar(tmp_path / "index.db", "anything") == {"success": True, "count": 0, "documents": []}


def test_cli_similar_json_and_table(db):
    res = runner.invoke(lore_app, ["docs", "similar", "retry backoff", "--db", str(db), "--json", "-n", "500"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out == search_similar(db, "retry backoff", limit=100)
    res = runner.invoke(lore_app, ["docs", "similar", "retry backoff", "--db", str(db)])
    assert res.exit_code == 0 and "documents similar to" in res.output
    res = runner.invoke(lore_app, ["docs", "similar", " ", "--db", str(db), "--json"])
    assert res.exit_code == 2
    assert json.loads(res.stdout) == {
        "success": False,
        "error": "Query parameter is required",
        "count": 0,
        "documents": [],
    }
