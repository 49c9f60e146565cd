"""More like this chunk: nearest chunks by the stored vector, no model call.

The source chunk's own vector is the query, so get-related works offline and costs one matrix-vector
product. Filters (library, topic, tags, the excluded document) are a boolean mask applied before
the top-k, so a filter never leaves fewer than ``limit`` results while enough chunks match (the
exact form of over-fetching). ``min_score`` defaults to 0.0 (only chunks pointing away from the
source are dropped). With ``include_linked``, each document linked to or from the source document
that has no chunk among the results yet contributes its chunk most like the source, scored
``max(cosine, 0.6)`` and kept even below ``min_score`` (once per document); then the results are
ranked again and cut to ``limit``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError, QueryError, UnknownChunkError
from ..store import docs as store
from .search import chunk_result, clamp_limit
from .vectors import stored_models, top_k, vector_index

LINKED_SCORE = 0.6  # the floor of a linked document's top chunk (get-related-chunks contract)
DEFAULT_MIN_SCORE = 0.0


def _chunk_model(conn: sqlite3.Connection, chunk_id: int) -> str:
    own = set(store.chunk_vector_models(conn, chunk_id))
    if len(own) == 1:
        return own.pop()
    for model, _n in stored_models(conn):
        if model in own:
            return model
    raise QueryError(
        f"chunk {chunk_id} has no stored vector; run `lore docs add` on its document again to embed it"
    )


def _excluded_document(conn: sqlite3.Connection, source_doc: int, exclude_document: Any) -> int | None:
    if exclude_document is None:
        return source_doc
    if exclude_document is False or exclude_document == "none":
        return None
    if isinstance(exclude_document, int) or (
        isinstance(exclude_document, str) and exclude_document.isdigit()
    ):
        return int(exclude_document)
    doc = store.get_document(conn, str(exclude_document))
    if doc is None:
        raise InvalidArgumentError(
            f"unknown document {exclude_document!r} to exclude; pass a document id or a stored path"
        )
    return int(doc["id"])


def related_chunks(
    conn: sqlite3.Connection,
    chunk_id: int,
    *,
    limit: int = 10,
    topic: str | None = None,
    library: str | None = None,
    tags: Sequence[str] | None = None,
    min_score: float | None = DEFAULT_MIN_SCORE,
    include_linked: bool = False,
    exclude_document: int | str | bool | None = None,
    linked_score: float = LINKED_SCORE,
    model: str | None = None,
) -> dict[str, Any]:
    """Chunks most similar to ``chunk_id`` (see the module docstring).

    ``exclude_document``: ``None`` excludes the source chunk's document, an id or stored path
    excludes that document instead, ``False`` (or ``"none"``) excludes only the chunk itself.
    ``min_score`` defaults to 0.0 (``None`` means the same). ``model`` picks which stored vectors to
    use when the store holds several (default: the most used one the chunk has). Raises
    :class:`~lore.errors.UnknownChunkError` for an unknown id.
    """
    limit = clamp_limit(limit)
    try:
        chunk_id = int(chunk_id)
    except (TypeError, ValueError) as exc:
        raise UnknownChunkError(chunk_id) from exc
    src = store.get_chunk(conn, chunk_id)
    if src is None:
        raise UnknownChunkError(chunk_id)
    if not 0 <= linked_score <= 1:
        raise InvalidArgumentError(f"linked_score must be in [0, 1], got {linked_score}")
    if model is None:
        model = _chunk_model(conn, chunk_id)
    index = vector_index(conn, model)
    row = index.row_of(chunk_id)
    if row is None:
        raise QueryError(f"chunk {chunk_id} has no stored vector of {model}; embed it with `lore docs add`")
    scores = index.scores(index.matrix[row]).copy()

    mask = np.ones(len(index), dtype=bool)
    if library or topic or tags:
        mask &= index.document_mask(
            store.filtered_document_ids(conn, library=library, topic=topic, tags=list(tags or ()))
        )
    excluded = _excluded_document(conn, src["document_id"], exclude_document)
    if excluded is not None:
        mask &= index.doc_ids != excluded
    mask[row] = False

    floor = DEFAULT_MIN_SCORE if min_score is None else float(min_score)
    matching = int((mask & (scores >= floor)).sum())
    ids, top_scores = top_k(index.ids, scores, k=limit, mask=mask, min_score=floor)
    ranked = dict(zip(ids.tolist(), top_scores.tolist(), strict=True))
    linked: dict[int, str] = {}
    via_link: set[int] = set()
    if include_linked:
        linked = store.linked_documents(conn, src["document_id"])
        present = {int(index.doc_ids[index.row_of(c)]) for c in ranked}
        for doc in sorted(linked):
            if doc in present:
                continue  # once per document: it is already among the results
            best, best_cos = top_k(index.ids, scores, k=1, mask=mask & index.document_mask([doc]))
            if len(best):  # its chunk most like the source, kept even below min_score
                ranked[int(best[0])] = max(float(best_cos[0]), linked_score)
                via_link.add(int(best[0]))
    order = sorted(ranked, key=lambda c: (-ranked[c], c))[:limit]
    rows = store.get_chunks(conn, order)
    results = []
    for cid in order:
        exp: dict[str, Any] = {"cosine": round(float(scores[index.row_of(cid)]), 6)}
        if cid in via_link:
            exp["linked"] = linked[rows[cid]["document_id"]]
            exp["linked_score"] = linked_score
        results.append(chunk_result(rows[cid], ranked[cid], exp))
    matching += len(via_link)
    return {
        "model": model,
        "min_score": floor,
        "excluded_document": excluded,
        "source": chunk_result(src),
        "matching": matching,
        "has_more": matching > limit,
        "results": results,
    }
