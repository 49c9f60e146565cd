"""PageRank: networkx as the oracle, invariants with Hypothesis, approximations against exact."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.algorithms.pagerank import directed, monte_carlo_pagerank, personalized_pagerank
from lore.algorithms.push import push_pagerank
from lore.errors import ConvergenceError, InvalidArgumentError, UnknownAlgorithmError

from . import graphs


def networkx_ppr(a: sp.csr_matrix, personalization: np.ndarray, alpha: float) -> np.ndarray:
    g = graphs.to_networkx(a, directed=True)
    p = {i: float(v) for i, v in enumerate(personalization)}
    got = nx.pagerank(
        g, alpha=alpha, personalization=p, dangling=p, tol=1e-15, max_iter=10_000, weight="weight"
    )
    return np.array([got[i] for i in range(a.shape[0])])


def as_vector(seeds, n):
    p = np.zeros(n)
    p[seeds] = 1.0 / len(seeds)
    return p


@pytest.mark.parametrize("name", sorted(graphs.DIRECTED))
@pytest.mark.parametrize("alpha", [0.5, 0.85, 0.95])
def test_exact_matches_networkx(name, alpha):
    a = graphs.DIRECTED[name]()
    n = a.shape[0]
    for personalization in ([0], [1, 3], np.linspace(0.0, 1.0, n)):
        ours = personalized_pagerank(
            a, personalization=personalization, alpha=alpha, tol=1e-13, max_iter=2000
        )
        vec = (
            as_vector(personalization, n)
            if isinstance(personalization, list)
            else personalization / personalization.sum()
        )
        np.testing.assert_allclose(ours, networkx_ppr(a, vec, alpha), atol=1e-6)


def test_exact_directions_match_networkx_reversed_and_undirected():
    a = graphs.weighted_digraph()
    t = a.T.tocsr()
    p = as_vector([4], a.shape[0])
    np.testing.assert_allclose(
        personalized_pagerank(directed(a, "in", transpose=t), personalization=[4], tol=1e-13, max_iter=1000),
        networkx_ppr(t, p, 0.85),
        atol=1e-6,
    )
    both = directed(a, "both")
    np.testing.assert_allclose(
        personalized_pagerank(both, personalization=[4], tol=1e-13, max_iter=1000),
        networkx_ppr(both, p, 0.85),
        atol=1e-6,
    )


def test_directed_uses_the_given_transpose_and_checks_names():
    a = graphs.dangling_chain()
    np.testing.assert_array_equal(directed(a, "in").toarray(), a.T.toarray())
    np.testing.assert_array_equal(directed(a, "both", transpose=a.T.tocsr()).toarray(), (a + a.T).toarray())
    assert directed(a, "out") is a
    with pytest.raises(UnknownAlgorithmError, match="direction"):
        directed(a, "sideways")
    with pytest.raises(InvalidArgumentError, match="shape"):
        directed(a, "in", transpose=sp.csr_matrix((2, 2)))


def test_convergence_error_reports_iterations():
    with pytest.raises(ConvergenceError) as info:
        personalized_pagerank(graphs.karate_club(), personalization=[0], max_iter=3, tol=1e-12)
    assert info.value.iterations == 3 and info.value.error > info.value.tol
    assert "max_iter" in str(info.value)


def test_weight_normalize_false_uses_the_matrix_as_transition():
    a = graphs.weighted_digraph()
    rowsum = np.asarray(a.sum(axis=1)).ravel()
    p = sp.diags(np.divide(1.0, rowsum, out=np.zeros_like(rowsum), where=rowsum > 0)) @ a
    np.testing.assert_allclose(
        personalized_pagerank(
            p.tocsr(), personalization=[0], weight_normalize=False, tol=1e-12, max_iter=1000
        ),
        personalized_pagerank(a, personalization=[0], tol=1e-12, max_iter=1000),
        atol=1e-12,
    )
    with pytest.raises(InvalidArgumentError, match="at most 1"):
        personalized_pagerank(a * 3, personalization=[0], weight_normalize=False)


def test_exact_rejects_negative_weights():
    with pytest.raises(InvalidArgumentError, match="nonnegative"):
        personalized_pagerank(-graphs.directed_cycle(), personalization=[0])


@st.composite
def small_digraphs(draw):
    n = draw(st.integers(1, 12))
    cells = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.floats(0.01, 5.0)), max_size=40)
    )
    a = sp.csr_matrix((n, n))
    if cells:
        r, c, w = zip(*cells, strict=True)
        a = sp.csr_matrix((w, (r, c)), shape=(n, n))
    seeds = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    alpha = draw(st.floats(0.05, 0.95))
    return a, seeds, alpha


@settings(max_examples=60, deadline=None)
@given(small_digraphs())
def test_ppr_is_a_distribution_and_push_bounds_it(case):
    a, seeds, alpha = case
    exact = personalized_pagerank(a, personalization=seeds, alpha=alpha, tol=1e-12, max_iter=5000)
    assert (exact >= 0).all() and abs(exact.sum() - 1.0) < 1e-9
    rmax = 1e-6
    pushed = push_pagerank(a, personalization=seeds, alpha=alpha, rmax=rmax)
    assert (pushed >= 0).all() and (pushed <= exact + 1e-9).all()
    assert pushed.sum() >= 1.0 - alpha * rmax * (a.nnz + a.shape[0]) - 1e-9


def top(scores, k):
    return set(np.lexsort((np.arange(scores.size), -scores))[:k].tolist())


def test_push_top20_agrees_with_exact_on_a_code_like_graph():
    a = directed(graphs.code_like(3000, seed=1), "both")
    for seed in (10, 500, 2999):
        exact = personalized_pagerank(a, personalization=[seed], tol=1e-12, max_iter=1000)
        pushed = push_pagerank(a, personalization=[seed], rmax=1e-5)
        assert len(top(exact, 20) & top(pushed, 20)) >= 18


def test_undirected_push_spreads_the_residual_a_hub_holds_back():
    # one hub joined to half the graph: its push threshold (rmax x degree) is never reached, so the
    # local estimate loses the walks that come back through it; spreading the residual by degree
    # recovers them
    a = directed(graphs.code_like(3000, seed=1, n_hubs=1), "both")
    for seed in (10, 500, 1234, 2999):
        exact = personalized_pagerank(a, personalization=[seed], tol=1e-12, max_iter=1000)
        local = push_pagerank(a, personalization=[seed], rmax=1e-4)
        spread = push_pagerank(a, personalization=[seed], rmax=1e-4, undirected=True)
        assert abs(spread.sum() - 1.0) < 1e-9 and (spread >= 0).all()
        assert np.abs(spread - exact).sum() < 0.06 < 0.4 < np.abs(local - exact).sum()
        assert len(top(exact, 20) & top(spread, 20)) == 20


def test_undirected_push_stays_in_the_seeds_components():
    two = sp.block_diag([graphs.karate_club(), graphs.karate_club()]).tocsr()
    for seeds in ([0], [0, 40]):
        exact = personalized_pagerank(two, personalization=seeds, tol=1e-12, max_iter=1000)
        spread = push_pagerank(two, personalization=seeds, rmax=1e-3, undirected=True)
        assert (spread[exact == 0] == 0).all() and abs(spread.sum() - 1.0) < 1e-9
        np.testing.assert_allclose(spread[:34].sum(), exact[:34].sum(), atol=1e-9)  # mass per component
    lone = sp.csr_matrix((3, 3))
    for seed in (0, 1):  # row 0 heads the "largest" component of an edgeless graph
        expected = np.eye(3)[seed]
        np.testing.assert_allclose(push_pagerank(lone, personalization=[seed], rmax=0.1, undirected=True), expected)


def test_monte_carlo_top10_agrees_with_exact():
    a = graphs.code_like(500, seed=2)
    exact = personalized_pagerank(a, personalization=[7], tol=1e-12, max_iter=1000)
    kth = np.sort(exact)[-10]
    for seed in range(3):
        scores, se = monte_carlo_pagerank(a, personalization=[7], n_walks=20_000, seed=seed)
        got = top(scores, 10)
        # places 10 and 11 are 0.4 standard errors apart here: a swap of near-ties is fine, nothing else is
        assert len(got & top(exact, 10)) >= 9
        assert all(exact[v] >= kth - 3 * se[v] for v in got)


def test_monte_carlo_standard_errors_are_honest():
    a = graphs.karate_club()
    exact = personalized_pagerank(a, personalization=[0, 33], tol=1e-12, max_iter=1000)
    scores, se = monte_carlo_pagerank(a, personalization=[0, 33], n_walks=5000, seed=11)
    z = (scores - exact) / se
    assert np.mean(np.abs(z) < 2) >= 0.85  # about 95% expected
    assert np.abs(z).max() < 5
    assert abs(scores.sum() - 1) < 0.05


def test_monte_carlo_is_reproducible_and_seed_dependent():
    a = graphs.weighted_digraph()
    s1, e1 = monte_carlo_pagerank(a, personalization=[0], n_walks=500, seed=3)
    s2, e2 = monte_carlo_pagerank(a, personalization=[0], n_walks=500, seed=3)
    s3, _ = monte_carlo_pagerank(a, personalization=[0], n_walks=500, seed=4)
    np.testing.assert_array_equal(s1, s2)
    np.testing.assert_array_equal(e1, e2)
    assert not np.array_equal(s1, s3)


def test_monte_carlo_follows_weights_and_dangling_teleports():
    # 0 -> 1 (weight 3), 0 -> 2 (weight 1); 1 and 2 dangle back to the seed
    a = sp.csr_matrix(([3.0, 1.0], ([0, 0], [1, 2])), shape=(3, 3))
    exact = personalized_pagerank(a, personalization=[0], tol=1e-12, max_iter=1000)
    scores, se = monte_carlo_pagerank(a, personalization=[0], n_walks=20_000, seed=5)
    assert (np.abs(scores - exact) < 5 * se).all()


def test_monte_carlo_max_steps_truncates():
    a = graphs.directed_cycle()
    scores, _ = monte_carlo_pagerank(a, personalization=[0], n_walks=1000, seed=1, max_steps=0)
    assert scores[0] == pytest.approx(0.15) and scores[1:].sum() == 0


def test_monte_carlo_cache_sees_a_rebuilt_matrix():
    a = sp.csr_matrix(([1.0, 1e-9], ([0, 0], [1, 2])), shape=(3, 3))
    first, _ = monte_carlo_pagerank(a, personalization=[0], n_walks=2000, seed=1)
    b = sp.csr_matrix(([1e-9, 1.0], ([0, 0], [1, 2])), shape=(3, 3))
    second, _ = monte_carlo_pagerank(b, personalization=[0], n_walks=2000, seed=1)
    assert first[1] > 0.4 and first[2] < 0.01 and second[2] > 0.4 and second[1] < 0.01


def test_push_on_dangling_and_isolated_nodes():
    a = graphs.isolated(3)
    np.testing.assert_allclose(push_pagerank(a, personalization=[1], rmax=1e-9), [0, 1, 0], atol=1e-6)
    exact = personalized_pagerank(graphs.dangling_chain(), personalization=[0], tol=1e-12, max_iter=1000)
    pushed = push_pagerank(graphs.dangling_chain(), personalization=[0], rmax=1e-10)
    np.testing.assert_allclose(pushed, exact, atol=1e-8)
