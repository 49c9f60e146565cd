"""CSR arrays without scipy (lore.algorithms._csr): the numpy kernels give scipy's matrices to the bit."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms._checks import check_csr, unique_ints
from lore.algorithms._csr import Csr, as_arrays, capped, closed_presence, entry, is_sparse, weighted_sum
from lore.errors import InvalidArgumentError


def _random(n: int, density: float, seed: int, *, zeros: bool = False, diag: bool = False) -> sp.csr_matrix:
    """A canonical CSR matrix with weights like edge confidences (some above 1, explicit zeros if asked)."""
    rng = np.random.default_rng(seed)
    m = sp.random(n, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    m.data = np.round(m.data * 3, 2)  # some entries above 1 (several call sites), some exactly 0
    if diag:
        m = (m + sp.diags(rng.integers(0, 2, n).astype(np.float64) * 0.5)).tocsr()
    m.eliminate_zeros()
    if zeros:  # explicit zeros (scipy's additions drop them; a copy keeps them)
        m.data[::7] = 0.0
    m.sum_duplicates()
    assert m.has_canonical_format
    return m


def _bits(a, b) -> bool:
    """Same shape, structure and float bits (a Csr or scipy matrix against a scipy matrix)."""
    return (tuple(a.shape) == tuple(b.shape) and np.array_equal(a.indptr, b.indptr)
            and np.array_equal(a.indices, b.indices) and a.data.dtype == b.data.dtype
            and np.array_equal(a.data.view(np.uint64), b.data.view(np.uint64)))


def _scipy_presence(m: sp.csr_matrix, closed: bool) -> sp.csr_matrix:  # what CodeGraph.presence computed
    m = m.copy()
    if closed:
        m = (m + sp.identity(m.shape[0], format="csr")).tocsr()
    np.minimum(m.data, 1.0, out=m.data)
    return m


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("zeros", [False, True])
@pytest.mark.parametrize("diag", [False, True])
def test_presence_is_scipys_to_the_bit(seed, zeros, diag):
    m = _random(60, 0.05 + 0.02 * seed, seed, zeros=zeros, diag=diag)
    assert _bits(capped(Csr.of(m)), _scipy_presence(m, False))
    assert _bits(closed_presence(Csr.of(m)), _scipy_presence(m, True))


def test_presence_of_an_empty_matrix_is_the_identity():
    m = sp.csr_matrix((4, 4))
    got = closed_presence(Csr.of(m))
    assert _bits(got, _scipy_presence(m, True))
    assert got.to_scipy().toarray().tolist() == np.eye(4).tolist()


def test_closed_presence_leaves_unsorted_rows_to_scipy():
    m = sp.csr_matrix((np.array([1.0, 1.0]), np.array([2, 0]), np.array([0, 2, 2, 2])), shape=(3, 3))
    assert not m.has_sorted_indices
    assert closed_presence(Csr.of(m)) is None
    assert weighted_sum([[(Csr.of(m), 1.0)]]) is None


def _scipy_walk(terms: list[sp.csr_matrix], weights: list[float], direction: str) -> sp.csr_matrix:
    """lore.graphs.related's walk matrix as scipy summed it."""
    total = sp.csr_matrix(terms[0].shape, dtype=np.float64)
    for m, w in zip(terms, weights, strict=True):
        total = total + w * m
    total = total.tocsr()
    if direction == "in":
        return total.T.tocsr()
    if direction == "both":
        return (total + total.T).tocsr()
    return total


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("direction", ["out", "in", "both"])
def test_weighted_sum_is_scipys_chain_of_additions(seed, direction):
    mats = [_scipy_presence(_random(80, 0.04, seed * 10 + k, zeros=k == 1), False) for k in range(4)]
    weights = [1.0, 0.5, 0.3, 10.0]  # sums that round: the order of the additions shows
    fwd = [(Csr.of(m), w) for m, w in zip(mats, weights, strict=True)]
    bwd = [(Csr.of(m.T.tocsr()), w) for m, w in zip(mats, weights, strict=True)]
    groups = {"out": [fwd], "in": [bwd], "both": [fwd, bwd]}[direction]
    got = weighted_sum(groups)
    assert got is not None and _bits(got, _scipy_walk(mats, weights, direction))
    assert got.has_sorted_indices


def test_csr_reads_like_scipy():
    m = _random(30, 0.1, 3)
    a = Csr.of(m)
    assert a.nnz == m.nnz and a.shape == m.shape and a.format == "csr" and a.has_sorted_indices
    assert a.T.format == "csc" and a.T.shape == m.shape[::-1]
    assert a.to_scipy() is a.to_scipy() and (a.to_scipy() != m).nnz == 0
    r, c = m.nonzero()
    assert all(entry(a, i, j) == m[i, j] for i, j in zip(r[:20].tolist(), c[:20].tolist(), strict=True))
    assert entry(a, 0, 0) == m[0, 0]
    assert is_sparse(a) and is_sparse(m) and not is_sparse(np.eye(2))
    assert as_arrays(m).data is m.data and as_arrays(a) is a and as_arrays(a.T) is None


def test_check_csr_hands_arrays_through_only_when_asked():
    a = Csr.of(_random(10, 0.2, 1))
    assert check_csr(a, arrays=True) is a
    assert sp.issparse(check_csr(a)) and check_csr(a).format == "csr"
    assert sp.issparse(check_csr(a.T, arrays=True))  # a CSC view is converted
    with pytest.raises(InvalidArgumentError, match="must be a scipy.sparse matrix"):
        check_csr(np.eye(3), arrays=True)


def test_unique_ints_is_np_unique():
    rng = np.random.default_rng(0)
    for size in (0, 1, 2, 50):
        x = rng.integers(0, 20, size)
        assert np.array_equal(unique_ints(x), np.unique(x)) and unique_ints(x).dtype == np.unique(x).dtype
