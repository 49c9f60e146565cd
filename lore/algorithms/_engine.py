"""The engine seam: where the algorithms' sparse products run.

PageRank, label propagation and overlap never multiply a big matrix themselves: they ask an
:class:`Engine` to hold it as :class:`RowBlocks` (the matrix cut into contiguous row blocks) and
call a handful of row-block products on it:

* :meth:`RowBlocks.matvec`: ``M @ x`` (the power iteration of exact PageRank);
* :meth:`RowBlocks.map_rows`: a row-wise function over some rows (label propagation's votes and
  the neighbours of the rows that moved; overlap's row norms);
* :meth:`RowBlocks.gather`: the stored entries of some rows, in the order asked (overlap's sparse
  row product with the transpose);
* :meth:`Engine.map_tasks`: independent tasks over one shared read-only object (Monte-Carlo walk
  blocks over the whole matrix).

Every one of these is *row-wise independent*: a row's result depends only on that row's stored
entries (in CSR order) and on the broadcast arguments, never on which block holds the row. So an
engine that cuts the matrix into 1 block (:class:`LocalEngine`, this process, scipy) and one that
cuts it into ``k`` blocks held by ``k`` processes (``lore.graphs.ray_engine``) return the same bits,
and tests assert ``np.array_equal``, not closeness. Dense vector work (teleport, leak, L1 change)
stays on the caller's side, identical for both.

This module knows no engine but the local one; ``lore.graphs.engines`` picks one by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._checks import row_segments
from ._csr import Csr

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["LOCAL", "Engine", "LocalEngine", "RowBlocks"]

# fn(block, first_row, local_rows_or_None, *args) -> array or tuple of arrays, one entry per row asked
RowFn = Callable[..., Any]


def _concat(parts: list[Any]) -> Any:
    """Concatenate per-block results (arrays, or tuples of arrays element-wise)."""
    if len(parts) == 1:
        return parts[0]
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))
    return np.concatenate(parts)


def block_matvec(block: sp.csr_matrix, first: int, rows: np.ndarray | None, x: np.ndarray) -> np.ndarray:
    """``block @ x`` (every row of the block; ``first`` and ``rows`` are unused)."""
    return block @ x


def block_gather(block: sp.csr_matrix, first: int, rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Column indices, values and lengths of the stored entries of ``rows`` (block-local), in that order."""
    if rows is None:
        rows = np.arange(block.shape[0])
    idx, lens = row_segments(block.indptr, rows)
    return block.indices[idx], block.data[idx], lens


def block_row_lengths(block: sp.csr_matrix, first: int, rows: np.ndarray | None) -> np.ndarray:
    """Number of stored entries per row of the block."""
    return np.diff(block.indptr).astype(np.int64, copy=False)


class RowBlocks:
    """A CSR matrix held by an engine, cut at ``bounds`` into contiguous row blocks.

    Subclasses implement :meth:`run`; everything else is built on it, so every engine computes each
    row with the same kernel on the same stored entries.

    Parameters
    ----------
    shape : tuple of int
        Shape of the whole matrix.
    bounds : array of int
        ``0 = b_0 < b_1 < ... < b_k = shape[0]``; block ``i`` holds rows ``b_i .. b_{i+1} - 1``.
    dtypes : tuple of numpy dtypes
        dtypes of the matrix's ``indices`` and ``data`` (for empty gathers).
    """

    def __init__(self, shape: tuple[int, int], bounds: np.ndarray, dtypes: tuple[np.dtype, np.dtype]) -> None:
        self.shape = (int(shape[0]), int(shape[1]))
        self.bounds = np.asarray(bounds, dtype=np.int64)
        self.dtypes = dtypes
        self._row_lengths: np.ndarray | None = None

    @property
    def n_blocks(self) -> int:
        """How many row blocks the matrix is cut into."""
        return int(self.bounds.size - 1)

    def run(self, fn: RowFn, parts: Sequence[np.ndarray | None] | None, *args: Any) -> list[Any]:
        """``[fn(block_i, b_i, parts[i], *args) for every block i]``, in block order.

        ``parts[i]`` are block-local row numbers (``None``: all rows of the block; ``parts=None``: all
        rows of every block). ``args`` are the same for every block (broadcast once per call).
        """
        raise NotImplementedError

    def split(self, rows: np.ndarray) -> list[np.ndarray]:
        """Block-local row numbers of ascending global ``rows``, per block."""
        cut = np.searchsorted(rows, self.bounds)
        return [rows[cut[i]:cut[i + 1]] - self.bounds[i] for i in range(self.n_blocks)]

    def matvec(self, x: np.ndarray) -> np.ndarray:
        """``M @ x`` for a dense vector ``x`` of length ``shape[1]``."""
        return _concat(self.run(block_matvec, None, x))

    def map_rows(self, fn: RowFn, rows: np.ndarray | None, *args: Any) -> Any:
        """``fn`` over ascending global ``rows`` (``None``: all rows), results concatenated in row order.

        ``fn(block, first_row, local_rows, *args)`` must be row-wise independent and return an array
        (or a tuple of arrays) of per-row results (tuples may also hold per-entry arrays, concatenated
        block after block); it must accept an empty ``local_rows``.
        """
        if rows is None:
            return _concat(self.run(fn, None, *args))
        return _concat(self.run(fn, self.split(np.asarray(rows, dtype=np.int64)), *args))

    def gather(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The stored entries of ``rows`` (any order, repeats allowed): column indices, values, lengths.

        Equal to ``(M.indices[idx], M.data[idx], lens)`` with ``idx, lens = row_segments(M.indptr, rows)``.
        """
        rows = np.asarray(rows, dtype=np.int64)
        if self.n_blocks == 1:
            return self.run(block_gather, [rows])[0]
        owner = np.searchsorted(self.bounds, rows, side="right") - 1
        sel = [np.flatnonzero(owner == b) for b in range(self.n_blocks)]
        got = self.run(block_gather, [rows[s] - self.bounds[b] for b, s in enumerate(sel)])
        lens = np.zeros(rows.size, dtype=np.int64)
        for s, (_, _, ln) in zip(sel, got, strict=True):
            lens[s] = ln
        starts = np.cumsum(lens) - lens
        total = int(lens.sum())
        indices = np.empty(total, dtype=self.dtypes[0])
        data = np.empty(total, dtype=self.dtypes[1])
        for s, (ind, dat, ln) in zip(sel, got, strict=True):
            if ind.size:
                pos = np.arange(ind.size, dtype=np.int64) + np.repeat(starts[s] - (np.cumsum(ln) - ln), ln)
                indices[pos] = ind
                data[pos] = dat
        return indices, data, lens

    def row_lengths(self) -> np.ndarray:
        """Stored entries per row (computed once per :class:`RowBlocks`)."""
        if self._row_lengths is None:
            self._row_lengths = _concat(self.run(block_row_lengths, None))
        return self._row_lengths


class _LocalRows(RowBlocks):
    """The whole matrix as one block, in this process: exactly the products the algorithms always ran."""

    def __init__(self, matrix: sp.spmatrix | Csr) -> None:
        if isinstance(matrix, Csr) and matrix.format != "csr":  # a transposed view: scipy converts it
            matrix = matrix.to_scipy()
        super().__init__(matrix.shape, np.array([0, matrix.shape[0]]), (matrix.indices.dtype, matrix.data.dtype))
        self.matrix = matrix
        self._csr: sp.csr_matrix | None = None

    def run(self, fn: RowFn, parts: Sequence[np.ndarray | None] | None, *args: Any) -> list[Any]:
        if self._csr is None:  # row products need CSR; a transposed (CSC) view is converted once
            m = self.matrix
            self._csr = m if m.format == "csr" else (m.to_scipy() if isinstance(m, Csr) else m).tocsr()
        return [fn(self._csr, 0, None if parts is None else parts[0], *args)]

    def matvec(self, x: np.ndarray) -> np.ndarray:
        m = self.matrix.to_scipy() if isinstance(self.matrix, Csr) else self.matrix
        return m @ x  # also a CSC view (P.T without a transposed copy)


class Engine:
    """Where sparse products run. Subclasses: :class:`LocalEngine`, ``lore.graphs.ray_engine.RayEngine``.

    ``name`` is what the user typed (``--engine``); the results never depend on the engine.
    """

    name = "?"

    def rows(self, matrix: sp.spmatrix, *, transpose: bool = False, cache_on: object = None,
             name: str = "") -> RowBlocks:
        """Hold ``matrix`` (or its transpose) as row blocks.

        Parameters
        ----------
        matrix : scipy.sparse matrix
            CSR (or, with ``transpose``, a matrix whose transpose is wanted).
        transpose : bool
            Hold ``matrix.T`` instead.
        cache_on : object, optional
            An immutable matrix the held blocks derive from: an engine that ships blocks elsewhere
            keeps them while ``cache_on`` lives, under ``name``, so that the next query on the
            same graph ships nothing.
        name : str
            What the blocks are (part of the cache key).
        """
        raise NotImplementedError

    def map_tasks(self, fn: Callable[..., Any], shared: tuple, items: Sequence[Any], *, cache_on: object = None,
                  name: str = "") -> list[Any]:
        """``[fn(*shared, item) for item in items]``, in item order (tasks may run anywhere, in any order).

        ``shared`` is read-only and the same for every task (shipped once; cached like :meth:`rows`).
        """
        raise NotImplementedError


class LocalEngine(Engine):
    """This process, scipy, one block: the default engine.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = sp.csr_matrix([[0.0, 2.0], [1.0, 0.0]])
    >>> LOCAL.rows(m).matvec(np.array([1.0, 10.0])).tolist()
    [20.0, 1.0]
    >>> [a.tolist() for a in LOCAL.rows(m).gather(np.array([1, 0]))]
    [[0, 1], [1.0, 2.0], [1, 1]]
    """

    name = "local"

    def rows(self, matrix: sp.spmatrix, *, transpose: bool = False, cache_on: object = None,
             name: str = "") -> RowBlocks:
        return _LocalRows(matrix.T if transpose else matrix)

    def map_tasks(self, fn: Callable[..., Any], shared: tuple, items: Sequence[Any], *, cache_on: object = None,
                  name: str = "") -> list[Any]:
        return [fn(*shared, item) for item in items]


LOCAL = LocalEngine()


def check_engine(engine: Engine | None) -> Engine:
    """``engine`` or the local engine."""
    return LOCAL if engine is None else engine
