"""The engine seam without Ray: any cut into row blocks gives the local engine's bits.

``Blocks(k)`` is an in-process engine that cuts every matrix into ``k`` row blocks and runs the
kernels block by block, as the Ray engine's actors do; the local engine must equal it exactly, and
equal today's direct computations (the numbers did not move when the seam came in).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import ThreadpoolController

from lore.algorithms import clusters, overlap, pagerank
from lore.algorithms._engine import LOCAL, Engine, RowBlocks


class _Held(RowBlocks):
    def __init__(self, matrix: sp.csr_matrix, k: int) -> None:
        bounds = np.linspace(0, matrix.shape[0], k + 1).astype(np.int64)
        super().__init__(matrix.shape, bounds, (matrix.indices.dtype, matrix.data.dtype))
        self.blocks = [matrix[int(a):int(b)] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]

    def run(self, fn, parts, *args):
        return [fn(blk, int(self.bounds[i]), None if parts is None else parts[i], *args)
                for i, blk in enumerate(self.blocks)]


class Blocks(Engine):
    name = "blocks"

    def __init__(self, k: int) -> None:
        self.k = k

    def rows(self, matrix, *, transpose=False, cache_on=None, name=""):
        m = matrix.T.tocsr() if transpose else matrix.tocsr()
        return _Held(m, self.k)

    def map_tasks(self, fn, shared, items, *, cache_on=None, name=""):
        return [fn(*shared, it) for it in reversed(items)][::-1]  # another order, the same answer


def graph(n: int = 3000, seed: int = 1) -> sp.csr_matrix:
    rng = np.random.default_rng(seed)
    src = np.repeat(np.arange(n), 1 + rng.poisson(3, n))
    dst = np.where(rng.random(src.size) < 0.7, (src // 50) * 50 + rng.integers(0, 50, src.size),
                   rng.permutation(n)[np.minimum(rng.zipf(1.7, src.size) - 1, n - 1)])
    dst = np.minimum(dst, n - 1)
    a = sp.csr_matrix((rng.choice([0.5, 1.0, 3.0], src.size), (src, dst)), shape=(n, n))
    a.setdiag(0)
    a.eliminate_zeros()
    return a


@pytest.mark.parametrize("k", [2, 3, 7])
def test_pagerank_any_blocks_same_bits(k):
    a = graph()
    local = pagerank.personalized_pagerank(a, personalization=[0, 99], tol=1e-12)
    assert np.array_equal(local, pagerank.personalized_pagerank(a, personalization=[0, 99], tol=1e-12,
                                                                engine=Blocks(k)))


def test_local_pagerank_is_the_plain_power_iteration():
    """The numbers of the code before the seam: P.T as a CSC view, x <- alpha P.T x + leak + teleport."""
    a = graph()
    deg = np.asarray(a.sum(axis=1)).ravel()
    inv = np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0)
    p_mat = sp.csr_matrix((a.data * np.repeat(inv, np.diff(a.indptr)), a.indices, a.indptr), shape=a.shape)
    leak = (deg <= 0).astype(np.float64)
    p = np.zeros(a.shape[0])
    p[5] = 1.0
    x = p.copy()
    with ThreadpoolController().limit(limits=1, user_api="blas"):  # as the algorithms run
        while True:
            x_new = 0.85 * (p_mat.T @ x) + (0.85 * float(leak @ x) + (1.0 - 0.85)) * p
            err = float(np.abs(x_new - x).sum())
            x = x_new
            if err < 1e-10:
                break
    assert np.array_equal(pagerank.personalized_pagerank(a, personalization=[5], tol=1e-10), x / x.sum())


@pytest.mark.parametrize("k", [2, 5])
def test_label_propagation_any_blocks_same_labels(k):
    a = graph()
    sym = (a + a.T).tocsr()
    local = clusters.label_propagation(sym, seed=4)
    assert np.array_equal(local, clusters.label_propagation(sym, seed=4, engine=Blocks(k)))
    assert local.max() > 5


@pytest.mark.parametrize("measure", overlap.MEASURES)
def test_overlap_any_blocks_same_scores(measure):
    a = graph()
    feats, trans = [a, a.T.tocsr()], [a.T.tocsr(), a]
    local = overlap.overlap_scores(feats, [3, 1500], weights=[1.0, 0.3], measure=measure, transposes=trans)
    got = overlap.overlap_scores(feats, [3, 1500], weights=[1.0, 0.3], measure=measure, transposes=trans,
                                 engine=Blocks(4))
    assert np.array_equal(local, got)
    assert np.count_nonzero(local) > 3


def test_monte_carlo_depends_on_seed_and_walks_only():
    a = graph()
    n_walks = 2 * pagerank.WALK_BLOCK + 17
    local = pagerank.monte_carlo_pagerank(a, personalization=[7], n_walks=n_walks, seed=3)
    other = pagerank.monte_carlo_pagerank(a, personalization=[7], n_walks=n_walks, seed=3, engine=Blocks(3))
    assert np.array_equal(local[0], other[0]) and np.array_equal(local[1], other[1])
    again = pagerank.monte_carlo_pagerank(a, personalization=[7], n_walks=n_walks,
                                          seed=np.random.SeedSequence(3))
    assert np.array_equal(local[0], again[0])
    exact = pagerank.personalized_pagerank(a, personalization=[7], tol=1e-12)
    assert np.all(np.abs(local[0] - exact) <= 5 * local[1] + 1e-3)


def test_gather_keeps_the_order_asked():
    a = graph(200)
    rows = np.array([150, 3, 3, 199, 0, 77])
    want = LOCAL.rows(a).gather(rows)
    for k in (1, 2, 6):
        got = Blocks(k).rows(a).gather(rows)
        assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
    idx = np.concatenate([np.arange(a.indptr[r], a.indptr[r + 1]) for r in rows])
    assert np.array_equal(want[0], a.indices[idx]) and np.array_equal(want[1], a.data[idx])


def test_unknown_engine_is_a_one_line_error():
    from lore.errors import UnknownAlgorithmError
    from lore.graphs.engines import get_engine

    with pytest.raises(UnknownAlgorithmError, match="unknown engine 'spark'; choose one of: local, ray"):
        get_engine("spark")
    assert get_engine("local") is LOCAL
