"""The batched scoring and explanation paths give the same bits as the straightforward ones they replaced.

Each reference below is the earlier implementation, kept verbatim in spirit: overlap relation by
relation, one ``overlap_explain`` call per (seed, target), Reciprocal Rank Fusion through dense rank
arrays, and the node-by-node strongest-path search. Equality is exact (``np.array_equal``, ``==``
on floats), never ``allclose``: answers must stay byte-identical.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms import fusion as fu
from lore.algorithms import overlap as ov
from lore.graphs import related as rel


def _features(rng: np.random.Generator, n: int, m: int, density: float, *, integer: bool) -> sp.csr_matrix:
    f = sp.random(n, m, density=density, random_state=rng, format="csr")
    if integer:  # many equal products: ties everywhere
        f.data = np.ceil(f.data * 3)
    f.sum_duplicates()
    return f


def _reference_scores(feats, seeds, *, weights, measure, cap):
    """overlap_scores as it was: one relation at a time, np.add.at over the concatenated products."""
    n = feats[0].shape[0]
    seeds = np.unique(np.asarray(seeds, dtype=np.int64))
    all_t, all_v = [], []
    for f, w in zip(feats, weights, strict=True):
        if w == 0:
            continue
        t = f.T.tocsr()
        deg_all = np.diff(t.indptr).astype(np.int64)
        idx, lens = ov.row_segments(f.indptr, seeds)
        spos = np.repeat(np.arange(seeds.size), lens)
        cols = f.indices[idx].astype(np.int64)
        deg = deg_all[cols]
        x = f.data[idx].astype(np.float64)
        keep = (deg <= cap) & (deg > 0) & (x != 0)
        spos, cols, x, deg = spos[keep], cols[keep], x[keep], deg[keep]
        if cols.size == 0:
            continue
        coef = x * ov._discount(measure, deg, n)
        tidx, tlens = ov.row_segments(t.indptr, cols)
        targets = t.indices[tidx].astype(np.int64)
        vals = t.data[tidx] * np.repeat(coef, tlens)
        if measure not in ov._NORMALIZED:
            all_t.append(targets)
            all_v.append(vals * w)
            continue
        d = np.diff(t.indptr)[f.indices]
        weight = np.where(d <= cap, ov._column_weight(measure, d, n), 0.0)
        owner = np.repeat(np.arange(n), np.diff(f.indptr))
        norms = np.bincount(owner, weights=f.data.astype(np.float64) ** 2 * weight, minlength=n)
        tpos = np.repeat(spos, tlens)
        for s in range(seeds.size):
            mine = tpos == s if seeds.size > 1 else slice(None)
            uniq, inv = np.unique(targets[mine], return_inverse=True)
            dots = np.bincount(inv.ravel(), weights=vals[mine], minlength=uniq.size)
            if uniq.size == 0:
                continue
            mine_s = spos == s
            seed_norm2 = float(np.sum(x[mine_s] ** 2 * ov._column_weight(measure, deg[mine_s], n)))
            if measure in ("cosine", "idf_cosine"):
                denom = np.sqrt(seed_norm2 * norms[uniq])
            else:
                denom = seed_norm2 + norms[uniq] - dots
            all_t.append(uniq)
            all_v.append(np.divide(dots, denom, out=np.zeros_like(dots), where=denom > 0) * w)
    scores = np.zeros(n)
    if all_t:
        np.add.at(scores, np.concatenate(all_t), np.concatenate(all_v))
    scores[seeds] = 0.0
    return scores


@pytest.mark.parametrize("measure", ov.MEASURES)
@pytest.mark.parametrize("case", range(6))
def test_overlap_scores_equal_the_relation_by_relation_sums(measure, case):
    rng = np.random.default_rng(case)
    n = 120
    integer = case % 2 == 0
    feats = [_features(rng, n, n, 0.04, integer=integer), _features(rng, n, 30, 0.08, integer=integer),
             sp.csr_matrix((n, 7)), _features(rng, n, n, 0.02, integer=integer)]
    weights = [1.0, 0.5, 2.0, 0.0 if case == 3 else 0.25]
    trans = [f.T.tocsr() for f in feats]
    cap = 6 if case >= 4 else 1000  # a small cap drops the busiest neighbours
    for seeds in ([int(rng.integers(n))], rng.choice(n, 3, replace=False), [5, 5, 9]):
        got = ov.overlap_scores(feats, seeds, weights=weights, measure=measure, transposes=trans,
                                max_neighbour_degree=cap)
        want = _reference_scores(feats, seeds, weights=weights, measure=measure, cap=cap)
        assert np.array_equal(got, want), (measure, case, seeds)
        # the same matrices again (the per-matrix values are reused) and without transposes
        assert np.array_equal(got, ov.overlap_scores(feats, seeds, weights=weights, measure=measure,
                                                     transposes=trans, max_neighbour_degree=cap))
        assert np.array_equal(got, ov.overlap_scores(feats, seeds, weights=weights, measure=measure,
                                                     max_neighbour_degree=cap))


@pytest.mark.parametrize("measure", ov.MEASURES)
@pytest.mark.parametrize("case", range(4))
def test_overlap_explain_many_equals_one_call_per_target(measure, case):
    rng = np.random.default_rng(10 + case)
    n = 80
    feats = [_features(rng, n, n, 0.12, integer=case % 2 == 0), _features(rng, n, 20, 0.15, integer=True),
             sp.csr_matrix((n, 5))]
    trans = [f.T.tocsr() for f in feats] if case < 2 else None
    weights = [1.0, 0.5, 1.0]
    seed = int(rng.integers(n))
    targets = np.r_[rng.choice(n, 25, replace=False), seed, seed, 3, 3]  # the seed itself and repeats too
    for top in (None, 1, 3):
        got = ov.overlap_explain_many(feats, seed, targets, weights=weights, measure=measure, transposes=trans,
                                      top=top, max_neighbour_degree=10 if case == 3 else None)
        want = [ov.overlap_explain(feats, seed, int(t), weights=weights, measure=measure, transposes=trans,
                                   top=top, max_neighbour_degree=10 if case == 3 else None) for t in targets]
        assert got == want, (measure, case, top)
        assert sum(len(w) for w in got) > 10, "the case explains something"


def test_overlap_explain_many_checks_its_targets():
    from lore.errors import InvalidArgumentError

    f = sp.csr_matrix(np.eye(3))
    assert ov.overlap_explain_many([f], 0, np.array([], dtype=np.int64)) == []
    with pytest.raises(InvalidArgumentError):
        ov.overlap_explain_many([f], 0, [3])
    with pytest.raises(InvalidArgumentError):
        ov.overlap_explain_many([f], 0, [[1]])


def _reference_order(scores, limit=None):
    s = np.asarray(scores, dtype=np.float64)
    cand = np.flatnonzero(s > 0)
    if not cand.size:
        return cand
    vals = s[cand]
    top = float(vals.max())
    if limit is not None and limit < cand.size:
        cut = np.partition(vals, cand.size - limit)[cand.size - limit]
        keep = vals >= cut - top * 10.0**-fu.TIE_DIGITS
        cand, vals = cand[keep], vals[keep]
    order = cand[np.lexsort((cand, -np.round(vals / top, fu.TIE_DIGITS)))]
    return order if limit is None else order[:limit]


def _reference_fusion(scores, weights, exclude, k=fu.RRF_K):
    out = np.zeros(len(scores[0]))
    for s, w in zip(scores, np.asarray(weights, dtype=np.float64), strict=True):
        s = np.where(exclude, 0.0, s) if exclude is not None else s
        order = _reference_order(s)
        r = np.zeros(s.shape[0], dtype=np.int64)
        r[order] = np.arange(1, order.size + 1)
        hit = r > 0
        out[hit] += w / (k + r[hit])
    return out


@pytest.mark.parametrize("case", range(8))
def test_rank_fusion_and_ordering_equal_the_dense_rank_arrays(case):
    rng = np.random.default_rng(case)
    n = 300
    a = np.where(rng.random(n) < 0.4, np.round(rng.random(n), 2), 0.0)  # rounded: ties
    b = np.where(rng.random(n) < 0.2, rng.random(n) * 1e-3, 0.0)
    b[:5] = b[5] + np.array([0.0, 1e-16, -1e-16, 0.0, 0.0])  # equal to 10 digits: ties by row
    exclude = rng.random(n) < 0.1 if case % 2 else None
    assert np.array_equal(fu.rank_fusion([a, b], weights=[1.0, 0.25], exclude=exclude),
                          _reference_fusion([a, b], [1.0, 0.25], exclude))
    for s in (a, b, fu.rank_fusion([a, b])):
        for limit in (None, 1, 10, 1000):
            assert np.array_equal(fu.order_by_score(s, limit), _reference_order(s, limit))
    mask = rng.random(n) < 0.3
    ranked, total = rel.rank(a, mask, 10)
    assert np.array_equal(ranked, _reference_order(np.where(mask, 0.0, a), 10))
    assert total == int(np.count_nonzero(np.where(mask, 0.0, a) > 0))


def _reference_paths(adj, seeds, targets, max_hops=3):
    """strongest_paths as it was: a Python relaxation, node by node and edge by edge."""
    deg = np.asarray(adj.sum(axis=1)).ravel()
    deg[deg == 0] = 1.0
    best = {int(s): (1.0, [int(s)]) for s in seeds.tolist()}
    frontier = dict(best)
    want = set(targets.tolist())
    found: dict[int, list[int]] = {}
    for _ in range(max_hops):
        nxt: dict[int, tuple[float, list[int]]] = {}
        for node, (p, path) in frontier.items():
            lo, hi = adj.indptr[node], adj.indptr[node + 1]
            cols, vals = adj.indices[lo:hi], adj.data[lo:hi] / deg[node]
            if len(cols) > 200:
                keep = np.argsort(-vals, kind="stable")[:200]
                cols, vals = cols[keep], vals[keep]
            for c, v in zip(cols.tolist(), vals.tolist(), strict=True):
                q = p * v
                if c not in best or best[c][0] < q:
                    best[c] = (q, path + [c])
                    nxt[c] = best[c]
        for t in [t for t in want if t in best]:
            found[t] = best[t][1]
            want.discard(t)
        frontier = nxt
        if not frontier or not want:
            break
    return [found.get(int(t), []) for t in targets.tolist()]


@pytest.mark.parametrize("case", range(8))
def test_strongest_paths_equal_the_node_by_node_search(case):
    rng = np.random.default_rng(case)
    n = 400 if case < 6 else 60
    adj = sp.random(n, n, density=0.01 if case < 6 else 0.08, random_state=rng, format="csr")
    if case % 2 == 0:  # integer weights: many equal path weights, so the order of visits decides
        adj.data = np.ceil(adj.data * 2)
    if case >= 4:  # hubs with more than 200 edges keep their 200 strongest
        hub = sp.csr_matrix((np.ceil(rng.random(2 * n) * 3), (np.repeat([0, 1], n), np.tile(np.arange(n), 2))),
                            shape=(n, n))
        adj = (adj + hub).tocsr() if n > 200 else adj
    adj = (adj + adj.T).tocsr() if case % 3 == 0 else adj
    seeds = np.array([0, 1, 7]) if case % 2 else np.array([int(rng.integers(n))])
    targets = np.r_[rng.choice(n, 60, replace=False), seeds[:1]]
    for hops in (1, 2, 3, 4):
        assert rel.strongest_paths(adj, seeds, targets, max_hops=hops) == _reference_paths(adj, seeds, targets,
                                                                                            max_hops=hops)
    assert any(len(p) >= 3 for p in rel.strongest_paths(adj, seeds, targets)), "some path takes two hops"
