"""Learning to rank with a linear model: score candidates, measure a weight vector, fit it by coordinate ascent.

A training set is a :class:`Blocks`: for every query, its candidate rows, their feature matrix (one
column per signal) and which of them are relevant, all stacked into flat arrays with a query id per
candidate, so that one matrix product and one ``lexsort`` rank every query at once.

Coordinate ascent (Metzler and Croft, 2007) changes one weight at a time, trying each value of a
fixed grid and keeping the best by the objective (mean of MRR@10 and Recall@10 over queries, each
query weighted by ``query_weight``); it stops when a full round improves nothing. It is
deterministic: the grid and the order of the weights are fixed, and a tie keeps the current value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InvalidArgumentError

__all__ = ["Blocks", "coordinate_ascent", "linear_scores", "query_metrics", "rank_blocks"]

GRID = (-2.0, -1.0, -0.5, -0.25, -0.1, 0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


@dataclass
class Blocks:
    """Candidates of many queries stacked: ``query[i]`` owns row ``rows[i]`` with features ``x[i]``."""

    query: np.ndarray  # int, non-decreasing
    rows: np.ndarray  # int, candidate row (the tie-break: lower first)
    x: np.ndarray  # float, (candidates x signals)
    relevant: np.ndarray  # bool, per candidate
    n_relevant: np.ndarray  # int, per query: relevant items in total (some may be outside the candidates)
    query_weight: np.ndarray  # float, per query (sums to 1 over the training set)

    @property
    def n_queries(self) -> int:
        return int(self.n_relevant.shape[0])

    @classmethod
    def stack(cls, parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
              weights: np.ndarray | None = None) -> Blocks:
        """From per-query ``(rows, x, relevant, n_relevant)`` tuples (equal weights by default)."""
        if not parts:
            raise InvalidArgumentError("no query to stack")
        k = parts[0][1].shape[1]
        query = np.concatenate([np.full(len(p[0]), i, dtype=np.int64) for i, p in enumerate(parts)])
        rows = np.concatenate([np.asarray(p[0], dtype=np.int64) for p in parts])
        x = np.concatenate([np.asarray(p[1], dtype=np.float64).reshape(-1, k) for p in parts])
        rel = np.concatenate([np.asarray(p[2], dtype=bool) for p in parts])
        n_rel = np.array([int(p[3]) for p in parts], dtype=np.int64)
        w = np.full(len(parts), 1.0 / len(parts)) if weights is None else np.asarray(weights, dtype=np.float64)
        return cls(query, rows, x, rel, n_rel, w)

    @classmethod
    def concat(cls, blocks: list[Blocks]) -> Blocks:
        """Several training sets as one, each set weighing the same in total (one corpus, one vote)."""
        offset = 0
        q, r, x, rel, nrel, w = [], [], [], [], [], []
        for b in blocks:
            q.append(b.query + offset)
            offset += b.n_queries
            r.append(b.rows)
            x.append(b.x)
            rel.append(b.relevant)
            nrel.append(b.n_relevant)
            w.append(b.query_weight / b.query_weight.sum() / len(blocks))
        return cls(np.concatenate(q), np.concatenate(r), np.concatenate(x), np.concatenate(rel),
                   np.concatenate(nrel), np.concatenate(w))


def linear_scores(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``x @ weights``: one score per candidate.

    Examples
    --------
    >>> linear_scores(np.array([[1.0, 0.0], [0.5, 1.0]]), np.array([1.0, 0.25])).tolist()
    [1.0, 0.75]
    """
    w = np.asarray(weights, dtype=np.float64)
    if x.shape[1] != w.shape[0]:
        raise InvalidArgumentError(f"{w.shape[0]} weights for {x.shape[1]} signals")
    return x @ w


def rank_blocks(b: Blocks, weights: np.ndarray) -> np.ndarray:
    """Per candidate, its 1-based rank within its query (score descending, ties by row)."""
    s = linear_scores(b.x, weights)
    order = np.lexsort((b.rows, -s, b.query))
    starts = np.searchsorted(b.query[order], np.arange(b.n_queries))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - starts[b.query[order]] + 1
    return rank


def _pairs(b: Blocks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(relevant candidate, other candidate of the same query, its relevant number): the comparisons that
    decide every relevant candidate's rank, built once per Blocks (O(relevant x candidates per query))."""
    got = getattr(b, "_pairs_cache", None)
    if got is not None:
        return got
    rel_idx = np.flatnonzero(b.relevant)
    starts = np.searchsorted(b.query, np.arange(b.n_queries))
    ends = np.searchsorted(b.query, np.arange(b.n_queries), side="right")
    q = b.query[rel_idx]
    lens = ends[q] - starts[q]
    owner = np.repeat(np.arange(rel_idx.size), lens)
    offs = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    other = np.repeat(starts[q], lens) + offs
    got = (rel_idx, other, owner)
    object.__setattr__(b, "_pairs_cache", got)
    return got


def _metrics_from_scores(b: Blocks, s: np.ndarray, k: int) -> dict[str, np.ndarray]:
    rel_idx, other, owner = _pairs(b)
    mine = rel_idx[owner]
    beats = (s[other] > s[mine]) | ((s[other] == s[mine]) & (b.rows[other] < b.rows[mine]))
    rank = 1 + np.bincount(owner, weights=beats, minlength=rel_idx.size).astype(np.int64)
    q = b.query[rel_idx]
    hit = rank <= k
    found = np.bincount(q[hit], minlength=b.n_queries)
    recall = found / np.maximum(b.n_relevant, 1)
    best = np.full(b.n_queries, np.iinfo(np.int64).max)
    np.minimum.at(best, q[hit], rank[hit])
    mrr = np.where(best <= k, 1.0 / np.minimum(best, k + 1), 0.0)
    return {f"recall@{k}": recall, f"mrr@{k}": mrr, "hit@1": (best == 1).astype(np.float64)}


def query_metrics(b: Blocks, weights: np.ndarray, *, k: int = 10) -> dict[str, np.ndarray]:
    """Per query: Recall@k, MRR@k (reciprocal rank of the first relevant in the top k, else 0), hit@1.

    Examples
    --------
    >>> b = Blocks.stack([(np.array([5, 6]), np.array([[1.0], [0.0]]), np.array([False, True]), 2)])
    >>> {m: v.tolist() for m, v in query_metrics(b, np.array([1.0])).items()}
    {'recall@10': [0.5], 'mrr@10': [0.5], 'hit@1': [0.0]}
    >>> {m: v.tolist() for m, v in query_metrics(b, np.array([-1.0])).items()}
    {'recall@10': [0.5], 'mrr@10': [1.0], 'hit@1': [1.0]}
    """
    return _metrics_from_scores(b, linear_scores(b.x, weights), k)


def objective(b: Blocks, weights: np.ndarray, *, scores: np.ndarray | None = None) -> float:
    """The fit objective: query-weighted mean of (MRR@10 + Recall@10) / 2."""
    m = _metrics_from_scores(b, linear_scores(b.x, weights) if scores is None else scores, 10)
    return float(np.dot(b.query_weight, (m["mrr@10"] + m["recall@10"]) / 2.0) / b.query_weight.sum())


def coordinate_ascent(b: Blocks, init: np.ndarray, *, grid: tuple[float, ...] = GRID, max_rounds: int = 6,
                      fixed: tuple[int, ...] = (), order: tuple[int, ...] | None = None,
                      ) -> tuple[np.ndarray, float, list[float]]:
    """Fit linear weights by coordinate ascent on :func:`objective`.

    Parameters
    ----------
    b : Blocks
        The training queries.
    init : array of float
        Starting weights, one per signal.
    grid : tuple of float
        The values each weight may take.
    max_rounds : int
        Passes over all weights at most (it stops earlier when a pass changes nothing).
    fixed : tuple of int
        Signals whose weight stays at its initial value (an anchor for the scale).
    order : tuple of int, optional
        The order in which a round visits the signals (default: their column order). The ascent is
        greedy, so the order can change which local optimum it stops at.

    Returns
    -------
    (weights, objective value, objective after each round)

    Examples
    --------
    Two candidates per query; signal 1 marks the relevant one, signal 0 is noise:

    >>> x = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> b = Blocks.stack([(np.array([0, 1]), x, np.array([False, True]), 1)] * 3)
    >>> w, obj, _ = coordinate_ascent(b, np.array([1.0, 0.0]), fixed=(0,))
    >>> bool(w[1] > w[0]), obj
    (True, 1.0)
    """
    w = np.asarray(init, dtype=np.float64).copy()
    if w.shape != (b.x.shape[1],):
        raise InvalidArgumentError(f"init needs {b.x.shape[1]} weights, got {w.shape}")
    visit = tuple(range(len(w))) if order is None else tuple(int(j) for j in order)
    if sorted(visit) != list(range(len(w))):
        raise InvalidArgumentError(f"order must list each of the {len(w)} signals once")
    x = np.ascontiguousarray(b.x.T)  # one signal's column per row: the score moves along it
    s = linear_scores(b.x, w)
    best = objective(b, w, scores=s)
    history = [best]
    for _ in range(max_rounds):
        improved = False
        for j in visit:
            if j in fixed:
                continue
            for v in grid:
                if v == w[j]:
                    continue
                trial_s = s + (v - w[j]) * x[j]
                got = objective(b, w, scores=trial_s)
                if got > best + 1e-12:
                    best, improved = got, True
                    w = w.copy()
                    w[j] = v
                    s = linear_scores(b.x, w)  # recomputed, not accumulated: no drift
        history.append(best)
        if not improved:
            break
    return w, best, history
