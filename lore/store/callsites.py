"""Call sites and definition spans, read for checking lore's call edges against an outside oracle.

:mod:`benchmarks.langs` samples call sites of one language, asks the language's own tool where each
goes, and maps the tool's answer (a file and a line) back onto lore's innermost definition there.
Rows by name: :class:`SiteEdge` (one row per bound target of a site, ``callee_id`` ``None`` when the
site stayed unresolved) and :class:`Span`.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple


class SiteEdge(NamedTuple):
    """One edge of a call site: the site is (path, line, col, callee_name), shared by its candidates."""

    path: str
    line: int
    col: int
    callee_name: str
    kind: str
    caller: str
    callee_id: int | None
    callee_qname: str | None
    callee_path: str | None
    resolution: str
    confidence: float


class Span(NamedTuple):
    """A definition of an indexed file with the lines it covers."""

    id: int
    qualified_name: str
    kind: str
    start_line: int
    end_line: int


def call_site_edges(conn: sqlite3.Connection, languages: tuple[str, ...], *, tests: bool = False) -> list[SiteEdge]:
    """Every call-like edge (``call`` and ``new``) made from files of ``languages``, in site order.

    ``tests=False`` leaves out files the index marks as test code.
    """
    marks = ",".join("?" * len(languages))
    rows = conn.execute(
        f"""SELECT f.path, r.line, r.col, r.callee_name, r.kind, s.qualified_name, r.callee_id,
                   t.qualified_name, tf.path, r.resolution, r.confidence
            FROM symbol_refs r
            JOIN symbols s ON s.id = r.caller_id
            JOIN files f ON f.id = s.file_id
            LEFT JOIN symbols t ON t.id = r.callee_id
            LEFT JOIN files tf ON tf.id = t.file_id
            WHERE f.language IN ({marks}) AND r.kind IN ('call', 'new') {'' if tests else 'AND f.is_test = 0'}
            ORDER BY f.path, r.line, r.col, r.callee_name, r.callee_id""",
        languages,
    )
    return [SiteEdge(*row) for row in rows]


def definition_spans(conn: sqlite3.Connection, path: str) -> list[Span]:
    """The definitions of the indexed file ``path`` (not its module symbol), innermost last per line."""
    rows = conn.execute(
        """SELECT s.id, s.qualified_name, s.kind, s.start_line, s.end_line
           FROM symbols s JOIN files f ON f.id = s.file_id
           WHERE f.path = ? AND s.kind != 'module'
           ORDER BY s.start_line, -s.end_line, s.id""",
        (path,),
    )
    return [Span(*row) for row in rows]


def indexed_paths(conn: sqlite3.Connection) -> set[str]:
    """The paths (relative to the index root) of every indexed file."""
    return {path for (path,) in conn.execute("SELECT path FROM files")}
