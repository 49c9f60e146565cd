"""Reading the code index: every SELECT the indexer, the graphs and the queries need.

Rows that leave this module for the queries are named tuples (:class:`SymbolRow`, :class:`CallRow`,
...): read them by name (``row.qualified_name``), never by position. They are still tuples, so
code that unpacks them keeps working.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ._record_cols import unpack_ids, unpack_names
from .schema import STRENGTHS, strength


class FileState(NamedTuple):
    """What the indexer compares with the disk to see whether a file changed."""

    id: int
    hash: str
    size: int
    mtime_ns: int
    language: str = ""  # as indexed: a .h header's follows its project (C or C++), which may change


class SymbolHead(NamedTuple):
    """A symbol in listings: where it is and what it is."""

    id: int
    name: str
    qualified_name: str
    kind: str
    path: str
    line: int
    end_line: int


class SymbolRow(NamedTuple):
    """One symbol with its file path (``''`` for external symbols) and its details."""

    id: int
    name: str
    qualified_name: str
    kind: str
    path: str
    line: int
    end_line: int
    signature: str
    docstring: str
    is_test: int
    file_id: int | None
    parent_id: int | None


class CallRow(NamedTuple):
    """One call site: ``other_id`` is the callee (calls made) or the caller (calls received)."""

    other_id: int | None
    callee_name: str
    line: int
    kind: str
    resolution: str
    confidence: float


class ImportRow(NamedTuple):
    """One import statement of a file, with its resolved target if any."""

    module: str
    name: str | None
    alias: str | None
    level: int
    line: int
    target_file_id: int | None
    target_id: int | None
    resolution: str
    confidence: float


class ImporterRow(NamedTuple):
    """One import that lands in a file: the importing file and the statement."""

    file_id: int
    module: str
    name: str | None
    line: int
    resolution: str
    confidence: float


class RelationshipRow(NamedTuple):
    """One class relationship (extends, implements, overrides...) seen from one of its ends."""

    other_id: int | None
    target_name: str
    kind: str
    line: int | None
    resolution: str
    confidence: float


class EdgeDetail(NamedTuple):
    """One stored edge between two symbols, seen from the first: ``kind`` is ``calls``, ``called_by``,
    a type-ref kind (``param``, ``param_of``...) or a relationship kind (``extends``, ``extends_by``...)."""

    table: str
    kind: str
    line: int | None
    resolution: str
    confidence: float

SYMBOL_COLUMNS = (
    "id, file_id, name, qualified_name, kind, parent_id, start_line, end_line, signature, docstring, "
    "return_type, exported, is_test"
)


def _named(row_type, cursor: Iterable[tuple]) -> list:
    return list(map(row_type._make, cursor))


def file_states(conn: sqlite3.Connection) -> dict[str, FileState]:
    """path -> (id, hash, size, mtime_ns, language) of every indexed file."""
    return {r[0]: FileState(r[1], r[2], r[3], r[4], r[5])
            for r in conn.execute("SELECT path, id, hash, size, mtime_ns, language FROM files")}


def file_rows(conn: sqlite3.Connection) -> list[tuple[int, str, str, str, int]]:
    """(id, path, language, module, module symbol id) of every file."""
    return conn.execute(
        """SELECT f.id, f.path, f.language, f.module, s.id FROM files f
           JOIN symbols s ON s.file_id = f.id AND s.parent_id IS NULL AND s.kind = 'module'
           ORDER BY f.id"""
    ).fetchall()


def symbol_rows_for_world(conn: sqlite3.Connection) -> Iterator[tuple[int, int | None, str, str, str, int | None]]:
    """(id, file id, name, qualified name, kind, parent id) of every symbol, one row at a time (the
    Linux kernel has 1.1M: a list of them all would stand beside the world built from them)."""
    yield from conn.execute("SELECT id, file_id, name, qualified_name, kind, parent_id FROM symbols")


_WORLD_BY = {"id": "id = ?", "qname": "qualified_name = ?", "name": "name = ?", "parent": "parent_id = ?",
             "file": "file_id = ?"}


def world_rows(conn: sqlite3.Connection, by: str, key: object) -> list[tuple[int, int | None, str, str, str, int | None]]:
    """The rows of :func:`symbol_rows_for_world` whose ``by`` is ``key`` (``id``, ``qname``, ``name``,
    ``parent``, ``file``; ``kinds``: a tuple of kinds), in id order, through the symbols' indexes (a
    refresh reads the few its changed files' lookups ask for: ``lore.index._symtab``)."""
    head = "SELECT id, file_id, name, qualified_name, kind, parent_id FROM symbols WHERE "
    if by == "kinds":
        assert isinstance(key, tuple)
        return conn.execute(head + f"kind IN ({','.join('?' * len(key))}) ORDER BY id", key).fetchall()
    return conn.execute(head + _WORLD_BY[by] + " ORDER BY id", (key,)).fetchall()


def symbol_names_of_file(conn: sqlite3.Connection, file_id: int) -> list[str]:
    """The names of a file's symbols, in id order."""
    return [r[0] for r in conn.execute("SELECT name FROM symbols WHERE file_id = ? ORDER BY id", (file_id,))]


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
    return (row[0], unpack_ids(row[1])) if row else None


def ref_names(conn: sqlite3.Connection) -> Iterator[tuple[int, str]]:
    """(file id, every name its edges mention, space-separated) of every file."""
    for fid, data in conn.execute("SELECT file_id, ref_names FROM file_records"):
        yield fid, unpack_names(data)


def symbol_by_id(conn: sqlite3.Connection, sid: int) -> tuple | None:
    return conn.execute(
        f"SELECT {SYMBOL_COLUMNS.replace('id,', 's.id,', 1)} FROM symbols s WHERE s.id = ?", (sid,)
    ).fetchone()


def symbol_ids_by_qname(conn: sqlite3.Connection, qname: str) -> list[int]:
    return [r[0] for r in conn.execute("SELECT id FROM symbols WHERE qualified_name = ? ORDER BY id", (qname,))]


def symbols_by_ids(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, SymbolRow]:
    """id -> :class:`SymbolRow` of the given symbols (unknown ids are left out).

    One query per 900 distinct ids (the host-parameter limit of old SQLite builds): callers gather
    every id an answer needs and ask once.
    """
    out: dict[int, SymbolRow] = {}
    ids = sorted(set(ids))
    for k in range(0, len(ids), 900):
        chunk = ids[k : k + 900]
        q = ",".join("?" * len(chunk))
        for r in conn.execute(
            f"""SELECT s.id, s.name, s.qualified_name, s.kind, COALESCE(f.path, ''), s.start_line, s.end_line,
                       s.signature, s.docstring, s.is_test, s.file_id, s.parent_id
                FROM symbols s LEFT JOIN files f ON f.id = s.file_id WHERE s.id IN ({q})""",
            chunk,
        ):
            out[r[0]] = SymbolRow._make(r)
    return out


def symbol_roles(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, tuple[str, bool]]:
    """id -> (kind, is_test) of the given symbols: what a filter needs, without signatures and docstrings
    (26k callers of ``kfree`` are filtered, 20 are shown)."""
    out: dict[int, tuple[str, bool]] = {}
    ids = sorted(set(ids))
    for k in range(0, len(ids), 900):
        chunk = ids[k : k + 900]
        q = ",".join("?" * len(chunk))
        for r in conn.execute(f"SELECT id, kind, is_test FROM symbols WHERE id IN ({q})", chunk):
            out[r[0]] = (r[1], bool(r[2]))
    return out


def iter_symbols(conn: sqlite3.Connection, *, kind: str | None = None, include_external: bool = False) -> Iterator[SymbolHead]:
    """:class:`SymbolHead` (id, name, qualified_name, kind, path, line, end_line) of every symbol, by id."""
    where = [] if include_external else ["s.file_id IS NOT NULL"]
    args: list = []
    if kind:
        where.append("s.kind = ?")
        args.append(kind)
    w = ("WHERE " + " AND ".join(where)) if where else ""
    yield from map(SymbolHead._make, conn.execute(
        f"""SELECT s.id, s.name, s.qualified_name, s.kind, COALESCE(f.path, ''), s.start_line, s.end_line
            FROM symbols s LEFT JOIN files f ON f.id = s.file_id {w} ORDER BY s.id""",
        args,
    ))


def calls_from(conn: sqlite3.Connection, sid: int) -> list[CallRow]:
    """The calls made by ``sid`` (``other_id`` is the callee), in source order."""
    return _named(CallRow, conn.execute(
        "SELECT callee_id, callee_name, line, kind, resolution, confidence FROM symbol_refs WHERE caller_id = ?"
        " ORDER BY line, col, callee_id",
        (sid,),
    ))


def calls_to(conn: sqlite3.Connection, sid: int) -> list[CallRow]:
    """The calls that reach ``sid`` (``other_id`` is the caller), by caller and line."""
    return _named(CallRow, conn.execute(
        "SELECT caller_id, callee_name, line, kind, resolution, confidence FROM symbol_refs WHERE callee_id = ?"
        " ORDER BY caller_id, line",
        (sid,),
    ))


def imports_of_file(conn: sqlite3.Connection, file_id: int) -> list[ImportRow]:
    """The import statements of one file, by line."""
    return _named(ImportRow, conn.execute(
        "SELECT module, name, alias, level, line, target_file_id, target_id, resolution, confidence"
        " FROM file_imports WHERE file_id = ? ORDER BY line, module, name",
        (file_id,),
    ))


def importers_of_file(conn: sqlite3.Connection, file_id: int) -> list[ImporterRow]:
    """The imports that land in ``file_id``, by importing file and line."""
    return _named(ImporterRow, conn.execute(
        "SELECT file_id, module, name, line, resolution, confidence FROM file_imports WHERE target_file_id = ?"
        " ORDER BY file_id, line",
        (file_id,),
    ))


def relationships(conn: sqlite3.Connection, sid: int, *, outgoing: bool, kinds: tuple[str, ...]) -> list[RelationshipRow]:
    """The relationships of these kinds from (``outgoing``) or to ``sid``, by kind and other end."""
    q = ",".join("?" * len(kinds))
    if outgoing:
        sql = (f"SELECT target_id, target_name, kind, line, resolution, confidence FROM symbol_relationships"
               f" WHERE source_id = ? AND kind IN ({q}) ORDER BY kind, target_id")
    else:
        sql = (f"SELECT source_id, target_name, kind, line, resolution, confidence FROM symbol_relationships"
               f" WHERE target_id = ? AND kind IN ({q}) ORDER BY kind, source_id")
    return _named(RelationshipRow, conn.execute(sql, (sid, *kinds)))


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
    by_strength = dict.fromkeys(STRENGTHS, 0)  # how much of the call graph to trust
    for res, n in edges["symbol_refs"]["by_resolution"].items():
        by_strength[strength(res)] += n
    out["calls_by_strength"] = by_strength
    return out


def unresolved_same_name(conn: sqlite3.Connection, name: str, *, file_id: int | None = None) -> int:
    """How many call sites whose callee is written with the bare name ``name`` (``name(...)``,
    ``x.name(...)``) stayed unresolved: callers a list bound to one definition may be missing.
    ``file_id``: only sites in files of that file's language (a JavaScript ``filter`` never calls a
    Python method)."""
    if not name:
        return 0
    tail = "." + name
    where = "WHERE r.callee_id IS NULL AND (r.callee_name = ? OR substr(r.callee_name, -?) = ?)"
    args: tuple = (name, len(tail), tail)
    if file_id is not None:
        where += " AND f.language = (SELECT language FROM files WHERE id = ?)"
        args += (file_id,)
    joins = "JOIN symbols s ON s.id = r.caller_id JOIN files f ON f.id = s.file_id" if file_id is not None else ""
    try:  # the unresolved rows' names alone (a kernel has 400k of them among 5M edges: 0.04 s instead of 0.3 s)
        row = conn.execute(f"SELECT COUNT(*) FROM symbol_refs r INDEXED BY refs_unresolved {joins} {where}",
                           args).fetchone()
    except sqlite3.OperationalError:  # an index written before refs_unresolved existed
        row = conn.execute(f"SELECT COUNT(*) FROM symbol_refs r {joins} {where}", args).fetchone()
    return int(row[0])


def node_table(conn: sqlite3.Connection) -> Iterator[tuple[int, int, int, int, int]]:
    """(id, file_id or -1, parent_id or -1, is_test, kind) for every symbol, ordered by id (kind as text),
    read as the caller iterates (1.1M rows on the Linux kernel: never held as one list)."""
    return conn.execute(
        "SELECT id, COALESCE(file_id, -1), COALESCE(parent_id, -1), is_test, kind FROM symbols ORDER BY id"
    )


def call_edges(conn: sqlite3.Connection) -> Iterator[tuple[int, int, float]]:
    """(caller_id, callee_id, confidence) of every resolved call edge, in row order, read as the caller
    iterates (:func:`lore.store.parquet.rows_to_arrays` reads them a block at a time: 5M call rows of the
    Linux kernel as one list of tuples were about 800 MB).

    Every edge reader here orders by ``rowid``: the order (in which duplicate edges are summed into a
    matrix) then never depends on the query plan, so the Parquet edge store (:mod:`lore.store.parquet`)
    holds the same rows in the same order and the graphs built from either are bit-identical.
    """
    return conn.execute(
        "SELECT caller_id, callee_id, confidence FROM symbol_refs WHERE callee_id IS NOT NULL ORDER BY rowid"
    )


def type_edges(conn: sqlite3.Connection) -> Iterator[tuple[int, int, float]]:
    """(symbol_id, type_id, confidence) of every resolved type reference, in row order (an iterator)."""
    return conn.execute(
        "SELECT symbol_id, type_id, confidence FROM type_refs WHERE type_id IS NOT NULL ORDER BY rowid"
    )


def relationship_edges(conn: sqlite3.Connection, kinds: tuple[str, ...]) -> Iterator[tuple[int, int, float]]:
    q = ",".join("?" * len(kinds))
    return conn.execute(
        f"SELECT source_id, target_id, confidence FROM symbol_relationships WHERE target_id IS NOT NULL AND kind IN ({q}) "
        "ORDER BY rowid",
        kinds,
    )


def import_edges(conn: sqlite3.Connection) -> Iterator[tuple[int, int, float]]:
    """(importing module symbol id, imported symbol id, confidence) of resolved imports (an iterator)."""
    return conn.execute(
        """SELECT s.id, i.target_id, i.confidence FROM file_imports i
           JOIN symbols s ON s.file_id = i.file_id AND s.parent_id IS NULL AND s.kind = 'module'
           WHERE i.target_id IS NOT NULL ORDER BY i.rowid, s.id"""
    )


def edge_details(conn: sqlite3.Connection, source: int, target: int) -> list[EdgeDetail]:
    """Every stored edge between two symbols, either direction (up to 3 per table and direction).

    Edges from ``source`` to ``target`` come first, then the reverse ones; within each direction calls,
    then type references, then relationships. :func:`first_edges` gives the first of these for many
    pairs in one query.
    """
    out: list[EdgeDetail] = []
    for a, b in ((source, target), (target, source)):
        out += [EdgeDetail("call", "calls" if a == source else "called_by", r[0], r[1], r[2]) for r in conn.execute(
            "SELECT line, resolution, confidence FROM symbol_refs WHERE caller_id = ? AND callee_id = ? ORDER BY line LIMIT 3",
            (a, b))]
        out += [EdgeDetail("type", r[0] if a == source else f"{r[0]}_of", r[1], r[2], r[3]) for r in conn.execute(
            "SELECT kind, line, resolution, confidence FROM type_refs WHERE symbol_id = ? AND type_id = ? ORDER BY line LIMIT 3",
            (a, b))]
        out += [EdgeDetail("relationship", r[0] if a == source else f"{r[0]}_by", r[1], r[2], r[3]) for r in conn.execute(
            "SELECT kind, line, resolution, confidence FROM symbol_relationships WHERE source_id = ? AND target_id = ?"
            " ORDER BY kind LIMIT 3", (a, b))]
    return out


# One arm per (direction, table): the pair's own direction (0) before the reverse one (1); calls (0),
# then type references (1), then relationships (2). Within an arm the edge with the smallest sort key
# (line, or kind for relationships), then rowid, comes first: the order :func:`edge_details` lists.
_FIRST_EDGE_ARMS = (
    "SELECT p.a, p.b, 0, 0, r.line, r.rowid, 'call', 'calls', r.line, r.resolution, r.confidence"
    " FROM p JOIN symbol_refs r ON r.caller_id = p.a AND r.callee_id = p.b",
    "SELECT p.a, p.b, 0, 1, t.line, t.rowid, 'type', t.kind, t.line, t.resolution, t.confidence"
    " FROM p JOIN type_refs t ON t.symbol_id = p.a AND t.type_id = p.b",
    "SELECT p.a, p.b, 0, 2, x.kind, x.rowid, 'relationship', x.kind, x.line, x.resolution, x.confidence"
    " FROM p JOIN symbol_relationships x ON x.source_id = p.a AND x.target_id = p.b",
    "SELECT p.a, p.b, 1, 0, r.line, r.rowid, 'call', 'called_by', r.line, r.resolution, r.confidence"
    " FROM p JOIN symbol_refs r ON r.caller_id = p.b AND r.callee_id = p.a",
    "SELECT p.a, p.b, 1, 1, t.line, t.rowid, 'type', t.kind || '_of', t.line, t.resolution, t.confidence"
    " FROM p JOIN type_refs t ON t.symbol_id = p.b AND t.type_id = p.a",
    "SELECT p.a, p.b, 1, 2, x.kind, x.rowid, 'relationship', x.kind || '_by', x.line, x.resolution, x.confidence"
    " FROM p JOIN symbol_relationships x ON x.source_id = p.b AND x.target_id = p.a",
)
_PAIRS_PER_QUERY = 450  # two host parameters per pair, under the 999 of old SQLite builds


def first_edges(conn: sqlite3.Connection, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], EdgeDetail]:
    """(a, b) -> the first :func:`edge_details` entry of each pair that has a stored edge, in one query.

    Pairs without any edge between them are left out. One query per 450 distinct pairs.

    Examples
    --------
    >>> conn = sqlite3.connect(":memory:")
    >>> _ = conn.executescript(
    ...     "CREATE TABLE symbol_refs(caller_id, callee_id, line, resolution, confidence);"
    ...     "CREATE TABLE type_refs(symbol_id, type_id, kind, line, resolution, confidence);"
    ...     "CREATE TABLE symbol_relationships(source_id, target_id, kind, line, resolution, confidence);"
    ...     "INSERT INTO symbol_refs VALUES (1, 2, 9, 'import', 1.0), (1, 2, 4, 'local_scope', 1.0);")
    >>> first_edges(conn, [(1, 2), (2, 1), (1, 3)])
    {(1, 2): EdgeDetail(table='call', kind='calls', line=4, resolution='local_scope', confidence=1.0), (2, 1): EdgeDetail(table='call', kind='called_by', line=4, resolution='local_scope', confidence=1.0)}
    """
    todo = sorted(set(pairs))
    best: dict[tuple[int, int], tuple] = {}
    for k in range(0, len(todo), _PAIRS_PER_QUERY):
        chunk = todo[k : k + _PAIRS_PER_QUERY]
        values = ",".join("(?, ?)" for _ in chunk)
        sql = f"WITH p(a, b) AS (VALUES {values}) " + " UNION ALL ".join(_FIRST_EDGE_ARMS)
        for a, b, direction, table, key, rowid, *detail in conn.execute(sql, [x for pair in chunk for x in pair]):
            rank = (direction, table, key, rowid)
            got = best.get((a, b))
            if got is None or rank < got[0]:
                best[(a, b)] = (rank, EdgeDetail(*detail))
    return {pair: best[pair][1] for pair in todo if pair in best}


def module_symbols_by_file(conn: sqlite3.Connection) -> dict[int, int]:
    """file id -> id of the file's module symbol."""
    return dict(conn.execute("SELECT s.file_id, s.id FROM symbols s WHERE s.kind = 'module' AND s.parent_id IS NULL"))


EDGE_TABLES = ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")
# the columns of each edge table as the API shows them (kind and resolution read as text, not their stored codes)
EDGE_COLUMNS = {
    "symbol_refs": "caller_id, callee_id, callee_name, line, col, kind, resolution, confidence",
    "type_refs": "symbol_id, type_id, type_name, kind, context, line, resolution, confidence",
    "file_imports": "file_id, symbol_id, module, name, alias, level, line, target_file_id, target_id, resolution, "
                    "confidence",
    "symbol_relationships": "source_id, target_id, target_name, kind, line, resolution, confidence",
}


def edge_rows(conn: sqlite3.Connection, table: str) -> list[dict]:
    """Every row of one edge table (one of :data:`EDGE_TABLES`) as a dict by column name, in rowid order."""
    if table not in EDGE_TABLES:
        raise ValueError(f"not an edge table: {table!r}")
    cur = conn.execute(f"SELECT {EDGE_COLUMNS[table]} FROM {table} ORDER BY rowid")  # a fixed list of names
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur]


def has_documents(conn: sqlite3.Connection) -> bool:
    """Whether the index holds any document (``lore docs add``)."""
    return conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is not None
