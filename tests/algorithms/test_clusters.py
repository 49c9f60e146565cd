"""Clusters: planted communities (LFR), hubs, networkx components, invariants, NMI/ARI."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.algorithms.clusters import (
    adjusted_rand_index,
    canonical_labels,
    cluster_stats,
    connected_components,
    label_propagation,
    normalized_mutual_info,
    reattach_small,
    weak_components,
)

from . import graphs


@pytest.mark.parametrize("mu, floor", [(0.1, 0.95), (0.3, 0.8)])
def test_label_propagation_recovers_lfr_communities(mu, floor):
    a, truth = graphs.lfr(mu)
    for seed in (0, 1, 2):
        labels = label_propagation(a, seed=seed)
        assert normalized_mutual_info(truth, labels) > floor


def test_hub_penalty_prevents_one_giant_cluster():
    a, truth = graphs.planted_with_hubs()
    n = a.shape[0]
    for seed in (0, 1, 2):
        guarded = label_propagation(a, seed=seed)
        assert normalized_mutual_info(truth, guarded) > 0.85
        assert np.bincount(guarded).max() < 0.2 * n
    plain = label_propagation(a, seed=0, hub_degree_penalty=False, triangle_weighting=False)
    assert np.bincount(plain).max() > 0.5 * n  # what the guards are for
    for only in ({"triangle_weighting": False}, {"hub_degree_penalty": False}):  # each guard alone helps
        assert np.bincount(label_propagation(a, seed=0, **only)).max() < 0.2 * n


def test_two_triangles_and_isolated_nodes():
    assert label_propagation(graphs.two_triangles()).tolist() == [0, 0, 0, 1, 1, 1]
    assert label_propagation(graphs.isolated(3)).tolist() == [0, 1, 2]


def test_always_terminates_within_max_iter():
    labels = label_propagation(graphs.karate_club(), seed=1, max_iter=1)
    assert labels.shape == (34,)


def cliques_joined(sizes: list[int]) -> tuple[sp.csr_matrix, np.ndarray]:
    """Cliques of the given sizes (>= 4), clique k joined to clique k+1 by one edge."""
    truth = np.repeat(np.arange(len(sizes)), sizes)
    dense = (truth[:, None] == truth[None, :]).astype(float)
    starts = np.cumsum([0, *sizes])
    for k in range(len(sizes) - 1):
        i, j = starts[k], starts[k + 1] + 1
        dense[i, j] = dense[j, i] = 1.0
    np.fill_diagonal(dense, 0.0)
    return sp.csr_matrix(dense), truth


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(4, 9), min_size=1, max_size=5), st.randoms(use_true_random=False), st.integers(0, 50)
)
def test_partition_invariant_under_node_relabelling_when_unambiguous(sizes, rnd, seed):
    a, truth = cliques_joined(sizes)
    n = a.shape[0]
    perm = np.array(rnd.sample(range(n), n))
    permuted = a[perm][:, perm]
    labels = label_propagation(a, seed=seed)
    labels_p = label_propagation(permuted, seed=seed)
    np.testing.assert_array_equal(labels, canonical_labels(truth))
    # row r of the permuted graph is node perm[r]: same partition, canonical labels in the new order
    np.testing.assert_array_equal(labels_p, canonical_labels(labels[perm]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_output_does_not_depend_on_input_label_names(seed, rnd):
    a = graphs.karate_club()
    labels = label_propagation(a, seed=seed)
    np.testing.assert_array_equal(labels, label_propagation(a, seed=seed))
    names = np.array(rnd.sample(range(1000), int(labels.max()) + 1))
    np.testing.assert_array_equal(
        reattach_small(a, names[labels], min_size=3), reattach_small(a, labels, min_size=3)
    )


@st.composite
def small_graphs(draw):
    n = draw(st.integers(1, 25))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30))
    a = sp.csr_matrix((n, n))
    if edges:
        r, c = zip(*edges, strict=True)
        a = sp.csr_matrix((np.ones(len(edges)), (r, c)), shape=(n, n))
    return a


def networkx_components(a: sp.csr_matrix) -> np.ndarray:
    g = nx.from_scipy_sparse_array(a, create_using=nx.DiGraph)
    labels = np.empty(a.shape[0], dtype=np.int64)
    for k, comp in enumerate(nx.weakly_connected_components(g)):
        labels[list(comp)] = k
    return canonical_labels(labels)


@settings(max_examples=50, deadline=None)
@given(small_graphs())
def test_components_agree_with_networkx(a):
    np.testing.assert_array_equal(connected_components(a), networkx_components(a))


@pytest.mark.parametrize("name", sorted(graphs.DIRECTED))
def test_components_agree_with_networkx_on_named_graphs(name):
    a = graphs.DIRECTED[name]()
    np.testing.assert_array_equal(connected_components(a), networkx_components(a))


@settings(max_examples=80, deadline=None)
@given(small_graphs())
def test_weak_components_agree_with_networkx(a):
    coo = a.tocoo()
    got = weak_components(a.shape[0], coo.row, coo.col)
    np.testing.assert_array_equal(canonical_labels(got), networkx_components(a))
    assert (got <= np.arange(a.shape[0])).all()  # each component is named by its smallest node


def test_weak_components_of_a_long_chain_and_of_no_edges():
    n = 1000
    order = np.random.default_rng(0).permutation(n)  # one path through every node, in a shuffled order
    np.testing.assert_array_equal(weak_components(n, order[1:], order[:-1]), np.zeros(n, dtype=np.int64))
    np.testing.assert_array_equal(weak_components(4, [], []), np.arange(4))


@settings(max_examples=50, deadline=None)
@given(small_graphs(), st.integers(1, 4), st.data())
def test_reattach_small_is_the_same_as_with_scipy_components(a, min_size, data):
    """The joins' components once came from scipy.sparse.csgraph; the labels must not change."""
    from scipy.sparse import csgraph

    import lore.algorithms.clusters as clusters_mod

    a = graphs.symmetrize(a)
    n = a.shape[0]
    labels = np.array(data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    weights = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=n, max_size=n)))

    def scipy_components(k, src, dst):
        joins = sp.csr_matrix((np.ones(len(src)), (src, dst)), shape=(k, k))
        return csgraph.connected_components(joins, directed=True, connection="weak")[1]

    ours = reattach_small(a, labels, min_size=min_size, member_weight=weights)
    original = clusters_mod.weak_components
    clusters_mod.weak_components = scipy_components
    try:
        theirs = reattach_small(a, labels, min_size=min_size, member_weight=weights)
    finally:
        clusters_mod.weak_components = original
    np.testing.assert_array_equal(ours, theirs)

@settings(max_examples=50, deadline=None)
@given(small_graphs(), st.integers(1, 4), st.data())
def test_reattach_small_invariants(a, min_size, data):
    a = graphs.symmetrize(a)
    n = a.shape[0]
    labels = np.array(data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    out = reattach_small(a, labels, min_size=min_size)
    np.testing.assert_array_equal(out, canonical_labels(out))
    # clusters only merge: same input label -> same output label
    for lab in np.unique(labels):
        assert np.unique(out[labels == lab]).size == 1
    # a cluster still too small has no edge to any other cluster
    sizes = np.bincount(out)
    for lab in np.flatnonzero(sizes < min_size):
        inside = out == lab
        assert a[inside][:, ~inside].sum() == 0


def test_reattach_small_joins_the_strongest_neighbour():
    # triangle {0,1,2}, pair {3,4}; leaf 5 hangs off 2 (weight 1) and 3 (weight 2)
    edges = [(0, 1, 1), (1, 2, 1), (0, 2, 1), (3, 4, 1), (2, 5, 1), (3, 5, 2)]
    r, c, w = zip(*edges, strict=True)
    a = graphs.symmetrize(sp.csr_matrix((w, (r, c)), shape=(7, 7)))
    out = reattach_small(a, [0, 0, 0, 1, 1, 2, 3], min_size=2)
    assert out.tolist() == [0, 0, 0, 1, 1, 1, 2]  # 6 is isolated and stays alone
    assert reattach_small(a, [0, 0, 0, 1, 1, 2, 3], min_size=1).tolist() == [0, 0, 0, 1, 1, 2, 3]
    # a chain of singletons ends in the big cluster
    chain = graphs.symmetrize(sp.csr_matrix((np.ones(4), ([0, 1, 2, 3], [1, 2, 3, 4])), shape=(5, 5)))
    assert reattach_small(chain, [0, 0, 0, 1, 2], min_size=3).tolist() == [0, 0, 0, 0, 0]


def test_cluster_stats_by_hand():
    sizes, cohesion = cluster_stats(graphs.two_triangles(), [0, 0, 0, 1, 1, 1])
    assert sizes.tolist() == [3, 3]
    np.testing.assert_allclose(cohesion, [3 / 4, 3 / 4])
    sizes, cohesion = cluster_stats(graphs.isolated(2), [0, 1])
    assert sizes.tolist() == [1, 1] and cohesion.tolist() == [0.0, 0.0]
    sizes, cohesion = cluster_stats(graphs.house(), [0, 0, 0, 0, 0])
    assert cohesion.tolist() == [1.0]


def test_nmi_and_ari_known_values():
    a = [0, 0, 0, 1, 1, 1]
    assert normalized_mutual_info(a, [3, 3, 3, 7, 7, 7]) == 1.0
    assert adjusted_rand_index(a, [3, 3, 3, 7, 7, 7]) == 1.0
    # sklearn: normalized_mutual_info_score / adjusted_rand_score of these two
    b = [0, 0, 1, 1, 2, 2]
    assert normalized_mutual_info(a, b) == pytest.approx(0.5158037429793889)
    assert adjusted_rand_index(a, b) == pytest.approx(0.24242424242424246)
    assert normalized_mutual_info([0, 0, 0], [1, 1, 1]) == 1.0
    assert normalized_mutual_info([0, 0, 0, 0], [0, 1, 2, 3]) == 0.0


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40))
def test_nmi_and_ari_are_symmetric_and_bounded(pairs):
    a, b = (np.array(x) for x in zip(*pairs, strict=True))
    nmi, ari = normalized_mutual_info(a, b), adjusted_rand_index(a, b)
    assert 0.0 <= nmi <= 1.0 and ari <= 1.0 + 1e-12
    assert nmi == pytest.approx(normalized_mutual_info(b, a)) and ari == pytest.approx(
        adjusted_rand_index(b, a)
    )
    assert normalized_mutual_info(a, a) == pytest.approx(1.0)


@pytest.mark.parametrize(("a", "b"), [([0, 0, 1, 1, 2], [1, 1, 0, 0, 0]), ([0, 1, 2, 3], [0, 0, 0, 0])])
def test_nmi_ari_symmetric_bounded_and_relabelling_invariant(a, b):
    assert normalized_mutual_info(a, b) == pytest.approx(normalized_mutual_info(b, a))
    assert 0.0 <= normalized_mutual_info(a, b) <= 1.0
    assert adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_index(b, a))
    relabelled = [10 - x for x in a]
    assert normalized_mutual_info(a, relabelled) == pytest.approx(1.0)
    assert adjusted_rand_index(a, relabelled) == pytest.approx(1.0)


def test_ari_known_value():
    # scikit-learn's documented value: adjusted_rand_score([0, 0, 1, 2], [0, 0, 1, 1]) == 0.57...
    assert adjusted_rand_index([0, 0, 1, 2], [0, 0, 1, 1]) == pytest.approx(0.5714285714)
