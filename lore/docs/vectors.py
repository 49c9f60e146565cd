"""Exact cosine search over an in-memory float32 matrix, one per (database, model, docs generation).

Rows are L2-normalised, so cosine is one matrix-vector product; filters are boolean masks over the
rows, applied before the top-k so a filter never shrinks the result below ``k`` when enough rows
match. Each row also knows its document, so document filters (library, topic, tags, an excluded
or linked document) become masks without reading the chunks table. Matrices (and the per-model
vector counts) are cached per process and rebuilt when the document store changes
(``meta.docs_generation``). ``benchmarks/docs/bench_vectors.py`` measures search and get-related
at 10k and 100k rows.

Examples
--------
>>> import numpy as np
>>> index = VectorIndex(np.array([10, 11, 12]), np.eye(3, dtype=np.float32), model="toy")
>>> ids, scores = index.search(np.array([0.0, 1.0, 0.0], dtype=np.float32), k=2)
>>> ids.tolist(), scores.round(2).tolist()
([11, 10], [1.0, 0.0])
"""

from __future__ import annotations

import sqlite3
import threading

import numpy as np

from ..errors import InvalidArgumentError
from ..store import docs as store
from ..store.db import database_key
from ..text.vectors import matvec, top_k


class VectorIndex:
    """Chunk ids (ascending) and their vectors of one model."""

    def __init__(
        self, ids: np.ndarray, matrix: np.ndarray, *, model: str, doc_ids: np.ndarray | None = None
    ) -> None:
        self.ids = np.asarray(ids, dtype=np.int64)
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self.model = model
        self.doc_ids = (
            np.full(len(self.ids), -1, dtype=np.int64) if doc_ids is None else np.asarray(doc_ids, dtype=np.int64)
        )
        if len(self.ids) and self.matrix.shape[0] != len(self.ids):
            raise InvalidArgumentError("one vector row per id is required")
        if len(self.doc_ids) != len(self.ids):
            raise InvalidArgumentError("one document id per row is required")

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def dim(self) -> int:
        return self.matrix.shape[1] if self.matrix.ndim == 2 and len(self.ids) else 0

    def row_of(self, chunk_id: int) -> int | None:
        """The row of ``chunk_id``, or ``None``."""
        pos = int(np.searchsorted(self.ids, chunk_id))
        return pos if pos < len(self.ids) and self.ids[pos] == chunk_id else None

    def mask_for(self, chunk_ids: np.ndarray) -> np.ndarray:
        """Boolean row mask: True where the row's id is in ``chunk_ids``."""
        return np.isin(self.ids, chunk_ids)

    def document_mask(self, document_ids: np.ndarray | list[int]) -> np.ndarray:
        """Boolean row mask: True where the row's chunk belongs to one of ``document_ids``.

        A lookup table over document ids: one gather per row, no sort (``np.isin`` sorts).
        """
        wanted = np.asarray(document_ids, dtype=np.int64)
        if len(self.doc_ids) == 0 or len(wanted) == 0:
            return np.zeros(len(self.doc_ids), dtype=bool)
        top = int(self.doc_ids.max())
        table = np.zeros(top + 2, dtype=bool)  # the last slot catches rows without a document (-1)
        table[wanted[(wanted >= 0) & (wanted <= top)]] = True
        return table[self.doc_ids]

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Cosine of every row with ``query`` (normalised here if it is not)."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if len(self.ids) == 0:
            return np.zeros(0, dtype=np.float32)
        if q.shape[0] != self.dim:
            raise InvalidArgumentError(
                f"query vector has dimension {q.shape[0]} but model {self.model} has {self.dim}"
            )
        norm = float(np.linalg.norm(q))
        if norm:
            q = q / norm
        return matvec(self.matrix, q)

    def search(
        self, query: np.ndarray, *, k: int, mask: np.ndarray | None = None, min_score: float | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` best (ids, cosines) among rows allowed by ``mask`` and at least ``min_score``."""
        scores = self.scores(query)
        return top_k(self.ids, scores, k=k, mask=mask, min_score=min_score)


_CACHE: dict[tuple[str, str], tuple[int, VectorIndex]] = {}
_MODELS: dict[str, tuple[int, list[tuple[str, int]]]] = {}
_LOCK = threading.Lock()


def stored_models(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(model id, number of vectors), most used first; cached like the matrices (the count scans the vectors)."""
    key = database_key(conn)
    gen = store.docs_generation(conn)
    with _LOCK:
        hit = _MODELS.get(key)
        if hit is not None and hit[0] == gen:
            return hit[1]
    models = store.vector_models(conn)
    with _LOCK:
        _MODELS[key] = (gen, models)
    return models


def vector_index(conn: sqlite3.Connection, model: str) -> VectorIndex:
    """The cached :class:`VectorIndex` of ``model`` for this database, rebuilt if the store changed."""
    key = (database_key(conn), model)
    gen = store.docs_generation(conn)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit[0] == gen:
            return hit[1]
    ids, doc_ids, matrix = store.load_vectors(conn, model)
    index = VectorIndex(ids, matrix, model=model, doc_ids=doc_ids)
    with _LOCK:
        _CACHE[key] = (gen, index)
    return index


def clear_cache() -> None:
    """Forget every cached matrix (tests, or after replacing a database file)."""
    with _LOCK:
        _CACHE.clear()
        _MODELS.clear()
