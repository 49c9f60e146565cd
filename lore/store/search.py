"""All SQL of code search: BM25 over ``symbols_fts`` / ``files_fts``, graph neighbours for expansion,
and the ``code_vectors`` table.

Nothing in :mod:`lore.search` writes SQL; it calls these helpers. MATCH expressions arrive already
built by :mod:`lore.search.bm25` (every user word quoted), and every value is a bound parameter.
``bm25()`` is negated so that higher is better everywhere in lore.

Writers (``put_vectors``, ``delete_vectors``) run inside the caller's
:func:`~lore.store.db.write_transaction`. Every vector write bumps ``meta.code_vectors_stamp`` so
in-memory matrices cached per process know to reload without touching the index ``generation``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from . import _fts_text
from .db import get_meta, set_meta

if TYPE_CHECKING:  # numpy loads only where vectors are read or written: `lore index` stays light
    import numpy as np

# column order of symbols_fts: name, qualified_name, signature, docstring, path, body, rest
SYMBOL_FTS_COLUMNS = ("name", "qualified_name", "signature", "docstring", "path", "body", "rest")
FILE_FTS_COLUMNS = ("path", "exports", "imports", "content")
_CHUNK = 900  # bound parameters per IN (...) list, under SQLite's default limit


def _filters(
    kind: str | None, path_prefix: str | None, include_tests: bool, *, sym: str = "s", file: str = "f"
) -> tuple[str, list]:
    where: list[str] = []
    args: list = []
    if kind:
        where.append(f"{sym}.kind = ?")
        args.append(kind)
    if path_prefix:
        # substr comparison: LIKE would read % and _ in the prefix as wildcards
        where.append(f"substr({file}.path, 1, ?) = ?")
        args += [len(path_prefix), path_prefix]
    if not include_tests:
        where.append(f"{file}.is_test = 0")
    return "".join(f" AND {w}" for w in where), args


def fts_symbols(
    conn: sqlite3.Connection,
    match: str,
    *,
    weights: Sequence[float],
    limit: int,
    kind: str | None = None,
    path_prefix: str | None = None,
    include_tests: bool = True,
) -> list[tuple[int, float]]:
    """Best ``limit`` symbols for an FTS5 MATCH expression: ``[(symbol id, -bm25)]``, best first."""
    w = ", ".join("?" * len(weights))
    extra, args = _filters(kind, path_prefix, include_tests)
    if extra:
        sql = (
            f"SELECT t.rowid, -bm25(symbols_fts, {w}) AS score FROM symbols_fts t "
            "JOIN symbols s ON s.id = t.rowid JOIN files f ON f.id = s.file_id "
            f"WHERE symbols_fts MATCH ?{extra} ORDER BY score DESC, t.rowid LIMIT ?"
        )
    else:
        sql = (
            f"SELECT rowid, -bm25(symbols_fts, {w}) AS score FROM symbols_fts "
            "WHERE symbols_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?"
        )
    return [(int(i), float(s)) for i, s in conn.execute(sql, [*weights, match, *args, limit])]


def fts_files(
    conn: sqlite3.Connection,
    match: str,
    *,
    weights: Sequence[float],
    limit: int,
    path_prefix: str | None = None,
    include_tests: bool = True,
) -> list[tuple[int, float]]:
    """Best ``limit`` files for an FTS5 MATCH expression: ``[(file id, -bm25)]``, best first."""
    w = ", ".join("?" * len(weights))
    extra, args = _filters(None, path_prefix, include_tests)
    sql = (
        f"SELECT t.rowid, -bm25(files_fts, {w}) AS score FROM files_fts t JOIN files f ON f.id = t.rowid "
        f"WHERE files_fts MATCH ?{extra} ORDER BY score DESC, t.rowid LIMIT ?"
    )
    return [(int(i), float(s)) for i, s in conn.execute(sql, [*weights, match, *args, limit])]


def files_named(conn: sqlite3.Connection, name: str) -> list[int]:
    """The file whose path is ``name``, else the files whose path ends with ``/name`` (case-sensitive)."""
    row = conn.execute("SELECT id FROM files WHERE path = ?", (name,)).fetchone()
    if row:
        return [int(row[0])]
    rows = conn.execute(
        "SELECT id FROM files WHERE substr(path, -?) = ? ORDER BY length(path), path",
        (len(name) + 1, "/" + name),
    )
    return [int(r[0]) for r in rows]


def term_doc_counts(conn: sqlite3.Connection, table: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
    """(rows in ``table``, term -> number of rows containing it) from an ``fts5vocab`` view in ``temp``.

    ``table`` is ``symbols_fts`` or ``files_fts``. The temp view works on read-only connections too.
    """
    if table not in ("symbols_fts", "files_fts"):
        raise ValueError(f"not an FTS table: {table}")
    vocab = f"{table}_vocab_row"
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{vocab} USING fts5vocab(main, {table}, row)")
    terms = list(dict.fromkeys(terms))
    q = ",".join("?" * len(terms))
    counts = {t: 0 for t in terms}
    counts.update(
        {t: int(n) for t, n in conn.execute(f"SELECT term, doc FROM temp.{vocab} WHERE term IN ({q})", terms)}
    )
    # row count from the base table: count(*) on an FTS5 table reads every row
    base = "symbols WHERE file_id IS NOT NULL" if table == "symbols_fts" else "files"
    total = conn.execute(f"SELECT count(*) FROM {base}").fetchone()[0]
    return int(total), counts


def terms_held(conn: sqlite3.Connection, table: str, rowid: int, phrases: Sequence[str]) -> list[bool]:
    """Whether the row ``rowid`` of ``table`` (``symbols_fts`` or ``files_fts``) holds each FTS5 phrase
    (``"a b"``, as :func:`~lore.search.bm25.match_expression` quotes a term); one rowid-bound MATCH each."""
    if table not in ("symbols_fts", "files_fts"):
        raise ValueError(f"not an FTS table: {table}")
    sql = f"SELECT 1 FROM {table} WHERE {table} MATCH ? AND rowid = ?"
    return [conn.execute(sql, [p, rowid]).fetchone() is not None for p in phrases]


def symbol_rows(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, dict]:
    """id -> row dict (id, name, qualified_name, kind, path, line, end_line, signature, is_test, file_id)."""
    out: dict[int, dict] = {}
    ids = list(ids)
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        for r in conn.execute(
            f"""SELECT s.id, s.name, s.qualified_name, s.kind, COALESCE(f.path, ''), s.start_line, s.end_line,
                       s.signature, s.is_test, s.file_id
                FROM symbols s LEFT JOIN files f ON f.id = s.file_id WHERE s.id IN ({q})""",
            chunk,
        ):
            out[r[0]] = {
                "id": r[0],
                "name": r[1],
                "qualified_name": r[2],
                "kind": r[3],
                "path": r[4],
                "line": r[5],
                "end_line": r[6],
                "signature": r[7],
                "is_test": bool(r[8]),
                "file_id": r[9],
            }
    return out


def file_rows(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, dict]:
    """id -> file dict (id, path, language, module, lines, is_test, exports, imports)."""
    out: dict[int, dict] = {}
    ids = list(ids)
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        for r in conn.execute(
            f"SELECT id, path, language, module, lines, is_test FROM files WHERE id IN ({q})", chunk
        ):
            out[r[0]] = {
                "id": r[0],
                "path": r[1],
                "language": r[2],
                "module": r[3],
                "lines": r[4],
                "is_test": bool(r[5]),
            }
        # exported top-level names and imported modules, as the indexer summarised them
        for fid, name in conn.execute(
            f"""SELECT s.file_id, s.name FROM symbols s JOIN symbols m ON m.id = s.parent_id
                WHERE s.file_id IN ({q}) AND m.kind = 'module' AND s.exported = 1 ORDER BY s.start_line""",
            chunk,
        ):
            if fid in out:
                out[fid].setdefault("exports", []).append(name)
        for fid, module in conn.execute(
            f"SELECT DISTINCT file_id, module FROM file_imports WHERE file_id IN ({q}) ORDER BY file_id, module",
            chunk,
        ):
            if fid in out:
                out[fid].setdefault("imports", []).append(module)
    for row in out.values():
        row.setdefault("exports", [])
        row.setdefault("imports", [])
    return out


def filtered_ids(
    conn: sqlite3.Connection,
    owner_kind: str,
    *,
    kind: str | None = None,
    path_prefix: str | None = None,
    include_tests: bool = True,
) -> np.ndarray:
    """Ids of the symbols (or files) that pass the filters, as an int64 array."""
    import numpy as np

    if owner_kind == "file":
        extra, args = _filters(None, path_prefix, include_tests)
        sql = f"SELECT f.id FROM files f WHERE 1{extra}"
    else:
        extra, args = _filters(kind, path_prefix, include_tests)
        sql = f"SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE 1{extra}"
    return np.fromiter((r[0] for r in conn.execute(sql, args)), dtype=np.int64)


# ---------------------------------------------------------------- graph neighbours (expansion)


def neighbours(
    conn: sqlite3.Connection, ids: Sequence[int], *, fanout: int
) -> list[tuple[int, int, str, str]]:
    """Structural neighbours of ``ids``: ``(source, neighbour, edge, direction)``.

    ``edge`` is ``contains`` / ``extends`` / ``implements`` / ``overrides`` / ``calls`` / ``imports``;
    ``direction`` is ``out`` (source -> neighbour) or ``in``. Imports are followed outwards only (who
    imports a popular module says little about a hit). External symbols (no file) are left out, and
    so is the module that contains a symbol: it is the symbol's own file, already named by its
    ``path``, and it would otherwise rank next to every hit. At most ``fanout`` neighbours per
    (source, edge, direction), strongest confidence first.
    """
    out: list[tuple[int, int, str, str]] = []
    ids = list(dict.fromkeys(int(i) for i in ids))
    for k in range(0, len(ids), _CHUNK // 4):
        chunk = ids[k : k + _CHUNK // 4]
        q = ",".join("?" * len(chunk))
        sql = f"""
            WITH e(src, dst, edge, dir, conf) AS (
                SELECT source_id, target_id, kind, 'out', confidence FROM symbol_relationships
                    WHERE source_id IN ({q}) AND target_id IS NOT NULL
                UNION ALL
                SELECT target_id, source_id, kind, 'in', confidence FROM symbol_relationships
                    WHERE target_id IN ({q})
                UNION ALL
                SELECT caller_id, callee_id, 'calls', 'out', max(confidence) FROM symbol_refs
                    WHERE caller_id IN ({q}) AND callee_id IS NOT NULL GROUP BY caller_id, callee_id
                UNION ALL
                SELECT callee_id, caller_id, 'calls', 'in', max(confidence) FROM symbol_refs
                    WHERE callee_id IN ({q}) GROUP BY callee_id, caller_id
                UNION ALL
                SELECT symbol_id, target_id, 'imports', 'out', max(confidence) FROM file_imports
                    WHERE symbol_id IN ({q}) AND target_id IS NOT NULL GROUP BY symbol_id, target_id
            ),
            r AS (
                SELECT e.src, e.dst, e.edge, e.dir,
                       row_number() OVER (PARTITION BY e.src, e.edge, e.dir ORDER BY e.conf DESC, e.dst) AS n
                FROM e JOIN symbols s ON s.id = e.dst
                WHERE s.file_id IS NOT NULL AND e.dst != e.src
                      AND NOT (e.edge = 'contains' AND e.dir = 'in' AND s.kind = 'module')
            )
            SELECT src, dst, edge, dir FROM r WHERE n <= ? ORDER BY src, edge, dir, n
        """
        out.extend(conn.execute(sql, [*chunk * 5, fanout]))
    return out


# ---------------------------------------------------------------- code vectors


def symbol_texts(
    conn: sqlite3.Connection, *, changed_since: int | None = None
) -> Iterator[tuple[int, str, str, str, str, str, str, str]]:
    """Per searchable symbol: (id, name, qualified_name, kind, signature, docstring, path, fts body).

    With ``changed_since``, only the symbols of files written by a later index generation.
    """
    where, args = ("WHERE f.generation > ?", [changed_since]) if changed_since is not None else ("", [])
    body = 1 + _fts_text.COLUMNS["symbols_fts"].index("body")
    bodies: dict[int, dict[int, str]] = {}  # file id -> symbol id -> body, for the last files read
    for *row, fid in conn.execute(
        f"""SELECT s.id, s.name, s.qualified_name, s.kind, s.signature, s.docstring, f.path, s.file_id
           FROM symbols s JOIN files f ON f.id = s.file_id {where} ORDER BY s.id""",
        args,
    ):
        got = bodies.get(fid)
        if got is None:  # a file's symbols are numbered together: its stored rows are read about once
            if len(bodies) >= 64:
                bodies.clear()
            got = bodies[fid] = {r[0]: r[body] for r in _fts_text.file_rows(conn, "symbols_fts", [fid])}
        yield (*row, got.get(row[0], ""))  # type: ignore[misc]


def file_texts(conn: sqlite3.Connection, *, changed_since: int | None = None) -> Iterator[tuple[int, str, str, str]]:
    """Per file: (id, path, exports text, imports text) as stored in ``files_fts`` (only files
    written after generation ``changed_since`` when given)."""
    where, args = ("WHERE f.generation > ?", [changed_since]) if changed_since is not None else ("", [])
    for i, path, data in conn.execute(
        f"""SELECT f.id, f.path, t.data FROM files f LEFT JOIN fts_text t ON t.file_id = f.id {where} ORDER BY f.id""",
        args,
    ):
        cols = (_fts_text.unpack(data)[0] if data is not None else None) or ("", "", "", "")
        yield i, path, cols[1], cols[2]


def owner_ids(conn: sqlite3.Connection, owner_kind: str, *, changed_since: int | None = None) -> set[int]:
    """Ids of the searchable symbols (or files); only those written after ``changed_since`` when given."""
    where, args = (" AND f.generation > ?", [changed_since]) if changed_since is not None else ("", [])
    if owner_kind == "file":
        sql = f"SELECT f.id FROM files f WHERE 1{where}"
    else:
        sql = f"SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE 1{where}"
    return {int(r[0]) for r in conn.execute(sql, args)}


def vectors_generation(conn: sqlite3.Connection, model: str) -> int | None:
    """The index generation the code vectors of ``model`` were last brought up to date with."""
    value = get_meta(conn, f"code_vectors_generation:{model}")
    return int(value) if value else None


def set_vectors_generation(conn: sqlite3.Connection, model: str, gen: int) -> None:
    set_meta(conn, f"code_vectors_generation:{model}", str(int(gen)))


def vector_model_generations(conn: sqlite3.Connection) -> dict[str, int | None]:
    """model -> generation of its last refresh, for every model with stored code vectors.

    Cheap (meta rows, plus one indexed probe): ``lore index`` calls it on every run. Vectors made
    before refreshes were recorded show up with ``None``.
    """
    out: dict[str, int | None] = {
        key.split(":", 1)[1]: int(value)
        for key, value in conn.execute("SELECT key, value FROM meta WHERE key LIKE 'code_vectors_generation:%'")
    }
    row = conn.execute("SELECT model FROM code_vectors WHERE owner_kind = 'symbol' LIMIT 1").fetchone()
    if row and row[0] not in out:
        out[row[0]] = None
    return out


def drop_vector_model(conn: sqlite3.Connection, model: str) -> int:
    """Delete every code vector of ``model`` (and its refresh record); returns the rows deleted."""
    n = conn.execute("DELETE FROM code_vectors WHERE model = ?", (model,)).rowcount
    conn.execute("DELETE FROM meta WHERE key = ?", (f"code_vectors_generation:{model}",))
    _bump_stamp(conn)
    return int(n)


def vector_hashes(
    conn: sqlite3.Connection, owner_kind: str, model: str, ids: Sequence[int] | None = None
) -> dict[int, str]:
    """owner id -> content hash of the stored vectors of ``model`` (of ``ids`` only, when given:
    primary-key lookups instead of a scan of every vector)."""
    if ids is None:
        rows = conn.execute(
            "SELECT owner_id, content_hash FROM code_vectors WHERE owner_kind = ? AND model = ?",
            (owner_kind, model),
        )
        return {int(i): h for i, h in rows}
    out: dict[int, str] = {}
    ids = list(ids)
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        out.update(
            (int(i), h)
            for i, h in conn.execute(
                f"SELECT owner_id, content_hash FROM code_vectors WHERE owner_kind = ? AND owner_id IN ({q})"
                " AND model = ?",
                [owner_kind, *chunk, model],
            )
        )
    return out


def live_owner_ids(conn: sqlite3.Connection, owner_kind: str, ids: Sequence[int]) -> set[int]:
    """Those of ``ids`` that still name a searchable symbol (or a file)."""
    out: set[int] = set()
    ids = list(ids)
    table = "files WHERE 1" if owner_kind == "file" else "symbols WHERE file_id IS NOT NULL"
    for k in range(0, len(ids), _CHUNK):
        chunk = ids[k : k + _CHUNK]
        q = ",".join("?" * len(chunk))
        out.update(int(r[0]) for r in conn.execute(f"SELECT id FROM {table} AND id IN ({q})", chunk))
    return out


def put_vectors(
    conn: sqlite3.Connection, owner_kind: str, model: str, rows: Iterable[tuple[int, str, np.ndarray]]
) -> None:
    """Insert or replace vectors: rows of (owner id, content hash, float32 vector)."""
    import numpy as np

    conn.executemany(
        "INSERT OR REPLACE INTO code_vectors(owner_kind, owner_id, model, content_hash, vector) VALUES (?,?,?,?,?)",
        ((owner_kind, int(i), model, h, np.asarray(v, dtype=np.float32).tobytes()) for i, h, v in rows),
    )
    _bump_stamp(conn)


def delete_vectors(conn: sqlite3.Connection, owner_kind: str, model: str, ids: Iterable[int]) -> None:
    conn.executemany(
        "DELETE FROM code_vectors WHERE owner_kind = ? AND model = ? AND owner_id = ?",
        ((owner_kind, model, int(i)) for i in ids),
    )
    _bump_stamp(conn)


def _bump_stamp(conn: sqlite3.Connection) -> None:
    set_meta(conn, "code_vectors_stamp", str(vectors_stamp(conn) + 1))


def vectors_stamp(conn: sqlite3.Connection) -> int:
    """Counter bumped by every ``code_vectors`` write (cache key of in-memory matrices)."""
    return int(get_meta(conn, "code_vectors_stamp", "0") or 0)


def vector_models(conn: sqlite3.Connection, owner_kind: str) -> list[tuple[str, int]]:
    """(model, count) of stored vectors for ``owner_kind``, most used first."""
    rows = conn.execute(
        "SELECT model, count(*) FROM code_vectors WHERE owner_kind = ? GROUP BY model ORDER BY 2 DESC, 1",
        (owner_kind,),
    )
    return [(m, int(n)) for m, n in rows]


def load_vectors(conn: sqlite3.Connection, owner_kind: str, model: str) -> tuple[np.ndarray, np.ndarray]:
    """(owner ids ascending, float32 matrix one row per id) of ``model``; empty arrays when none."""
    import numpy as np

    ids: list[int] = []
    blobs: list[bytes] = []
    for owner_id, blob in conn.execute(
        "SELECT owner_id, vector FROM code_vectors WHERE owner_kind = ? AND model = ? ORDER BY owner_id",
        (owner_kind, model),
    ):
        ids.append(owner_id)
        blobs.append(blob)
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), -1)
    return np.asarray(ids, dtype=np.int64), matrix


# ---------------------------------------------------------------- benchmark helpers (run on a copy)


def blank_docstrings(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Remove the docstrings of ``ids`` from ``symbols`` and ``symbols_fts`` (benchmarks, on a copy)."""
    conn.executemany("UPDATE symbols SET docstring = '' WHERE id = ?", ((int(i),) for i in ids))
    _fts_set(conn, {int(i): "" for i in ids}, SYMBOL_FTS_COLUMNS.index("docstring"))


def _fts_set(conn: sqlite3.Connection, values: dict[int, str], col: int) -> None:
    """Set one column of the ``symbols_fts`` rows of ``values`` (its keys) to the values (a contentless row
    is deleted and inserted again)."""
    new = [(r[0], *r[1 : col + 1], values[r[0]], *r[col + 2 :]) for r in _fts_text.symbol_rows(conn, values)]
    _fts_text.replace_symbols(conn, new)


def fts_bodies(conn: sqlite3.Connection) -> dict[int, str]:
    """symbol id -> indexed body text (benchmarks)."""
    body = 1 + SYMBOL_FTS_COLUMNS.index("body")
    return {r[0]: r[body] for r in _fts_text.file_rows(conn, "symbols_fts")}


def set_fts_bodies(conn: sqlite3.Connection, rows: Iterable[tuple[int, str]]) -> None:
    """Replace indexed body texts: rows of (symbol id, body) (benchmarks, on a copy)."""
    _fts_set(conn, {int(i): b for i, b in rows}, SYMBOL_FTS_COLUMNS.index("body"))


def documented_symbols(conn: sqlite3.Connection) -> list[tuple[int, str, str, str, str, int]]:
    """(id, name, qualified_name, kind, docstring, is_test) of symbols with a docstring, by id."""
    return list(
        conn.execute(
            """SELECT id, name, qualified_name, kind, docstring, is_test FROM symbols
               WHERE file_id IS NOT NULL AND docstring != '' ORDER BY id"""
        )
    )


def symbol_index_texts(conn: sqlite3.Connection, symbol_id: int) -> tuple[list[str], str]:
    """(the ``symbols_fts`` columns of a symbol, its stored docstring); benchmarks check that a
    removed docstring is gone from both."""
    got = list(_fts_text.symbol_rows(conn, [int(symbol_id)]))
    row = conn.execute("SELECT docstring FROM symbols WHERE id = ?", (int(symbol_id),)).fetchone()
    if not got or row is None:
        return [], ""
    return [c or "" for c in got[0][1:]], row[0] or ""


def count_searchable(conn: sqlite3.Connection) -> int:
    """Symbols that search can return (those defined in a file)."""
    return int(conn.execute("SELECT count(*) FROM symbols WHERE file_id IS NOT NULL").fetchone()[0])


def all_file_paths(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    return [(int(i), p) for i, p in conn.execute("SELECT id, path FROM files ORDER BY id")]


def replicate_index(conn: sqlite3.Connection, source: str, times: int) -> int:
    """Fill an empty index with ``times`` copies of the files, symbols and FTS rows of ``source``.

    Speed benchmarks only: a corpus of real symbols at a larger scale (ids and paths made unique
    per copy). Returns the number of symbols written.
    """
    conn.execute("ATTACH DATABASE ? AS src", (str(source),))
    try:
        fmax = conn.execute("SELECT max(id) FROM src.files").fetchone()[0] or 0
        smax = conn.execute("SELECT max(id) FROM src.symbols").fetchone()[0] or 0
        for k in range(times):
            fo, so = k * fmax, k * smax
            conn.execute(
                """INSERT INTO files(id, path, language, module, hash, size, mtime_ns, lines, syntax_errors,
                                     is_test, generation)
                   SELECT id + ?, 'copy' || ? || '/' || path, language, module, hash, size, mtime_ns, lines,
                          syntax_errors, is_test, generation FROM src.files""",
                (fo, k),
            )
            conn.execute(
                """INSERT INTO symbols(id, file_id, name, qualified_name, kind, parent_id, start_line, end_line,
                                       start_col, end_col, signature, docstring, return_type, exported, is_test)
                   SELECT id + ?, file_id + ?, name, qualified_name, kind, parent_id + ?, start_line, end_line,
                          start_col, end_col, signature, docstring, return_type, exported, is_test
                   FROM src.symbols WHERE file_id IS NOT NULL""",
                (so, fo, so),
            )
            src = conn.execute("SELECT file_id, data FROM src.fts_text").fetchall()
            _fts_text.insert_symbols(conn, [(f + fo, [(r[0] + so, *r[1:5], f"copy {k} {r[5]}", *r[6:])
                                                      for r in _fts_text.unpack(d)[1]]) for f, d in src])
        conn.commit()
    finally:
        conn.execute("DETACH DATABASE src")
    return int(conn.execute("SELECT count(*) FROM symbols_fts_docsize").fetchone()[0])


def fts_rows(conn: sqlite3.Connection) -> list[tuple[int, str, str, str, str, str, str]]:
    """Every ``symbols_fts`` row (speed benchmarks: the same corpus for an in-memory BM25)."""
    return sorted(r[:7] for r in _fts_text.file_rows(conn, "symbols_fts"))


def definition_spans(conn: sqlite3.Connection) -> list[tuple[int, str, str, str, int, int]]:
    """(id, path, qualified_name, kind, start line, end line) of every function, method and class in a file
    (the localization benchmark's units; :mod:`lore.bench.localize`)."""
    return [
        (int(r[0]), r[1], r[2], r[3], int(r[4]), int(r[5]))
        for r in conn.execute(
            "SELECT s.id, f.path, s.qualified_name, s.kind, s.start_line, s.end_line FROM symbols s "
            "JOIN files f ON f.id = s.file_id WHERE s.kind IN ('function', 'method', 'class') ORDER BY s.id"
        )
    ]


def file_paths(conn: sqlite3.Connection) -> list[str]:
    """Every indexed file's repository-relative path, sorted."""
    return [r[0] for r in conn.execute("SELECT path FROM files ORDER BY path")]
