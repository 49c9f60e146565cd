"""The text of the two search tables, stored once and compressed, one row per file.

``symbols_fts`` and ``files_fts`` are contentless FTS5 tables (``content=''``): they hold the inverted
index and the column sizes BM25 needs, not the text. Storing the text there as well (FTS5's default)
kept every symbol's body and every file's whole source a second time in the index, about 1.5 GB of
the Linux kernel's 3.8 GB (issue 33). A contentless table cannot give its text back, and its rows
are deleted by naming the terms to remove (FTS5's ``'delete'`` command, with the columns exactly as
inserted), so each row's columns are kept here and read back only to delete a row or for the few
readers of the text (code vectors, benchmarks):

* ``files_fts_text`` (``id``: the file id, ``data``): the file's columns as a ``marshal``-ed tuple
  of strings, zlib-compressed;
* ``symbols_fts_text`` (``file_id``, ``data``): every symbol row of one file together, as a
  ``marshal``-ed list of ``(symbol id, *columns)`` tuples by symbol id, zlib-compressed. One stream
  per file instead of one per symbol: the rows of a file share their path, the words of their
  qualified names and a file's vocabulary, and zlib gets the context a 270-byte row alone does not
  (kernel subsystem: 39.9 -> 20.0 MB for the same CPU). A file's symbols are always written and
  deleted together (a changed file's symbols are replaced whole), so nothing is lost by the grouping.

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


def pack(cols: Sequence[str]) -> bytes:
    """One file's columns as stored in ``files_fts_text``.

    Examples
    --------
    >>> unpack(pack(("a", "", "b c")))
    ('a', '', 'b c')
    """
    return zlib.compress(marshal.dumps(tuple(cols), _MARSHAL), _LEVEL)


def unpack(data: bytes) -> tuple[str, ...]:
    """The columns :func:`pack` stored."""
    return marshal.loads(zlib.decompress(data))


def pack_rows(rows: Iterable[Sequence]) -> bytes:
    """The symbol rows ``(symbol id, *columns)`` of one file as stored in ``symbols_fts_text``, by id.

    Examples
    --------
    >>> unpack_rows(pack_rows([(7, "b", ""), (3, "a", "x y")]))
    [(3, 'a', 'x y'), (7, 'b', '')]
    >>> import sys
    >>> same = "lore.index.walk"
    >>> pack_rows([(1, same, same)]) == pack_rows([(1, sys.intern("lore.index.walk"), "lore.index." + "walk")])
    True
    """
    return zlib.compress(marshal.dumps(sorted(tuple(r) for r in rows), _MARSHAL), _LEVEL)


def unpack_rows(data: bytes) -> list[tuple]:
    """The rows :func:`pack_rows` stored."""
    return marshal.loads(zlib.decompress(data))


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


def insert_files(conn: sqlite3.Connection, rows: Iterable[Sequence]) -> None:
    """Rows of (file id, *columns) into ``files_fts`` and its stored text."""
    rows = rows if isinstance(rows, list) else list(rows)
    if rows:
        _fts_insert(conn, "files_fts", rows)
        conn.executemany("INSERT INTO files_fts_text(id, data) VALUES (?, ?)", ((r[0], pack(r[1:])) for r in rows))


def insert_symbols(conn: sqlite3.Connection, groups: Iterable[tuple[int, Sequence[Sequence]]]) -> None:
    """Groups of (file id, rows of (symbol id, *columns)) into ``symbols_fts`` and its stored text: every
    searchable symbol of each file, which has none stored yet."""
    groups = [(fid, rows) for fid, rows in groups if rows]
    if groups:
        _fts_insert(conn, "symbols_fts", [r for _, rows in groups for r in rows])
        conn.executemany("INSERT INTO symbols_fts_text(file_id, data) VALUES (?, ?)",
                         ((fid, pack_rows(rows)) for fid, rows in groups))


def _blobs(conn: sqlite3.Connection, table: str, file_ids: Iterable[int] | None) -> Iterator[tuple[int, bytes]]:
    """(file id, data) of ``table`` (``symbols_fts_text`` / ``files_fts_text``) for ``file_ids`` (all when
    None), by file id."""
    key = "file_id" if table == "symbols_fts_text" else "id"
    if file_ids is None:
        yield from conn.execute(f"SELECT {key}, data FROM {table} ORDER BY {key}")
        return
    ids = sorted({int(i) for i in file_ids})
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        yield from conn.execute(f"SELECT {key}, data FROM {table} WHERE {key} IN ({q}) ORDER BY {key}", chunk)


def file_rows(conn: sqlite3.Connection, table: str, file_ids: Iterable[int] | None = None) -> Iterator[tuple]:
    """(rowid, *columns) of the rows of the files ``file_ids`` (every file when None): by file id, and for
    ``symbols_fts`` by symbol id within a file."""
    _check(table)
    if table == "files_fts":
        for i, data in _blobs(conn, "files_fts_text", file_ids):
            yield (int(i), *unpack(data))
        return
    for _, data in _blobs(conn, "symbols_fts_text", file_ids):
        yield from unpack_rows(data)


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


def delete_files(conn: sqlite3.Connection, table: str, file_ids: Iterable[int]) -> None:
    """Remove the rows of the files ``file_ids`` from ``table``: their terms (read back from the stored text)
    and their text."""
    _check(table)
    file_ids = list(file_ids)
    old = list(file_rows(conn, table, file_ids))
    if old:
        _fts_insert(conn, table, old, delete=True)
    key, text = ("file_id", "symbols_fts_text") if table == "symbols_fts" else ("id", "files_fts_text")
    conn.executemany(f"DELETE FROM {text} WHERE {key} = ?", ((int(i),) for i in file_ids))


def replace_symbols(conn: sqlite3.Connection, new_rows: Iterable[Sequence]) -> None:
    """Rows of (symbol id, *columns) that replace the ``symbols_fts`` rows of the same ids (FTS5 cannot update
    a contentless row: each is deleted and inserted again, and its file's stored rows rewritten)."""
    new = {int(r[0]): tuple(r) for r in new_rows}
    files = _files_of(conn, set(new))
    for fid, data in list(_blobs(conn, "symbols_fts_text", files)):
        rows = unpack_rows(data)
        old = [r for r in rows if r[0] in new]
        if not old:
            continue
        _fts_insert(conn, "symbols_fts", old, delete=True)
        _fts_insert(conn, "symbols_fts", [new[r[0]] for r in old])
        conn.execute("UPDATE symbols_fts_text SET data = ? WHERE file_id = ?",
                     (pack_rows(new.get(r[0], r) for r in rows), fid))
