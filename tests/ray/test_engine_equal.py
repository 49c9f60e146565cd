"""The Ray engine returns the same bits as the local engine (np.array_equal, not closeness).

A synthetic code-like graph of 100k nodes (out-degree 1 + Poisson(4), 60% of edges inside a
200-node module, the rest to Zipf-popular hubs), generated here with a fixed seed.
"""

from __future__ import annotations

import numpy as np
import pytest

from lore.algorithms import clusters, overlap, pagerank
from lore.algorithms._engine import LOCAL
from lore.bench.synthetic import code_like_graph

pytest.importorskip("ray")

N = 100_000


@pytest.fixture(scope="module")
def graph():
    return code_like_graph(N)


@pytest.fixture(scope="module")
def ray_engine(ray_local):
    from lore.graphs.engines import get_engine

    engine = get_engine("ray")
    assert len(engine.workers) == 2
    return engine


def test_exact_pagerank_is_bit_identical(graph, ray_engine):
    for seeds in ([0], [17, 4242, 99_999]):
        local = pagerank.personalized_pagerank(graph, personalization=seeds, tol=1e-10, engine=LOCAL)
        ray = pagerank.personalized_pagerank(graph, personalization=seeds, tol=1e-10, engine=ray_engine)
        assert np.array_equal(local, ray)
        assert np.array_equal(local, pagerank.personalized_pagerank(graph, personalization=seeds, tol=1e-10))


def test_monte_carlo_is_bit_identical_and_independent_of_workers(graph, ray_engine):
    kw = {"personalization": [123], "n_walks": 3 * pagerank.WALK_BLOCK + 5, "seed": 11}
    local = pagerank.monte_carlo_pagerank(graph, **kw)
    ray = pagerank.monte_carlo_pagerank(graph, engine=ray_engine, **kw)
    assert np.array_equal(local[0], ray[0]) and np.array_equal(local[1], ray[1])
    assert local[0][123] > 0.15
    from lore.graphs.ray_engine import RayEngine

    three = RayEngine(workers=3)
    try:
        again = pagerank.monte_carlo_pagerank(graph, engine=three, **kw)
        assert np.array_equal(local[0], again[0]) and np.array_equal(local[1], again[1])
        sym = (graph + graph.T).tocsr()
        assert np.array_equal(clusters.label_propagation(sym, seed=1, max_iter=2, engine=three),
                              clusters.label_propagation(sym, seed=1, max_iter=2))
    finally:
        three.close()


def test_label_propagation_is_bit_identical(graph, ray_engine):
    sym = (graph + graph.T).tocsr()
    local = clusters.label_propagation(sym, seed=3, max_iter=6)
    ray = clusters.label_propagation(sym, seed=3, max_iter=6, engine=ray_engine)
    assert np.array_equal(local, ray)
    assert 100 < local.max() < N // 2  # it found communities, not one blob or nothing


@pytest.mark.parametrize("measure", ["idf_cosine", "adamic_adar", "jaccard"])
def test_overlap_is_bit_identical(graph, ray_engine, measure):
    feats = [graph, graph.T.tocsr()]
    trans = [graph.T.tocsr(), graph]
    seeds = [5, 60_000]
    local = overlap.overlap_scores(feats, seeds, weights=[1.0, 0.5], measure=measure, transposes=trans)
    ray = overlap.overlap_scores(feats, seeds, weights=[1.0, 0.5], measure=measure, transposes=trans,
                                 engine=ray_engine)
    assert np.array_equal(local, ray)
    assert np.count_nonzero(local) > 10


def test_blocks_are_shipped_once_per_matrix(graph, ray_engine):
    first = ray_engine.rows(graph, cache_on=graph, name="probe")
    assert ray_engine.rows(graph, cache_on=graph, name="probe") is first
    assert first.n_blocks == 2 and sum(first.block_bytes) >= graph.data.nbytes + graph.indices.nbytes
    x = np.random.default_rng(0).random(N)
    assert np.array_equal(first.matvec(x), graph @ x)
    rows = np.array([99_999, 3, 3, 50_000, 0])
    for got, want in zip(first.gather(rows), LOCAL.rows(graph).gather(rows), strict=True):
        assert np.array_equal(got, want)
