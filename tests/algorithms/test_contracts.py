"""One contract per family, run over every function of the family (scikit-network style)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms import clusters, overlap, pagerank, push
from lore.errors import InvalidArgumentError, UnknownAlgorithmError

from . import graphs

PAGERANKS = {
    "exact": lambda a, **kw: pagerank.personalized_pagerank(a, tol=1e-10, max_iter=1000, **kw),
    "monte_carlo": lambda a, **kw: pagerank.monte_carlo_pagerank(a, n_walks=2000, seed=7, **kw)[0],
    "push": lambda a, **kw: push.push_pagerank(a, **kw),
}
CLUSTERINGS = {
    "label_propagation": lambda a: clusters.label_propagation(a, seed=3),
    "connected_components": clusters.connected_components,
    "reattach_small": lambda a: clusters.reattach_small(a, np.arange(a.shape[0]), min_size=2),
}


@pytest.fixture(params=sorted(PAGERANKS))
def ppr(request):
    return PAGERANKS[request.param]


@pytest.fixture(params=sorted(CLUSTERINGS))
def clustering(request):
    return CLUSTERINGS[request.param]


# --- PageRank family -----------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.2, 1.5, float("nan"), "0.85", True, None])
def test_pagerank_bad_alpha_raises_at_call_time(ppr, alpha):
    with pytest.raises(InvalidArgumentError, match="alpha"):
        ppr(graphs.directed_cycle(), personalization=[0], alpha=alpha)


@pytest.mark.parametrize(
    "personalization, match",
    [
        ([9], "personalization"),
        ([-1], "personalization"),
        ([], "at least one"),
        (np.array([1.0, -1.0, 0, 0, 0]), "nonnegative"),
        (np.zeros(5), "positive sum"),
        (np.ones(3), "length 5"),
        ([0.5, 0.5], "length 5"),
    ],
)
def test_pagerank_bad_personalization_raises(ppr, personalization, match):
    with pytest.raises(InvalidArgumentError, match=match):
        ppr(graphs.directed_cycle(), personalization=personalization)


def test_pagerank_bad_shapes_raise(ppr):
    with pytest.raises(InvalidArgumentError, match="square"):
        ppr(sp.csr_matrix((3, 4)), personalization=[0])
    with pytest.raises(InvalidArgumentError, match="scipy.sparse"):
        ppr(np.eye(3), personalization=[0])


def test_pagerank_empty_graph_raises_clearly(ppr):
    with pytest.raises(InvalidArgumentError, match="empty"):
        ppr(graphs.empty(), personalization=[0])


@pytest.mark.parametrize("name", sorted(graphs.DIRECTED))
def test_pagerank_output_contract(ppr, name):
    a = graphs.DIRECTED[name]()
    first = ppr(a, personalization=[0, 1])
    assert first.shape == (a.shape[0],) and first.dtype == np.float64
    assert np.isfinite(first).all() and (first >= 0).all()
    np.testing.assert_array_equal(first, ppr(a, personalization=[0, 1]))  # deterministic


def test_pagerank_accepts_csr_array_and_coo(ppr):
    a = graphs.weighted_digraph()
    expected = ppr(a, personalization=[2])
    np.testing.assert_allclose(ppr(sp.csr_array(a), personalization=[2]), expected)
    np.testing.assert_allclose(ppr(a.tocoo(), personalization=[2]), expected)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda a: pagerank.personalized_pagerank(a, personalization=[0], tol=0), "tol"),
        (lambda a: pagerank.personalized_pagerank(a, personalization=[0], max_iter=0), "max_iter"),
        (lambda a: pagerank.monte_carlo_pagerank(a, personalization=[0], n_walks=1), "n_walks"),
        (lambda a: pagerank.monte_carlo_pagerank(a, personalization=[0], max_steps=-1), "max_steps"),
        (lambda a: pagerank.monte_carlo_pagerank(a, personalization=[0], seed="x"), "seed"),
        (lambda a: push.push_pagerank(a, personalization=[0], rmax=-1e-3), "rmax"),
    ],
)
def test_pagerank_other_options_checked(call, match):
    with pytest.raises(InvalidArgumentError, match=match):
        call(graphs.directed_cycle())


# --- clustering family ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(graphs.UNDIRECTED))
def test_clustering_output_contract(clustering, name):
    a = graphs.UNDIRECTED[name]()
    labels = clustering(a)
    assert labels.shape == (a.shape[0],) and labels.dtype == np.int64
    np.testing.assert_array_equal(labels, clusters.canonical_labels(labels))  # canonical form
    np.testing.assert_array_equal(labels, clustering(a))  # deterministic


def test_clustering_empty_graph_works(clustering):
    assert clustering(graphs.empty()).shape == (0,)


def test_clustering_bad_shapes_raise(clustering):
    with pytest.raises(InvalidArgumentError, match="square"):
        clustering(sp.csr_matrix((3, 4)))
    with pytest.raises(InvalidArgumentError, match="scipy.sparse"):
        clustering(np.eye(3))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda a: clusters.label_propagation(a, max_iter=0), "max_iter"),
        (lambda a: clusters.label_propagation(graphs.dangling_chain()), "symmetric"),
        (lambda a: clusters.label_propagation(-a), "nonnegative"),
        (lambda a: clusters.reattach_small(a, [0, 1]), "length"),
        (lambda a: clusters.reattach_small(a, np.zeros(6, dtype=int), min_size=0), "min_size"),
        (lambda a: clusters.cluster_stats(a, np.full(6, -1)), "nonnegative"),
        (lambda a: clusters.normalized_mutual_info([0, 1], [0, 1, 2]), "same length"),
    ],
)
def test_clustering_other_arguments_checked(call, match):
    with pytest.raises(InvalidArgumentError, match=match):
        call(graphs.two_triangles())


# --- overlap family ------------------------------------------------------------------------------


@pytest.fixture(params=overlap.MEASURES)
def measure(request):
    return request.param


def test_overlap_output_contract(measure):
    a = graphs.code_like(200)
    feats = [a, a.T.tocsr()]
    scores = overlap.overlap_scores(feats, [5, 9], measure=measure)
    assert scores.shape == (200,) and (scores >= 0).all() and scores[[5, 9]].tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(scores, overlap.overlap_scores(feats, [9, 5, 5], measure=measure))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"features": []}, "non-empty list"),
        ({"features": graphs.house()}, "non-empty list"),
        ({"features": [graphs.house(), sp.csr_matrix((4, 5))]}, "same rows"),
        ({"features": [np.eye(5)]}, "scipy.sparse"),
        ({"seeds": []}, "at least one"),
        ({"seeds": [5]}, r"\[0, 5\)"),
        ({"seeds": [0.5]}, "row id"),
        ({"weights": [1.0, 2.0]}, "weights"),
        ({"weights": [-1.0]}, "weights"),
        ({"transposes": [sp.csr_matrix((4, 5))]}, "shape"),
        ({"transposes": []}, "one matrix per relation"),
        ({"max_neighbour_degree": 0}, "max_neighbour_degree"),
    ],
)
def test_overlap_bad_arguments_raise(kwargs, match):
    call = {"features": [graphs.house()], "seeds": [0], **kwargs}
    with pytest.raises(InvalidArgumentError, match=match):
        overlap.overlap_scores(call.pop("features"), call.pop("seeds"), **call)


def test_overlap_unknown_measure_names_choices():
    with pytest.raises(UnknownAlgorithmError, match="adamic_adar"):
        overlap.overlap_scores([graphs.house()], [0], measure="pearson")
    with pytest.raises(UnknownAlgorithmError):
        overlap.overlap_explain([graphs.house()], 0, 1, measure="pearson")


def test_overlap_empty_relation_scores_zero(measure):
    scores = overlap.overlap_scores([graphs.isolated(4)], [1], measure=measure)
    np.testing.assert_array_equal(scores, np.zeros(4))
