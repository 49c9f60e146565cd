"""Exact top-k over cosine scores, and the matrix-vector product that computes them.

Shared by document search (:mod:`lore.docs.vectors`) and code search (:mod:`lore.search.vectors`):
rows are L2-normalised vectors, so one product gives every cosine; :func:`top_k` picks the best
without a full sort and breaks ties by ascending id, so answers are deterministic.
"""

from __future__ import annotations

import numpy as np


def matvec(matrix: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``matrix @ q`` with numpy's own single-threaded loop (``einsum``), not BLAS.

    The product is memory-bound (100k x 384 floats are 150 MB read per query), so BLAS threads gain
    little, and waking them costs up to 20 ms per call on a busy machine. ``bench_vectors.py``
    measured, on 2 shared cores: 0.7 ms (einsum) against 20 ms (BLAS ``@``) at 10k rows, 32 ms
    against 41 ms at 100k; even back to back, with BLAS threads awake, einsum was not slower.

    >>> matvec(np.eye(2, dtype=np.float32), np.array([1.0, 2.0], dtype=np.float32)).tolist()
    [1.0, 2.0]
    """
    return np.einsum("ij,j->i", matrix, q)


def top_k(
    ids: np.ndarray,
    scores: np.ndarray,
    *,
    k: int,
    mask: np.ndarray | None = None,
    min_score: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Best ``k`` (ids, scores), best first, ties by ascending id; masked-out rows never appear.

    Parameters
    ----------
    ids : numpy.ndarray
        The id of each row (int64).
    scores : numpy.ndarray
        The score of each row, aligned with ``ids``.
    k : int
        How many to return at most; ``k <= 0`` returns nothing.
    mask : numpy.ndarray, optional
        Boolean row mask: only rows where it is True can appear.
    min_score : float, optional
        Rows scoring below this never appear.

    Returns
    -------
    tuple of numpy.ndarray
        (ids, scores), best first.

    Examples
    --------
    >>> ids, scores = top_k(np.array([7, 3, 5]), np.array([0.5, 0.9, 0.5]), k=3)
    >>> ids.tolist(), scores.tolist()
    ([3, 5, 7], [0.9, 0.5, 0.5])
    """
    keep = np.ones(len(scores), dtype=bool) if mask is None else mask.copy()
    if min_score is not None:
        keep &= scores >= min_score
    rows = np.flatnonzero(keep)
    if k <= 0 or len(rows) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    sub = scores[rows]
    if len(rows) > k:
        part = np.argpartition(-sub, k - 1)[:k]
        rows, sub = rows[part], sub[part]
    order = np.lexsort((ids[rows], -sub))
    return ids[rows][order], sub[order]
