"""Where a saved graph lives beside the index: one folder of ``.npy`` arrays per index state, published
atomically (:func:`publish_state`, also used for the hybrid ranker's saved features).

:mod:`lore.graphs.build` writes and memory-maps them. This module only names the folders and carries
a saved state forward to the next generation when a refresh provably left the graph as it was (see
:func:`lore.queries.clusters.clusters_step`), without importing numpy or scipy.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

CACHE_FORMAT = 3  # 2: a folder of .npy arrays per state, memory-mapped; 3: arrays stored narrow (encoded)


def cache_path(db_path: Path) -> Path:
    """The folder beside the index that holds saved graphs (one subfolder per index state)."""
    return db_path.with_name(db_path.name + ".graph")


def state_dir(cache: Path, stamp: str) -> Path:
    """The folder of the index state ``stamp`` (``<index_id>:<generation>``) under ``cache``."""
    return cache / stamp.replace(":", "-")


def publish_state(cache: Path, final: Path, fill: Callable[[Path], None]) -> Path:
    """Write the state folder ``final`` under ``cache`` atomically and drop every other state.

    ``fill(tmp)`` writes the files into a temporary folder beside it, which is then renamed to
    ``final`` (a reader never sees half a state; when another process published it first, theirs
    stays). Older states are removed; a reader still mapping one keeps its open files. Raises what
    ``fill`` or the file system raises, leaving no temporary folder behind.
    """
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cache))
    try:
        fill(tmp)
        try:
            os.rename(tmp, final)
        except OSError:  # another process published this state first
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    for other in cache.iterdir():
        if other != final and not other.name.startswith(".tmp-"):
            shutil.rmtree(other, ignore_errors=True)
    return final


def carry_saved(cache: Path, old: str, new: str) -> bool:
    """Save the state ``old`` again as the state ``new`` (hard links to its arrays, a new ``meta.json``)
    and drop the others; ``False`` when ``old`` is not saved (nothing to carry)."""
    src, final = state_dir(cache, old), state_dir(cache, new)
    if final.is_dir():
        return True
    try:
        meta = json.loads((src / "meta.json").read_text())
    except (OSError, ValueError):
        return False
    if meta.get("format") != CACHE_FORMAT or meta.get("stamp") != old:
        return False
    def fill(tmp: Path) -> None:
        for f in src.iterdir():
            if f.name != "meta.json":
                try:
                    os.link(f, tmp / f.name)
                except OSError:  # a file system without hard links: copy
                    shutil.copy2(f, tmp / f.name)
        (tmp / "meta.json").write_text(json.dumps({**meta, "stamp": new}))

    publish_state(cache, final, fill)
    return True


def carry_saved_graph(db_path: str | os.PathLike[str], old: str, new: str) -> bool:
    """:func:`carry_saved` for the index at ``db_path``: its saved graph of state ``old`` serves ``new``."""
    cache = cache_path(Path(db_path))
    return cache.is_dir() and carry_saved(cache, old, new)


# Saved states of derived arrays (lore.graphs._hybrid_cache: the hybrid ranker's features, the fold of a
# definition's copies): named here, numpy-free, so that an up-to-date ``lore index`` can tell whether
# they are saved without loading numpy.
SAVED_FORMAT = 2  # a state folder: meta.json (format, key, class, fields, array manifest) + one .npy per array
# (2: arrays stored narrow, lore.graphs._saved_arrays.encode; equal ones shared with hard links)
FOLD_FORMAT = 1  # what a saved fold holds (lore.graphs._fold.SavedFold)


def saved_dir(db_path: str | os.PathLike[str], suffix: str) -> Path:
    """The folder beside the index file that holds saved states of one kind (``.features``, ``.fold``)."""
    p = Path(db_path)
    return p.with_name(p.name + suffix)


def saved_state_dir(cache: Path, key: str) -> Path:
    """The folder of the state ``key`` under ``cache``."""
    return cache / hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


def has_saved_state(db_path: str | os.PathLike[str], key: str, suffix: str) -> bool:
    """Whether a state for ``key`` is saved (its ``meta.json`` names that key and format; arrays not opened)."""
    try:
        meta = json.loads((saved_state_dir(saved_dir(db_path, suffix), key) / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("key") == key and meta.get("format") == SAVED_FORMAT


def fold_key(stamp: str) -> str:
    """The key the fold of the index state ``stamp`` is saved under."""
    return f"fold|{FOLD_FORMAT}|{stamp}"


def features_key(conn: sqlite3.Connection, stamp: str) -> str:
    """The key the hybrid features of the index state ``stamp`` are saved under, with the history run
    stored now (a history mined later makes another key)."""
    from .history import run_summary

    run = run_summary(conn)
    return f"{stamp}|{run[0] if run else ''}|{run[1] if run else ''}"
