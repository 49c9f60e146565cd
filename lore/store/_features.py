"""Reads for the ranker's per-symbol features (place, words, role): every SELECT of ``lore.graphs._features``.

Rows come back as plain tuples in symbol-id order, so that the caller can align them with the
graph's :class:`~lore.graphs.build.NodeIndex` (also sorted by id) without a lookup per row.
"""

from __future__ import annotations

import sqlite3


def symbol_feature_rows(conn: sqlite3.Connection) -> list[tuple[int, int, int, str, str, str, str]]:
    """(id, start_line, end_line, name, signature, docstring, file path or '') of every symbol, by id."""
    return conn.execute(
        """SELECT s.id, s.start_line, s.end_line, s.name, s.signature, s.docstring, COALESCE(f.path, '')
           FROM symbols s LEFT JOIN files f ON f.id = s.file_id ORDER BY s.id"""
    ).fetchall()


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
