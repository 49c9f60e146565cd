"""What a refresh changed in the edge tables, so the saved graph of the last generation can be patched.

A refresh deletes and writes again the edges that start in the files it re-resolves (and nothing else:
``write.delete_edges_of_files``), unless it also remaps targets across the tables (``remap_targets``)
or rebuilds. The indexer records, with the generation it commits, which files those were
(:func:`record`; ``None`` when the run was not of that kind); :mod:`lore.graphs._graph_patch` reads it
back (:func:`load`) and reads only those edges (:func:`edges_from`), instead of every edge.
"""

from __future__ import annotations

import json
import sqlite3

from .db import get_meta, set_meta

_KEY = "graph_delta"


def record(conn: sqlite3.Connection, generation: int, files: list[int] | None) -> None:
    """Record that ``generation`` rewrote the edges starting in ``files`` only (``None``: anything may have
    changed; the graph is built whole)."""
    set_meta(conn, _KEY, json.dumps({"generation": generation, "files": None if files is None else sorted(files)}))


def load(conn: sqlite3.Connection, generation: int) -> list[int] | None:
    """The files whose edges ``generation`` rewrote, if it recorded them, else None."""
    try:
        got = json.loads(get_meta(conn, _KEY) or "null")
    except ValueError:
        return None
    if not isinstance(got, dict) or got.get("generation") != generation or not isinstance(got.get("files"), list):
        return None
    return [int(f) for f in got["files"]]


def symbols_of_files(conn: sqlite3.Connection, files: list[int]) -> list[int]:
    """Ids of the symbols of ``files``."""
    return [r[0] for r in conn.execute(
        "SELECT id FROM symbols WHERE file_id IN (SELECT value FROM json_each(?)) ORDER BY id", (json.dumps(files),))]


def edges_from(conn: sqlite3.Connection, sources: list[int], targets: list[int],
               inherit_kinds: tuple[str, ...]) -> dict[str, list[tuple[int, int, float]]]:
    """Per relation (as :data:`lore.store.parquet.RELATION_ROWS` reads them, in the same row order), the
    edges that start at ``sources`` or end at ``targets``."""
    src, dst = json.dumps(sources), json.dumps(targets)

    def rel(kinds: tuple[str, ...]) -> list[tuple[int, int, float]]:
        q = ",".join("?" * len(kinds))
        return conn.execute(
            f"""SELECT source_id, target_id, confidence FROM symbol_relationships
                WHERE target_id IS NOT NULL AND kind IN ({q})
                  AND (source_id IN (SELECT value FROM json_each(?)) OR target_id IN (SELECT value FROM json_each(?)))
                ORDER BY rowid""", (*kinds, src, dst)).fetchall()

    return {
        "calls": conn.execute(
            """SELECT caller_id, callee_id, confidence FROM symbol_refs WHERE callee_id IS NOT NULL
                 AND (caller_id IN (SELECT value FROM json_each(?)) OR callee_id IN (SELECT value FROM json_each(?)))
               ORDER BY rowid""", (src, dst)).fetchall(),
        "types": conn.execute(
            """SELECT symbol_id, type_id, confidence FROM type_refs WHERE type_id IS NOT NULL
                 AND (symbol_id IN (SELECT value FROM json_each(?)) OR type_id IN (SELECT value FROM json_each(?)))
               ORDER BY rowid""", (src, dst)).fetchall(),
        "inherits": rel(inherit_kinds),
        "contains": rel(("contains",)),
        "imports": conn.execute(
            """SELECT s.id, i.target_id, i.confidence FROM file_imports i
               JOIN symbols s ON s.file_id = i.file_id AND s.parent_id IS NULL AND s.kind = 'module'
               WHERE i.target_id IS NOT NULL
                 AND (s.id IN (SELECT value FROM json_each(?)) OR i.target_id IN (SELECT value FROM json_each(?)))
               ORDER BY i.rowid, s.id""", (src, dst)).fetchall(),
    }


def files_of_generation(conn: sqlite3.Connection, generation: int) -> list[int]:
    """Ids of the files whose rows ``generation`` wrote (added or parsed again)."""
    return [r[0] for r in conn.execute("SELECT id FROM files WHERE generation = ? ORDER BY id", (generation,))]


def file_ids(conn: sqlite3.Connection) -> list[int]:
    """Ids of every file of the index."""
    return [r[0] for r in conn.execute("SELECT id FROM files ORDER BY id")]


def node_rows(conn: sqlite3.Connection, files: list[int]) -> list[tuple[int, int, int, int, str]]:
    """(id, file id, parent id or -1, is_test, kind) of the symbols of ``files`` and of every external
    (file id -1), by id: the rows of :func:`lore.store.read.node_table` a refresh may have changed."""
    return conn.execute(
        """SELECT id, COALESCE(file_id, -1), COALESCE(parent_id, -1), is_test, kind FROM symbols
           WHERE file_id IN (SELECT value FROM json_each(?))
           UNION ALL
           SELECT id, -1, COALESCE(parent_id, -1), is_test, kind FROM symbols WHERE file_id IS NULL
           ORDER BY 1""", (json.dumps(files),)).fetchall()


def node_count(conn: sqlite3.Connection) -> tuple[int, int]:
    """(the number of symbols, the largest id or 0)."""
    count, top = conn.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM symbols").fetchone()
    return int(count), int(top)
