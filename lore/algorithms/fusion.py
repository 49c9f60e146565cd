"""Reciprocal Rank Fusion of per-row score arrays: combine rankers whose scores live on different scales.

A row's fused score is ``sum_r weight_r / (k + rank_r)`` over the rankings in which it scores above
zero (ranks start at 1, ties broken by row). Overlap similarities and PageRank probabilities are not
comparable numbers, but their ranks are; ``k = 60`` (Cormack, Clarke & Büttcher, SIGIR 2009) damps
the influence of the very first ranks. :func:`lore.search.fusion.rrf` is the same rule over lists of
keys, for search hits.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InvalidArgumentError

RRF_K = 60.0

__all__ = ["RRF_K", "order_by_score", "order_rows", "rank_fusion", "ranks"]
# scores equal to this many digits (relative to the best) are ties: sums taken in a different
# order differ in their last bits, and that noise must not outrank the id order
TIE_DIGITS = 10


def order_by_score(scores: np.ndarray, limit: int | None = None) -> np.ndarray:
    """Rows with a positive score, best first (the first ``limit``); scores equal to ``TIE_DIGITS``
    digits tie, broken by row. With a limit only the rows that can make it are sorted.

    Examples
    --------
    >>> order_by_score(np.array([0.3, 0.0, 0.1 + 0.2, 0.5])).tolist()
    [3, 0, 2]
    >>> order_by_score(np.array([0.3, 0.0, 0.1 + 0.2, 0.5]), limit=2).tolist()
    [3, 0]
    """
    s = np.asarray(scores, dtype=np.float64)
    cand = np.flatnonzero(s > 0)
    return order_rows(cand, s[cand], limit)


def order_rows(rows: np.ndarray, values: np.ndarray, limit: int | None = None) -> np.ndarray:
    """:func:`order_by_score` of the rows ``rows`` (ascending, each with a positive value) alone: the
    same order, for a caller that already knows which rows score.

    Examples
    --------
    >>> order_rows(np.array([0, 2, 3]), np.array([0.3, 0.1 + 0.2, 0.5])).tolist()
    [3, 0, 2]
    """
    cand, vals = rows, values
    if not cand.size:
        return cand
    top = float(vals.max())
    if limit is not None and limit < cand.size:
        cut = np.partition(vals, cand.size - limit)[cand.size - limit]  # the limit-th best
        keep = vals >= cut - top * 10.0**-TIE_DIGITS  # and whatever ties with it
        cand, vals = cand[keep], vals[keep]
    # rows ascend, so a stable sort by score breaks ties by row
    order = cand[np.argsort(-np.round(vals / top, TIE_DIGITS), kind="stable")]
    return order if limit is None else order[:limit]


def ranks(scores: np.ndarray, *, exclude: np.ndarray | None = None) -> np.ndarray:
    """1-based rank of every row with a positive score (best first, ties by row); 0 elsewhere.

    Parameters
    ----------
    scores : numpy.ndarray
        One score per row.
    exclude : numpy.ndarray of bool, optional
        Rows that take no rank (and do not push others down).

    Examples
    --------
    >>> ranks(np.array([0.2, 0.0, 0.5, 0.2])).tolist()
    [2, 0, 1, 3]
    >>> ranks(np.array([0.2, 0.0, 0.5, 0.2]), exclude=np.array([False, False, True, False])).tolist()
    [1, 0, 0, 2]
    """
    s = np.asarray(scores, dtype=np.float64)
    order = _ranked(s, exclude)
    out = np.zeros(s.shape[0], dtype=np.int64)
    out[order] = np.arange(1, order.size + 1)
    return out


def _ranked(s: np.ndarray, exclude: np.ndarray | None) -> np.ndarray:
    """The rows :func:`ranks` ranks, best first: positive and not excluded."""
    cand = np.flatnonzero(s > 0)
    if exclude is not None:
        cand = cand[~np.asarray(exclude, dtype=bool)[cand]]
    return order_rows(cand, s[cand])


def rank_fusion(
    scores: Sequence[np.ndarray],
    *,
    weights: Sequence[float] | None = None,
    k: float = RRF_K,
    exclude: np.ndarray | None = None,
) -> np.ndarray:
    """Fuse several per-row score arrays by Reciprocal Rank Fusion.

    Parameters
    ----------
    scores : sequence of numpy.ndarray
        One array per ranker, all of the same length; only positive entries are ranked.
    weights : sequence of float, optional
        One nonnegative weight per ranker (default 1 each).
    k : float
        The RRF constant (> 0).
    exclude : numpy.ndarray of bool, optional
        Rows that may not be returned: they take no rank in any ranker and score 0.

    Returns
    -------
    numpy.ndarray
        The fused score of every row; 0 for rows no ranker scored.

    Examples
    --------
    Row 1 is second in both rankings; row 0 first in one and absent from the other:

    >>> a, b = np.array([0.9, 0.5, 0.0]), np.array([0.0, 0.2, 0.7])
    >>> rank_fusion([a, b], k=1).round(3).tolist()
    [0.5, 0.667, 0.5]
    """
    if not scores:
        raise InvalidArgumentError("give at least one score array to fuse")
    n = len(scores[0])
    if any(len(s) != n for s in scores):
        raise InvalidArgumentError("every score array must have one entry per row (the same length)")
    ws = np.ones(len(scores)) if weights is None else np.asarray(weights, dtype=np.float64)
    if ws.shape != (len(scores),) or not np.isfinite(ws).all() or (ws < 0).any():
        raise InvalidArgumentError(f"weights must be {len(scores)} finite nonnegative numbers, one per ranker")
    if not k > 0:
        raise InvalidArgumentError(f"k must be positive, got {k}")
    out = np.zeros(n)
    for s, w in zip(scores, ws, strict=True):
        order = _ranked(np.asarray(s, dtype=np.float64), exclude)  # ranks 1, 2, ... in this order
        out[order] += w / (k + np.arange(1, order.size + 1))
    return out
