"""The text of the two search tables, stored once and compressed, one row per file.

``symbols_fts`` and ``files_fts`` are contentless FTS5 tables (``content=''``): they hold the inverted
index and the column sizes BM25 needs, not the text. Storing the text there as well (FTS5's default)
kept every symbol's body and every file's whole source a second time in the index, about 1.5 GB of
the Linux kernel's 3.8 GB (issue 33). A contentless table cannot give its text back, and its rows
are deleted by naming the terms to remove (FTS5's ``'delete'`` command, with the columns exactly as
inserted), so each row's columns are kept here and read back only to delete a row or for the few
readers of the text (code vectors, benchmarks):

* ``fts_text`` (``file_id``, ``data``): both tables' text of one file in one ``marshal``-ed,
  zlib-compressed stream: the file's ``files_fts`` columns (a tuple of strings, or None) and every one
  of its ``symbols_fts`` rows (a list of ``(symbol id, *columns)`` tuples by symbol id). One stream
  per file: the rows of a file share their path, the words of their qualified names and the file's
  vocabulary, and a symbol's body is a part of its file's text, so zlib gets the context a row alone
  does not (kernel subsystem: one stream per symbol 39.9 MB, per file and table 42.4 MB for both
  tables, per file 35.4 MB). A file's symbols are always written and deleted together (a changed file's
  symbols are replaced whole), and so is its own row, so nothing is lost by the grouping; a part
  written or deleted alone rewrites the other (benchmarks' helpers, a refresh's changed files).

zlib level 6: on source text it keeps about a sixth more than level 1 for about twice its CPU, and
the grouped symbol rows cost no more CPU at level 6 than one stream per symbol did at level 1.

Every function runs inside the caller's transaction.
"""

from __future__ import annotations

import marshal
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Sequence

COLUMNS = {
    "symbols_fts": ("name", "qualified_name", "signature", "docstring", "path", "body", "rest"),
    "files_fts": ("path", "exports", "imports", "content"),
}
_LEVEL = 6
# marshal's format 0: from format 1 on, a string is written as interned or not, and from 3 on an object met twice
# is written as a back-reference; both follow how the process happened to build its strings (a Ray worker, a
# pool worker), so equal text would be stored as different bytes. Format 0 writes every string as its bytes.
_MARSHAL = 0
_CHUNK = 900  # bound parameters per IN (...) list, under SQLite's default limit


def pack(cols: Sequence[str] | None, rows: Iterable[Sequence] = ()) -> bytes:
    """One file's stored text: its ``files_fts`` columns (None when it has no such row) and its
    ``symbols_fts`` rows ``(symbol id, *columns)``, by symbol id, in one stream.

    Examples
    --------
    >>> unpack(pack(("a", "", "b c"), [(7, "b", ""), (3, "a", "x y")]))
    (('a', '', 'b c'), [(3, 'a', 'x y'), (7, 'b', '')])
    >>> unpack(pack(None, [(1, "x")]))
    (None, [(1, 'x')])
    >>> import sys
    >>> same = "lore.index.walk"
    >>> pack(None, [(1, same, same)]) == pack(None, [(1, sys.intern("lore.index.walk"), "lore.index." + "walk")])
    True
    """
    file_cols = None if cols is None else tuple(cols)
    return zlib.compress(marshal.dumps((file_cols, sorted(tuple(r) for r in rows)), _MARSHAL), _LEVEL)


def unpack(data: bytes) -> tuple[tuple[str, ...] | None, list[tuple]]:
    """The file columns and symbol rows :func:`pack` stored."""
    cols, rows = marshal.loads(zlib.decompress(data))
    return cols, rows


def _check(table: str) -> tuple[str, ...]:
    if table not in COLUMNS:
        raise ValueError(f"not a search table: {table}")
    return COLUMNS[table]


def _fts_insert(conn: sqlite3.Connection, table: str, rows: Sequence[Sequence], *, delete: bool = False) -> None:
    cols = _check(table)
    marks = ",".join("?" * (len(cols) + 1))
    if delete:
        conn.executemany(f"INSERT INTO {table}({table}, rowid, {', '.join(cols)}) VALUES ('delete', {marks})", rows)
    else:
        conn.executemany(f"INSERT INTO {table}(rowid, {', '.join(cols)}) VALUES ({marks})", rows)


def insert(conn: sqlite3.Connection, files: Iterable[Sequence], groups: Iterable[tuple[int, Sequence[Sequence]]]) -> None:
    """Rows of (file id, *columns) into ``files_fts`` and groups of (file id, rows of (symbol id, *columns))
    into ``symbols_fts``, with their text: one stored row per file for both (a file's own text and its
    symbols' bodies share their words, and one zlib stream gets that context: kernel subsystem 42.4 ->
    35.4 MB). A file that has text stored already keeps the part not given here."""
    files = files if isinstance(files, list) else list(files)
    groups = [(int(fid), rows) for fid, rows in groups if rows]
    if files:
        _fts_insert(conn, "files_fts", files)
    if groups:
        _fts_insert(conn, "symbols_fts", [r for _, rows in groups for r in rows])
    cols: dict[int, tuple | None] = {int(r[0]): tuple(r[1:]) for r in files}
    rows: dict[int, list] = {}
    for fid, got in groups:
        rows.setdefault(fid, []).extend(got)
    ids = sorted(cols.keys() | rows.keys())
    for fid, data in _blobs(conn, ids):  # usually none: a file's text is written once, after its old text went
        old_cols, old_rows = unpack(data)
        if fid not in cols:
            cols[fid] = old_cols
        rows.setdefault(fid, []).extend(old_rows)
    conn.executemany("INSERT OR REPLACE INTO fts_text(file_id, data) VALUES (?, ?)",
                     ((fid, pack(cols.get(fid), rows.get(fid, ()))) for fid in ids))


def insert_files(conn: sqlite3.Connection, rows: Iterable[Sequence]) -> None:
    """Rows of (file id, *columns) into ``files_fts`` and its stored text."""
    insert(conn, rows, ())


def insert_symbols(conn: sqlite3.Connection, groups: Iterable[tuple[int, Sequence[Sequence]]]) -> None:
    """Groups of (file id, rows of (symbol id, *columns)) into ``symbols_fts`` and its stored text: every
    searchable symbol of each file, which has none stored yet."""
    insert(conn, (), groups)


def _blobs(conn: sqlite3.Connection, file_ids: Iterable[int] | None) -> Iterator[tuple[int, bytes]]:
    """(file id, data) of ``fts_text`` for ``file_ids`` (all when None), by file id."""
    if file_ids is None:
        yield from conn.execute("SELECT file_id, data FROM fts_text ORDER BY file_id")
        return
    ids = sorted({int(i) for i in file_ids})
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        yield from conn.execute(f"SELECT file_id, data FROM fts_text WHERE file_id IN ({q}) ORDER BY file_id", chunk)


def file_rows(conn: sqlite3.Connection, table: str, file_ids: Iterable[int] | None = None) -> Iterator[tuple]:
    """(rowid, *columns) of the rows of the files ``file_ids`` (every file when None): by file id, and for
    ``symbols_fts`` by symbol id within a file."""
    _check(table)
    for i, data in _blobs(conn, file_ids):
        cols, rows = unpack(data)
        if table == "symbols_fts":
            yield from rows
        elif cols is not None:
            yield (int(i), *cols)


def symbol_rows(conn: sqlite3.Connection, ids: Iterable[int]) -> Iterator[tuple]:
    """(symbol id, *columns) of the ``symbols_fts`` rows of the symbols ``ids``, by id."""
    want = {int(i) for i in ids}
    out = [r for r in file_rows(conn, "symbols_fts", _files_of(conn, want)) if r[0] in want]
    yield from sorted(out)


def _files_of(conn: sqlite3.Connection, symbol_ids: set[int]) -> set[int]:
    files: set[int] = set()
    ids = sorted(symbol_ids)
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        files.update(int(f) for (f,) in conn.execute(
            f"SELECT DISTINCT file_id FROM symbols WHERE id IN ({q}) AND file_id IS NOT NULL", chunk))
    return files


def delete_files(conn: sqlite3.Connection, tables: Sequence[str], file_ids: Iterable[int]) -> None:
    """Remove the rows of the files ``file_ids`` from each of ``tables`` (``symbols_fts``, ``files_fts``):
    their terms (read back from the stored text) and their text; a file's stored row goes when neither
    part is left."""
    for table in tables:
        _check(table)
    keep: list[tuple[bytes, int]] = []  # (data, file id): the UPDATE's parameters
    gone: list[tuple[int]] = []
    old_files: list[tuple] = []
    old_syms: list[tuple] = []
    for fid, data in list(_blobs(conn, file_ids)):
        cols, rows = unpack(data)
        if "files_fts" in tables and cols is not None:
            old_files.append((fid, *cols))
            cols = None
        if "symbols_fts" in tables and rows:
            old_syms.extend(rows)
            rows = []
        if cols is None and not rows:
            gone.append((fid,))
        else:
            keep.append((pack(cols, rows), fid))
    if old_files:
        _fts_insert(conn, "files_fts", old_files, delete=True)
    if old_syms:
        _fts_insert(conn, "symbols_fts", old_syms, delete=True)
    conn.executemany("DELETE FROM fts_text WHERE file_id = ?", gone)
    conn.executemany("UPDATE fts_text SET data = ? WHERE file_id = ?", keep)


def replace_symbols(conn: sqlite3.Connection, new_rows: Iterable[Sequence]) -> None:
    """Rows of (symbol id, *columns) that replace the ``symbols_fts`` rows of the same ids (FTS5 cannot update
    a contentless row: each is deleted and inserted again, and its file's stored text rewritten)."""
    new = {int(r[0]): tuple(r) for r in new_rows}
    files = _files_of(conn, set(new))
    for fid, data in list(_blobs(conn, files)):
        cols, rows = unpack(data)
        old = [r for r in rows if r[0] in new]
        if not old:
            continue
        _fts_insert(conn, "symbols_fts", old, delete=True)
        _fts_insert(conn, "symbols_fts", [new[r[0]] for r in old])
        conn.execute("UPDATE fts_text SET data = ? WHERE file_id = ?",
                     (pack(cols, (new.get(r[0], r) for r in rows)), fid))
