"""More like this chunk: nearest chunks by the stored vector, no model call.

The source chunk's own vector is the query, so get-related works offline and costs one matrix-vector
product. Filters (library, topic, tags, the excluded document) are a boolean mask applied before
the top-k, so a filter never leaves fewer than ``limit`` results while enough chunks match (the
exact form of over-fetching). With ``include_linked``, chunks of documents linked to or from the
source document are blended in: ``score = cosine + link_weight * (1 - cosine)``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError, QueryError, UnknownChunkError
from ..store import docs as store
from ..text.embed import default_min_score
from .search import chunk_result, clamp_limit
from .vectors import stored_models, top_k, vector_index

LINK_WEIGHT = 0.3


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
    min_score: float | None = None,
    include_linked: bool = False,
    exclude_document: int | str | bool | None = None,
    link_weight: float = LINK_WEIGHT,
    model: str | None = None,
) -> dict[str, Any]:
    """Chunks most similar to ``chunk_id`` (see the module docstring).

    ``exclude_document``: ``None`` excludes the source chunk's document, an id or stored path
    excludes that document instead, ``False`` (or ``"none"``) excludes only the chunk itself.
    ``min_score`` defaults to the model's random-pair level. ``model`` picks which stored vectors to
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
    if not 0 <= link_weight <= 1:
        raise InvalidArgumentError(f"link_weight must be in [0, 1], got {link_weight}")
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

    linked: dict[int, str] = {}
    linked_rows = np.zeros(len(index), dtype=bool)
    cosine = scores.copy()
    if include_linked:
        linked = store.linked_documents(conn, src["document_id"])
        linked_rows = index.document_mask(list(linked))
        scores[linked_rows] = scores[linked_rows] + link_weight * (1 - scores[linked_rows])

    floor = default_min_score(model) if min_score is None else float(min_score)
    matching = int((mask & (scores >= floor)).sum())
    ids, top_scores = top_k(index.ids, scores, k=limit, mask=mask, min_score=floor)
    rows = store.get_chunks(conn, ids.tolist())
    results = []
    for cid, score in zip(ids.tolist(), top_scores.tolist(), strict=True):
        r = index.row_of(cid)
        exp: dict[str, Any] = {"cosine": round(float(cosine[r]), 6)}
        if linked_rows[r]:
            exp["linked"] = linked[rows[cid]["document_id"]]
            exp["link_weight"] = link_weight
        results.append(chunk_result(rows[cid], score, exp))
    return {
        "model": model,
        "min_score": floor,
        "excluded_document": excluded,
        "source": chunk_result(src),
        "matching": matching,
        "has_more": matching > limit,
        "results": results,
    }
