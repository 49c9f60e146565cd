"""The document tools' definitions: lore_search_docs, lore_docs_related and lore_search_similar.

They were ``search_docs``, ``get_related`` and ``search_similar`` before: names without the ``lore_`` prefix
that other servers' tools may carry too (the old names are still served, unlisted, for one release:
:data:`lore.mcp_schema.RENAMED_TOOLS`).
"""

from __future__ import annotations

from typing import Any

from ._common import (
    _CURSOR,
    _FILTER,
    _HIDDEN,
    _MAX_TOKENS,
    _TAGS,
    DOC_SEARCH_MODES,
    MAX_ID,
    MAX_ROWS,
    _limit,
    _obj,
)

_TOPIC = {**_FILTER, "description": "Documents added with this --topic."}
_LIBRARY = {**_FILTER, "description": "Documents added with this --library."}

DOCS_TOOLS: dict[str, dict[str, Any]] = {
    "lore_search_docs": {
        "title": "Search the docs",
        "description": (
            "How something is meant to work: search the project's documents. Returns {total, results: [{chunk_id, "
            "content, score, citations}], next_cursor}. 10 chunks, about 3k tokens."
        ),
        "schema": _obj(
            {
                "query": {"type": "string", "minLength": 1, "maxLength": 1000,
                          "description": 'Words or a question; "quoted phrases" match exactly.'},
                "mode": {"type": "string", "enum": list(DOC_SEARCH_MODES), "default": "hybrid", **_HIDDEN,
                         "description": "hybrid (BM25 + vector), keyword or vector."},
                "limit": _limit(10),
                "min_score": {"type": "number", "minimum": -1, "maximum": 1, **_HIDDEN,
                              "description": "Drop chunks below this (default by model)."},
                "topic": _TOPIC,
                "library": _LIBRARY,
                "tags": _TAGS,
                "expand": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0, **_HIDDEN,
                           "description": "Hops along links between documents."},
                "title_boost": {"type": "number", "minimum": 1, "maximum": 10, "default": 1.5, **_HIDDEN,
                                "description": "Factor when the title has every word."},
                "max_tokens": _MAX_TOKENS,
                "cursor": _CURSOR,
            },
            ("query",),
        ),
    },
    "lore_docs_related": {
        "title": "Doc chunks like this one",
        "description": (
            "More like a chunk of lore_search_docs, from other documents (cosine). Returns {total, results, "
            "next_cursor} as lore_search_docs. 10 chunks, about 3k tokens."
        ),
        "schema": _obj(
            {
                "chunk_id": {"type": "integer", "minimum": 1, "maximum": MAX_ID, "description": "A chunk id."},
                "limit": _limit(10),
                "topic": {**_TOPIC, **_HIDDEN},
                "library": {**_LIBRARY, **_HIDDEN},
                "tags": {**_TAGS, **_HIDDEN},
                "min_score": {"type": "number", "minimum": -1, "maximum": 1, "default": 0.0, **_HIDDEN,
                              "description": "Drop chunks below this cosine."},
                "include_linked": {"type": "boolean", "default": False, **_HIDDEN,
                                   "description": "Add linked documents even below min_score."},
                "max_tokens": _MAX_TOKENS,
                "cursor": _CURSOR,
            },
            ("chunk_id",),
        ),
    },
    "lore_search_similar": {
        "title": "Documents like a query (cosine)",
        "description": (
            "Plain cosine search over document chunks; never a tool error. Returns {success, count, documents: "
            "[{id, content, similarity, source_file, page_number}]}. About 1.5k tokens."
        ),
        "schema": _obj(
            {
                "query": {"type": "string", "maxLength": 1000, "description": "Search text."},
                "limit": {"type": "integer", "default": 5, "description": f"Clamped into 1..{MAX_ROWS}."},
            },
            ("query",),
        ),
    },
}
