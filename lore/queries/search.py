"""``lore_search``: BM25 / hybrid search over an open index's symbols or files."""

from __future__ import annotations

from typing import Any

from ._index import OpenIndex, one_generation


@one_generation
def lore_search(index: OpenIndex, query: str, **options: Any) -> dict:
    """Search symbols (or files with ``files=True``) of an open index.

    The options are those of :func:`lore.search.api.search` (mode, kind, path_prefix, limit,
    expand, min_score, top_k, files, include_tests, decay, any_terms, embedder); the index's own
    connection is used, so the answer comes from the same state as its graph queries.
    """
    from ..search.api import search

    return search(index.conn, query, db_path=index.db_path, **options)
