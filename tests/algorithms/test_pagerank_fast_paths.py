"""The fast paths of PageRank (issue 16): cached transitions, multi-proposal walk steps, sparse
Monte-Carlo sums, and the directed residual spread of push; each against a plain reference."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms import pagerank as pr
from lore.algorithms.pagerank import monte_carlo_pagerank, personalized_pagerank
from lore.algorithms.push import push_pagerank

from . import graphs


def reference_power_iteration(a: sp.csr_matrix, p: np.ndarray, alpha: float, tol: float) -> np.ndarray:
    """The textbook iteration, dense: x <- alpha P^T x + (alpha * dangling mass + 1 - alpha) p."""
    out = np.asarray(a.sum(axis=1)).ravel()
    pt = (sp.diags(np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)) @ a).T.toarray()
    dangling = out <= 0
    x = p.copy()
    for _ in range(10_000):
        new = alpha * pt @ x + (alpha * x[dangling].sum() + 1.0 - alpha) * p
        if np.abs(new - x).sum() < tol:
            return new / new.sum()
        x = new
    raise AssertionError("reference did not converge")


@pytest.mark.parametrize("make", [graphs.dangling_chain, graphs.weighted_digraph, graphs.karate_club,
                                  lambda: graphs.code_like(200, seed=4)])
def test_exact_matches_the_textbook_iteration(make):
    a = make().tocsr()
    n = a.shape[0]
    rng = np.random.default_rng(0)
    weights = rng.random(n) * (rng.random(n) < 0.3)
    weights[0] = 1.0
    for personalization, p in (([0], np.eye(n)[0]), (weights, weights / weights.sum())):
        got = personalized_pagerank(a, personalization=personalization, alpha=0.8, tol=1e-13, max_iter=10_000)
        np.testing.assert_allclose(got, reference_power_iteration(a, p, 0.8, 1e-14), atol=1e-11)


def test_exact_transition_is_cached_per_matrix_and_answers_do_not_change():
    a = graphs.code_like(300, seed=1)
    first = personalized_pagerank(a, personalization=[3], tol=1e-10, max_iter=1000)
    cached = pr._transition(a, True)
    assert pr._transition(a, True) is cached  # the same objects: nothing recomputed
    assert np.array_equal(personalized_pagerank(a, personalization=[3], tol=1e-10, max_iter=1000), first)
    b = a.copy()  # another matrix object: its own transition, the same answer
    assert pr._transition(b, True) is not cached
    assert np.array_equal(personalized_pagerank(b, personalization=[3], tol=1e-10, max_iter=1000), first)


def _draws(a: sp.csr_matrix, row: int, k: int, rng) -> np.ndarray:
    return pr._step(a.indices, pr._walk_tables(a), np.full(k, row, dtype=np.int64), rng)


def test_walk_step_samples_in_proportion_to_weight():
    # row 0: uneven weights; row 1: one heavy entry among many light ones (most draws land past the
    # guide entry of their bucket and some need the binary search); row 2 is dangling; row 3 holds
    # only zero weights (dangling too); row 4 has a zero-weight entry that is never taken
    w0 = np.array([1.0, 2.0, 6.0])
    w1 = np.r_[np.full(199, 0.01), 1000.0]
    rows = np.r_[np.zeros(3, int), np.ones(200, int), [3, 3, 4, 4, 4]]
    cols = np.r_[np.arange(3) + 5, np.arange(200) + 8, [0, 1, 0, 1, 2]]
    data = np.r_[w0, w1, [0.0, 0.0, 1.0, 0.0, 3.0]]
    a = sp.csr_matrix((data, (rows, cols)), shape=(208, 208))
    rng = np.random.default_rng(5)
    k = 300_000
    tol = 4 * np.sqrt(0.25 / k)
    np.testing.assert_allclose(np.bincount(_draws(a, 0, k, rng) - 5, minlength=3) / k, w0 / w0.sum(), atol=tol)
    got1 = _draws(a, 1, k, rng)
    assert got1.min() >= 8 and abs(float(np.mean(got1 == 207)) - 1000.0 / 1001.99) < tol
    light = np.bincount(got1[got1 < 207] - 8, minlength=199)
    assert light.sum() > 300 and light.max() < 40  # the light entries are drawn too, evenly
    assert (_draws(a, 2, 10, rng) == -1).all() and (_draws(a, 3, 10, rng) == -1).all()
    got4 = _draws(a, 4, k, rng)
    assert set(np.unique(got4).tolist()) == {0, 2}
    assert abs(float(np.mean(got4 == 0)) - 0.25) < tol


def test_walk_step_agrees_with_a_binary_search_on_random_rows():
    rng = np.random.default_rng(2)
    a = sp.random(300, 300, density=0.05, random_state=3, format="csr")
    a.data = rng.pareto(1.0, a.nnz) + 1e-3  # very uneven weights
    tables = pr._walk_tables(a)
    spans, cum, bounds, _guide = tables
    node = rng.integers(0, 300, 50_000)
    got = pr._step(a.indices, tables, node, np.random.default_rng(9))
    u = np.random.default_rng(9).random(node.size)  # the same single draw per walk
    point = bounds[node, 0] + u * bounds[node, 1]
    pos = np.minimum(np.searchsorted(cum, point, side="right"), spans[node, 0] + spans[node, 1] - 1)
    want = np.where(bounds[node, 1] > 0, a.indices[np.maximum(pos, 0)], -1)
    assert np.array_equal(got, want)


def test_monte_carlo_is_deterministic_and_unbiased_over_blocks():
    a = graphs.karate_club()
    exact = personalized_pagerank(a, personalization=[0, 33], tol=1e-12, max_iter=1000)
    n_walks = 3 * pr.WALK_BLOCK + 17  # four blocks, the last one short
    s1, e1 = monte_carlo_pagerank(a, personalization=[0, 33], n_walks=n_walks, seed=11)
    s2, e2 = monte_carlo_pagerank(a, personalization=[0, 33], n_walks=n_walks, seed=11)
    assert np.array_equal(s1, s2) and np.array_equal(e1, e2)
    assert not np.array_equal(s1, monte_carlo_pagerank(a, personalization=[0, 33], n_walks=n_walks, seed=12)[0])
    z = np.abs(s1 - exact) / np.where(e1 > 0, e1, 1.0)
    assert np.median(z) < 1.5 and z.max() < 5.0
    # the sums are exact integers per block: the same totals whatever order the blocks are added in
    seqs = pr._walk_seeds(11, 4)
    rows, cum = np.array([0, 33]), np.array([0.5, 1.0])
    sizes = [pr.WALK_BLOCK] * 3 + [17]
    blocks = [pr.walk_block(a.indices, *pr._walk_tables(a), rows, cum, (m, q, 0.85, None)) for m, q in zip(sizes, seqs, strict=True)]
    visits = np.zeros(a.shape[0])
    for visited, b1, _b2 in reversed(blocks):
        assert (np.diff(visited) > 0).all() and (b1 == np.round(b1)).all()
        visits[visited] += b1
    np.testing.assert_array_equal((1.0 - 0.85) * (visits / n_walks), s1)


def test_monte_carlo_leaves_unvisited_rows_at_zero():
    a = sp.block_diag([graphs.karate_club(), graphs.karate_club()]).tocsr()
    scores, se = monte_carlo_pagerank(a, personalization=[0], n_walks=2000, seed=0)
    assert (scores[34:] == 0).all() and (se[34:] == 0).all() and (scores[:34] > 0).any()


def test_directed_push_spread_sums_to_one_and_stays_in_the_seeds_components():
    a = sp.block_diag([graphs.code_like(300, seed=2), graphs.code_like(100, seed=3)]).tocsr()
    for seeds in ([5], [5, 17]):
        local = push_pagerank(a, personalization=seeds, rmax=1e-3)
        spread = push_pagerank(a, personalization=seeds, rmax=1e-3, spread=True)
        assert abs(spread.sum() - 1.0) < 1e-9 and (spread[300:] == 0).all()
        assert (spread >= local).all()
        exact = personalized_pagerank(a, personalization=seeds, tol=1e-12, max_iter=1000)
        assert np.abs(spread - exact).sum() < np.abs(local - exact).sum()
        # as rmax shrinks the spread share vanishes and both converge to the exact vector
        fine = push_pagerank(a, personalization=seeds, rmax=1e-9, spread=True)
        np.testing.assert_allclose(fine, exact, atol=1e-6)


def test_push_spread_default_follows_undirected_and_can_be_turned_off():
    a = graphs.symmetrize(graphs.code_like(200, seed=6))
    undirected = push_pagerank(a, personalization=[3], rmax=1e-3, undirected=True)
    assert np.array_equal(undirected, push_pagerank(a, personalization=[3], rmax=1e-3, undirected=True, spread=True))
    off = push_pagerank(a, personalization=[3], rmax=1e-3, undirected=True, spread=False)
    assert np.array_equal(off, push_pagerank(a, personalization=[3], rmax=1e-3))
    assert off.sum() < 1.0 - 1e-6 < undirected.sum()


def test_isolated_seed_keeps_its_residual_when_spread_on_a_directed_graph():
    a = sp.csr_matrix(([1.0, 1.0], ([0, 1], [1, 2])), shape=(4, 4))
    np.testing.assert_allclose(push_pagerank(a, personalization=[3], rmax=0.5, spread=True), np.eye(4)[3])


def reference_push_rounds(a: sp.csr_matrix, seeds: list[int], alpha: float, rmax: float) -> tuple[np.ndarray, np.ndarray]:
    """Forward push as first written (np.unique per round, row sums and thresholds recomputed per
    round): the estimate ``p`` and residual ``r`` before any correction."""
    n = a.shape[0]
    indptr, indices, data = a.indptr, a.indices, a.data
    rows = np.asarray(sorted(set(seeds)), dtype=np.int64)
    probs = np.full(rows.size, 1.0 / rows.size)
    p, r = np.zeros(n), np.zeros(n)
    r[rows] = probs
    cand = rows
    while cand.size:
        outdeg = (indptr[cand + 1] - indptr[cand]).astype(np.float64)
        front = cand[r[cand] > rmax * np.maximum(outdeg, 1.0)]
        if front.size == 0:
            break
        mass = r[front]
        r[front] = 0.0
        p[front] += (1.0 - alpha) * mass
        idx = np.concatenate([np.arange(indptr[u], indptr[u + 1]) for u in front]).astype(np.int64)
        lens = indptr[front + 1] - indptr[front]
        w = data[idx].astype(np.float64)
        owner = np.repeat(np.arange(front.size), lens)
        rowsum = np.bincount(owner, weights=w, minlength=front.size)
        dangling = rowsum <= 0
        share = np.divide(alpha * mass, rowsum, out=np.zeros_like(mass), where=~dangling)
        targets, vals = indices[idx].astype(np.int64), w * share[owner]
        lost = alpha * float(mass[dangling].sum())
        if lost > 0:
            targets, vals = np.concatenate([targets, rows]), np.concatenate([vals, lost * probs])
        cand, inv = np.unique(targets, return_inverse=True)
        r[cand] += np.bincount(inv.ravel(), weights=vals, minlength=cand.size)
    return p, r


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_push_rounds_equal_the_reference_to_the_bit(seed):
    """Cached row sums and thresholds, and the scratch-array unique, change no bit of the push."""
    rng = np.random.default_rng(seed)
    n = 400
    a = sp.random(n, n, density=0.01, random_state=seed, format="csr", data_rvs=lambda k: rng.uniform(0.5, 1.0, k))
    a.setdiag(0)
    a.eliminate_zeros()
    alpha, rmax = 0.85, 1e-4
    for s in rng.integers(0, n, 5).tolist():
        want_p, want_r = reference_push_rounds(a, [s], alpha, rmax)
        got = push_pagerank(a, personalization=[s], alpha=alpha, rmax=rmax, spread=False)
        assert np.array_equal(got, want_p + (1.0 - alpha) * want_r)
