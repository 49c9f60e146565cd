"""Rank fusion shared by document and code search: Reciprocal Rank Fusion and score normalisation.

Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009) scores an item by
``sum_r weight_r / (k + rank_r)`` over the rankings ``r`` that contain it (ranks start at 1), so
rankers whose raw scores live on different scales (BM25, cosine) combine without calibration.
``k = 60`` is the paper's value; it damps the influence of the very first ranks.

Examples
--------
>>> fused = rrf([["a", "b", "c"], ["b", "a"]])
>>> sorted(fused, key=fused.get, reverse=True)
['a', 'b', 'c']
>>> normalise(fused)["a"]
1.0
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from ..errors import InvalidArgumentError

K = TypeVar("K", bound=Hashable)

RRF_K = 60


def rrf(
    rankings: Sequence[Sequence[K]], *, k: float = RRF_K, weights: Sequence[float] | None = None
) -> dict[K, float]:
    """Reciprocal Rank Fusion of best-first rankings.

    Parameters
    ----------
    rankings : sequence of sequences
        Each a best-first list of keys; a key repeated within one ranking counts at its first rank.
    k : float
        The RRF constant (> 0), 60 by default.
    weights : sequence of float, optional
        One non-negative weight per ranking (default 1 each).

    Returns
    -------
    dict
        key -> fused score ``sum weight / (k + rank)``; insertion order follows first appearance.

    Examples
    --------
    >>> rrf([[1, 2], [2]], k=1)
    {1: 0.5, 2: 0.8333333333333333}
    """
    if k <= 0:
        raise InvalidArgumentError(f"k must be positive, got {k}")
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise InvalidArgumentError(
            f"got {len(weights)} weights for {len(rankings)} rankings; give one per ranking"
        )
    if any(w < 0 for w in weights):
        raise InvalidArgumentError("weights must be non-negative")
    fused: dict[K, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[K] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            fused[key] = fused.get(key, 0.0) + weight / (k + rank)
    return fused


def rrf_contributions(
    rankings: Mapping[str, Sequence[K]], *, k: float = RRF_K
) -> dict[K, dict[str, tuple[int, float]]]:
    """Per key, what each named ranking contributed: ``{key: {ranker: (rank, 1 / (k + rank))}}``.

    >>> rrf_contributions({"keyword": ["x"], "vector": ["y", "x"]}, k=1)["x"]
    {'keyword': (1, 0.5), 'vector': (2, 0.3333333333333333)}
    """
    out: dict[K, dict[str, tuple[int, float]]] = {}
    for name, ranking in rankings.items():
        for rank, key in enumerate(ranking, start=1):
            out.setdefault(key, {}).setdefault(name, (rank, 1.0 / (k + rank)))
    return out


def normalise(scores: Mapping[K, float]) -> dict[K, float]:
    """Scores divided by the best one, so the best is 1.0 (an empty or all-zero input is returned as is).

    >>> normalise({"a": 2.0, "b": 1.0})
    {'a': 1.0, 'b': 0.5}
    """
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return dict(scores)
    return {key: value / best for key, value in scores.items()}


def ranked(scores: Mapping[K, float]) -> list[tuple[K, float]]:
    """(key, score) pairs best first; ties keep insertion order.

    >>> ranked({"a": 0.5, "b": 1.0})
    [('b', 1.0), ('a', 0.5)]
    """
    return sorted(scores.items(), key=lambda kv: -kv[1])
