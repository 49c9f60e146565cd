"""The document side of lore: chunked docs, offline embeddings, get-related and hybrid search.

Python users call the JSON-ready endpoints with the index path::

    from lore.docs import add_documents, search_docs, get_related
    add_documents(".lore/index.db", ["docs/", "README.md"], library="mylib")
    hits = search_docs(".lore/index.db", "retry with backoff")
    more = get_related(".lore/index.db", hits["results"][0]["chunk_id"])
    cited = search_similar(".lore/index.db", "retry with backoff", limit=5)  # {"success", "count", "documents"}

The code side calls :func:`chunks_mentioning` with an open connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ..store import docs as _store
from ..text.embed import Embedder, get_embedder
from .api import add_documents, get_related, search_docs, search_similar
from .chunking import Chunk, chunk_text
from .links import current_mentions
from .links import record_mentions as refresh_mentions
from .search import chunk_result


def chunks_mentioning(conn: sqlite3.Connection, qualified_names: Sequence[str]) -> list[dict[str, Any]]:
    """Document chunks that mention any of the given symbols, in chunk-id order.

    Each item is a chunk result (chunk id, document, breadcrumb, content, citations) plus
    ``mentions``: ``[{"qualified_name": ..., "mention": ...}]``. Mentions are recorded when documents
    are added and refreshed by :func:`lore.index_repo`; if the code index was changed by another
    path since, they are matched against the current symbols here, in memory, so the answer never
    names a symbol that is gone or misses one that was added.
    """
    by_chunk: dict[int, list[dict[str, str]]] = {}
    for qname, mention, chunk_id in current_mentions(conn, list(qualified_names)):
        by_chunk.setdefault(chunk_id, []).append({"qualified_name": qname, "mention": mention})
    rows = _store.get_chunks(conn, by_chunk)
    return [{**chunk_result(rows[c]), "mentions": by_chunk[c]} for c in sorted(by_chunk) if c in rows]


__all__ = [
    "Chunk",
    "Embedder",
    "add_documents",
    "chunk_text",
    "chunks_mentioning",
    "get_embedder",
    "get_related",
    "refresh_mentions",
    "search_docs",
    "search_similar",
]
