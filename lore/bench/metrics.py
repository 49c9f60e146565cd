"""Ranking and set metrics: pure functions over ranked lists and relevant sets.

Every function takes the ranked candidates (best first) and the set of relevant items; none of
them reads an index. Averages over queries are plain means; an empty query set is the caller's
error (:class:`~lore.errors.EmptyGroundTruthError`), never a perfect score.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence


def recall_at_k(ranked: Sequence[Hashable], relevant: Iterable[Hashable], k: int) -> float:
    """Fraction of the relevant items found in the first ``k`` ranked ones.

    Examples
    --------
    >>> recall_at_k(["a", "b", "c"], {"a", "c", "z"}, 2)
    0.3333333333333333
    >>> recall_at_k([], {"a"}, 10)
    0.0
    """
    rel = set(relevant)
    if not rel:
        return 0.0
    return len(rel.intersection(ranked[:k])) / len(rel)


def reciprocal_rank(ranked: Sequence[Hashable], relevant: Iterable[Hashable]) -> float:
    """1 / rank of the first relevant item (0 when none is ranked).

    Examples
    --------
    >>> reciprocal_rank(["a", "b", "c"], {"c"})
    0.3333333333333333
    >>> reciprocal_rank(["a"], {"z"})
    0.0
    """
    rel = set(relevant)
    for i, item in enumerate(ranked):
        if item in rel:
            return 1.0 / (i + 1)
    return 0.0


def ndcg_at_k(ranked: Sequence[Hashable], relevant: Iterable[Hashable], k: int = 10) -> float:
    """Normalized discounted cumulative gain with binary relevance, cut at ``k``.

    Examples
    --------
    >>> ndcg_at_k(["a", "b"], {"a", "b"}, 10)
    1.0
    >>> round(ndcg_at_k(["x", "a"], {"a"}, 10), 4)
    0.6309
    >>> ndcg_at_k(["x"], {"a"}, 10)
    0.0
    """
    rel = set(relevant)
    if not rel:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, item in enumerate(ranked[:k]) if item in rel)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), k)))
    return dcg / ideal


def precision_recall(found: Iterable[Hashable], expected: Iterable[Hashable]) -> tuple[int, int, int]:
    """(true positives, found, expected) counts of two sets; see :func:`ratio` for the quotients.

    Examples
    --------
    >>> precision_recall({"a", "b", "c"}, {"a", "d"})
    (1, 3, 2)
    """
    f, e = set(found), set(expected)
    return len(f & e), len(f), len(e)


def ratio(num: float, den: float) -> float | None:
    """``num / den``, or None when ``den`` is 0 (undefined, shown as '-' rather than a fake 0 or 1).

    Examples
    --------
    >>> ratio(1, 4), ratio(0, 0)
    (0.25, None)
    """
    return None if den == 0 else num / den


def f1(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of precision and recall (None if either is undefined).

    Examples
    --------
    >>> f1(0.5, 1.0)
    0.6666666666666666
    >>> f1(None, 1.0) is None
    True
    """
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def ranking_metrics(ranked: Sequence[Hashable], relevant: Iterable[Hashable]) -> dict[str, float]:
    """Recall@5, Recall@10, MRR and nDCG@10 of one query.

    Examples
    --------
    >>> m = ranking_metrics(["a", "b", "c"], {"b"})
    >>> m["recall@5"], m["mrr"]
    (1.0, 0.5)
    """
    rel = set(relevant)
    return {
        "recall@5": recall_at_k(ranked, rel, 5),
        "recall@10": recall_at_k(ranked, rel, 10),
        "mrr": reciprocal_rank(ranked, rel),
        "ndcg@10": ndcg_at_k(ranked, rel, 10),
    }


METRICS = ("recall@5", "recall@10", "mrr", "ndcg@10")


def mean_metrics(per_query: Sequence[dict[str, float]]) -> dict[str, float]:
    """Mean of each metric over queries (an empty list gives an empty dict).

    Examples
    --------
    >>> mean_metrics([{"mrr": 1.0}, {"mrr": 0.5}])
    {'mrr': 0.75}
    """
    if not per_query:
        return {}
    keys = per_query[0].keys()
    return {k: sum(q[k] for q in per_query) / len(per_query) for k in keys}
