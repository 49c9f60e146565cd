"""What a derived step computes for one purpose does not outlive it (issue 33: the kernel's peak memory).

The clusters step builds the graph, saves it, sums the cluster adjacency and runs label propagation in
one process; every matrix computed only to be written or summed and then kept cached on the graph
stood under the step's peak (the Linux kernel: 3.3 GB against the 3 GB bar).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms import clusters as lc
from lore.graphs import _walk, build
from lore.graphs import related as rel
from tests.algorithms import graphs


def test_saving_a_graph_keeps_nothing_it_computed_only_to_write(sample_index, tmp_path):
    g = build.build_graph(sample_index.conn, sample_index.db_path)
    _walk._WALK_CACHE.clear()
    g.presence_arrays("calls")  # cached before the save: stays
    build.save_graph(g, tmp_path / "cache")
    assert list(g._presence) == ["calls"]
    assert not _walk._WALK_CACHE
    saved = build.load_saved(tmp_path / "cache", g.stamp)
    assert saved is not None and saved.walks and "calls.closed" in saved._presence  # written all the same
    fresh = build.build_graph(sample_index.conn, sample_index.db_path)
    for key, m in saved._presence.items():
        name, closed = key.split(".")[0], key.endswith(".closed")
        want = fresh.presence_arrays(name, transpose=".T." in key or key.endswith(".T"), closed=closed)
        assert np.array_equal(m.indptr, want.indptr) and np.array_equal(m.data, want.data), key


def test_the_cluster_adjacency_is_the_one_matrix_it_keeps(sample_index):
    g = build.build_graph(sample_index.conn, sample_index.db_path)
    _walk._WALK_CACHE.clear()
    adj = rel.cluster_adjacency(g)
    assert not g._presence
    assert [key[-1] for key in _walk._WALK_CACHE] == ["cluster_adjacency"]
    other = build.build_graph(sample_index.conn, sample_index.db_path)
    keep = sp.diags((~other.is_external()).astype(np.float64))
    want = (keep @ _walk.walk_matrix(other, rel.CLUSTER_WEIGHTS, "both") @ keep).tocsr()
    assert np.array_equal(adj.indptr, want.indptr) and np.array_equal(adj.indices, want.indices)
    assert np.array_equal(adj.data.view(np.uint64), want.data.view(np.uint64))


def _reattach_both_ways(a, labels, min_size, mw=None):
    """reattach_small as it was written before its blocks: every entry's two label columns at once."""
    lab = lc.canonical_labels(np.asarray(labels))
    pos = a.data > 0
    owner = np.repeat(np.arange(a.shape[0]), np.diff(a.indptr))[pos]
    cols, w = a.indices[pos], a.data[pos]
    src_node, dst_node, w = np.r_[owner, cols], np.r_[cols, owner], np.r_[w, w]
    while lab.size:
        k = int(lab.max()) + 1
        small = np.bincount(lab, weights=mw, minlength=k) < min_size
        ls, ld = lab[src_node], lab[dst_node]
        m = small[ls] & (ls != ld)
        if not m.any():
            break
        pairs, inv = np.unique(ls[m] * k + ld[m], return_inverse=True)
        total = np.bincount(inv, weights=w[m])
        src, dst = np.divmod(pairs, k)
        order = np.lexsort((dst, -total, src))
        first = order[np.r_[True, src[order][1:] != src[order][:-1]]]
        lab = lc.canonical_labels(lc.weak_components(k, src[first], dst[first])[lab])
    return lab


@pytest.mark.parametrize("block", [1, 5, 64])
def test_reattach_in_blocks_is_reattach_at_once(monkeypatch, block):
    monkeypatch.setattr(lc, "_EDGE_BLOCK", block)
    for mu in (0.1, 0.4):
        a = graphs.lfr(mu, n=300)[0]
        a = (a + a.T).tocsr()
        labels = lc.label_propagation(a, seed=3)
        a.data[::7] = 0.0  # explicit zeros: left out
        rng = np.random.default_rng(7)
        mw = rng.choice([0.0, 0.5, 1.0], size=a.shape[0])
        for min_size in (2, 6, 40):
            assert lc.reattach_small(a, labels, min_size=min_size).tolist() == \
                _reattach_both_ways(a, labels, min_size).tolist()
            assert lc.reattach_small(a, labels, min_size=min_size, member_weight=mw).tolist() == \
                _reattach_both_ways(a, labels, min_size, mw).tolist()


def test_reattach_reads_the_matrix_without_copying_it():
    a = graphs.two_triangles()
    owner, cols, w = lc._positive_entries(a)
    assert np.shares_memory(cols, a.indices) and np.shares_memory(w, a.data)
    assert owner.dtype == np.int32
