"""Arrays saved beside the index (the graph, the ranker's features), checked before they are used.

A saved state is a folder of ``.npy`` files and a ``meta.json``. :func:`write_arrays` records each
array's dtype, shape and a CRC-32 of its bytes in a manifest that goes into ``meta.json``;
:func:`open_array` maps an array back and checks its dtype and shape against the manifest, and
:func:`verify` checks the bytes once per process and folder (CRC-32 runs at several GB/s: a few
milliseconds for a large repository's state). A state that fails is deleted (:func:`discard`), so the
caller builds it again and saves a good one in its place: a damaged file beside the index never
becomes an ``IndexError`` in a query, and never outlives a ``lore index --rebuild``.

Arrays are stored in the narrowest form that gives them back exactly (:func:`encode`; a kernel
subsystem's side files: 199 -> 76 MB): an array whose every element has the same bits is not stored at
all (a BM25 query side or a presence matrix is all 1.0); a float array with at most 256 distinct values
(relation weights, word counts) as ``uint8`` codes into a table of those values' bits, else as
``float32`` where every value survives the round trip; a non-decreasing integer array (row pointers,
sorted ids) as its steps; an integer array in the narrowest integer type that holds its range.
:func:`open_array` gives the same dtype, shape and bits as the array written (decoded in memory; a
plain array is still memory-mapped), so no reader changes; the checksum covers the bytes stored, so a
damaged file is still found before it is decoded.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import zlib
from pathlib import Path
from typing import Any

import numpy as np

_VERIFIED: set[tuple[str, int, int]] = set()  # (folder, meta.json inode, its mtime): bytes checked already
_LOCK = threading.Lock()
_DECODE = threading.Lock()  # one Deferred decoded at a time (a query decodes a few: no contention worth more)


class DamagedStateError(ValueError):
    """A saved array that does not match its manifest (the readers treat it as a missing state)."""


def _crc(a: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(a).reshape(-1).view(np.uint8).data) if a.size else 0


_CHUNK = 1 << 20  # elements encoded at a time: the temporaries stay a few MB for any array
_TABLE = 256  # most distinct values coded through a table (uint8 codes; the table goes into meta.json)
_NARROW = tuple(np.dtype(t) for t in ("u1", "i1", "<u2", "<i2", "<u4", "<i4"))


def _bits(a: np.ndarray) -> np.ndarray:
    """The elements of ``a`` as unsigned integers of the same size (1-D view): equal bits, equal values."""
    return a.reshape(-1).view(f"<u{a.dtype.itemsize}")


def _table(u: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(the distinct values of ``u`` ascending, each element's uint8 position in them), None when there
    are more than ``_TABLE``. Found from a sample, then checked (and completed) over every element, so a
    large array costs two ``searchsorted`` passes against a small table instead of a sort."""
    table = np.unique(u[::max(1, u.size // 65_536)])
    codes = np.empty(u.size, dtype=np.uint8)
    complete = True
    for _ in range(2):  # a second pass only when the sample missed values (then every code is recomputed)
        if len(table) > _TABLE:
            return None
        for lo in range(0, u.size, _CHUNK):
            part = u[lo:lo + _CHUNK]
            at = np.minimum(np.searchsorted(table, part), len(table) - 1)
            miss = table[at] != part
            if miss.any():
                table = np.union1d(table, part[miss])
                complete = False
                if len(table) > _TABLE:
                    return None
            elif complete:
                codes[lo:lo + _CHUNK] = at
        if complete:
            return table, codes
        complete = True
    return None  # not reached: the second pass runs against every value


def _steps(a: np.ndarray) -> np.ndarray | None:
    """The steps between consecutive elements of a 1-D non-decreasing integer array (row pointers, sorted
    ids) in the narrowest unsigned type that holds them, None for any other array."""
    if a.ndim != 1 or a.size < 2:
        return None
    big = 0
    for lo in range(0, a.size - 1, _CHUNK):
        part = a[lo:lo + _CHUNK + 1]
        if (part[1:] < part[:-1]).any():  # (compared, not subtracted: an unsigned step below 0 wraps)
            return None
        big = max(big, int(np.diff(part).max(initial=0)))
    t = next((t for t in _NARROW if t.kind == "u" and big <= np.iinfo(t).max), None)
    if t is None or t.itemsize >= a.dtype.itemsize:
        return None
    out = np.empty(a.size - 1, dtype=t)
    for lo in range(0, a.size - 1, _CHUNK):
        out[lo:lo + _CHUNK] = np.diff(a[lo:lo + _CHUNK + 1])
    return out


def encode(a: np.ndarray) -> tuple[np.ndarray | None, dict[str, Any] | None]:
    """(what to store, how it decodes) of ``a``: ``(a, None)`` when stored as it is.

    The narrowest exact form: one value repeated (nothing stored, ``{"const": bits}``), codes into a
    table of at most 256 distinct values (``{"codes": "|u1", "table": [bits...]}``), the steps of a
    non-decreasing integer array (row pointers, sorted ids: ``{"steps": "|u1", "first": a[0]}``, summed
    back), a narrower type that holds every value (``{"as": "<f4"}``, ``{"as": "<i4"}``...). Values are
    compared as bits, so ``-0.0`` and NaN payloads come back as written.

    Examples
    --------
    >>> encode(np.ones(4))[1], encode(np.array([0.5, 2.0] * 500))[1]["table"]
    ({'const': 4607182418800017408}, [4602678819172646912, 4611686018427387904])
    >>> stored, how = encode(np.array([300, 5, 7], dtype=np.int64))
    >>> stored.dtype.str, how, encode(np.array([0.1, 0.2]))[1], encode(np.array([0.5, 0.25]))[1]
    ('<u2', {'as': '<u2'}, None, {'as': '<f4'})
    >>> stored, how = encode(np.array([5, 8, 8, 250, 400], dtype=np.int32))
    >>> stored.tolist(), how
    ([3, 0, 242, 150], {'steps': '|u1', 'first': 5})
    """
    a = np.ascontiguousarray(a)
    if a.size == 0 or a.dtype.kind not in "fiu" or a.dtype.byteorder == ">":
        return a, None
    u = _bits(a)
    first = u[0]
    if all(bool((u[lo:lo + _CHUNK] == first).all()) for lo in range(0, u.size, _CHUNK)):
        return None, {"const": int(first)}
    if a.dtype.kind in "iu":
        lo_v, hi_v = int(a.min()), int(a.max())
        narrow = next((t for t in _NARROW if np.iinfo(t).min <= lo_v and hi_v <= np.iinfo(t).max), None)
        steps = _steps(a)
        if steps is not None and steps.dtype.itemsize < (narrow if narrow is not None else a.dtype).itemsize:
            return steps, {"steps": steps.dtype.str, "first": int(a.reshape(-1)[0])}
        if narrow is not None and narrow.itemsize < a.dtype.itemsize:
            return a.astype(narrow), {"as": narrow.str}
        return a, None
    if a.dtype.itemsize > 1 and a.size * (a.dtype.itemsize - 1) > 24 * _TABLE:
        got = _table(u)
        if got is not None:
            return got[1].reshape(a.shape), {"codes": "|u1", "table": [int(v) for v in got[0]]}
    if a.dtype == np.float64:
        f32 = np.empty(a.shape, dtype="<f4")
        flat = f32.reshape(-1)
        src = a.reshape(-1)
        for lo in range(0, a.size, _CHUNK):
            flat[lo:lo + _CHUNK] = src[lo:lo + _CHUNK]
            if not np.array_equal(_bits(flat[lo:lo + _CHUNK].astype(np.float64)), u[lo:lo + _CHUNK]):
                return a, None
        return f32, {"as": "<f4"}
    return a, None


def decode(stored: Any, how: dict[str, Any] | None, dtype: str, shape: list[int]) -> np.ndarray:
    """The array :func:`encode` was given, from what it stored and how (the same dtype, shape and bits).

    Examples
    --------
    >>> a = np.array([-0.0, 3.0, 0.0, 1e300] * 1000)
    >>> b = decode(*encode(a), a.dtype.str, list(a.shape))
    >>> b.dtype == a.dtype and np.array_equal(_bits(b), _bits(a))
    True
    """
    want = np.dtype(dtype)
    if how is None:
        assert stored is not None
        return stored
    if "blocks" in how:  # (stored, how, size) per block, each decoded into its slice of one array
        out = np.empty(shape, dtype=want)
        lo = 0
        for part, part_how, size in stored:
            out[lo:lo + size] = decode(part, part_how, dtype, [size])
            lo += size
        return out
    if "const" in how:
        out = np.empty(shape, dtype=want)
        _bits(out)[...] = how["const"]
        return out
    assert stored is not None
    if "codes" in how:
        table = np.array(how["table"], dtype=f"<u{want.itemsize}").view(want)
        return table[stored]
    if "steps" in how:
        out = np.empty(shape, dtype=want)
        out[:1] = how["first"]
        np.cumsum(stored, dtype=want, out=out[1:])
        out[1:] += out[0]
        return out
    return stored.astype(want)


def write_arrays(folder: Path, arrays: dict[str, np.ndarray], *, like: tuple[Path, ...] = (),
                 prev: Path | None = None) -> dict[str, list[Any]]:
    """Save each array as ``<name>.npy`` in ``folder`` (:func:`encode`d); the manifest
    ``{name: [dtype, shape, crc32 of the bytes stored, how it is encoded]}`` (the last left out for an
    array stored as it is).

    ``like`` are saved state folders that may hold some of the same arrays (the word rows repeat the
    features' word columns): an array stored there with the same bytes is hard-linked, not written again.

    A 1-D array of more than :data:`BLOCK` elements is stored in blocks of :data:`BLOCK` elements
    (``<name>.<k>.npy``, each encoded on its own: ``{"blocks": [[size, crc32, how], ...]}``). ``prev`` is
    the state this one follows (the last generation's): a block whose elements have the bits of the same
    block of the same array there (decoded from its file, its checksum checked) is hard-linked, neither
    encoded nor written again. A refresh that appends a symbol or rewrites one file's rows writes the
    blocks from the first changed element on, not the whole array (:func:`_write_blocks`).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> manifest = write_arrays(d, {"ids": np.arange(3), "w": np.ones(5)})
    >>> _ = (d / "meta.json").write_text("{}")  # the caller writes the manifest into it
    >>> manifest["ids"], open_array(d, "ids", manifest).tolist(), verify(d, manifest)
    (['<i8', [3], 139757951, {'as': '|u1'}], [0, 1, 2], True)
    >>> sorted(p.name for p in d.iterdir()), open_array(d, "w", manifest).tolist()
    (['ids.npy', 'meta.json'], [1.0, 1.0, 1.0, 1.0, 1.0])
    """
    manifest: dict[str, list[Any]] = {}
    others = [_manifest_of(f) for f in like]
    before = _manifest_of(prev) if prev is not None and prev.is_dir() else None
    for name, arr in arrays.items():
        a = np.ascontiguousarray(arr)
        if a.ndim == 1 and a.size > BLOCK and a.dtype.kind in "fiu" and a.dtype.byteorder != ">":
            manifest[name] = _write_blocks(folder, name, a, before, others)
            continue
        stored, how = encode(a)
        crc = _crc(stored) if stored is not None else 0
        manifest[name] = [a.dtype.str, list(a.shape), crc, *([how] if how is not None else [])]
        if stored is None:
            continue
        path = folder / f"{name}.npy"
        if not any(_link_same(other, manifest[name], stored, path) for other in others):
            np.save(path, stored, allow_pickle=False)
    return manifest


BLOCK = 1 << 19  # elements per stored block of a large 1-D array (4 MB of float64)


def _block_file(folder: Path, name: str, k: int) -> Path:
    return folder / f"{name}.{k}.npy"


def _blocks_of(entry: Any, dtype: str) -> list[list[Any]] | None:
    """The block list of a manifest entry of a blocked array of ``dtype``, else None."""
    if not (isinstance(entry, list) and len(entry) > 3 and entry[0] == dtype and isinstance(entry[3], dict)):
        return None
    got = entry[3].get("blocks")
    return got if isinstance(got, list) else None


def _write_blocks(folder: Path, name: str, a: np.ndarray, before: tuple[Path, dict[str, list[Any]]] | None,
                  others: list[tuple[Path, dict[str, list[Any]]]]) -> list[Any]:
    """Store the 1-D array ``a`` as blocks (see :func:`write_arrays`); its manifest entry."""
    old = _blocks_of(before[1].get(name), a.dtype.str) if before is not None else None
    blocks: list[list[Any]] = []
    for k, lo in enumerate(range(0, a.size, BLOCK)):
        part = a[lo:lo + BLOCK]
        path = _block_file(folder, name, k)
        if old is not None and before is not None and k < len(old) and _same_block(before[0], name, k, old[k], part):
            blocks.append(old[k])
            if not (isinstance(old[k][2], dict) and "const" in old[k][2]):
                _link_or_copy(_block_file(before[0], name, k), path)
            continue
        stored, how = encode(part)
        entry = [int(part.size), _crc(stored) if stored is not None else 0, how]
        blocks.append(entry)
        if stored is not None and not any(_link_same_block(other, entry, stored, path) for other in others):
            np.save(path, stored, allow_pickle=False)
    return [a.dtype.str, list(a.shape), 0, {"blocks": blocks}]


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:  # a file system without hard links
        shutil.copy2(src, dst)


def _same_block(folder: Path, name: str, k: int, entry: Any, part: np.ndarray) -> bool:
    """Whether block ``k`` of ``name`` saved in ``folder`` (checked against its ``entry``) holds the bits of ``part``."""
    try:
        got = _open_block(folder, name, k, entry, part.dtype.str)
        return np.array_equal(_bits(decode(got[0], got[1], part.dtype.str, [got[2]])), _bits(part))
    except (OSError, ValueError):
        return False


def _open_block(folder: Path, name: str, k: int, entry: Any, dtype: str) -> tuple[np.ndarray | None, Any, int]:
    """(stored array, how, size) of block ``k`` of ``name``: dtype, shape, checksum and codes checked
    (:class:`DamagedStateError` when they differ)."""
    if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], int)
            and isinstance(entry[2], dict | None)):
        raise DamagedStateError(f"{name}: block {k} entry {entry!r}")
    size, crc, how = entry
    if how is not None and "const" in how:
        return None, how, size
    a = np.load(_block_file(folder, name, k), mmap_mode="c", allow_pickle=False).view(np.ndarray)
    stored_dtype = dtype if how is None else how.get("codes", how.get("as", how.get("steps")))
    shape = [size] if how is None or "steps" not in how else [max(size - 1, 0)]
    if stored_dtype is None or a.dtype != np.dtype(stored_dtype) or list(a.shape) != shape:
        raise DamagedStateError(f"{name}: block {k}: {a.dtype.str}{list(a.shape)}, recorded {stored_dtype}{shape}")
    if _crc(a) != crc:
        raise DamagedStateError(f"{name}: block {k}: checksum")
    table = how.get("table") if how is not None else None
    if table is not None and (not isinstance(table, list) or not table or int(a.max(initial=0)) >= len(table)):
        raise DamagedStateError(f"{name}: block {k}: a code outside its table")
    return a, how, size


def _link_same_block(other: tuple[Path, dict[str, list[Any]]], entry: list[Any], stored: np.ndarray,
                     path: Path) -> bool:
    """Hard-link to ``path`` a block of the state ``other`` that stores the same bytes, True when linked."""
    folder, manifest = other
    for name, got in manifest.items():
        blocks = _blocks_of(got, got[0]) if isinstance(got, list) and got else None
        for k, b in enumerate(blocks or ()):
            if b != entry:
                continue
            if _link_if_same(_block_file(folder, name, k), stored, path):
                return True
    return False


def _manifest_of(folder: Path) -> tuple[Path, dict[str, list[Any]]]:
    try:
        got = json.loads((folder / "meta.json").read_text(encoding="utf-8")).get("arrays")
    except (OSError, ValueError, AttributeError):
        got = None
    return folder, got if isinstance(got, dict) else {}


def _link_same(other: tuple[Path, dict[str, list[Any]]], entry: list[Any], stored: np.ndarray, path: Path) -> bool:
    """Hard-link to ``path`` a file of the state ``other`` that stores the same bytes (same entry, then
    compared), True when linked."""
    folder, manifest = other
    for name, got in manifest.items():
        if got != entry:
            continue
        if _link_if_same(folder / f"{name}.npy", stored, path):
            return True
    return False


def _link_if_same(src: Path, stored: np.ndarray, path: Path) -> bool:
    """Hard-link ``src`` to ``path`` when it holds ``stored`` (the same dtype, shape and elements)."""
    try:
        same = np.load(src, mmap_mode="r", allow_pickle=False)
        if same.dtype == stored.dtype and same.shape == stored.shape and np.array_equal(same, stored):
            os.link(src, path)
            return True
    except (OSError, ValueError):
        pass
    return False


class Deferred:
    """An encoded array checked (dtype, shape, checksum, codes) but decoded only when first asked for.

    A query reads a few of the many saved arrays (a new process's first ``related`` on the Linux kernel's
    index decoded every one of them, about 0.4 CPU s, to read a few rows of some): :meth:`get` decodes
    once and keeps the array. ``dtype`` and ``shape`` are the decoded array's, known without decoding.
    """

    __slots__ = ("_how", "_stored", "_value", "dtype", "shape")

    def __init__(self, stored: Any, how: dict[str, Any], dtype: str, shape: list[int]) -> None:
        self._stored: Any = stored  # an array, or (stored, how, size) per block (decode)
        self._how = how
        self._value: np.ndarray | None = None
        self.dtype = np.dtype(dtype)
        self.shape = tuple(int(x) for x in shape)

    def get(self) -> np.ndarray:
        """The decoded array (:func:`decode`; the same object every call, also from several threads)."""
        got = self._value
        if got is None:
            with _DECODE:
                got = self._value
                if got is None:
                    stored = self._stored
                    assert stored is not None
                    got = self._value = decode(stored, self._how, self.dtype.str, list(self.shape))
                    self._stored = None  # the mapped file is released once decoded
        return got


def resolve(a: np.ndarray | Deferred) -> np.ndarray:
    """``a`` itself, or the array a :class:`Deferred` decodes to."""
    return a.get() if isinstance(a, Deferred) else a


def open_array(folder: Path, name: str, manifest: dict[str, list[Any]], *, lazy: bool = False
               ) -> np.ndarray | Any:
    """The array ``name``: mapped copy-on-write when stored as it is, else decoded (:func:`decode`), after
    checking its dtype and shape against ``manifest`` (and, for an encoded array, its checksum).

    With ``lazy`` an encoded array comes back as a :class:`Deferred` (checked now, decoded when used).
    Raises :class:`DamagedStateError` (a ``ValueError``) when it is not in the manifest or differs.
    """
    want = manifest.get(name)
    if want is None:
        raise DamagedStateError(f"{name}: not in the manifest")
    how = want[3] if len(want) > 3 else None
    if not isinstance(how, dict | None):
        raise DamagedStateError(f"{name}: encoding {how!r}")
    blocks = _blocks_of(want, want[0])
    if blocks is not None:  # every block checked now (verify skips them), decoded into one array when used
        parts = [_open_block(folder, name, k, b, want[0]) for k, b in enumerate(blocks)]
        if sum(p[2] for p in parts) != int(np.prod(want[1])) or len(want[1]) != 1:
            raise DamagedStateError(f"{name}: blocks of {sum(p[2] for p in parts)} elements for {want[1]}")
        d = Deferred(parts, {"blocks": True}, want[0], list(want[1]))
        return d if lazy else d.get()
    if how is not None and "const" in how:
        return decode(None, how, want[0], list(want[1]))
    # a plain view: np.memmap's Python-level indexing costs us per slice
    a = np.load(folder / f"{name}.npy", mmap_mode="c", allow_pickle=False).view(np.ndarray)
    stored_dtype = want[0] if how is None else how.get("codes", how.get("as", how.get("steps")))
    shape = list(want[1]) if how is None or "steps" not in how else [max(int(want[1][0]) - 1, 0)]
    if stored_dtype is None or a.dtype != np.dtype(stored_dtype) or list(a.shape) != shape:
        raise DamagedStateError(f"{name}: {a.dtype.str}{list(a.shape)}, recorded {stored_dtype}{shape}")
    if how is None:
        return a
    if _crc(a) != want[2]:  # read whole to decode anyway: checked now, before any value is used
        raise DamagedStateError(f"{name}: checksum")
    table = how.get("table")
    if table is not None and (not isinstance(table, list) or not table or int(a.max(initial=0)) >= len(table)):
        raise DamagedStateError(f"{name}: a code outside its table")
    if lazy:
        return Deferred(a, how, want[0], list(want[1]))
    return decode(a, how, want[0], list(want[1]))


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
        if want is None:
            return False
        if len(want) <= 3 and _crc(a) != want[2]:  # an encoded array was checked when it was opened
            return False
    with _LOCK:
        _VERIFIED.add(key)
    return True


def discard(folder: Path) -> None:
    """Delete a damaged state folder, so that the state is built and saved again in its place.

    A process still mapping its files keeps them; nothing is raised when the folder cannot be removed.
    """
    shutil.rmtree(folder, ignore_errors=True)
