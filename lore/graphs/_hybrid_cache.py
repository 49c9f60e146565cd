"""The hybrid ranker's per-symbol features saved beside the index, so a new process does not rebuild them.

Building :class:`~lore.graphs._features.SymbolFeatures` reads every symbol's name, signature and
docstring and tokenizes them: about 1 s on Django (45k symbols), most of a cold ``lore graph related
-a hybrid`` call. The result depends only on the index state, so it is saved once as plain ``.npy``
arrays in ``<index>.features/<state>/`` (like the graph cache of :mod:`lore.graphs.build`) and mapped
back copy-on-write by later processes in a few milliseconds.

Never served stale: a saved state is found by the key :func:`lore.graphs._features.load_features`
computes (the index's stamp -- its random identity and generation -- and the history run), and its
``meta.json`` must repeat that key, the format and the current field names of ``SymbolFeatures``
(a field added to the class makes every older save unreadable, so it is rebuilt). Saving writes a
temporary folder and renames it (a reader never sees half a state) and drops older states. Errors
never reach the caller: an unreadable or unwritable cache only means building in memory. A state saved
after a refresh links the blocks of large arrays that the last state already holds with the same bits. Each array's
dtype, shape and checksum are recorded when it is written and checked before it is used
(:mod:`lore.graphs._saved_arrays`): a damaged state is deleted and built again, never served.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..algorithms._csr import is_sparse
from ..store.graph_files import SAVED_FORMAT, has_saved_state, publish_state, saved_dir, saved_state_dir
from ._lazy_csr import LazyCsr
from ._saved_arrays import discard, open_array, verify, write_arrays

FORMAT = SAVED_FORMAT
_SPARSE = ("data", "indices", "indptr")


FEATURES = ".features"  # the hybrid ranker's features; the fold of copies (lore.graphs._fold) saves under ".fold"


def cache_dir(db_path: str | os.PathLike[str], suffix: str = FEATURES) -> Path:
    """The folder beside the index file that holds saved states of one kind (one subfolder per state)."""
    return saved_dir(db_path, suffix)


def _state_dir(cache: Path, key: str) -> Path:
    return saved_state_dir(cache, key)


def has_state(db_path: str | os.PathLike[str], key: str, *, suffix: str = FEATURES) -> bool:
    """Whether a state for ``key`` is saved (its ``meta.json`` names that key; arrays not opened, not checked)."""
    return has_saved_state(db_path, key, suffix)


def _field_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


def _encode(value: Any) -> tuple[dict, dict[str, np.ndarray]] | None:
    """(description for meta.json, arrays to save) of one field, or None for a type this cache cannot hold."""
    if value is None or isinstance(value, str | int | float | bool):
        return {"type": "json", "value": value}, {}
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return None
        return {"type": "array"}, {"": value}
    if is_sparse(value) and value.format in ("csr", "csc"):
        # whether each row's indices ascend, checked once here (O(nnz)): the checksums make it hold for the
        # arrays read back, so a reader need not check again (0.7 s per process on the Linux kernel)
        # (scipy keeps the flag of a matrix it sorted: no second pass over the indices then)
        return ({"type": "sparse", "format": value.format, "shape": list(value.shape),
                 "sorted": bool(value.has_sorted_indices)}, {k: getattr(value, k) for k in _SPARSE})
    if isinstance(value, list) and all(type(x) is str for x in value):
        return {"type": "json", "value": value}, {}  # strings come back from JSON as they went in
    if isinstance(value, list | dict):
        try:
            same = json.loads(json.dumps(value)) == value  # int keys or tuples would come back changed
        except (TypeError, ValueError):
            return None
        return ({"type": "json", "value": value}, {}) if same else None
    return None


def save_state(db_path: str | os.PathLike[str], key: str, feats: Any, *, suffix: str = FEATURES,
               like: tuple[str, ...] = ()) -> Path | None:
    """Save ``feats`` (a ``SymbolFeatures``) for the state ``key``; the folder written, or None if it could not be.

    Older states are removed. Never raises for I/O: a read-only directory means no cache. ``like`` are
    the suffixes of other kinds saved for the same ``key`` whose arrays this state may repeat (the word
    rows repeat the features' word columns): those are hard links to theirs, stored once.
    """
    cache = cache_dir(db_path, suffix)
    shared = tuple(_state_dir(cache_dir(db_path, s), key) for s in like)
    final = _state_dir(cache, key)
    fields: dict[str, dict] = {}
    arrays: dict[str, np.ndarray] = {}
    for name in _field_names(type(feats)):
        enc = _encode(getattr(feats, name))
        if enc is None:
            return None  # a field this format cannot hold: serve from memory only
        desc, arrs = enc
        fields[name] = desc
        for part, arr in arrs.items():
            arrays[f"{name}.{part}" if part else name] = arr

    prev = _last_state(cache, final)

    def fill(tmp: Path) -> None:
        manifest = write_arrays(tmp, arrays, like=tuple(d for d in shared if d.is_dir()), prev=prev)
        (tmp / "meta.json").write_text(json.dumps({"format": FORMAT, "key": key, "class": type(feats).__name__,
                                                   "fields": fields, "arrays": manifest}), encoding="utf-8")

    try:
        publish_state(cache, final, fill)
    except OSError:
        return None
    return final


def _last_state(cache: Path, final: Path) -> Path | None:
    """The state saved last under ``cache`` besides ``final`` (the one a new state follows, about to be
    dropped): its blocks that hold the same bits are linked instead of written again
    (:func:`lore.graphs._saved_arrays.write_arrays`)."""
    try:
        got = [(p.stat().st_mtime_ns, p.name, p) for p in cache.iterdir()
               if p.is_dir() and p != final and not p.name.startswith(".")]
    except OSError:
        return None
    return max(got)[2] if got else None


def load(db_path: str | os.PathLike[str], key: str, cls: type, *, suffix: str = FEATURES) -> Any | None:
    """The ``cls`` instance saved for the state ``key`` (arrays memory-mapped copy-on-write), else None.

    Sparse fields come back as :class:`~lore.algorithms._csr.Csr` arrays (no scipy import; the
    ranker only reads their arrays; ``.to_scipy()`` gives the scipy matrix)."""
    folder = _state_dir(cache_dir(db_path, suffix), key)
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        fields = meta.get("fields", {})
        manifest = meta.get("arrays")
        if (meta.get("format") != FORMAT or meta.get("key") != key or meta.get("class") != cls.__name__
                or list(fields) != _field_names(cls) or not isinstance(manifest, dict)):
            return None
    except (OSError, ValueError, AttributeError):
        return None
    mapped: dict[str, np.ndarray] = {}
    try:
        got = _load_fields(folder, fields, manifest, cls, mapped)
    except (OSError, KeyError, ValueError, TypeError):
        got = None
    if got is None or not verify(folder, manifest, mapped):
        discard(folder)  # damaged: the caller builds the state again and saves a good one here
        return None
    return got


def _load_fields(folder: Path, fields: dict, manifest: dict, cls: type, mapped: dict[str, np.ndarray]
                 ) -> Any | None:
    """The ``cls`` instance of the saved fields (arrays checked against ``manifest``, each kept in ``mapped``
    by name), None if malformed."""
    def arr(name: str) -> np.ndarray:
        a = mapped[name] = open_array(folder, name, manifest)
        return a

    def part(name: str) -> Any:
        a = mapped[name] = open_array(folder, name, manifest, lazy=True)
        return a

    values: dict[str, Any] = {}
    for name, desc in fields.items():
        kind = desc["type"]
        if kind == "json":
            values[name] = desc["value"]
        elif kind == "array":
            values[name] = arr(name)
        elif kind == "sparse":  # checked now, each array decoded when first read (LazyCsr)
            data, indices, indptr = (part(f"{name}.{p}") for p in _SPARSE)
            fmt, shape = desc["format"], tuple(desc["shape"])
            if fmt not in ("csr", "csc") or indptr.shape != (shape[0 if fmt == "csr" else 1] + 1,):
                return None
            got = desc.get("sorted")
            values[name] = LazyCsr(data, indices, indptr, shape, format=fmt,
                                   sorted_indices=got if isinstance(got, bool) else None)
        else:
            return None
    return cls(**values)


def saved(db_path: str | os.PathLike[str], cls: type, *, suffix: str = FEATURES) -> list[Any]:
    """Every readable ``cls`` state saved beside ``db_path`` whatever its key (usually one: saving drops
    the older ones), in folder-name order."""
    out: list[Any] = []
    try:
        folders = sorted(p for p in cache_dir(db_path, suffix).iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return out
    for folder in folders:
        try:
            key = json.loads((folder / "meta.json").read_text(encoding="utf-8")).get("key")
        except (OSError, ValueError):
            continue
        if isinstance(key, str) and _state_dir(cache_dir(db_path, suffix), key) == folder:
            got = load(db_path, key, cls, suffix=suffix)
            if got is not None:
                out.append(got)
    return out


def cached(conn, stamp: str, db_path: str | os.PathLike[str] | None, key: str, build, *, cls: type,
           save: bool = True, suffix: str = FEATURES) -> Any:
    """The features of state ``key``: from disk beside ``db_path``, else ``build()`` (then saved when ``save``).

    Without ``db_path`` or ``stamp`` (a graph not read from an index) nothing touches the disk. A
    build is saved only if the index is still at ``stamp`` (the state the graph was read at), so a
    writer committing meanwhile never gets a mixed state kept.
    """
    if db_path is None or not stamp:
        return build()
    got = load(db_path, key, cls, suffix=suffix)
    if got is not None:
        return got
    feats = build()
    if save:
        from ..store import db as store_db

        if store_db.index_stamp(conn) == stamp:
            save_state(db_path, key, feats, suffix=suffix)
    return feats
