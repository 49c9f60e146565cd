"""Input checks shared by the algorithms, plus two helpers they all use (CSR gather, per-matrix cache).

Every ``check_*`` helper validates one argument at call time and raises
:class:`~lore.errors.InvalidArgumentError` (a ``ValueError``) with a one-sentence message that
says what was wrong, so a bad ``alpha`` fails before the first iteration, not after the hundredth.
The checks are O(1) or O(len(argument)) unless their name says otherwise (``check_nonnegative``
and ``check_symmetric`` read every stored weight and are only used by whole-graph algorithms).
"""

from __future__ import annotations

import numbers
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ..errors import InvalidArgumentError, UnknownAlgorithmError
from ._csr import Csr, is_sparse

if TYPE_CHECKING:
    pass

_T = TypeVar("_T")

DIRECTIONS = ("out", "in", "both")


def check_csr(matrix, name: str = "adjacency", *, arrays: bool = False) -> Any:
    """Return ``matrix`` as CSR (no copy when it already is); raise if it is not a sparse matrix.

    ``matrix`` is a scipy sparse matrix or :class:`~lore.algorithms._csr.Csr` arrays. The result is
    a scipy ``csr_matrix``, except with ``arrays=True`` (a kernel that only reads ``data`` /
    ``indices`` / ``indptr``): then CSR arrays are handed back as they are, without importing scipy.
    """
    if not is_sparse(matrix):
        raise InvalidArgumentError(f"{name} must be a scipy.sparse matrix (CSR), got {type(matrix).__name__}")
    if matrix.ndim != 2:
        raise InvalidArgumentError(f"{name} must be 2-dimensional, got shape {matrix.shape}")
    if isinstance(matrix, Csr):
        if arrays and matrix.format == "csr":
            return matrix
        return matrix.to_scipy().tocsr()
    return matrix.tocsr()


def check_square(matrix, name: str = "adjacency") -> None:
    """Raise unless ``matrix`` is N x N."""
    if matrix.shape[0] != matrix.shape[1]:
        raise InvalidArgumentError(f"{name} must be square (N x N), got shape {matrix.shape}")


def check_nonnegative(matrix, name: str = "adjacency") -> None:
    """Raise if any stored weight is negative or not finite (reads every stored value)."""
    data = matrix.data
    if data.size and not (np.isfinite(data).all() and data.min() >= 0):
        raise InvalidArgumentError(f"{name} weights must be finite and nonnegative")


def check_symmetric(matrix, name: str = "adjacency") -> None:
    """Raise unless ``matrix`` equals its transpose up to rounding (reads every stored value)."""
    diff = abs(matrix - matrix.T)
    scale = max(float(abs(matrix).max()) if matrix.nnz else 0.0, 1.0)
    if diff.nnz and float(diff.max()) > 1e-9 * scale:
        raise InvalidArgumentError(
            f"{name} must be symmetric (undirected); pass A + A.T for a directed graph"
        )


def _real(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise InvalidArgumentError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def check_alpha(alpha) -> float:
    """Damping factor: a number strictly between 0 and 1."""
    a = _real("alpha", alpha)
    if not 0.0 < a < 1.0:
        raise InvalidArgumentError(f"alpha must be between 0 and 1 (exclusive), got {alpha!r}")
    return a


def check_positive(name: str, value) -> float:
    """A finite number > 0 (tolerances, thresholds)."""
    v = _real(name, value)
    if v <= 0:
        raise InvalidArgumentError(f"{name} must be > 0, got {value!r}")
    return v


def check_int(name: str, value, minimum: int, maximum: int | None = None) -> int:
    """An integer >= ``minimum`` (and <= ``maximum`` if given: iteration counts, sizes)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise InvalidArgumentError(f"{name} must be at least {minimum}, got {value!r}")
    if maximum is not None and value > maximum:
        raise InvalidArgumentError(f"{name} must be at most {maximum}, got {value!r}")
    return int(value)


def check_choice(value, choices: tuple[str, ...], what: str) -> str:
    """One of a fixed vocabulary; raises :class:`UnknownAlgorithmError` naming the choices."""
    if value not in choices:
        raise UnknownAlgorithmError(str(value), choices, what=what)
    return value


def check_rows(rows, n: int, name: str = "seeds") -> np.ndarray:
    """Distinct row ids in ``[0, n)`` as a sorted int64 array; at least one."""
    arr = np.asarray(rows)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise InvalidArgumentError(f"{name} must be an integer row id or a 1-d array of row ids")
    if arr.size == 0:
        raise InvalidArgumentError(f"{name} must name at least one row")
    arr = unique_ints(arr.astype(np.int64, copy=False))
    if arr[0] < 0 or arr[-1] >= n:
        raise InvalidArgumentError(f"{name} must be row ids in [0, {n}), got values up to {int(arr[-1])}")
    return arr


def check_personalization(personalization, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The restart distribution as ``(rows, probabilities)`` with probabilities summing to 1.

    An integer array (or a single int) names seed rows, uniform over the distinct ones; a float
    array is a length-``n`` nonnegative weight vector with a positive sum.
    """
    if n == 0:
        raise InvalidArgumentError("the graph is empty (0 nodes); there is nothing to rank")
    arr = np.asarray(personalization)
    if arr.ndim == 0 or arr.size == 0 or np.issubdtype(arr.dtype, np.integer):
        rows = check_rows(arr, n, name="personalization")
        return rows, np.full(rows.size, 1.0 / rows.size)
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.floating):
        raise InvalidArgumentError(
            "personalization must be an int array of seed rows or a float vector of length N"
        )
    if arr.shape[0] != n:
        raise InvalidArgumentError(f"personalization vector must have length {n}, got {arr.shape[0]}")
    if not np.isfinite(arr).all() or arr.min() < 0:
        raise InvalidArgumentError("personalization must be finite and nonnegative")
    total = float(arr.sum())
    if total <= 0:
        raise InvalidArgumentError("personalization must have a positive sum")
    rows = np.flatnonzero(arr)
    return rows, arr[rows] / total


def check_rng(seed) -> np.random.Generator:
    """A numpy Generator from ``None``, an int or a Generator (``np.random.default_rng`` rules)."""
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(
            f"seed must be None, a nonnegative int or a numpy Generator, got {seed!r}"
        ) from exc


def unique_ints(values) -> np.ndarray:
    """The sorted distinct values of an integer array: ``np.unique(values)`` without its masked-array
    check, whose first call imports ``numpy.ma`` (about 7 ms of a cold start).

    Examples
    --------
    >>> unique_ints(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    a = np.sort(np.asarray(values).ravel())
    if a.size < 2:
        return a
    first = np.empty(a.size, dtype=bool)
    first[0] = True
    np.not_equal(a[1:], a[:-1], out=first[1:])
    return a[first]


def row_segments(indptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions in ``data``/``indices`` of every stored entry of ``rows``, and each row's length.

    The vectorized equivalent of ``np.concatenate([np.arange(indptr[r], indptr[r + 1]) for r in rows])``;
    cost O(len(rows) + number of entries gathered).
    """
    starts = indptr[rows].astype(np.int64, copy=False)
    lens = indptr[rows + 1].astype(np.int64, copy=False) - starts
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), lens
    offsets = np.cumsum(lens) - lens
    idx = np.arange(total, dtype=np.int64) + np.repeat(starts - offsets, lens)
    return idx, lens


# Derived per-matrix arrays (row maxima, row norms) that cost one O(nnz) pass to compute but make
# every later query on the same matrix independent of the graph size. Matrices are treated as
# immutable: entries are keyed by object identity (scipy matrices are unhashable) and a name,
# dropped when the matrix is garbage-collected, and checked against the matrix buffers (and those of
# any other matrix the value depends on), so a rebuilt matrix misses. At most _CACHE_SIZE entries.
_CACHE: dict[tuple[int, str], tuple[weakref.ref, tuple, object]] = {}
_CACHE_SIZE = 16


def _fingerprint(m) -> tuple:
    return (m.shape, m.nnz, m.data.ctypes.data, m.indptr.ctypes.data, m.indices.ctypes.data)


def cached_per_matrix(matrix, name: str, compute: Callable[[], _T], *, depends_on=()) -> _T:
    """``compute()`` once per (matrix object, name); later calls return the stored value."""
    key = (id(matrix), name)
    fingerprint = (_fingerprint(matrix), *(_fingerprint(d) for d in depends_on))
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is matrix and hit[1] == fingerprint:
        return hit[2]  # type: ignore[return-value]  # stored by the compute() of the same name
    value = compute()
    try:
        ref = weakref.ref(matrix, lambda _ref, key=key, cache=_CACHE: cache.pop(key, None))  # not a global: gone at exit
    except TypeError:  # not weak-referenceable: just don't cache
        return value
    while len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (ref, fingerprint, value)
    return value
