"""Compressed sparse matrices as three numpy arrays, for the paths that only read them (no scipy import).

Importing ``scipy.sparse`` costs about 175 ms of CPU (it copies numpy's whole namespace through
``array_api_compat``), more than a warm ``related`` query costs a hundred times over. The ranking
kernels only ever read a matrix's ``data`` / ``indices`` / ``indptr`` (row gathers, bincounts), so a
saved graph is mapped into :class:`Csr` objects and scipy is imported only where a real sparse
product, a conversion or a build needs it (:meth:`Csr.to_scipy`).

The few operations the ranking needs beyond reading (an edge relation capped at 1 with or without
its diagonal, the weighted sum of relations a walk follows) are here in numpy, computing the same
floating-point operations in the same order as scipy's canonical-format kernels do (``A + B`` adds
``a + b`` where both store an entry and keeps the other side's value where one does; entries that
come out 0 are dropped), so the matrices are equal to the bit and the answers do not change.
Where scipy is loaded anyway (a graph just built, a process that ran a sparse product) its own
kernels are used instead: they are faster, and give the same bits (:func:`scipy_loaded`).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

__all__ = ["Csr", "as_arrays", "closed_presence", "entry", "is_sparse", "scipy_loaded", "weighted_sum"]


class Csr:
    """A sparse matrix in compressed rows (``format="csr"``) or columns (``"csc"``): arrays only.

    The attributes mirror scipy's (``data``, ``indices``, ``indptr``, ``shape``, ``nnz``, ``format``,
    ``has_sorted_indices``), so the kernels that gather rows read either. ``T`` is the transpose as
    a view (CSR <-> CSC, the same arrays), as in scipy.

    Examples
    --------
    >>> m = Csr(np.array([2.0, 1.0]), np.array([1, 0]), np.array([0, 1, 2]), (2, 2))
    >>> m.nnz, m.has_sorted_indices, m.T.format
    (2, True, 'csc')
    >>> m.to_scipy().toarray().tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """

    ndim = 2

    def __init__(self, data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, shape: tuple[int, int], *,
                 format: str = "csr", sorted_indices: bool | None = None, canonical: bool | None = None) -> None:
        self.data = data
        self.indices = indices
        self.indptr = indptr
        self.shape = (int(shape[0]), int(shape[1]))
        self.format = format
        self._canonical = canonical  # indices strictly ascending in every row: known, or None (checked when asked)
        self._sorted = True if canonical else sorted_indices
        self._scipy: Any = None

    @classmethod
    def of(cls, matrix: Any) -> Csr:
        """The arrays of a scipy CSR / CSC matrix (shared, not copied)."""
        if isinstance(matrix, Csr):
            return matrix
        return cls(matrix.data, matrix.indices, matrix.indptr, matrix.shape, format=matrix.format)

    @property
    def nnz(self) -> int:
        return int(self.indptr[-1]) if len(self.indptr) else 0

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def has_sorted_indices(self) -> bool:
        """Every row's (column's) indices ascending (checked once, O(nnz))."""
        if self._sorted is None:
            self._sorted = _sorted_within(self.indices, self.indptr, strict=False)
        return self._sorted

    @property
    def T(self) -> Csr:  # noqa: N802  (scipy's name)
        return Csr(self.data, self.indices, self.indptr, self.shape[::-1],
                   format="csc" if self.format == "csr" else "csr", sorted_indices=self._sorted,
                   canonical=self._canonical)

    def to_scipy(self) -> Any:
        """The same matrix as a scipy ``csr_matrix`` / ``csc_matrix`` (built once, sharing the arrays)."""
        if self._scipy is None:
            import scipy.sparse as sp

            make = sp.csr_matrix if self.format == "csr" else sp.csc_matrix
            self._scipy = make((self.data, self.indices, self.indptr), shape=self.shape)
        return self._scipy

    def __repr__(self) -> str:
        return f"<Csr {self.format} {self.shape[0]}x{self.shape[1]}, {self.nnz} stored>"


def scipy_loaded() -> bool:
    """Whether ``scipy.sparse`` is imported already: then its C kernels (3-5x faster than the numpy ones
    here, the same bits) are free to use; a process that has not imported it keeps not doing so."""
    return "scipy.sparse" in sys.modules


def is_sparse(x: Any) -> bool:
    """A :class:`Csr` or a scipy sparse matrix (scipy is not imported to tell: if it is not loaded,
    nothing can be one of its matrices)."""
    if isinstance(x, Csr):
        return True
    sp = sys.modules.get("scipy.sparse")
    return sp is not None and sp.issparse(x)


def as_arrays(x: Any) -> Csr | None:
    """``x`` as a CSR :class:`Csr` if that needs no conversion (a CSR ``Csr`` or scipy matrix), else None."""
    if isinstance(x, Csr):
        return x if x.format == "csr" else None
    sp = sys.modules.get("scipy.sparse")
    if sp is not None and sp.issparse(x) and x.format == "csr" and x.ndim == 2:
        return Csr.of(x)
    return None


def _sorted_within(indices: np.ndarray, indptr: np.ndarray, *, strict: bool) -> bool:
    """Whether the indices ascend within every row (strictly: and no repeats: scipy's canonical format)."""
    if indices.size < 2:
        return True
    step = np.diff(indices.astype(np.int64, copy=False))
    bad = step <= 0 if strict else step < 0
    if not bad.any():
        return True
    # a descent is allowed only across a row boundary: between the last entry of a row and the next row's first
    at = np.flatnonzero(bad) + 1
    boundary = np.zeros(indices.size + 1, dtype=bool)
    boundary[np.asarray(indptr, dtype=np.int64)] = True
    return bool(boundary[at].all())


def canonical(m: Csr) -> bool:
    """Indices strictly ascending within every row: sorted and no duplicate entries (checked once)."""
    if m._canonical is None:
        m._canonical = _sorted_within(m.indices[:m.nnz], m.indptr, strict=True)
        if m._canonical:
            m._sorted = True
    return m._canonical


def _row_of(indptr: np.ndarray, n_rows: int) -> np.ndarray:
    ptr = np.asarray(indptr, dtype=np.int64)
    return np.repeat(np.arange(n_rows, dtype=np.int64), ptr[1:] - ptr[:-1])


def capped(m: Csr) -> Csr:
    """``m`` with every stored value capped at 1 (the stored entries kept as they are, zeros too)."""
    data = m.data.copy()
    np.minimum(data, 1.0, out=data)
    return Csr(data, m.indices, m.indptr, m.shape, sorted_indices=m._sorted, canonical=m._canonical)


def closed_presence(m: Csr) -> Csr | None:
    """``min(m + I, 1)`` of a square canonical CSR matrix, as scipy computes it; None if ``m`` is not
    canonical (then scipy's general kernel orders the entries its own way: the caller uses scipy).

    The diagonal entry is ``m_ii + 1`` (1 where ``m`` stores none, inserted in column order), every
    entry that comes out 0 is dropped, then values are capped at 1.

    Examples
    --------
    >>> m = Csr(np.array([0.5, 2.0]), np.array([1, 0]), np.array([0, 1, 2]), (2, 2))
    >>> c = closed_presence(m)
    >>> c.indices.tolist(), c.data.tolist(), c.indptr.tolist()
    ([0, 1, 0, 1], [1.0, 0.5, 1.0, 1.0], [0, 2, 4])
    """
    n = m.shape[0]
    if m.shape[1] != n or not canonical(m):
        return None
    dtype = np.result_type(m.data.dtype, np.float64)
    indptr = np.asarray(m.indptr, dtype=np.int64)
    nnz = int(indptr[-1])
    row = _row_of(indptr, n)
    cols = np.asarray(m.indices[:nnz], dtype=np.int64)
    on_diag = cols == row
    has = np.zeros(n, dtype=bool)
    has[row[on_diag]] = True
    # rows without a diagonal entry get one, after their entries left of the diagonal: every entry
    # moves right by the diagonals inserted before it (in earlier rows, or in its row left of it)
    added = (~has).astype(np.int64)
    before_row = np.cumsum(added) - added  # diagonals inserted in the rows above
    left = cols < row
    shift = before_row[row] + (added[row].astype(bool) & ~left)
    size = nnz + int(added.sum())
    data = np.empty(size, dtype=dtype)
    out_cols = np.empty(size, dtype=np.int64)
    at = np.arange(nnz) + shift
    data[at] = m.data[:nnz]
    data[at[on_diag]] += 1.0
    out_cols[at] = cols
    missing = np.flatnonzero(added)
    ins = indptr[missing] + np.bincount(row[left], minlength=n)[missing] + before_row[missing]
    data[ins] = 1.0
    out_cols[ins] = missing
    indptr = indptr + np.concatenate([[0], np.cumsum(added)])
    keep = data != 0
    if not keep.all():
        data, out_cols, indptr = data[keep], out_cols[keep], _kept_indptr(indptr, keep, n)
    np.minimum(data, 1.0, out=data)
    return Csr(data, out_cols.astype(m.indices.dtype, copy=False), indptr.astype(m.indptr.dtype, copy=False),
               m.shape, canonical=True)


def _kept_indptr(indptr: np.ndarray, keep: np.ndarray, n_rows: int) -> np.ndarray:
    counts = np.bincount(_row_of(indptr, n_rows)[keep], minlength=n_rows)
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def weighted_sum(groups: list[list[tuple[Csr, float]]]) -> Csr | None:
    """``sum over groups of (sum over (M, w) in group of w * M)``, as a chain of scipy additions computes it.

    Each group is summed left to right (``((w1 M1 + w2 M2) + w3 M3)``: where a term stores no entry,
    the running value is kept), then the groups are added left to right the same way; entries that
    come out 0 are dropped, and the result is canonical. All matrices must be canonical CSR of one
    shape (else None: the caller uses scipy).

    Examples
    --------
    >>> a = Csr(np.array([1.0, 1.0]), np.array([1, 0]), np.array([0, 1, 2]), (2, 2))
    >>> s = weighted_sum([[(a, 2.0)], [(a.T, 1.0)]])  # 2A + A.T (a symmetric A: 3A)
    >>> s is None  # a.T is CSC: not a CSR term
    True
    >>> s = weighted_sum([[(a, 2.0), (a, 0.5)]])
    >>> s.indices.tolist(), s.data.tolist()
    ([1, 0], [2.5, 2.5])
    """
    terms = [(m, w) for group in groups for m, w in group]
    if not terms:
        return None
    shape = terms[0][0].shape
    if any(m.format != "csr" or m.shape != shape or not canonical(m) for m, _ in terms):
        return None
    n_rows, n_cols = shape
    rows = [_row_of(m.indptr, n_rows) for m, _ in terms]
    cols = [np.asarray(m.indices[:m.nnz], dtype=np.int64) for m, _ in terms]
    keys = np.concatenate([r * n_cols + c for r, c in zip(rows, cols, strict=True)])
    order = np.argsort(keys, kind="stable")  # sorted runs: a merge
    first = np.empty(keys.size, dtype=bool)  # the first of each distinct (row, column) in key order
    if keys.size:
        first[0] = True
        ordered = keys[order]
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    slot = np.empty(keys.size, dtype=np.int64)  # each entry's place in the union
    slot[order] = np.cumsum(first) - 1
    union = order[first]  # an entry holding each distinct (row, column), in key order
    dtype = np.result_type(*(m.data.dtype for m, _ in terms), np.float64)
    total = np.zeros(union.size, dtype=dtype)
    at = 0
    for group in groups:
        acc = np.zeros(union.size, dtype=dtype)
        for m, w in group:
            nnz = m.nnz
            acc[slot[at:at + nnz]] += w * m.data[:nnz]  # one value per entry: in term order, exactly
            at += nnz
        total += acc
    keep = total != 0
    union, total = union[keep], total[keep]
    out_rows, out_cols = np.concatenate(rows)[union], np.concatenate(cols)[union]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(out_rows, minlength=n_rows))])
    idx_dtype = np.int32 if max(union.size, n_cols) < 2**31 - 1 else np.int64
    return Csr(total, out_cols.astype(idx_dtype), indptr.astype(idx_dtype), shape, canonical=True)


def entry(m: Any, row: int, col: int) -> float:
    """``m[row, col]`` of a CSR matrix (duplicates summed, 0 where nothing is stored), read from its arrays.

    Examples
    --------
    >>> m = Csr(np.array([2.0, 3.0]), np.array([1, 0]), np.array([0, 1, 2]), (2, 2))
    >>> entry(m, 0, 1), entry(m, 0, 0)
    (2.0, 0.0)
    """
    lo, hi = int(m.indptr[row]), int(m.indptr[row + 1])
    hit = m.indices[lo:hi] == col
    return float(m.data[lo:hi][hit].sum()) if hit.any() else 0.0
