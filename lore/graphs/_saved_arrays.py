"""Arrays saved beside the index (the graph, the ranker's features), checked before they are used.

A saved state is a folder of ``.npy`` files and a ``meta.json``. :func:`write_arrays` records each
array's dtype, shape and a CRC-32 of its bytes in a manifest that goes into ``meta.json``;
:func:`open_array` maps an array back and checks its dtype and shape against the manifest, and
:func:`verify` checks the bytes once per process and folder (CRC-32 runs at several GB/s: a few
milliseconds for a large repository's state). A state that fails is deleted (:func:`discard`), so the
caller builds it again and saves a good one in its place: a damaged file beside the index never
becomes an ``IndexError`` in a query, and never outlives a ``lore index --rebuild``.
"""

from __future__ import annotations

import os
import shutil
import threading
import zlib
from pathlib import Path
from typing import Any

import numpy as np

_VERIFIED: set[tuple[str, int, int]] = set()  # (folder, meta.json inode, its mtime): bytes checked already
_LOCK = threading.Lock()


class DamagedStateError(ValueError):
    """A saved array that does not match its manifest (the readers treat it as a missing state)."""


def _crc(a: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(a).reshape(-1).view(np.uint8).data) if a.size else 0


def write_arrays(folder: Path, arrays: dict[str, np.ndarray]) -> dict[str, list[Any]]:
    """Save each array as ``<name>.npy`` in ``folder``; the manifest ``{name: [dtype, shape, crc32]}``.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> manifest = write_arrays(d, {"ids": np.arange(3)})
    >>> _ = (d / "meta.json").write_text("{}")  # the caller writes the manifest into it
    >>> manifest["ids"][:2], open_array(d, "ids", manifest).tolist(), verify(d, manifest)
    (['<i8', [3]], [0, 1, 2], True)
    """
    manifest: dict[str, list[Any]] = {}
    for name, arr in arrays.items():
        a = np.ascontiguousarray(arr)
        np.save(folder / f"{name}.npy", a, allow_pickle=False)
        manifest[name] = [a.dtype.str, list(a.shape), _crc(a)]
    return manifest


def open_array(folder: Path, name: str, manifest: dict[str, list[Any]]) -> np.ndarray:
    """The array ``name`` mapped copy-on-write, after checking its dtype and shape against ``manifest``.

    Raises :class:`DamagedStateError` (a ``ValueError``) when it is not in the manifest or differs.
    """
    want = manifest.get(name)
    if want is None:
        raise DamagedStateError(f"{name}: not in the manifest")
    # a plain view: np.memmap's Python-level indexing costs us per slice
    a = np.load(folder / f"{name}.npy", mmap_mode="c", allow_pickle=False).view(np.ndarray)
    if a.dtype.str != want[0] or list(a.shape) != list(want[1]):
        raise DamagedStateError(f"{name}: {a.dtype.str}{list(a.shape)}, recorded {want[0]}{want[1]}")
    return a


def verify(folder: Path, manifest: dict[str, list[Any]], arrays: dict[str, np.ndarray] | None = None) -> bool:
    """Whether the bytes of the arrays of ``folder`` match their CRC-32 in ``manifest``.

    ``arrays`` are the ones the caller mapped (:func:`open_array`, by name): only those are checked,
    without mapping them again; without it, every array of the manifest is read. Checked once per
    process for a given ``meta.json`` (a new state, or one rewritten, is checked again).
    """
    try:
        st = os.stat(folder / "meta.json")
    except OSError:
        return False
    key = (str(folder), st.st_ino, st.st_mtime_ns)
    with _LOCK:
        if key in _VERIFIED:
            return True
    if arrays is None:
        try:
            arrays = {name: open_array(folder, name, manifest) for name in manifest}
        except (OSError, ValueError):
            return False
    for name, a in arrays.items():
        want = manifest.get(name)
        if want is None or _crc(a) != want[2]:
            return False
    with _LOCK:
        _VERIFIED.add(key)
    return True


def discard(folder: Path) -> None:
    """Delete a damaged state folder, so that the state is built and saved again in its place.

    A process still mapping its files keeps them; nothing is raised when the folder cannot be removed.
    """
    shutil.rmtree(folder, ignore_errors=True)
