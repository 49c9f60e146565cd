"""The ranker's word matrices weighted when read: raw counts saved, idf and BM25 applied to the rows asked.

The idf of a column and BM25's length norm depend on every row (a new symbol moves ``N``, so every
idf; a longer text moves the mean length), so weights saved whole must be computed and written again
whole after any refresh that adds or removes a symbol. Here the saved features hold what a refresh
can patch: each word matrix's raw presence (or term counts) and its document frequencies, plus
BM25's row lengths and their mean. A query weighs the few rows (or columns) it reads with the very
functions the whole build used (:func:`lore.algorithms._signals.idf_apply`,
:func:`~lore.algorithms._signals.bm25_entries`): each works within a row or element for element, so
what a query reads has the bits of the whole weighted matrix (checked in
``tests/graphs/test_feature_weights.py`` against :func:`~lore.algorithms._signals.idf_normalize` and
:func:`~lore.algorithms._signals.bm25_weights` over every row).

The column weights (one ``log`` per column) are computed once per object from the saved document
frequencies: the same call on the same array as the whole build, so the same bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..algorithms import _signals as sig
from ..algorithms._checks import row_segments
from ..algorithms._csr import Csr


def _scipy(m: Any) -> Any:
    return m.to_scipy() if isinstance(m, Csr) else m


class IdfRows:
    """An :func:`~lore.algorithms._signals.idf_normalize` d matrix whose rows are weighted when read.

    ``presence`` is the raw rows x words matrix (CSR), ``df`` each column's document frequency over
    its ``n`` rows. :meth:`local` gives the weighted rows a query reads; :meth:`whole` every row.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> p = sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 1], [0, 0, 1]], dtype=float))
    >>> m = IdfRows(p, np.array([2, 1, 2]))
    >>> sub, seed, rows = m.local(2, np.array([1]))
    >>> np.array_equal(sub.to_scipy().toarray(), sig.idf_normalize(p)[[2, 1]].toarray()), seed, rows.tolist()
    (True, 0, [1])
    """

    def __init__(self, presence: Any, df: np.ndarray, *, max_df: float = 0.05, min_rows: int = 100) -> None:
        self.presence = presence
        self.df = df
        self.shape = tuple(presence.shape)
        self.max_df, self.min_rows = max_df, min_rows
        self._idf: np.ndarray | None = None
        self._memo: tuple[bytes, Any] | None = None  # the last rows weighed (a query asks for the same twice)

    @property
    def idf(self) -> np.ndarray:
        got = self._idf
        if got is None:
            got = self._idf = sig.idf_vector(self.df, self.shape[0], max_df=self.max_df, min_rows=self.min_rows)
        return got

    def rows(self, rows: np.ndarray) -> Any:
        """The weighted rows ``rows`` (a scipy CSR matrix, one row per entry of ``rows``, in that order)."""
        rows = np.asarray(rows, dtype=np.int64)
        key = rows.tobytes()
        got = self._memo
        if got is not None and got[0] == key:
            return got[1]
        p = self.presence
        idx, lens = row_segments(p.indptr, rows)
        indptr = np.zeros(rows.size + 1, dtype=np.int64)
        np.cumsum(lens, out=indptr[1:])
        data, indices = np.asarray(p.data)[idx], np.asarray(p.indices)[idx]
        if p.has_sorted_indices:
            out: Any = _weigh(data, indices, lens, self.idf, self.shape[1])
        else:  # (scipy's steps give another order to unsorted rows: take them)
            import scipy.sparse as sp

            out = sig.idf_apply(sp.csr_matrix((data, indices, indptr), shape=(rows.size, self.shape[1])), self.idf)
        self._memo = (key, out)
        return out

    def local(self, seed: int, rows: np.ndarray) -> tuple[Any, int, np.ndarray]:
        """(the weighted rows of ``seed`` then ``rows``, the seed's row in it, the rows' rows in it)."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        return self.rows(np.concatenate([[int(seed)], rows])), 0, np.arange(1, rows.size + 1, dtype=np.int64)

    def whole(self) -> Any:
        """Every row weighted: :func:`~lore.algorithms._signals.idf_normalize` of the presence."""
        return sig.idf_apply(_scipy(self.presence), self.idf)


def _weigh(data: np.ndarray, indices: np.ndarray, lens: np.ndarray, idf: np.ndarray, ncols: int) -> Csr:
    """:func:`~lore.algorithms._signals.idf_apply` of rows with ascending columns (``lens`` entries each),
    in numpy: the operations scipy performs, in its order, so the same bits without importing scipy.

    scipy's steps on a row: ``m @ diags(idf)`` stores ``0.0 + x * idf[j]`` for every column whose
    product is not 0 (the matrix product drops zero sums); the row's squared norm is
    ``np.add.reduceat`` of the squares, one segment per non-empty row, in ascending column order (what
    ``sum(axis=1)`` of a CSR matrix runs; a segment's sum does not depend on where it starts);
    ``diags(inv) @ w`` stores ``0.0 + inv * w`` where not 0; a row's columns come out ascending
    (checked against :func:`~lore.algorithms._signals.idf_apply` over every row of real indexes in
    ``tests/graphs/test_feature_weights.py``).
    """
    x = np.minimum(data.astype(np.float64, copy=False), 1.0) * idf[indices]
    keep = x != 0.0
    row = np.repeat(np.arange(lens.size), lens)[keep]
    x, cols = x[keep], indices[keep]
    counts = np.bincount(row, minlength=lens.size)
    starts = np.zeros(lens.size + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    total = np.zeros(lens.size)
    filled = np.flatnonzero(counts)
    if filled.size:  # what scipy's sum(axis=1) runs: one reduceat segment per non-empty row
        total[filled] = np.add.reduceat(x * x, starts[filled])
    norms = np.sqrt(total)
    inv = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    w = inv[row] * x
    keep = w != 0.0
    if not keep.all():
        w, cols, row = w[keep], cols[keep], row[keep]
        np.cumsum(np.bincount(row, minlength=lens.size), out=starts[1:])
    return Csr(w, cols.astype(np.int32, copy=False), starts, (lens.size, ncols), canonical=True)


class Bm25Columns:
    """A :func:`~lore.algorithms._signals.bm25_weights` matrix (CSC) whose entries are weighted when read.

    ``counts`` is the raw term counts as CSC (rows x words; each column's entries are its documents),
    ``dl`` each row's length and ``avgdl`` their mean (:func:`~lore.algorithms._signals.bm25_avgdl`).
    ``indptr`` and ``indices`` are the weighted matrix's (a word's document frequency is its column's
    length).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> tf = sp.csr_matrix(np.array([[1, 0], [2, 1], [0, 1]], dtype=float))
    >>> m = Bm25Columns(tf.tocsc(), np.array([1.0, 3.0, 1.0]), sig.bm25_avgdl(np.array([1.0, 3.0, 1.0])))
    >>> np.array_equal(m.whole().toarray(), sig.bm25_weights(tf).toarray())
    True
    """

    def __init__(self, counts: Any, dl: np.ndarray, avgdl: float) -> None:
        self.counts = counts
        self.dl = dl
        self.avgdl = float(avgdl)
        self.shape = tuple(counts.shape)
        self._idf: np.ndarray | None = None

    @property
    def indptr(self) -> np.ndarray:
        return self.counts.indptr

    @property
    def indices(self) -> np.ndarray:
        return self.counts.indices

    @property
    def idf(self) -> np.ndarray:
        got = self._idf
        if got is None:
            got = self._idf = sig.bm25_idf(np.diff(np.asarray(self.indptr)), self.shape[0])
        return got

    def column_entries(self, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row, weight) of every stored entry of the columns ``cols``, column by column in stored order."""
        cols = np.asarray(cols, dtype=np.int64)
        idx, lens = row_segments(self.indptr, cols)
        rows = np.asarray(self.indices)[idx]
        x = np.asarray(self.counts.data)[idx].astype(np.float64, copy=False)
        return rows, sig.bm25_entries(self.idf[np.repeat(cols, lens)], x, np.asarray(self.dl)[rows], self.avgdl)

    def whole(self) -> Any:
        """Every entry weighted: the CSC matrix :func:`~lore.algorithms._signals.bm25_weights` gives."""
        import scipy.sparse as sp

        rows, w = self.column_entries(np.arange(self.shape[1], dtype=np.int64))
        return sp.csc_matrix((w, np.asarray(self.indices), np.asarray(self.indptr)), shape=self.shape)


def local(m: Any, seed: int, rows: np.ndarray) -> tuple[Any, int, np.ndarray]:
    """``(m, seed, rows)`` for a plain matrix; for an :class:`IdfRows`, its weighted rows of the seed and
    ``rows`` with their places in it (what a reader of a few rows asks: the same bits either way)."""
    if isinstance(m, IdfRows):
        return m.local(seed, rows)
    return m, seed, rows
