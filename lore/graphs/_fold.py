"""One row per definition a user means: the copies of a definition fold into the one that stands for them.

A definition can be indexed more than once under one name (:mod:`lore.store._fold`): a ``.pyi`` stub
beside its ``.py``; ``@overload`` signatures before the implementation; a C/C++ header prototype
beside the definition in the source file of the same module; a TypeScript ``x.d.ts`` beside
``x.ts``. (TypeScript overload signatures never become symbols: the parser keeps the implementation.)
A user asking "what is like this?" means the implementation, once. So:

* copies share a **key**: the qualified name (a ``.d.ts`` module ``x.d`` read as ``x``);
* copies of one key fold together when they are in one implementation file, or in declaration files
  (``.pyi``, ``.h`` / ``.hh`` / ``.hpp`` / ``.hxx``, ``.d.ts``) beside at most one implementation file;
  two implementation files defining one key (two scripts both called ``main``) stay apart, each file
  folding its own copies;
* the copy that stands for the others (the **canonical** row) is the first of: not a declaration (in
  a stub or ``.d.ts``; a function or method in a C/C++ header; but a class in a header is the
  definition, and its copy in the source file, named by ``Shape::area``, the declaration), not
  ``@overload``-decorated, lowest line, lowest id. With no implementation indexed (a stub of a
  compiled module), the stub stands for it.

:class:`Fold` holds that map as arrays over a graph's rows, computed once per index state (keyed by
the graph's stamp) from two reads. Every related list applies it in one place,
:func:`lore.graphs.related.excluded_mask`: the copies that are not canonical may never be returned,
nor the seed's own copies, so each definition is one row, the implementation's, scored as the
implementation. The rows then carry the other copies' places (:meth:`Fold.annotate`: ``also_at``).
"""

from __future__ import annotations

import bisect
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..store import _fold as store_fold
from ..store.graph_files import fold_key
from . import _hybrid_cache
from .build import CodeGraph

DECLARATION_SUFFIXES = (".pyi", ".h", ".hh", ".hpp", ".hxx", ".d.ts")


def is_declaration_file(path: str) -> bool:
    """A file that declares what another file implements (a stub, a header, a TypeScript declaration file).

    Examples
    --------
    >>> [is_declaration_file(p) for p in ("pkg/mod.pyi", "pkg/mod.py", "inc/list.h", "web/api.d.ts", "web/api.ts")]
    [True, False, True, True, False]
    """
    return path.endswith(DECLARATION_SUFFIXES)


_C_HEADERS = (".h", ".hh", ".hpp", ".hxx")
_C_SOURCES = (".c", ".cc", ".cpp", ".cxx")
_CALLABLE = ("function", "method")


def _declares(path: str, kind: str) -> bool:
    """Whether this copy only declares what another copy defines: anything in a stub or a ``.d.ts``; a
    function or method in a C/C++ header. A header's class or struct *is* the definition; the source
    file's copy of it is only named by its methods' bodies (``int Shape::area() {...}``).

    Examples
    --------
    >>> _declares("pkg/mod.pyi", "class"), _declares("src/shape.hpp", "method"), _declares("src/shape.hpp", "class")
    (True, True, False)
    >>> _declares("src/shape.cpp", "class"), _declares("src/shape.cpp", "method")
    (True, False)
    """
    if path.endswith(_C_HEADERS):
        return kind in _CALLABLE
    if path.endswith(_C_SOURCES):
        return kind not in _CALLABLE and kind != "module"
    return is_declaration_file(path)


@dataclass
class Fold:
    """Which row stands for which (see the module docstring).

    ``canon[r]`` is the row that stands for row ``r`` (``r`` itself for nearly every row); ``copies``
    the rows that are not their own canonical row, ascending; ``also_at`` maps a canonical symbol id to
    the ``path:line`` of each of its other copies, in id order.
    """

    canon: np.ndarray
    copies: np.ndarray
    also_at: dict[int, list[str]] | SortedLookup = field(default_factory=dict)
    canonical_id: dict[int, int] | SortedLookup = field(default_factory=dict)  # copy symbol id -> canonical id

    def canonical_rows(self, rows: np.ndarray) -> np.ndarray:
        """Each row's canonical row, first occurrences kept in order (two copies of one seed make one seed)."""
        got = self.canon[np.asarray(rows, dtype=np.int64)]
        _, first = np.unique(got, return_index=True)
        return got[np.sort(first)]

    def canonical_ids(self, ids: list[int]) -> list[int]:
        """Each symbol id's canonical id, first occurrences kept in order."""
        return list(dict.fromkeys(self.canonical_id.get(int(s), int(s)) for s in ids))

    def exclude(self, mask: np.ndarray, seeds: np.ndarray) -> None:
        """Mark in ``mask`` the rows a related list may never return: every copy that is not canonical,
        and the canonical row of each seed (so a seed given as its stub still never lists itself)."""
        mask[self.copies] = True
        if len(seeds):
            mask[self.canon[np.asarray(seeds, dtype=np.int64)]] = True

    def annotate(self, rows: list[dict]) -> list[dict]:
        """Give every result row that has copies their places (``also_at``); returns ``rows``."""
        for d in rows:
            got = self.also_at.get(d.get("id"))  # type: ignore[arg-type]
            if got:
                d["also_at"] = list(got)
        return rows


def fold_groups(same_key: list[tuple], overloads: list[tuple[int, int]]) -> tuple[dict[int, int], dict[int, list[str]]]:
    """(copy id -> canonical id, canonical id -> ``path:line`` of its other copies) from
    :func:`lore.store._fold.same_key_symbols` and :func:`lore.store._fold.overload_decorators` rows.

    Examples
    --------
    >>> rows = [(8, 7, "function", 4, 5, "pkg/mod.py", "pkg.mod.parse"), (10, 7, "function", 8, 9, "pkg/mod.py",
    ...          "pkg.mod.parse"), (13, 12, "function", 1, 1, "pkg/mod.pyi", "pkg.mod.parse")]
    >>> fold_groups(rows, [(7, 4)])
    ({8: 10, 13: 10}, {10: ['pkg/mod.py:4', 'pkg/mod.pyi:1']})
    """
    marks: dict[int, list[int]] = defaultdict(list)  # enclosing scope -> @overload lines, ascending
    for scope, line in overloads:
        marks[scope].append(line)

    def overloaded(parent: int | None, start: int, end: int) -> bool:
        lines = marks.get(parent) if parent is not None else None
        if not lines:
            return False
        i = bisect.bisect_left(lines, start)  # a decorator line inside the definition's span marks it
        return i < len(lines) and lines[i] <= end

    also_at: dict[int, list[str]] = {}
    canonical_id: dict[int, int] = {}
    groups: dict[str, list[tuple]] = defaultdict(list)
    for row in same_key:
        groups[row[6]].append(row)
    for members in groups.values():
        by_file: dict[str, list[tuple]] = defaultdict(list)
        for m in members:
            by_file[m[5]].append(m)
        implementations = [p for p in by_file if not is_declaration_file(p)]
        if len(implementations) > 1 or (not implementations and len(by_file) > 1):
            bundles = list(by_file.values())  # ambiguous: each file folds its own copies only
        else:
            bundles = [members]
        for bundle in bundles:
            if len(bundle) < 2:
                continue
            # the last definition of a file stands for its copies: it is the one that runs, and the one the
            # resolver binds and name lookup answers
            head = min(bundle, key=lambda m: (_declares(m[5], m[2]), overloaded(m[1], m[3], m[4]), -m[3], -m[0]))[0]
            others = sorted(m for m in bundle if m[0] != head)
            for m in others:
                canonical_id[m[0]] = head
            also_at[head] = [f"{m[5]}:{m[3]}" for m in others]
    return canonical_id, also_at


def build_fold(g: CodeGraph, same_key: list[tuple], overloads: list[tuple[int, int]]) -> Fold:
    """The :class:`Fold` of ``g``'s rows (:func:`fold_groups`; symbols that are not rows of ``g`` left out)."""
    canonical_id, also_at = fold_groups([r for r in same_key if g.nodes.has(r[0])], overloads)
    canon, copies_rows = _canon(g, canonical_id)
    return Fold(canon=canon, copies=copies_rows, also_at=also_at, canonical_id=canonical_id)


def _canon(g: CodeGraph, canonical_id: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's canonical row (its own when it is no copy) and the rows that are copies."""
    canon = np.arange(g.n, dtype=np.int64)
    if canonical_id:
        copies = np.fromiter(canonical_id, dtype=np.int64, count=len(canonical_id))
        heads = np.fromiter(canonical_id.values(), dtype=np.int64, count=len(canonical_id))
        canon[g.nodes.rows(copies)] = g.nodes.rows(heads)
    return canon, np.flatnonzero(canon != np.arange(g.n))


PATCH_FILES = 2_000  # a refresh that rewrote the edges of more files than this builds the fold whole


def _patched(conn, g: CodeGraph, db_path) -> Fold | None:
    """The fold of ``g`` from the last generation's saved fold, the copies regrouped only for the keys a
    refresh can have moved: the keys of the symbols of the files whose edges it rewrote
    (:mod:`lore.store.graph_delta`, a superset of the files it re-parsed), and the keys of the last fold's
    groups that lost a member (a symbol gone, or in one of those files). Every other group keeps its
    members, their places and its canonical copy, as a build from every symbol would. ``None`` when there
    is nothing to start from (then the fold is built whole)."""
    from ..store import graph_delta

    ident, _, gen = g.stamp.rpartition(":")
    try:
        generation = int(gen)
    except ValueError:
        return None
    files = graph_delta.load(conn, generation)
    if files is None or len(files) > PATCH_FILES:
        return None
    prev = _hybrid_cache.load(db_path, fold_key(f"{ident}:{generation - 1}"), SavedFold, suffix=".fold")
    if prev is None:
        return None
    touched = set(graph_delta.symbols_of_files(conn, files))
    copies_old, heads_old = np.asarray(prev.copy_ids, dtype=np.int64), np.asarray(prev.head_ids, dtype=np.int64)
    # a group of the last fold may have moved when a member is gone or in a file the refresh rewrote
    touched_arr = np.fromiter(touched, dtype=np.int64, count=len(touched))
    bad = np.zeros(len(copies_old), dtype=bool)
    for ids in (copies_old, heads_old):
        bad |= ~g.nodes.known(g.nodes.rows(ids), ids) | np.isin(ids, touched_arr)
    redo_arr = np.unique(heads_old[bad])  # the heads of those groups
    in_redo = np.isin(heads_old, redo_arr)
    group_ids = np.concatenate([redo_arr, copies_old[in_redo]])
    dirty = {int(m) for m in group_ids[g.nodes.known(g.nodes.rows(group_ids), group_ids)]}
    keys = store_fold.keys_of(conn, sorted(touched | dirty))
    rows = store_fold.same_key_symbols_of(conn, keys)
    scopes = sorted({r[1] for r in rows if r[1] is not None})
    canonical_id, also_at = fold_groups([r for r in rows if g.nodes.has(r[0])],
                                        store_fold.overload_decorators_in(conn, scopes))
    regrouped = np.fromiter(touched | dirty | {r[0] for r in rows}, dtype=np.int64)
    keep = ~in_redo & ~np.isin(copies_old, regrouped) & ~np.isin(heads_old, regrouped)
    canonical_id.update(zip(copies_old[keep].tolist(), heads_old[keep].tolist(), strict=True))
    also_heads = np.asarray(prev.also_heads, dtype=np.int64)
    kept_heads = np.flatnonzero(~np.isin(also_heads, redo_arr) & ~np.isin(also_heads, regrouped))
    text, bounds = bytes(np.asarray(prev.also_text)), np.asarray(prev.also_bounds).tolist()
    for i in kept_heads.tolist():
        also_at[int(also_heads[i])] = text[bounds[i]:bounds[i + 1]].decode("utf-8").split("\0")
    canon, copies_rows = _canon(g, canonical_id)
    return Fold(canon=canon, copies=copies_rows, also_at=dict(sorted(also_at.items())),
                canonical_id=dict(sorted(canonical_id.items())))


class SortedLookup:
    """A read-only ``{int: value}`` over sorted key arrays (what a saved fold maps back), with ``dict.get``'s
    signature: a lookup is a binary search, so a process that maps a saved fold never builds the dict.

    >>> m = SortedLookup(np.array([3, 8]), lambda i: ["a", "b"][i])
    >>> m.get(8), m.get(5, -1), len(m)
    ('b', -1, 2)
    """

    def __init__(self, keys: np.ndarray, value) -> None:
        self._keys = keys
        self._value = value

    def get(self, key: Any, default: Any = None) -> Any:
        if key is None or not len(self._keys):
            return default
        i = int(np.searchsorted(self._keys, key))
        if i < len(self._keys) and int(self._keys[i]) == key:
            return self._value(i)
        return default

    def __len__(self) -> int:
        return len(self._keys)


@dataclass
class SavedFold:
    """A :class:`Fold` as plain arrays, saved beside the index (``<index>.fold/``, :mod:`lore.graphs._hybrid_cache`).

    ``copy_ids``/``head_ids``: each copy's id (ascending) and its canonical id; ``also_heads`` (ascending)
    the canonical ids with copies, whose places are ``also_text[also_bounds[i]:also_bounds[i + 1]]``
    (UTF-8, NUL between places: a path never holds a NUL).
    """

    canon: np.ndarray
    copies: np.ndarray
    copy_ids: np.ndarray
    head_ids: np.ndarray
    also_heads: np.ndarray
    also_bounds: np.ndarray
    also_text: np.ndarray


def saved_fold(fold: Fold) -> SavedFold:
    """``fold`` as arrays (its ``canonical_id`` and ``also_at`` must be dicts: a freshly built fold)."""
    canonical_id, also_at = fold.canonical_id, fold.also_at
    if not isinstance(canonical_id, dict) or not isinstance(also_at, dict):
        raise TypeError("this fold was mapped back from a saved one: it is saved already")
    copy_ids = np.array(sorted(canonical_id), dtype=np.int64)
    heads = np.array([canonical_id[int(c)] for c in copy_ids], dtype=np.int64)
    also_heads = np.array(sorted(also_at), dtype=np.int64)
    chunks = ["\0".join(also_at[int(h)]).encode("utf-8") for h in also_heads]
    bounds = np.zeros(len(chunks) + 1, dtype=np.int64)
    if chunks:
        np.cumsum([len(c) for c in chunks], out=bounds[1:])
    text = np.frombuffer(b"".join(chunks), dtype=np.uint8)
    return SavedFold(canon=np.asarray(fold.canon, dtype=np.int64), copies=np.asarray(fold.copies, dtype=np.int64),
                     copy_ids=copy_ids, head_ids=heads, also_heads=also_heads, also_bounds=bounds, also_text=text)


def from_saved(saved: SavedFold) -> Fold:
    """The :class:`Fold` of ``saved`` (lookups by binary search over its arrays, places decoded when asked)."""
    heads, bounds, text = saved.head_ids, saved.also_bounds, saved.also_text

    def places(i: int) -> list[str]:
        return bytes(text[int(bounds[i]):int(bounds[i + 1])]).decode("utf-8").split("\0")

    return Fold(canon=saved.canon, copies=saved.copies, also_at=SortedLookup(saved.also_heads, places),
                canonical_id=SortedLookup(saved.copy_ids, lambda i: int(heads[i])))


_CACHE: dict[str, Fold] = {}
_LOCK = threading.Lock()


def fold_for(conn, g: CodeGraph, *, db_path=None, save: bool = True) -> Fold:
    """:func:`build_fold` of ``g`` from the store, cached in memory per index state (the graph's stamp).

    With ``db_path`` (the index file) it is also kept on disk beside it (``<index>.fold/``, keyed by the
    stamp, written only when ``save``): ``lore index`` saves it (:mod:`lore.queries._precompute`), so a
    new process maps it instead of reading every symbol that shares a name (seconds on the Linux kernel).
    """
    key = g.stamp or f"graph-{id(g)}"
    with _LOCK:
        got = _CACHE.get(key)
    if got is not None and got.canon.size == g.n:
        return got

    def build() -> Fold:
        patched = _patched(conn, g, db_path) if db_path is not None and g.stamp else None
        if patched is not None:
            return patched
        return build_fold(g, store_fold.same_key_symbols(conn), store_fold.overload_decorators(conn))

    if db_path is not None and g.stamp:
        kept = _hybrid_cache.cached(conn, g.stamp, db_path, fold_key(g.stamp),
                                    lambda: saved_fold(build()), cls=SavedFold, save=save, suffix=".fold")
        got = from_saved(kept) if kept.canon.size == g.n else build()
    else:
        got = build()
    with _LOCK:
        if len(_CACHE) > 4:
            _CACHE.clear()
        _CACHE[key] = got
    return got
