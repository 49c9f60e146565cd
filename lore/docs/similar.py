"""``search_similar``: the plain cosine search over document chunks, with citations and a fixed envelope.

The contract (one shape for Python, the CLI and MCP, whatever happens):

* ``query`` is required; ``limit`` defaults to 5 and is clamped into 1..100 (never refused).
* Success: ``{"success": true, "count": n, "documents": [...]}``, best first; no documents is
  ``success: true, count: 0``.
* Any failure: ``{"success": false, "error": "...", "count": 0, "documents": []}``; nothing is raised.

Each document is one chunk: ``id`` (the chunk id, usable with get-related), ``content``,
``similarity`` (the cosine between the query's embedding and the chunk's stored vector, made by the
model that embedded the store; no threshold), ``created_at`` (when its document was added, UTC,
``YYYY-MM-DD HH:MM:SS``), ``source_file`` (stored path, ``"unknown"`` when none), ``source_type``
(``pdf``, ``txt``, ``md``, ``rst`` or ``manual`` for a document without a file), ``chunk_index``
(0-based), ``page_number`` (1-based for a PDF, else ``null``), ``total_chunks`` (chunks of its
document) and ``metadata`` (a JSON string: title, section, library, version, topic, tags; empty
fields left out). Ties in similarity go to the lower chunk id.
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

from ..errors import QueryError
from ..store import docs as store
from .search import MAX_LIMIT, pick_model
from .vectors import vector_index

DEFAULT_LIMIT = 5
# stored source types (the chunker's formats) -> the short names of the contract
SHORT_TYPES = {"markdown": "md", "rst": "rst", "text": "txt", "pdf": "pdf"}


def clamp_similar_limit(limit: Any) -> int:
    """``limit`` as an integer clamped into 1..100; ``None`` is the default 5.

    >>> clamp_similar_limit(0), clamp_similar_limit(500), clamp_similar_limit(None), clamp_similar_limit("7")
    (1, 100, 5, 7)
    """
    if limit is None:
        return DEFAULT_LIMIT
    if isinstance(limit, bool):
        raise ValueError(f"limit must be an integer, got {limit!r}")
    if isinstance(limit, float) and not math.isfinite(limit):
        raise ValueError(f"limit must be an integer, got {limit!r}")
    try:
        value = int(limit)
    except (TypeError, ValueError):
        raise ValueError(f"limit must be an integer, got {limit!r}") from None
    return max(1, min(MAX_LIMIT, value))


def _created_at(added_at: str | None) -> str | None:
    """Stored ``2026-02-04T15:30:00Z`` -> ``2026-02-04 15:30:00``."""
    if not added_at:
        return None
    return added_at.replace("T", " ").removesuffix("Z")


def similar_document(ch: dict[str, Any], similarity: float, added_at: str | None) -> dict[str, Any]:
    """One chunk in the contract's shape (see the module docstring)."""
    meta = {
        "title": ch["title"],
        "section": ch["breadcrumb"],
        "library": ch["library"],
        "version": ch["version"],
        "topic": ch["topic"],
        "tags": [t for t in (ch["tags"] or "").split(",") if t],
    }
    source_type = SHORT_TYPES.get(ch["source_type"], "manual") if ch["path"] else "manual"
    return {
        "id": ch["id"],
        "content": ch["content"],
        "similarity": round(float(similarity), 6),
        "created_at": _created_at(added_at),
        "source_file": ch["path"] or "unknown",
        "source_type": source_type,
        "chunk_index": ch["chunk_index"],
        "page_number": ch["page"] if ch["source_type"] == "pdf" else None,
        "total_chunks": ch["total_chunks"],
        "metadata": json.dumps({k: v for k, v in meta.items() if v}, ensure_ascii=False, sort_keys=True),
    }


def failure(message: str) -> dict[str, Any]:
    """The error envelope."""
    return {"success": False, "error": message, "count": 0, "documents": []}


def similar_chunks(conn: sqlite3.Connection, query: str, *, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """The success envelope for ``query`` on an open connection; raises on failure (see :func:`search_similar`)."""
    if store.count_chunks(conn) == 0:
        return {"success": True, "count": 0, "documents": []}
    model = pick_model(conn)
    if model is None:
        raise QueryError("the document store has no vectors; run `lore docs add` on the documents to embed them")
    from ..text.embed import get_embedder

    index = vector_index(conn, model)
    qvec = get_embedder(model).embed([query])[0]
    ids, cos = index.search(qvec, k=limit)
    rows = store.get_chunks(conn, ids.tolist())
    added = store.documents_added_at(conn, {rows[c]["document_id"] for c in rows})
    docs = [
        similar_document(rows[c], s, added.get(rows[c]["document_id"]))
        for c, s in zip(ids.tolist(), cos.tolist(), strict=True)
        if c in rows
    ]
    return {"success": True, "count": len(docs), "documents": docs}


def search_similar_on(open_conn: Any, query: Any, limit: Any = DEFAULT_LIMIT) -> dict[str, Any]:
    """:func:`similar_chunks` behind the contract: arguments checked here, every failure an envelope.

    ``open_conn`` is a callable returning a context manager that yields a connection, so that a
    missing or unreadable index is a failure envelope too.
    """
    try:
        if not isinstance(query, str) or not query.strip():
            return failure("Query parameter is required")
        n = clamp_similar_limit(limit)
        with open_conn() as conn:
            return similar_chunks(conn, query.strip(), limit=n)
    except Exception as exc:  # the contract: a failure is an answer, never an exception
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return failure(f"Failed to search: {text}")
