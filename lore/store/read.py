"""Reading the code index: every SELECT the indexer, the graphs and the api need."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

SYMBOL_COLUMNS = (
    "id, file_id, name, qualified_name, kind, parent_id, start_line, end_line, signature, docstring, "
    "return_type, exported, is_test"
)


def file_states(conn: sqlite3.Connection) -> dict[str, tuple[int, str, int, int]]:
    """path -> (id, hash, size, mtime_ns) of every indexed file."""
    return {r[0]: (r[1], r[2], r[3], r[4]) for r in conn.execute("SELECT path, id, hash, size, mtime_ns FROM files")}


def file_rows(conn: sqlite3.Connection) -> list[tuple[int, str, str, str, int]]:
    """(id, path, language, module, module symbol id) of every file."""
    return conn.execute(
        """SELECT f.id, f.path, f.language, f.module, s.id FROM files f
           JOIN symbols s ON s.file_id = f.id AND s.parent_id IS NULL AND s.kind = 'module'
           ORDER BY f.id"""
    ).fetchall()


def symbol_rows_for_world(conn: sqlite3.Connection) -> list[tuple[int, int | None, str, str, str, int | None]]:
    return conn.execute("SELECT id, file_id, name, qualified_name, kind, parent_id FROM symbols").fetchall()


def max_symbol_id(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM symbols").fetchone()[0])


def max_file_id(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM files").fetchone()[0])


def symbol_keys_of_file(conn: sqlite3.Connection, file_id: int) -> list[tuple[int, str, str]]:
    """(id, qualified_name, kind) of a file's symbols, in id order (to keep ids stable on refresh)."""
    return conn.execute(
        "SELECT id, qualified_name, kind FROM symbols WHERE file_id = ? ORDER BY id", (file_id,)
    ).fetchall()


def modules_of_files(conn: sqlite3.Connection, file_ids: list[int]) -> list[str]:
    out = []
    for fid in file_ids:
        row = conn.execute("SELECT module FROM files WHERE id = ?", (fid,)).fetchone()
        if row:
            out.append(row[0])
    return out


def names_of_files(conn: sqlite3.Connection, file_ids: list[int]) -> set[str]:
    out: set[str] = set()
    for fid in file_ids:
        out.update(r[0] for r in conn.execute("SELECT name FROM symbols WHERE file_id = ?", (fid,)))
    return out


def record_blob(conn: sqlite3.Connection, file_id: int) -> tuple[bytes, bytes] | None:
    """(compressed pickled ParsedFile, int64 symbol ids) of one file."""
    row = conn.execute("SELECT data, local_ids FROM file_records WHERE file_id = ?", (file_id,)).fetchone()
    return (row[0], row[1]) if row else None


def ref_names(conn: sqlite3.Connection) -> Iterator[tuple[int, str]]:
    yield from conn.execute("SELECT file_id, ref_names FROM file_records")


def symbol_by_id(conn: sqlite3.Connection, sid: int) -> tuple | None:
    return conn.execute(
        f"SELECT {SYMBOL_COLUMNS.replace('id,', 's.id,', 1)} FROM symbols s WHERE s.id = ?", (sid,)
    ).fetchone()


def symbol_ids_by_qname(conn: sqlite3.Connection, qname: str) -> list[int]:
    return [r[0] for r in conn.execute("SELECT id FROM symbols WHERE qualified_name = ? ORDER BY id", (qname,))]


def symbols_by_ids(conn: sqlite3.Connection, ids: list[int]) -> dict[int, tuple]:
    """id -> (id, name, qualified_name, kind, path, start_line, end_line, signature, docstring, is_test, file_id, parent_id)."""
    out: dict[int, tuple] = {}
    for k in range(0, len(ids), 900):
        chunk = ids[k : k + 900]
        q = ",".join("?" * len(chunk))
        for r in conn.execute(
            f"""SELECT s.id, s.name, s.qualified_name, s.kind, COALESCE(f.path, ''), s.start_line, s.end_line,
                       s.signature, s.docstring, s.is_test, s.file_id, s.parent_id
                FROM symbols s LEFT JOIN files f ON f.id = s.file_id WHERE s.id IN ({q})""",
            chunk,
        ):
            out[r[0]] = r
    return out


def iter_symbols(conn: sqlite3.Connection, *, kind: str | None = None, include_external: bool = False) -> Iterator[tuple]:
    """(id, name, qualified_name, kind, path, start_line, end_line) ordered by id."""
    where = [] if include_external else ["s.file_id IS NOT NULL"]
    args: list = []
    if kind:
        where.append("s.kind = ?")
        args.append(kind)
    w = ("WHERE " + " AND ".join(where)) if where else ""
    yield from conn.execute(
        f"""SELECT s.id, s.name, s.qualified_name, s.kind, COALESCE(f.path, ''), s.start_line, s.end_line
            FROM symbols s LEFT JOIN files f ON f.id = s.file_id {w} ORDER BY s.id""",
        args,
    )


def calls_from(conn: sqlite3.Connection, sid: int) -> list[tuple]:
    """(callee_id, callee_name, line, kind, resolution, confidence) of the calls made by ``sid``."""
    return conn.execute(
        "SELECT callee_id, callee_name, line, kind, resolution, confidence FROM symbol_refs WHERE caller_id = ?"
        " ORDER BY line, col, callee_id",
        (sid,),
    ).fetchall()


def calls_to(conn: sqlite3.Connection, sid: int) -> list[tuple]:
    """(caller_id, callee_name, line, kind, resolution, confidence) of the calls that reach ``sid``."""
    return conn.execute(
        "SELECT caller_id, callee_name, line, kind, resolution, confidence FROM symbol_refs WHERE callee_id = ?"
        " ORDER BY caller_id, line",
        (sid,),
    ).fetchall()


def imports_of_file(conn: sqlite3.Connection, file_id: int) -> list[tuple]:
    """(module, name, alias, level, line, target_file_id, target_id, resolution, confidence)."""
    return conn.execute(
        "SELECT module, name, alias, level, line, target_file_id, target_id, resolution, confidence"
        " FROM file_imports WHERE file_id = ? ORDER BY line, module, name",
        (file_id,),
    ).fetchall()


def importers_of_file(conn: sqlite3.Connection, file_id: int) -> list[tuple]:
    """(importing file id, module, name, line, resolution, confidence) of imports that land in ``file_id``."""
    return conn.execute(
        "SELECT file_id, module, name, line, resolution, confidence FROM file_imports WHERE target_file_id = ?"
        " ORDER BY file_id, line",
        (file_id,),
    ).fetchall()


def relationships(conn: sqlite3.Connection, sid: int, *, outgoing: bool, kinds: tuple[str, ...]) -> list[tuple]:
    """(other id, target_name, kind, line, resolution, confidence) of relationships from / to ``sid``."""
    q = ",".join("?" * len(kinds))
    if outgoing:
        sql = (f"SELECT target_id, target_name, kind, line, resolution, confidence FROM symbol_relationships"
               f" WHERE source_id = ? AND kind IN ({q}) ORDER BY kind, target_id")
    else:
        sql = (f"SELECT source_id, target_name, kind, line, resolution, confidence FROM symbol_relationships"
               f" WHERE target_id = ? AND kind IN ({q}) ORDER BY kind, source_id")
    return conn.execute(sql, (sid, *kinds)).fetchall()


def table_count(conn: sqlite3.Connection, table: str) -> int:
    assert table in {"files", "symbols", "symbol_refs", "type_refs", "file_imports", "symbol_relationships"}
    return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def stats(conn: sqlite3.Connection) -> dict:
    """Counts for ``lore stats``: files and symbols by language and kind, edges by table and resolution."""
    out: dict = {}
    out["files_by_language"] = dict(conn.execute("SELECT language, COUNT(*) FROM files GROUP BY language ORDER BY language"))
    out["files"] = sum(out["files_by_language"].values())
    out["syntax_error_files"] = conn.execute("SELECT COUNT(*) FROM files WHERE syntax_errors > 0").fetchone()[0]
    out["symbols_by_kind"] = dict(conn.execute("SELECT kind, COUNT(*) FROM symbols GROUP BY kind ORDER BY kind"))
    out["symbols_by_language"] = dict(
        conn.execute(
            "SELECT f.language, COUNT(*) FROM symbols s JOIN files f ON f.id = s.file_id GROUP BY f.language ORDER BY f.language"
        )
    )
    edges: dict = {}
    for table in ("symbol_refs", "type_refs", "file_imports", "symbol_relationships"):
        edges[table] = {
            "total": table_count(conn, table),
            "by_resolution": dict(
                conn.execute(f"SELECT resolution, COUNT(*) FROM {table} GROUP BY resolution ORDER BY resolution")
            ),
        }
    out["edges"] = edges
    out["calls_by_language"] = {
        lang: {"total": total, "resolved": resolved}
        for lang, total, resolved in conn.execute(
            """SELECT f.language, COUNT(*), SUM(r.callee_id IS NOT NULL) FROM symbol_refs r
               JOIN symbols s ON s.id = r.caller_id JOIN files f ON f.id = s.file_id GROUP BY f.language ORDER BY f.language"""
        )
    }
    return out


def node_table(conn: sqlite3.Connection) -> list[tuple[int, int, int, int, int]]:
    """(id, file_id or -1, parent_id or -1, is_test, kind) for every symbol, ordered by id (kind as text)."""
    return conn.execute(
        "SELECT id, COALESCE(file_id, -1), COALESCE(parent_id, -1), is_test, kind FROM symbols ORDER BY id"
    ).fetchall()


def call_edges(conn: sqlite3.Connection) -> list[tuple[int, int, float]]:
    """(caller_id, callee_id, confidence) of every resolved call edge."""
    return conn.execute(
        "SELECT caller_id, callee_id, confidence FROM symbol_refs WHERE callee_id IS NOT NULL"
    ).fetchall()


def type_edges(conn: sqlite3.Connection) -> list[tuple[int, int, float]]:
    return conn.execute("SELECT symbol_id, type_id, confidence FROM type_refs WHERE type_id IS NOT NULL").fetchall()


def relationship_edges(conn: sqlite3.Connection, kinds: tuple[str, ...]) -> list[tuple[int, int, float]]:
    q = ",".join("?" * len(kinds))
    return conn.execute(
        f"SELECT source_id, target_id, confidence FROM symbol_relationships WHERE target_id IS NOT NULL AND kind IN ({q})",
        kinds,
    ).fetchall()


def import_edges(conn: sqlite3.Connection) -> list[tuple[int, int, float]]:
    """(importing module symbol id, imported symbol id, confidence) of resolved imports."""
    return conn.execute(
        """SELECT s.id, i.target_id, i.confidence FROM file_imports i
           JOIN symbols s ON s.file_id = i.file_id AND s.parent_id IS NULL AND s.kind = 'module'
           WHERE i.target_id IS NOT NULL"""
    ).fetchall()


def edge_details(conn: sqlite3.Connection, source: int, target: int) -> list[tuple[str, str, int, str, float]]:
    """Every stored edge between two symbols, either direction: (table, kind, line, resolution, confidence)."""
    out: list[tuple[str, str, int, str, float]] = []
    for a, b in ((source, target), (target, source)):
        out += [("call", "calls" if a == source else "called_by", r[0], r[1], r[2]) for r in conn.execute(
            "SELECT line, resolution, confidence FROM symbol_refs WHERE caller_id = ? AND callee_id = ? ORDER BY line LIMIT 3",
            (a, b))]
        out += [("type", r[0] if a == source else f"{r[0]}_of", r[1], r[2], r[3]) for r in conn.execute(
            "SELECT kind, line, resolution, confidence FROM type_refs WHERE symbol_id = ? AND type_id = ? ORDER BY line LIMIT 3",
            (a, b))]
        out += [("relationship", r[0] if a == source else f"{r[0]}_by", r[1], r[2], r[3]) for r in conn.execute(
            "SELECT kind, line, resolution, confidence FROM symbol_relationships WHERE source_id = ? AND target_id = ?"
            " ORDER BY kind LIMIT 3", (a, b))]
    return out
