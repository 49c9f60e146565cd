"""Naming a symbol (:mod:`lore.queries._naming`): every lookup a name the user typed needs, each through
an index of the symbols table (qualified name, lower-case short name, file path, module), so naming a
symbol costs milliseconds on an index of a million symbols."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from .read import _named


class NameRow(NamedTuple):
    """A symbol as a name lookup weighs it: where it is, whether it is visible outside its file
    (``exported``: 0 for C ``static``), and its file's language and module (``''`` for externals)."""

    id: int
    qualified_name: str
    kind: str
    path: str
    line: int
    end_line: int
    exported: int
    language: str
    module: str


class ReexportRow(NamedTuple):
    """A module-level import that makes a name of another module visible in the importing one:
    ``name`` imported (``'*'`` for a star import or ``export * from``) under ``alias``, bound to
    ``target_id`` (a symbol) or, for a star import, to the module of ``target_module``."""

    language: str
    importer: str
    name: str | None
    alias: str | None
    target_id: int | None
    target_qname: str | None
    target_module: str | None


_NAME_ROWS = """SELECT s.id, s.qualified_name, s.kind, COALESCE(f.path, ''), s.start_line, s.end_line, s.exported,
                       COALESCE(f.language, ''), COALESCE(f.module, '')
                FROM symbols s LEFT JOIN files f ON f.id = s.file_id"""


def name_row_by_id(conn: sqlite3.Connection, sid: int) -> NameRow | None:
    """The symbol ``sid``, or None."""
    row = conn.execute(f"{_NAME_ROWS} WHERE s.id = ?", (sid,)).fetchone()
    return NameRow._make(row) if row else None


def name_rows_by_qname(conn: sqlite3.Connection, qname: str) -> list[NameRow]:
    """Every symbol whose qualified name is ``qname``, by id (index ``symbols_qname``)."""
    return _named(NameRow, conn.execute(f"{_NAME_ROWS} WHERE s.qualified_name = ? ORDER BY s.id", (qname,)))


def ids_ending_with(conn: sqlite3.Connection, name: str, dotted: str) -> list[int]:
    """The ids of the symbols of short name ``name`` whose qualified name ends with ``.dotted``, by id
    (externals included); read from the index ``symbols_name`` (name, qualified_name) alone."""
    end = "." + dotted
    return [r[0] for r in conn.execute(
        "SELECT id FROM symbols WHERE name = ? AND substr(qualified_name, -?) = ? ORDER BY id", (name, len(end), end))]


def name_rows_by_ids(conn: sqlite3.Connection, ids: Iterable[int]) -> list[NameRow]:
    """The indexed (not external) symbols among ``ids``, by id."""
    todo = sorted(set(ids))
    out: list[NameRow] = []
    for k in range(0, len(todo), 900):
        chunk = todo[k : k + 900]
        q = ",".join("?" * len(chunk))
        out += _named(NameRow, conn.execute(f"{_NAME_ROWS} WHERE s.id IN ({q}) AND s.file_id IS NOT NULL", chunk))
    return sorted(out, key=lambda r: r.id)


def go_file_paths(conn: sqlite3.Connection) -> list[str]:
    """The path of every Go source file (``.go``), by path."""
    return [r[0] for r in conn.execute("SELECT path FROM files WHERE language = 'go' AND path LIKE '%.go' ORDER BY path")]


def name_rows_by_lower_names(conn: sqlite3.Connection, names: Iterable[str], *, limit: int | None = None) -> list[NameRow]:
    """The indexed symbols whose short name, ASCII-lowercased, is one of ``names``: shortest qualified
    name first, then by id; the first ``limit`` of them (index ``symbols_name_lower``)."""
    todo = sorted(set(names))
    out: list[NameRow] = []
    for k in range(0, len(todo), 900):
        chunk = todo[k : k + 900]
        q = ",".join("?" * len(chunk))
        out += _named(NameRow, conn.execute(
            f"{_NAME_ROWS} WHERE lower(s.name) IN ({q}) AND s.file_id IS NOT NULL"
            f" ORDER BY length(s.qualified_name), s.id LIMIT ?", (*chunk, -1 if limit is None else limit)))
    out.sort(key=lambda r: (len(r.qualified_name), r.id))
    return out if limit is None else out[:limit]


def count_by_lower_names(conn: sqlite3.Connection, names: Iterable[str]) -> int:
    """How many indexed symbols have one of these ASCII-lowercased short names."""
    todo = sorted(set(names))
    total = 0
    for k in range(0, len(todo), 900):
        chunk = todo[k : k + 900]
        q = ",".join("?" * len(chunk))
        total += conn.execute(
            f"SELECT COUNT(*) FROM symbols WHERE lower(name) IN ({q}) AND file_id IS NOT NULL", chunk).fetchone()[0]
    return int(total)


def name_rows_ending_with(conn: sqlite3.Connection, short: str, dotted: str) -> list[NameRow]:
    """The indexed symbols of ASCII-lowercased short name ``short`` whose lowercased qualified name is
    ``dotted`` or ends with ``.dotted``, by id (index ``symbols_name_lower``, then a filter)."""
    end = "." + dotted
    return _named(NameRow, conn.execute(
        f"""{_NAME_ROWS} WHERE lower(s.name) = ? AND s.file_id IS NOT NULL
            AND (lower(s.qualified_name) = ? OR substr(lower(s.qualified_name), -?) = ?) ORDER BY s.id""",
        (short, dotted, len(end), end)))


def lower_names_in(conn: sqlite3.Connection, names: Iterable[str]) -> set[str]:
    """Which of these ASCII-lowercased short names some symbol has (index ``symbols_name_lower``)."""
    todo = sorted(set(names))
    out: set[str] = set()
    for k in range(0, len(todo), 900):
        chunk = todo[k : k + 900]
        q = ",".join("?" * len(chunk))
        out.update(r[0] for r in conn.execute(
            f"SELECT DISTINCT lower(name) FROM symbols WHERE lower(name) IN ({q})", chunk))
    return out


def lower_names_with_prefix(conn: sqlite3.Connection, prefix: str, shortest: int, longest: int) -> list[str]:
    """The distinct ASCII-lowercased short names that start with ``prefix`` (lowercase) and have
    ``shortest`` to ``longest`` characters (a range of index ``symbols_name_lower``)."""
    return [r[0] for r in conn.execute(
        "SELECT DISTINCT lower(name) FROM symbols WHERE lower(name) >= ? AND lower(name) < ?"
        " AND length(name) BETWEEN ? AND ?",
        (prefix, prefix + "\U0010ffff", shortest, longest),
    )]


def lower_names_with_tail(conn: sqlite3.Connection, tail: str, shortest: int, longest: int) -> list[str]:
    """The distinct ASCII-lowercased short names whose last three characters are ``tail`` (lowercase)
    and that have ``shortest`` to ``longest`` characters (index ``symbols_name_tail``)."""
    return [r[0] for r in conn.execute(
        "SELECT DISTINCT lower(name) FROM symbols WHERE substr(lower(name), -3) = ?"
        " AND length(name) BETWEEN ? AND ?",
        (tail, shortest, longest),
    )]


def reexports(conn: sqlite3.Connection, modules: Iterable[str], name: str) -> list[ReexportRow]:
    """The module-level imports of the files of these modules that bind ``name`` (as written or as
    its alias), and their star imports, by file and line (indexes ``files_module``, then
    ``imports_file``: CROSS JOIN keeps SQLite from scanning the imports instead)."""
    mods = sorted(set(modules))
    q = ",".join("?" * len(mods))
    return _named(ReexportRow, conn.execute(
        f"""SELECT f.language, f.module, i.name, i.alias, i.target_id, t.qualified_name, tf.module
            FROM files f CROSS JOIN file_imports i ON i.file_id = f.id
            JOIN symbols m ON m.id = i.symbol_id AND m.kind = 'module' AND m.parent_id IS NULL
            LEFT JOIN symbols t ON t.id = i.target_id
            LEFT JOIN files tf ON tf.id = i.target_file_id
            WHERE f.module IN ({q})
              AND (i.alias = ? OR (i.alias IS NULL AND (i.name = ? OR i.name = '*')))
            ORDER BY f.id, i.line, i.rowid""",
        (*mods, name, name),
    ))


def go_module_paths(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(path of a ``go.mod``, its module symbol's signature ``module <import path>``) of every go.mod."""
    return conn.execute(
        """SELECT f.path, s.signature FROM files f
           JOIN symbols s ON s.file_id = f.id AND s.kind = 'module' AND s.parent_id IS NULL
           WHERE f.language = 'go' AND (f.path = 'go.mod' OR f.path LIKE '%/go.mod') ORDER BY f.path"""
    ).fetchall()


def file_lines(conn: sqlite3.Connection, path: str) -> tuple[int, int] | None:
    """(id, line count) of the indexed file at ``path`` (relative to the root), or None."""
    row = conn.execute("SELECT id, lines FROM files WHERE path = ?", (path,)).fetchone()
    return (row[0], row[1]) if row else None


def files_ending_with(conn: sqlite3.Connection, tail: str) -> list[tuple[int, str, int]]:
    """(id, path, line count) of the indexed files whose path ends with ``/tail``, by path (a scan of
    the files table, which is small beside the symbols)."""
    end = "/" + tail
    return conn.execute(
        "SELECT id, path, lines FROM files WHERE substr(path, -?) = ? ORDER BY path", (len(end), end)
    ).fetchall()


def innermost_at(conn: sqlite3.Connection, file_id: int, line: int) -> NameRow | None:
    """The innermost symbol of a file whose lines contain ``line`` (the shortest span; then the one
    that starts last; then the lowest id), or None."""
    row = conn.execute(
        f"""{_NAME_ROWS} WHERE s.file_id = ? AND s.start_line <= ? AND s.end_line >= ?
            ORDER BY s.end_line - s.start_line, s.start_line DESC, s.id LIMIT 1""",
        (file_id, line, line),
    ).fetchone()
    return NameRow._make(row) if row else None
