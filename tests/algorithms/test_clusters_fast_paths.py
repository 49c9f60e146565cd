"""Label propagation's fast paths (issue 16): triangle listing against the masked matrix product,
the in-place sharpening against ``w + w.multiply(counts)``, and unchanged labels."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms import clusters as lc

from . import graphs


def _light_mix(n: int = 400, seed: int = 0) -> sp.csr_matrix:
    """Cliques of 5 (many triangles), hubs above the light limit joined to them, and random edges."""
    rng = np.random.default_rng(seed)
    edges = [(i, j) for c in range(0, n - 40, 5) for i in range(c, c + 5) for j in range(i + 1, c + 5)]
    hubs = range(n - 40, n - 34)
    edges += [(h, int(v)) for h in hubs for v in rng.choice(n - 40, 60, replace=False)]
    edges += [(int(u), int(v)) for u, v in rng.integers(0, n, (300, 2)) if u != v]
    edges += [(h, g) for h in hubs for g in hubs if h < g]  # triangles with two heavy corners
    r, c = zip(*edges, strict=True)
    a = sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(n, n))
    return ((a + a.T) > 0).astype(np.float64).tocsr()


def _cases():
    yield "karate", graphs.karate_club()
    yield "two triangles", graphs.two_triangles()
    yield "code-like", graphs.symmetrize(graphs.code_like(400, seed=3))
    yield "planted with hubs", graphs.symmetrize(graphs.planted_with_hubs()[0])
    yield "light and heavy", _light_mix()
    yield "lfr", graphs.lfr(0.3, n=600)[0]
    yield "edgeless", graphs.isolated(5)


@pytest.mark.parametrize(("name", "a"), list(_cases()), ids=[name for name, _ in _cases()])
def test_triangle_listing_equals_the_masked_product(name, a):
    w = lc._vote_matrix(a, False, False)
    k = np.diff(w.indptr)
    listed = lc._common_neighbours(w, k)
    product = lc._common_neighbours_product(w, k)
    assert (w.multiply(listed) != w.multiply(product)).nnz == 0
    assert (listed.multiply(w != 0) != listed).nnz == 0  # nothing off the edges
    assert np.array_equal(lc._sharpen(w, listed).toarray(), (w + w.multiply(product)).toarray())


def test_triangle_counts_against_networkx_common_neighbours():
    a = _light_mix(seed=4)
    w = lc._vote_matrix(a, False, False)
    k = np.diff(w.indptr)
    g = nx.from_scipy_sparse_array(a)
    light = {v for v in g if g.degree(v) <= lc._TRIANGLE_MAX_DEGREE}
    counts = lc._common_neighbours(w, k).todok()
    for i, j in g.edges():
        for x, y in ((i, j), (j, i)):
            want = len(set(nx.common_neighbors(g, x, y)) & light) if y in light else 0
            assert counts.get((x, y), 0.0) == want


def test_small_blocks_give_the_same_counts(monkeypatch):
    a = graphs.lfr(0.2, n=600)[0]
    w = lc._vote_matrix(a, False, False)
    k = np.diff(w.indptr)
    whole = lc._common_neighbours(w, k)
    monkeypatch.setattr(lc, "_BLOCK_WEDGES", 7)
    assert (lc._common_neighbours(w, k) != whole).nnz == 0


def test_sharpen_keeps_the_canonical_order_of_the_sum():
    w = sp.csr_matrix((np.array([2.0, 1.0, 1.0, 3.0]), np.array([2, 1, 0, 0]), np.array([0, 2, 3, 4])), shape=(3, 3))
    counts = sp.csr_matrix(([2.0], ([0], [2])), shape=(3, 3))
    got = lc._sharpen(w, counts)
    ref = (w + w.multiply(counts)).tocsr()
    assert got.has_sorted_indices and np.array_equal(got.indices, ref.indices) and np.array_equal(got.data, ref.data)
    assert w.data.tolist() == [2.0, 1.0, 1.0, 3.0]  # the input is not modified


@pytest.mark.parametrize("seed", [0, 3])
def test_label_propagation_is_deterministic_and_unchanged_by_the_listing(seed, monkeypatch):
    a = graphs.symmetrize(graphs.planted_with_hubs()[0])
    labels = lc.label_propagation(a, seed=seed)
    assert np.array_equal(labels, lc.label_propagation(a, seed=seed))
    monkeypatch.setattr(lc, "_common_neighbours", lc._common_neighbours_product)
    assert np.array_equal(labels, lc.label_propagation(a, seed=seed))
