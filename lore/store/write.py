"""Writing the code index: every INSERT / DELETE the indexer needs, batched with executemany.

All functions run inside the caller's transaction (see :func:`lore.store.db.write_transaction`).

The two search tables are contentless FTS5 tables (their text is not stored twice): each row's
columns are kept once, compressed, one row per file for both tables, in ``fts_text``
(:mod:`lore.store._fts_text`), which a delete reads back to remove the rows' terms.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from . import _fts_text
from ._record_cols import pack_ids, pack_names
from .schema import REF_KIND_CODES, REL_KIND_CODES, RESOLUTION_CODES, TYPE_KIND_CODES


def _temp_ids(conn: sqlite3.Connection, name: str, ids: Iterable[int]) -> str:
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {name} (id INTEGER PRIMARY KEY)")
    conn.execute(f"DELETE FROM {name}")
    conn.executemany(f"INSERT OR IGNORE INTO {name}(id) VALUES (?)", ((i,) for i in ids))
    return f"temp.{name}"


def delete_edges_of_files(conn: sqlite3.Connection, file_ids: Iterable[int]) -> None:
    """Delete every edge that starts in one of ``file_ids`` (they are about to be re-resolved)."""
    t = _temp_ids(conn, "_lore_files", file_ids)
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS _lore_syms (id INTEGER PRIMARY KEY)")
    conn.execute("DELETE FROM temp._lore_syms")
    conn.execute(f"INSERT INTO temp._lore_syms SELECT id FROM symbols WHERE file_id IN (SELECT id FROM {t})")
    conn.execute("DELETE FROM symbol_refs WHERE caller_id IN (SELECT id FROM temp._lore_syms)")
    conn.execute("DELETE FROM type_refs WHERE symbol_id IN (SELECT id FROM temp._lore_syms)")
    conn.execute("DELETE FROM symbol_relationships WHERE source_id IN (SELECT id FROM temp._lore_syms)")
    conn.execute(f"DELETE FROM file_imports WHERE file_id IN (SELECT id FROM {t})")


def delete_files(conn: sqlite3.Connection, file_ids: Sequence[int]) -> list[int]:
    """Delete files with their symbols, records and search rows; return the deleted symbol ids."""
    if not file_ids:
        return []
    delete_edges_of_files(conn, file_ids)
    sym_ids = [r[0] for r in conn.execute("SELECT id FROM temp._lore_syms")]
    _fts_text.delete_files(conn, ("symbols_fts", "files_fts"), file_ids)
    conn.execute("DELETE FROM symbols WHERE id IN (SELECT id FROM temp._lore_syms)")
    conn.execute("DELETE FROM file_records WHERE file_id IN (SELECT id FROM temp._lore_files)")
    conn.execute("DELETE FROM files WHERE id IN (SELECT id FROM temp._lore_files)")
    return sym_ids


def delete_symbols_of_file(conn: sqlite3.Connection, file_id: int) -> list[int]:
    ids = [r[0] for r in conn.execute("SELECT id FROM symbols WHERE file_id = ?", (file_id,))]
    _fts_text.delete_files(conn, ("symbols_fts",), [file_id])
    conn.execute("DELETE FROM symbols WHERE file_id = ?", (file_id,))
    return ids


def delete_file_fts(conn: sqlite3.Connection, file_id: int) -> None:
    """Drop the file-search row of ``file_id`` (its new text is inserted with the new file row)."""
    _fts_text.delete_files(conn, ("files_fts",), [file_id])


def upsert_file(conn: sqlite3.Connection, row: tuple, file_id: int | None) -> int:
    """Insert or update a ``files`` row (path, language, module, hash, size, mtime_ns, lines,
    syntax_errors, is_test, generation); returns its id (kept across updates)."""
    if file_id is None:
        cur = conn.execute(
            "INSERT INTO files(path, language, module, hash, size, mtime_ns, lines, syntax_errors, is_test, generation)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            row,
        )
        return int(cur.lastrowid)  # type: ignore[arg-type]
    conn.execute(
        "UPDATE files SET path=?, language=?, module=?, hash=?, size=?, mtime_ns=?, lines=?, syntax_errors=?,"
        " is_test=?, generation=? WHERE id=?",
        (*row, file_id),
    )
    return file_id


def insert_files(conn: sqlite3.Connection, rows: Iterable[tuple]) -> None:
    """Rows of (id, path, language, module, hash, size, mtime_ns, lines, syntax_errors, is_test, generation)."""
    conn.executemany(
        "INSERT INTO files(id, path, language, module, hash, size, mtime_ns, lines, syntax_errors, is_test, generation)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )


def touch_files(conn: sqlite3.Connection, rows: Iterable[tuple[int, int, int]]) -> None:
    """Record a new (size, mtime) for files whose content hash did not change."""
    conn.executemany("UPDATE files SET size=?, mtime_ns=? WHERE id=?", rows)


def insert_symbols(conn: sqlite3.Connection, rows: Iterable[tuple]) -> None:
    conn.executemany(
        "INSERT INTO symbols(id, file_id, name, qualified_name, kind, parent_id, start_line, end_line, start_col,"
        " end_col, signature, docstring, return_type, exported, is_test) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )


def insert_externals(conn: sqlite3.Connection, rows: Iterable[tuple[int, str, str]]) -> None:
    conn.executemany(
        "INSERT INTO symbols(id, file_id, name, qualified_name, kind) VALUES (?, NULL, ?, ?, 'external')", rows
    )


def delete_orphan_externals(conn: sqlite3.Connection) -> int:
    """Delete external symbols no edge points at any more (one index probe per table and external)."""
    cur = conn.execute(
        """DELETE FROM symbols WHERE file_id IS NULL
               AND NOT EXISTS (SELECT 1 FROM symbol_refs r WHERE r.callee_id = symbols.id)
               AND NOT EXISTS (SELECT 1 FROM type_refs t WHERE t.type_id = symbols.id)
               AND NOT EXISTS (SELECT 1 FROM symbol_relationships l WHERE l.target_id = symbols.id)
               AND NOT EXISTS (SELECT 1 FROM file_imports i WHERE i.target_id = symbols.id)"""
    )
    return cur.rowcount


def remap_targets(conn: sqlite3.Connection, mapping: Iterable[tuple[int, int]], lowest: int) -> None:
    """Replace provisional target ids (all ``>= lowest``) by their final ids in every edge table.

    Resolver workers number the external symbols they create from their own id ranges; the indexer
    maps those to one id per qualified name here, in SQL, instead of rewriting every row in Python.
    """
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS _lore_remap (prov INTEGER PRIMARY KEY, final INTEGER NOT NULL)")
    conn.execute("DELETE FROM temp._lore_remap")
    conn.executemany("INSERT INTO temp._lore_remap(prov, final) VALUES (?, ?)", mapping)
    for table, col in (("symbol_refs", "callee_id"), ("type_refs", "type_id"), ("file_imports", "target_id"),
                       ("symbol_relationships", "target_id")):  # fixed names
        conn.execute(
            f"UPDATE {table} SET {col} = (SELECT m.final FROM temp._lore_remap m WHERE m.prov = {table}.{col})"
            f" WHERE {col} >= ?",
            (lowest,),
        )


def put_records(conn: sqlite3.Connection, rows: Iterable[tuple[int, bytes, bytes, str]]) -> None:
    """Rows of (file id, compressed pickled ParsedFile, int64 symbol ids, referenced names)."""
    conn.executemany("INSERT OR REPLACE INTO file_records(file_id, data, local_ids, ref_names) VALUES (?,?,?,?)",
                     ((f, data, pack_ids(ids), pack_names(names)) for f, data, ids, names in rows))


def insert_edges(conn: sqlite3.Connection, refs: list[tuple], types: list[tuple], imports: list[tuple], rels: list[tuple]) -> None:
    """Rows of the four edge tables, their kind and resolution as text: stored as codes
    (:data:`lore.store.schema.RESOLUTION_CODES` ...; a value without a code as its text)."""
    res, kref, ktype, krel = RESOLUTION_CODES.get, REF_KIND_CODES.get, TYPE_KIND_CODES.get, REL_KIND_CODES.get
    conn.executemany(
        "INSERT INTO symbol_refs(caller_id, callee_id, callee_name, line, col, kind_code, res_code, confidence)"
        " VALUES (?,?,?,?,?,?,?,?)",
        ((a, b, c, d, e, kref(k, k), res(r, r), w) for a, b, c, d, e, k, r, w in refs),
    )
    conn.executemany(
        "INSERT INTO type_refs(symbol_id, type_id, type_name, kind_code, context, line, res_code, confidence)"
        " VALUES (?,?,?,?,?,?,?,?)",
        ((a, b, c, ktype(k, k), e, d, res(r, r), w) for a, b, c, k, e, d, r, w in types),
    )
    conn.executemany(
        "INSERT INTO file_imports(file_id, symbol_id, module, name, alias, level, line, target_file_id, target_id,"
        " res_code, confidence) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        ((*row[:9], res(row[9], row[9]), row[10]) for row in imports),
    )
    conn.executemany(
        "INSERT INTO symbol_relationships(source_id, target_id, target_name, kind_code, line, res_code, confidence)"
        " VALUES (?,?,?,?,?,?,?)",
        ((a, b, c, krel(k, k), d, res(r, r), w) for a, b, c, k, d, r, w in rels),
    )


def insert_symbol_fts(conn: sqlite3.Connection, groups: Iterable[tuple[int, Sequence[tuple]]]) -> None:
    """Groups of (file id, rows of (symbol id, name, qualified_name, signature, docstring, path, body, rest)),
    pre-tokenized: every symbol row of each file at once (their text is stored per file)."""
    _fts_text.insert_symbols(conn, groups)


def insert_file_fts(conn: sqlite3.Connection, rows: Iterable[tuple]) -> None:
    """Rows of (file id, path, exports, imports, content), pre-tokenized."""
    _fts_text.insert_files(conn, rows)


def insert_fts(conn: sqlite3.Connection, groups: Iterable[tuple[int, Sequence[tuple]]], rows: Iterable[tuple]) -> None:
    """:func:`insert_symbol_fts` and :func:`insert_file_fts` at once: a file's two texts are stored in one
    compressed row, written once."""
    _fts_text.insert(conn, rows, groups)
