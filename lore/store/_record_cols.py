"""The two small columns of ``file_records`` in a compact form: symbol ids as runs, names compressed.

``local_ids`` maps a file's record symbols to their symbol ids, in record order. A file's symbols are
numbered together (a fresh index gives them consecutive ids; a refresh keeps the ids of the symbols that
survive and numbers the new ones after the last), so the ids are stored as int64 ``(start, count)``
runs: 16 bytes for most files instead of 8 per symbol. ``ref_names`` (every name the file's edges
mention, read by a refresh to find the files a change can reach) is zlib-compressed text. Both
round-trip exactly, and the readers (:func:`lore.store.read.record_blob`, :func:`lore.store.read.ref_names`)
hand back what the writer was given.
"""

from __future__ import annotations

import zlib
from array import array


def pack_ids(ids: bytes) -> bytes:
    """int64 ids (native order, as ``array('q').tobytes()``) as int64 ``(start, count)`` runs.

    Examples
    --------
    >>> ids = array("q", [5, 6, 7, 2, 9, 10]).tobytes()
    >>> array("q", pack_ids(ids)).tolist()
    [5, 3, 2, 1, 9, 2]
    >>> unpack_ids(pack_ids(ids)) == ids and unpack_ids(pack_ids(b"")) == b""
    True
    """
    a = array("q")
    a.frombytes(ids)
    runs = array("q")
    k, n = 0, len(a)
    while k < n:
        j = k + 1
        while j < n and a[j] == a[j - 1] + 1:
            j += 1
        runs.append(a[k])
        runs.append(j - k)
        k = j
    return runs.tobytes()


def unpack_ids(data: bytes) -> bytes:
    """The int64 ids :func:`pack_ids` stored, as bytes."""
    runs = array("q")
    runs.frombytes(data)
    out = array("q")
    for k in range(0, len(runs), 2):
        out.extend(range(runs[k], runs[k] + runs[k + 1]))
    return out.tobytes()


def pack_names(names: str) -> bytes:
    """``ref_names`` as stored.

    Examples
    --------
    >>> unpack_names(pack_names("kfree kmalloc")), unpack_names(pack_names(""))
    ('kfree kmalloc', '')
    """
    return zlib.compress(names.encode("utf-8", "surrogatepass"), 6) if names else b""


def unpack_names(data: bytes | str) -> str:
    """The text :func:`pack_names` stored."""
    if isinstance(data, str):  # not written by pack_names: kept as it was
        return data
    return zlib.decompress(data).decode("utf-8", "surrogatepass") if data else ""
