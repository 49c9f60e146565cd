"""The text of the two search tables, stored once and compressed.

``symbols_fts`` and ``files_fts`` are contentless FTS5 tables (``content=''``): they hold the inverted
index and the column sizes BM25 needs, not the text. Storing the text there as well (FTS5's default)
kept every symbol's body and every file's whole source a second time in the index, about 1.5 GB of
the Linux kernel's 3.8 GB (issue 33). A contentless table cannot give its text back, and its rows
are deleted by naming the terms to remove (FTS5's ``'delete'`` command, with the columns exactly as
inserted), so each row's columns are kept here, in ``<table>_text`` (``id``, ``data``: the columns
as a ``marshal``-ed tuple of strings, zlib-compressed), and read back only to delete a row or for the
few readers of the text (code vectors, benchmarks).

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
_LEVEL = 1  # zlib's fastest level: most of the ratio of level 6 (source text), a fraction of its CPU
_CHUNK = 900  # bound parameters per IN (...) list, under SQLite's default limit


def pack(cols: Sequence[str]) -> bytes:
    """One row's columns as stored in ``<table>_text``.

    Examples
    --------
    >>> unpack(pack(("a", "", "b c")))
    ('a', '', 'b c')
    """
    return zlib.compress(marshal.dumps(tuple(cols)), _LEVEL)


def unpack(data: bytes) -> tuple[str, ...]:
    """The columns :func:`pack` stored."""
    return marshal.loads(zlib.decompress(data))


def _check(table: str) -> tuple[str, ...]:
    if table not in COLUMNS:
        raise ValueError(f"not a search table: {table}")
    return COLUMNS[table]


def insert(conn: sqlite3.Connection, table: str, rows: Iterable[Sequence]) -> None:
    """Rows of (rowid, *columns) into the FTS table ``table`` and its stored text."""
    cols = _check(table)
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        return
    marks = ",".join("?" * (len(cols) + 1))
    conn.executemany(f"INSERT INTO {table}(rowid, {', '.join(cols)}) VALUES ({marks})", rows)
    conn.executemany(f"INSERT INTO {table}_text(id, data) VALUES (?, ?)", ((r[0], pack(r[1:])) for r in rows))


def rows(conn: sqlite3.Connection, table: str, ids: Iterable[int] | None = None) -> Iterator[tuple]:
    """(rowid, *columns) of ``ids`` (every row when None), by rowid."""
    _check(table)
    if ids is None:
        for i, data in conn.execute(f"SELECT id, data FROM {table}_text ORDER BY id"):
            yield (int(i), *unpack(data))
        return
    ids = sorted({int(i) for i in ids})
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        for i, data in conn.execute(f"SELECT id, data FROM {table}_text WHERE id IN ({q}) ORDER BY id", chunk):
            yield (int(i), *unpack(data))


def delete(conn: sqlite3.Connection, table: str, ids: Iterable[int]) -> None:
    """Remove the rows ``ids`` from ``table``: their terms (read back from the stored text) and their text."""
    cols = _check(table)
    old = list(rows(conn, table, ids))
    if not old:
        return
    marks = ",".join("?" * (len(cols) + 1))
    conn.executemany(f"INSERT INTO {table}({table}, rowid, {', '.join(cols)}) VALUES ('delete', {marks})", old)
    conn.executemany(f"DELETE FROM {table}_text WHERE id = ?", ((r[0],) for r in old))


def replace(conn: sqlite3.Connection, table: str, new_rows: Iterable[Sequence]) -> None:
    """Rows of (rowid, *columns) that replace the rows of the same ids (FTS5 cannot update a contentless row)."""
    new_rows = list(new_rows)
    delete(conn, table, [r[0] for r in new_rows])
    insert(conn, table, new_rows)
