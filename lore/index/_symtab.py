"""The resolver's symbol tables: every symbol by id, by qualified name, by name and by parent.

A full index resolves every file, so its world holds every symbol row (:func:`eager_tables`). A
refresh resolves a few files, whose lookups read a tiny part of those tables, yet building them whole
was most of a one-file refresh of a large repository (the Linux kernel: 1.1M rows read and indexed
to re-resolve one ``.c``). :func:`lazy_tables` answers the same lookups from the store's indexes
on demand (``symbols``' primary key, ``symbols_qname``, ``symbols_name``, ``symbols_parent``), one
key at a time, each answer kept: the same rows in the same order as the eager tables hold, so a
refresh resolves exactly as a fresh index does.

The lazy tables are dicts that fill on first read of a key. Whatever iterates one of them (a rule that
scans every symbol) first loads the whole table (:meth:`_Lazy.complete`), in id order, so it sees what
the eager table holds; rules that look for symbols of a few kinds ask :meth:`SymbolSource.of_kinds`
instead. A world whose tables are lazy is made eager (:func:`make_eager`) before it is forked or
shipped to other processes: those must not share the refresh's SQLite connection.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from numbers import Integral
from sys import intern
from typing import Any

from ..store import read

CALLABLE_KINDS = frozenset({"function", "method", "class", "struct", "interface", "trait", "enum"})
_MISS = object()


@dataclass(slots=True)
class SymRow:
    id: int
    file_id: int | None
    name: str
    qualified_name: str
    kind: str
    parent_id: int | None


@dataclass(slots=True)
class FileRow:
    id: int
    path: str
    language: str
    module: str
    module_id: int
    is_package: bool


def _names_to_ids() -> defaultdict[str, list[int]]:
    """The default of ``World.children`` (a module-level function, so a world pickles)."""
    return defaultdict(list)


Tables = tuple[dict[int, SymRow], dict[str, tuple[int, ...]], dict[int, dict[str, list[int]]],
               dict[str, list[int]], dict[str, int]]


def eager_tables(symbols: Iterable[SymRow], stubs: set[int]) -> Tables:
    """``(syms, by_qname, children, by_name, externals)`` over every symbol row (in id order).

    ``by_name`` holds what can be called, outside stub files (``.pyi`` beside their module), one id per
    qualified name (the last definition: ``@overload`` signatures before their implementation);
    ``by_qname`` and ``children`` leave external symbols out, which ``externals`` holds by qualified name.
    """
    syms: dict[int, SymRow] = {}
    # a qualified name has one symbol but for overloads and redefinitions: a tuple of one is half a
    # list of one (the kernel has 1.1M of them); read only once built
    by_qname: dict[str, tuple[int, ...]] = {}
    children: dict[int, dict[str, list[int]]] = defaultdict(_names_to_ids)
    by_name: dict[str, list[int]] = defaultdict(list)
    externals: dict[str, int] = {}
    for s in symbols:
        syms[s.id] = s
        if s.file_id is None:
            externals[s.qualified_name] = s.id
            continue
        same = by_qname.get(s.qualified_name)
        by_qname[s.qualified_name] = (s.id,) if same is None else (*same, s.id)
        if s.parent_id is not None:
            children[s.parent_id][s.name].append(s.id)
        if s.kind in CALLABLE_KINDS and s.file_id not in stubs:
            by_name[s.name].append(s.id)
    # one name, one definition: of several definitions with one qualified name (``@overload``
    # signatures before their implementation, a redefinition) the last one is what runs
    for name, ids in by_name.items():
        if len(ids) > 1:
            last = _one_per_qname(ids, syms)
            if last is not None:
                by_name[name] = last
    return syms, by_qname, children, by_name, externals


def _one_per_qname(ids: list[int], syms: dict[int, SymRow]) -> list[int] | None:
    """The last id of each qualified name among ``ids`` (sorted), or ``None`` when they all differ."""
    last = {syms[i].qualified_name: i for i in sorted(ids)}
    return sorted(last.values()) if len(last) < len(ids) else None


class SymbolSource:
    """The store's symbol rows, read by key through one connection (the refresh's own, which sees the
    rows of this run's changed files before they are committed)."""

    def __init__(self, conn: sqlite3.Connection, stubs: set[int]) -> None:
        self.conn = conn
        self.stubs = stubs
        self.syms: LazySyms | None = None  # the table rows read by any key are kept in

    def rows(self, by: str, key: Any) -> list[SymRow]:
        out = []
        syms = self.syms
        for sid, fid, name, qname, kind, parent in read.world_rows(self.conn, by, key):
            got = syms.known(sid) if syms is not None else None
            if got is None:
                got = SymRow(sid, fid, intern(name), qname, intern(kind), parent)
                if syms is not None:
                    syms.keep(got)
            out.append(got)
        return out

    def of_kinds(self, kinds: Iterable[str]) -> list[SymRow]:
        """The symbols of these kinds (external ones included), in id order."""
        return self.rows("kinds", tuple(sorted(kinds)))


class _Lazy(dict):
    """A dict filled key by key from a :class:`SymbolSource` (``_load(key)``: the value, or ``_MISS``
    when the eager table has no entry); iterating it, or asking its size, loads it whole first."""

    def __init__(self, source: SymbolSource) -> None:
        super().__init__()
        self._source: SymbolSource | None = source
        self._absent: set = set()

    def _load(self, key: Any) -> Any:
        raise NotImplementedError

    def _all(self, tables: Tables) -> dict:
        raise NotImplementedError

    def _fetch(self, key: Any) -> Any:
        if self._source is None or key in self._absent:
            return _MISS
        try:
            got = self._load(key)
        except (sqlite3.InterfaceError, OverflowError, TypeError):  # not a key SQLite can compare: none has it
            got = _MISS
        if got is _MISS:
            self._absent.add(key)
        else:
            dict.__setitem__(self, key, got)
        return got

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        got = self._fetch(key)
        return default if got is _MISS else got

    def __contains__(self, key: Any) -> bool:
        return dict.__contains__(self, key) or self._fetch(key) is not _MISS

    def __missing__(self, key: Any) -> Any:
        got = self._fetch(key)
        if got is _MISS:
            return self._default(key)
        return got

    def _default(self, key: Any) -> Any:
        raise KeyError(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._absent.add(key)  # what was taken out is not read back from the store
        return dict.pop(self, key, *default)

    def complete(self, tables: Tables | None = None) -> None:
        """Load every entry (id order, as the eager table has them); no key is read from the store after."""
        if self._source is None:
            return
        if tables is None:
            tables = eager_tables(_every_row(self._source), self._source.stubs)
        kept = dict(dict.items(self))
        self.clear()
        dict.update(self, self._all(tables))
        dict.update(self, {k: v for k, v in kept.items() if not dict.__contains__(self, k)})
        self._source, self._absent = None, set()

    def __iter__(self) -> Iterator:
        self.complete()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.complete()
        return dict.__len__(self)

    def keys(self):  # type: ignore[override]
        self.complete()
        return dict.keys(self)

    def values(self):  # type: ignore[override]
        self.complete()
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self.complete()
        return dict.items(self)

    def __reduce__(self):  # a pickled table is the whole table, a plain dict
        self.complete()
        return (dict, (dict(dict.items(self)),))


def _every_row(source: SymbolSource) -> Iterator[SymRow]:
    fids: dict[int, int] = {}
    for sid, fid, name, qname, kind, parent in read.symbol_rows_for_world(source.conn):
        yield SymRow(sid, fid if fid is None else fids.setdefault(fid, fid), intern(name), qname, intern(kind), parent)


class LazySyms(_Lazy):
    """id -> :class:`SymRow`."""

    def known(self, sid: int) -> SymRow | None:
        return dict.get(self, sid)

    def keep(self, row: SymRow) -> None:
        dict.__setitem__(self, row.id, row)

    def _load(self, key: Any) -> Any:
        if not isinstance(key, Integral):
            return _MISS
        rows = self._source.rows("id", int(key))  # type: ignore[union-attr]
        return rows[0] if rows else _MISS

    def _all(self, tables: Tables) -> dict:
        return tables[0]


class LazyQnames(_Lazy):
    """qualified name -> ids of the symbols of the repository's files (not externals) so named."""

    def _load(self, key: Any) -> Any:
        ids = tuple(s.id for s in self._source.rows("qname", key) if s.file_id is not None)  # type: ignore[union-attr]
        return ids or _MISS

    def _all(self, tables: Tables) -> dict:
        return tables[1]


class LazyChildren(_Lazy):
    """parent id -> {name: ids} of the symbols it contains (a missing parent reads as none, and stays)."""

    def _load(self, key: Any) -> Any:
        out: defaultdict[str, list[int]] = _names_to_ids()
        for s in self._source.rows("parent", key):  # type: ignore[union-attr]
            if s.file_id is not None:
                out[s.name].append(s.id)
        return out or _MISS

    def _default(self, key: Any) -> Any:
        got = _names_to_ids()
        dict.__setitem__(self, key, got)
        return got

    def _all(self, tables: Tables) -> dict:
        return tables[2]


class LazyByName(_Lazy):
    """name -> the callable symbols so named (one per qualified name), outside stub files."""

    def _load(self, key: Any) -> Any:
        source = self._source
        rows = [s for s in source.rows("name", key)  # type: ignore[union-attr]
                if s.file_id is not None and s.kind in CALLABLE_KINDS and s.file_id not in source.stubs]  # type: ignore[union-attr]
        if not rows:
            return _MISS
        ids = [s.id for s in rows]
        if len(ids) > 1:
            ids = _one_per_qname(ids, {s.id: s for s in rows}) or ids
        return ids

    def _default(self, key: Any) -> Any:
        dict.__setitem__(self, key, [])
        return dict.__getitem__(self, key)

    def _all(self, tables: Tables) -> dict:
        return tables[3]


class LazyExternals(_Lazy):
    """qualified name -> the external symbol of that name (the last one)."""

    def _load(self, key: Any) -> Any:
        ids = [s.id for s in self._source.rows("qname", key) if s.file_id is None]  # type: ignore[union-attr]
        return ids[-1] if ids else _MISS

    def _all(self, tables: Tables) -> dict:
        return tables[4]


def lazy_tables(conn: sqlite3.Connection, stubs: set[int]) -> tuple[SymbolSource, Tables]:
    """The tables of :func:`eager_tables`, read from the store key by key (see the module's docstring)."""
    source = SymbolSource(conn, stubs)
    syms = LazySyms(source)
    source.syms = syms
    return source, (syms, LazyQnames(source), LazyChildren(source), LazyByName(source), LazyExternals(source))


def make_eager(tables: Tables, source: SymbolSource) -> None:
    """Load lazy ``tables`` whole from one read of every row (before a fork or a pickle)."""
    full = eager_tables(_every_row(source), source.stubs)
    for table in tables:
        if isinstance(table, _Lazy):
            table.complete(full)
