"""A :class:`~lore.algorithms._csr.Csr` read from saved arrays whose encoded arrays are decoded when first used.

A saved graph and saved features hold dozens of sparse matrices (every relation and its transpose, the
closed neighbourhoods, the walk, the word matrices), most stored narrow
(:mod:`lore.graphs._saved_arrays`). A query reads a few of them; decoding all of them when the state
is mapped cost a new process's first ``related`` about 0.4 CPU s on the Linux kernel's index. Here
``data``, ``indices`` and ``indptr`` may be :class:`~lore.graphs._saved_arrays.Deferred`: each is
decoded the first time it is read, so a matrix no query touches is never decoded. The arrays read
back are the ones a whole decode gives (same dtype, shape and bits), so no reader changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..algorithms._csr import Csr
from ._saved_arrays import Deferred, resolve


class LazyCsr(Csr):
    """:class:`Csr` whose arrays may be :class:`Deferred` (decoded on first read, then kept).

    Examples
    --------
    >>> from lore.graphs._saved_arrays import encode
    >>> def deferred(a):
    ...     return Deferred(*encode(a), a.dtype.str, list(a.shape))
    >>> data, indices, indptr = np.array([0.5, 2.0] * 200), np.arange(400) % 7, np.arange(401)
    >>> m = LazyCsr(deferred(data), deferred(indices), deferred(indptr), (400, 7))
    >>> m.decoded(), m.nnz, m.decoded(), float(m.data[3]), m.decoded()
    ([], 400, ['indptr'], 2.0, ['data', 'indptr'])
    """

    _parts: dict[str, Any]

    def __init__(self, data: Any, indices: Any, indptr: Any, shape: tuple[int, int], **kw: Any) -> None:
        self._parts = {}
        super().__init__(data, indices, indptr, shape, **kw)

    def _get(self, key: str) -> np.ndarray:
        got = self._parts[key]
        if isinstance(got, Deferred):
            got = self._parts[key] = got.get()
        return got

    def _set(self, key: str, value: Any) -> None:
        self._parts[key] = value

    data = property(lambda self: self._get("data"), lambda self, v: self._set("data", v))  # type: ignore[assignment]
    indices = property(lambda self: self._get("indices"), lambda self, v: self._set("indices", v))  # type: ignore[assignment]
    indptr = property(lambda self: self._get("indptr"), lambda self, v: self._set("indptr", v))  # type: ignore[assignment]

    @property
    def T(self) -> Csr:  # noqa: N802  (scipy's name)
        return LazyCsr(self._parts["data"], self._parts["indices"], self._parts["indptr"], self.shape[::-1],
                       format="csc" if self.format == "csr" else "csr", sorted_indices=self._sorted,
                       canonical=self._canonical)

    def decoded(self) -> list[str]:
        """The arrays read so far, or stored plain (sorted names; for tests and measurements)."""
        return sorted(k for k, v in self._parts.items() if not isinstance(v, Deferred))


__all__ = ["LazyCsr", "resolve"]
