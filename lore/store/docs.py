"""All SQL of the document side: documents, chunks, chunk vectors, links, symbol mentions, chunk FTS.

Nothing in :mod:`lore.docs` writes SQL; it calls these helpers. Writers run inside the caller's
:func:`~lore.store.db.write_transaction`. ``chunks_fts`` is an external-content-free FTS5 table whose
rowid is the chunk id; it is kept in step with ``chunks`` here (no triggers), so every chunk insert
or delete goes through this module.

The document side keeps its own counter ``meta.docs_generation``, bumped by every document write,
and leaves the index ``generation`` alone: that one names the code index, and the graph cache, the
hybrid features and the stored clusters are keyed by it, so a docs-only change never invalidates
them. Caches of document data (vector matrices, model lists) are keyed by ``docs_generation``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .db import get_meta, index_stamp, set_meta
from .schema import DOCS_LAYOUT

if TYPE_CHECKING:  # numpy loads inside the functions that need it: `lore index` never imports it
    import numpy as np

DOC_COLUMNS = (
    "id",
    "path",
    "source_type",
    "title",
    "library",
    "version",
    "topic",
    "tags",
    "hash",
    "added_at",
)

_CHUNK_SELECT = """
SELECT c.id, c.document_id, c.chunk_index, c.total_chunks, c.breadcrumb, c.content, c.start_char,
       c.end_char, c.page, c.content_hash, d.path, d.source_type, d.title, d.library, d.version, d.topic,
       d.tags
FROM chunks c JOIN documents d ON d.id = c.document_id
"""
_CHUNK_KEYS = (
    "id",
    "document_id",
    "chunk_index",
    "total_chunks",
    "breadcrumb",
    "content",
    "start_char",
    "end_char",
    "page",
    "content_hash",
    "path",
    "source_type",
    "title",
    "library",
    "version",
    "topic",
    "tags",
)


# ---------------------------------------------------------------- generation


def docs_generation(conn: sqlite3.Connection) -> int:
    """The document-store generation (bumped by every document write)."""
    return int(get_meta(conn, "docs_generation", "0") or 0)


def bump_docs_generation(conn: sqlite3.Connection) -> int:
    """Increment ``docs_generation`` inside the caller's transaction and return it.

    The index ``generation`` (the code index's) is left as it is: nothing derived from the code
    (graph cache, hybrid features, clusters, code vectors) depends on documents. Also records
    ``meta.docs_layout`` (the layout of the document tables, see :mod:`lore.store.docs_keep`).
    """
    new = docs_generation(conn) + 1
    set_meta(conn, "docs_generation", str(new))
    set_meta(conn, "docs_layout", str(DOCS_LAYOUT))
    return new


# ---------------------------------------------------------------- documents


def get_document(conn: sqlite3.Connection, ref: int | str) -> dict[str, Any] | None:
    """A document row by id or by stored path, or ``None``."""
    column = "id" if isinstance(ref, int) else "path"
    row = conn.execute(
        f"SELECT {', '.join(DOC_COLUMNS)} FROM documents WHERE {column} = ?", (ref,)
    ).fetchone()
    return dict(zip(DOC_COLUMNS, row, strict=True)) if row else None


def documents_added_at(conn: sqlite3.Connection, document_ids: Iterable[int]) -> dict[int, str]:
    """Document id -> ``added_at`` (UTC ISO time of its last add) for the given ids."""
    ids = [int(i) for i in document_ids]
    out: dict[int, str] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        out.update(conn.execute(f"SELECT id, added_at FROM documents WHERE id IN ({marks})", part).fetchall())
    return out


def document_paths(conn: sqlite3.Connection) -> dict[str, int]:
    """Stored path -> document id for every document."""
    return {path: doc_id for doc_id, path in conn.execute("SELECT id, path FROM documents")}


def upsert_document(
    conn: sqlite3.Connection,
    *,
    path: str,
    source_type: str,
    title: str,
    library: str,
    version: str,
    topic: str,
    tags: str,
    hash: str,
    added_at: str,
) -> int:
    """Insert or update the document at ``path``; its id is kept on update."""
    row = conn.execute("SELECT id FROM documents WHERE path = ?", (path,)).fetchone()
    values = (source_type, title, library, version, topic, tags, hash, added_at)
    if row:
        conn.execute(
            "UPDATE documents SET source_type=?, title=?, library=?, version=?, topic=?, tags=?, hash=?, "
            "added_at=? WHERE id=?",
            (*values, row[0]),
        )
        return int(row[0])
    cur = conn.execute(
        "INSERT INTO documents(path, source_type, title, library, version, topic, tags, hash, added_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (path, *values),
    )
    return int(cur.lastrowid)


def delete_document(conn: sqlite3.Connection, document_id: int) -> None:
    """Delete a document with its chunks, vectors, links and mentions."""
    _delete_chunk_rows(conn, document_id)
    conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))


# ---------------------------------------------------------------- chunks


def _delete_chunk_rows(conn: sqlite3.Connection, document_id: int) -> None:
    ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = ?", (document_id,))]
    conn.executemany("DELETE FROM chunks_fts WHERE rowid = ?", [(i,) for i in ids])
    conn.execute("DELETE FROM document_links WHERE source_document_id = ?", (document_id,))
    conn.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))


def document_vectors(conn: sqlite3.Connection, document_id: int) -> dict[tuple[str, str], bytes]:
    """(embedding-text hash, model) -> vector blob of a document's current chunks (to reuse them)."""
    rows = conn.execute(
        "SELECT v.content_hash, v.model, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id "
        "WHERE c.document_id = ?",
        (document_id,),
    )
    return {(h, m): blob for h, m, blob in rows}


def replace_chunks(
    conn: sqlite3.Connection, document_id: int, title: str, chunks: Sequence[dict[str, Any]]
) -> list[int]:
    """Replace a document's chunks (and their FTS rows); returns the chunk ids in order.

    Each chunk dict has ``chunk_index, total_chunks, breadcrumb, content, start_char, end_char, page,
    content_hash``. A new chunk whose text equals an old chunk's keeps that chunk's id (ids handed
    out by search stay valid for the sections an edit did not touch), with its vectors; the caller
    drops vectors whose embedding text changed. Old chunks without a match are deleted.
    """
    old = conn.execute(
        "SELECT id, content_hash FROM chunks WHERE document_id = ? ORDER BY chunk_index, id", (document_id,)
    ).fetchall()
    pool: dict[str, list[int]] = {}
    for chunk_id, digest in old:
        pool.setdefault(digest, []).append(chunk_id)
    conn.executemany("DELETE FROM chunks_fts WHERE rowid = ?", [(cid,) for cid, _ in old])
    conn.execute("DELETE FROM document_links WHERE source_document_id = ?", (document_id,))
    ids: list[int] = []
    for ch in chunks:
        values = (
            ch["chunk_index"], ch["total_chunks"], ch["breadcrumb"], ch["content"], ch["start_char"],
            ch["end_char"], ch.get("page"), ch["content_hash"],
        )  # fmt: skip
        same = pool.get(ch["content_hash"])
        if same:
            chunk_id = same.pop(0)
            conn.execute(
                "UPDATE chunks SET chunk_index=?, total_chunks=?, breadcrumb=?, content=?, start_char=?, "
                "end_char=?, page=?, content_hash=? WHERE id=?",
                (*values, chunk_id),
            )
        else:
            cur = conn.execute(
                "INSERT INTO chunks(document_id, chunk_index, total_chunks, breadcrumb, content, start_char, "
                "end_char, page, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (document_id, *values),
            )
            chunk_id = int(cur.lastrowid)
        ids.append(chunk_id)
        conn.execute(
            "INSERT INTO chunks_fts(rowid, title, breadcrumb, content) VALUES (?, ?, ?, ?)",
            (chunk_id, title, ch["breadcrumb"], ch["content"]),
        )
    gone = [(cid,) for left in pool.values() for cid in left]
    conn.executemany("DELETE FROM chunks WHERE id = ?", gone)
    return ids


def drop_stale_vectors(conn: sqlite3.Connection, current: Sequence[tuple[int, str]]) -> None:
    """Delete the vectors of the given chunks whose embedding-text hash differs from the current one."""
    conn.executemany(
        "DELETE FROM chunk_vectors WHERE chunk_id = ? AND content_hash != ?", [(int(c), h) for c, h in current]
    )


def get_chunks(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Chunk rows joined with their document, by chunk id (missing ids are absent)."""
    ids = [int(i) for i in ids]
    out: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for row in conn.execute(_CHUNK_SELECT + f" WHERE c.id IN ({marks})", part):
            out[row[0]] = dict(zip(_CHUNK_KEYS, row, strict=True))
    return out


def get_chunk(conn: sqlite3.Connection, chunk_id: int) -> dict[str, Any] | None:
    """One chunk row joined with its document, or ``None``."""
    return get_chunks(conn, [chunk_id]).get(int(chunk_id))


def document_chunks(conn: sqlite3.Connection, document_id: int) -> list[dict[str, Any]]:
    """A document's chunks in order."""
    rows = conn.execute(_CHUNK_SELECT + " WHERE c.document_id = ? ORDER BY c.chunk_index", (document_id,))
    return [dict(zip(_CHUNK_KEYS, row, strict=True)) for row in rows]


def chunk_link_rows(conn: sqlite3.Connection) -> list[tuple[int, int, int, str, str]]:
    """(chunk id, document id, start char, breadcrumb, content) of every chunk, by document id then chunk index.

    One query for what link resolution reads (no join with ``documents``).
    """
    return conn.execute(
        "SELECT id, document_id, start_char, breadcrumb, content FROM chunks ORDER BY document_id, chunk_index"
    ).fetchall()


def all_chunk_texts(conn: sqlite3.Connection) -> list[tuple[int, int, str]]:
    """(chunk id, document id, content) of every chunk."""
    return [tuple(r) for r in conn.execute("SELECT id, document_id, content FROM chunks ORDER BY id")]


def count_chunks(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])


def _filter_sql(
    *, library: str | None, topic: str | None, tags: Sequence[str] | None, alias: str = "d"
) -> tuple[str, list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if library:
        where.append(f"{alias}.library = ?")
        args.append(library)
    if topic:
        where.append(f"{alias}.topic = ?")
        args.append(topic)
    for tag in tags or ():
        where.append(f"(',' || {alias}.tags || ',') LIKE ?")
        args.append(f"%,{tag},%")
    return " AND ".join(where), args


def filtered_document_ids(
    conn: sqlite3.Connection,
    *,
    library: str | None = None,
    topic: str | None = None,
    tags: Sequence[str] | None = None,
) -> np.ndarray:
    """Ids of the documents matching every given filter (all tags required); reads only ``documents``."""
    import numpy as np

    where, args = _filter_sql(library=library, topic=topic, tags=tags)
    sql = "SELECT d.id FROM documents d" + (" WHERE " + where if where else "")
    return np.fromiter((r[0] for r in conn.execute(sql, args)), dtype=np.int64)


def chunk_ids_of_documents(conn: sqlite3.Connection, document_ids: Iterable[int]) -> np.ndarray:
    import numpy as np

    ids = [int(i) for i in document_ids]
    if not ids:
        return np.zeros(0, dtype=np.int64)
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT id FROM chunks WHERE document_id IN ({marks})", ids)
    return np.fromiter((r[0] for r in rows), dtype=np.int64)


# ---------------------------------------------------------------- full-text search


def fts_search(
    conn: sqlite3.Connection,
    match: str,
    *,
    limit: int,
    library: str | None = None,
    topic: str | None = None,
    tags: Sequence[str] | None = None,
    weights: tuple[float, float, float] = (2.0, 1.5, 1.0),
) -> list[tuple[int, float]]:
    """(chunk id, BM25 score) best first for an FTS5 ``match`` expression; higher is better.

    ``weights`` are the BM25 column weights of (title, breadcrumb, content).
    """
    where, args = _filter_sql(library=library, topic=topic, tags=tags)
    sql = (
        "SELECT f.rowid, -bm25(chunks_fts, ?, ?, ?) AS s FROM chunks_fts f "
        "JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id "
        "WHERE chunks_fts MATCH ?"
    )
    if where:
        sql += " AND " + where
    sql += " ORDER BY s DESC, f.rowid LIMIT ?"
    return [(int(i), float(s)) for i, s in conn.execute(sql, (*weights, match, *args, limit))]


def fts_count(conn: sqlite3.Connection, match: str) -> int:
    """Exact number of chunks matching ``match`` (unfiltered)."""
    return int(
        conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,)).fetchone()[0]
    )


# ---------------------------------------------------------------- vectors


def insert_vectors(conn: sqlite3.Connection, rows: Iterable[tuple[int, str, str, bytes]]) -> None:
    """Write (chunk id, model, embedding-text hash, float32 blob) rows, replacing older ones."""
    conn.executemany(
        "INSERT OR REPLACE INTO chunk_vectors(chunk_id, model, content_hash, vector) VALUES (?, ?, ?, ?)",
        rows,
    )


def chunks_without_vector(conn: sqlite3.Connection, model: str) -> list[dict[str, Any]]:
    """Chunks (with document metadata) that have no vector of ``model`` yet."""
    rows = conn.execute(
        _CHUNK_SELECT
        + " WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model = ?)"
        " ORDER BY c.id",
        (model,),
    )
    return [dict(zip(_CHUNK_KEYS, row, strict=True)) for row in rows]


def vector_models(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(model id, number of vectors) most used first."""
    rows = conn.execute(
        "SELECT model, count(*) AS n FROM chunk_vectors GROUP BY model ORDER BY n DESC, model"
    )
    return [(m, int(n)) for m, n in rows]


def chunk_vector_models(conn: sqlite3.Connection, chunk_id: int) -> list[str]:
    return [r[0] for r in conn.execute("SELECT model FROM chunk_vectors WHERE chunk_id = ?", (chunk_id,))]


def chunk_vector(conn: sqlite3.Connection, chunk_id: int, model: str) -> np.ndarray | None:
    """The stored float32 vector of one chunk for ``model``, or ``None``."""
    import numpy as np

    row = conn.execute(
        "SELECT vector FROM chunk_vectors WHERE chunk_id = ? AND model = ?", (chunk_id, model)
    ).fetchone()
    return np.frombuffer(row[0], dtype=np.float32).copy() if row else None


def load_vectors(conn: sqlite3.Connection, model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(chunk ids sorted ascending, their document ids, float32 matrix with one row per id) for ``model``."""
    import numpy as np

    rows = conn.execute(
        "SELECT v.chunk_id, c.document_id, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id "
        "WHERE v.model = ? ORDER BY v.chunk_id",
        (model,),
    )
    ids: list[int] = []
    docs: list[int] = []
    blobs: list[bytes] = []
    for chunk_id, doc_id, blob in rows:
        ids.append(chunk_id)
        docs.append(doc_id)
        blobs.append(blob)
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), -1)
    return np.asarray(ids, dtype=np.int64), np.asarray(docs, dtype=np.int64), matrix


# ---------------------------------------------------------------- links and mentions


def replace_document_links(
    conn: sqlite3.Connection,
    document_id: int,
    links: Iterable[tuple[int | None, int | None, int | None, str]],
) -> None:
    """Replace the outgoing links of a document: (source chunk, target doc, target chunk, href)."""
    conn.execute("DELETE FROM document_links WHERE source_document_id = ?", (document_id,))
    conn.executemany(
        "INSERT INTO document_links(source_document_id, source_chunk_id, target_document_id, target_chunk_id, "
        "href) VALUES (?, ?, ?, ?, ?)",
        [(document_id, *link) for link in links],
    )


def stored_links(conn: sqlite3.Connection) -> dict[int, list[tuple[int | None, int | None, int | None, str]]]:
    """Document id -> its outgoing links as stored, (source chunk, target doc, target chunk, href) in insertion order."""
    out: dict[int, list[tuple[int | None, int | None, int | None, str]]] = {}
    rows = conn.execute(
        "SELECT source_document_id, source_chunk_id, target_document_id, target_chunk_id, href "
        "FROM document_links ORDER BY rowid"
    )
    for doc_id, *link in rows:
        out.setdefault(doc_id, []).append(tuple(link))  # type: ignore[arg-type]
    return out


def count_links(conn: sqlite3.Connection) -> int:
    """Number of stored document links."""
    return int(conn.execute("SELECT count(*) FROM document_links").fetchone()[0])


def unresolved_link_documents(conn: sqlite3.Connection) -> list[int]:
    """Documents with at least one link whose target is not (yet) indexed."""
    rows = conn.execute(
        "SELECT DISTINCT source_document_id FROM document_links WHERE target_document_id IS NULL"
    )
    return [r[0] for r in rows]


def linked_documents(conn: sqlite3.Connection, document_id: int) -> dict[int, str]:
    """Documents linked from or to ``document_id`` -> 'out' | 'in' | 'both'."""
    out: dict[int, str] = {}
    for (target,) in conn.execute(
        "SELECT DISTINCT target_document_id FROM document_links WHERE source_document_id = ? "
        "AND target_document_id IS NOT NULL",
        (document_id,),
    ):
        out[target] = "out"
    for (source,) in conn.execute(
        "SELECT DISTINCT source_document_id FROM document_links WHERE target_document_id = ?", (document_id,)
    ):
        out[source] = "both" if source in out else "in"
    out.pop(document_id, None)
    return out


def chunk_links(conn: sqlite3.Connection, chunk_ids: Sequence[int]) -> list[tuple[int, int, int | None]]:
    """(source chunk, target document, target chunk) for resolved links out of the given chunks."""
    ids = [int(i) for i in chunk_ids]
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        "SELECT source_chunk_id, target_document_id, target_chunk_id FROM document_links "
        f"WHERE source_chunk_id IN ({marks}) AND target_document_id IS NOT NULL",
        ids,
    )
    return [(int(a), int(b), c) for a, b, c in rows]


def indexed_symbol_names(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
    """(id, name, qualified_name) of every symbol defined in an indexed file (may be empty)."""
    try:
        rows = conn.execute("SELECT id, name, qualified_name FROM symbols WHERE file_id IS NOT NULL")
        return [(int(i), n, q) for i, n, q in rows]
    except sqlite3.OperationalError:  # a store without the code tables
        return []


def mentions_digest(conn: sqlite3.Connection) -> str | None:
    """The digest of the symbol names the stored mentions were matched against (``None``: never)."""
    return get_meta(conn, "mentions_symbols")


def set_mentions_digest(conn: sqlite3.Connection, digest: str) -> None:
    """Record the digest mentions were matched against, and the code index state (stamp) it describes."""
    set_meta(conn, "mentions_symbols", digest)
    set_meta(conn, "mentions_stamp", index_stamp(conn))


def mentions_stamp_current(conn: sqlite3.Connection) -> bool:
    """Whether the stored mentions digest was taken at the code index's current state (no code write since).

    Document writes leave the index stamp alone, so a docs-only refresh needs no digest of every symbol.
    """
    stamp = get_meta(conn, "mentions_stamp")
    return stamp is not None and stamp == index_stamp(conn) and mentions_digest(conn) is not None


def replace_mentions(
    conn: sqlite3.Connection, chunk_ids: Sequence[int], mentions: Iterable[tuple[int, str, str]]
) -> None:
    """Replace the symbol mentions of the given chunks with (chunk id, qualified name, mention) rows."""
    conn.executemany("DELETE FROM chunk_symbol_mentions WHERE chunk_id = ?", [(int(i),) for i in chunk_ids])
    conn.executemany(
        "INSERT INTO chunk_symbol_mentions(chunk_id, qualified_name, mention) VALUES (?, ?, ?)", mentions
    )


def mentions_of(conn: sqlite3.Connection, qualified_names: Sequence[str]) -> list[tuple[str, str, int]]:
    """(qualified name, mention, chunk id) for chunks mentioning any of the names."""
    names = list(dict.fromkeys(qualified_names))
    out: list[tuple[str, str, int]] = []
    for start in range(0, len(names), 500):
        part = names[start : start + 500]
        marks = ",".join("?" * len(part))
        out.extend(
            conn.execute(
                "SELECT qualified_name, mention, chunk_id FROM chunk_symbol_mentions "
                f"WHERE qualified_name IN ({marks}) ORDER BY chunk_id",
                part,
            )
        )
    return out
