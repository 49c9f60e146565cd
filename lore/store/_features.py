"""Reads for the ranker's per-symbol features (place, words, role): every SELECT of ``lore.graphs._features``.

Rows come back as plain tuples in symbol-id order, so that the caller can align them with the
graph's :class:`~lore.graphs.build.NodeIndex` (also sorted by id) without a lookup per row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator


def symbol_feature_rows(conn: sqlite3.Connection) -> list[tuple[int, int, int, str, str, str, str]]:
    """(id, start_line, end_line, name, signature, docstring, file path or '') of every symbol, by id."""
    return conn.execute(
        """SELECT s.id, s.start_line, s.end_line, s.name, s.signature, s.docstring, COALESCE(f.path, '')
           FROM symbols s LEFT JOIN files f ON f.id = s.file_id ORDER BY s.id"""
    ).fetchall()


def symbol_feature_blocks(conn: sqlite3.Connection, size: int = 50_000) -> Iterator[list[tuple]]:
    """:func:`symbol_feature_rows` as lists of at most ``size`` rows, read as they are used: the whole
    list of the Linux kernel (1.1M rows with their docstrings) was several hundred MB held at once."""
    cur = conn.execute(
        """SELECT s.id, s.start_line, s.end_line, s.name, s.signature, s.docstring, COALESCE(f.path, '')
           FROM symbols s LEFT JOIN files f ON f.id = s.file_id ORDER BY s.id""")
    while rows := cur.fetchmany(size):
        yield rows


def decorated_symbols(conn: sqlite3.Connection) -> list[tuple[int, str, int | None]]:
    """(decorated symbol id, decorator name as written, decorator symbol id or None) of every bare decorator.

    The parser records a bare decorator (``@property``, ``@nx._dispatchable``) as a call made by the
    *enclosing* scope at the decorator's line; the decorated definition is the first child of that
    scope starting at or after that line.
    """
    return conn.execute(
        """SELECT d.sid, d.callee_name, d.callee_id FROM (
               SELECT r.callee_name, r.callee_id,
                      (SELECT s.id FROM symbols s WHERE s.parent_id = r.caller_id AND s.start_line >= r.line
                       ORDER BY s.start_line, s.id LIMIT 1) AS sid
               FROM symbol_refs r WHERE r.kind = 'decorator') d
           WHERE d.sid IS NOT NULL ORDER BY d.sid, d.callee_name"""
    ).fetchall()


def file_generations(conn: sqlite3.Connection) -> list[tuple[int, int]]:
    """(file id, generation that last wrote it) of every file: a file's symbols are unchanged since a
    generation at or after its own."""
    return conn.execute("SELECT id, generation FROM files ORDER BY id").fetchall()


def symbol_feature_rows_of(conn: sqlite3.Connection, ids: list[int]) -> list[tuple[int, int, int, str, str, str, str]]:
    """:func:`symbol_feature_rows` of the symbols ``ids`` only, by id."""
    return conn.execute(
        """SELECT s.id, s.start_line, s.end_line, s.name, s.signature, s.docstring, COALESCE(f.path, '')
           FROM symbols s LEFT JOIN files f ON f.id = s.file_id
           WHERE s.id IN (SELECT value FROM json_each(?)) ORDER BY s.id""", (json.dumps(ids),)
    ).fetchall()


def decorated_symbols_of(conn: sqlite3.Connection, ids: list[int]) -> list[tuple[int, str, int | None]]:
    """:func:`decorated_symbols` whose decorated symbol is one of ``ids``."""
    return conn.execute(
        """SELECT d.sid, d.callee_name, d.callee_id FROM (
               SELECT r.callee_name, r.callee_id,
                      (SELECT s.id FROM symbols s WHERE s.parent_id = r.caller_id AND s.start_line >= r.line
                       ORDER BY s.start_line, s.id LIMIT 1) AS sid
               FROM symbol_refs r WHERE r.kind = 'decorator') d
           WHERE d.sid IN (SELECT value FROM json_each(?)) ORDER BY d.sid, d.callee_name""", (json.dumps(ids),)
    ).fetchall()
