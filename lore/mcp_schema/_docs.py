"""The document tools' definitions: search_docs, get_related and search_similar."""

from __future__ import annotations

from typing import Any

from ._common import _FILTER, _MAX_TOKENS, _TAGS, DOC_SEARCH_MODES, MAX_ID, MAX_ROWS, _limit, _obj

DOCS_TOOLS: dict[str, dict[str, Any]] = {
    "search_docs": {
        "title": "Search documentation chunks",
        "description": (
            "Search the indexed documents (markdown, rst, text added with `lore docs add`) by meaning and "
            "words. Returns {query, total, truncated, results} where each result is a chunk with its text, "
            "score and citations (source file, chunk index, total chunks, page). mode: hybrid (default; BM25 "
            "and vector ranks fused), vector, keyword. Filter by topic, library or tags; expand follows links "
            "between documents. Use get_related on a chunk id for 'more like this'. 10 chunks is about 2-4k "
            "tokens; max_tokens trims."
        ),
        "schema": _obj(
            {
                "query": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 1000,
                    "description": 'Words or a question; "quoted phrases" must match exactly.',
                },
                "mode": {
                    "type": "string",
                    "enum": list(DOC_SEARCH_MODES),
                    "default": "hybrid",
                    "description": "hybrid (BM25 and vector ranks fused), keyword (BM25) or vector (meaning).",
                },
                "limit": _limit(10, "chunks"),
                "min_score": {
                    "type": "number",
                    "minimum": -1,
                    "maximum": 1,
                    "description": "Drop chunks scoring below this; the default depends on the embedding model.",
                },
                "topic": {**_FILTER, "description": "Keep only chunks of documents added with this --topic."},
                "library": {
                    **_FILTER,
                    "description": "Keep only chunks of documents added with this --library.",
                },
                "tags": _TAGS,
                "expand": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 3,
                    "default": 0,
                    "description": "Hops to follow links between documents (0..3).",
                },
                "title_boost": {
                    "type": "number",
                    "minimum": 1,
                    "maximum": 10,
                    "default": 1.5,
                    "description": "Score factor when every query word is in the document title (1 = off).",
                },
                "max_tokens": _MAX_TOKENS,
            },
            ("query",),
        ),
    },
    "get_related": {
        "title": "Documentation chunks like this one",
        "description": (
            "Chunks most like a given chunk (by its stored embedding, no model call), from other documents "
            "than the source's own. Use after search_docs to widen a good hit. Returns {chunk_id, total, "
            "truncated, results} with scores (cosine) and citations; include_linked adds the best chunk of "
            "each document linked to or from the source at max(cosine, 0.6), even below min_score. An empty "
            "result means no other document is similar enough. 10 chunks is about 2-4k tokens; max_tokens trims."
        ),
        "schema": _obj(
            {
                "chunk_id": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_ID,
                    "description": "A chunk id from search_docs.",
                },
                "limit": _limit(10, "chunks"),
                "topic": {**_FILTER, "description": "Keep only chunks of documents added with this --topic."},
                "library": {
                    **_FILTER,
                    "description": "Keep only chunks of documents added with this --library.",
                },
                "tags": _TAGS,
                "min_score": {
                    "type": "number",
                    "minimum": -1,
                    "maximum": 1,
                    "default": 0.0,
                    "description": "Drop chunks below this cosine (default 0.0).",
                },
                "include_linked": {
                    "type": "boolean",
                    "default": False,
                    "description": "Also include linked documents (to or from the source) even below min_score.",
                },
                "max_tokens": _MAX_TOKENS,
            },
            ("chunk_id",),
        ),
    },
    "search_similar": {
        "title": "Documents similar to a query (cosine, with citations)",
        "description": (
            "Plain cosine search over the indexed document chunks (the embedding of query against each chunk's "
            "stored vector; no threshold, no keyword ranking). Returns JSON, never a tool error: "
            "{success: true, count, documents: [{id, content, similarity, created_at, source_file ('unknown' "
            "when none), source_type (pdf, txt, md, rst or manual), chunk_index (0-based), page_number (PDF "
            "only, else null), total_chunks, metadata (a JSON string)}]} best first, or {success: false, error, "
            "count: 0, documents: []}. id is a chunk id for get_related. 5 documents is about 1-2k tokens."
        ),
        "schema": _obj(
            {
                "query": {"type": "string", "maxLength": 1000, "description": "Search query text (required)."},
                "limit": {
                    "type": "integer",
                    "default": 5,
                    "description": f"Maximum documents returned; values outside 1..{MAX_ROWS} are clamped into it.",
                },
            },
            ("query",),
        ),
    },
}
