"""Carry the document tables across a rebuild of the code index.

The code index is a derived cache: ``lore index --rebuild`` (or a schema-version or index-format change) deletes the
database and builds it again from the repository. The document tables cannot be rebuilt that way
(their library / topic / tags / version came from the command line, and their vectors cost minutes
of model time), so :func:`save_before_rebuild` copies them to a sibling file first and
:func:`restore_after_rebuild` copies them back into the fresh index, ids included (chunk ids stay
valid). They are carried only while their own layout (``schema.DOCS_LAYOUT``, recorded in
``meta.docs_layout``) is unchanged. Only the standard library is used, so ``lore index`` does not
import numpy.

Examples
--------
>>> import tempfile, pathlib
>>> from lore.store.db import connect
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> conn = connect(d / "index.db", create=True)
>>> _ = conn.execute("INSERT INTO documents(path, source_type, hash, added_at) VALUES ('a.md', 'markdown', 'h', 't')")
>>> conn.commit(); conn.close()
>>> kept = save_before_rebuild(d / "index.db", rebuild=True)
>>> for suffix in ("", "-wal", "-shm"):
...     pathlib.Path(str(d / "index.db") + suffix).unlink(missing_ok=True)
>>> connect(d / "index.db", create=True).close()
>>> restore_after_rebuild(d / "index.db", kept)
1
>>> discard(kept)
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .db import get_meta, set_meta, write_transaction
from .schema import DOCS_LAYOUT, INDEX_FORMAT, SCHEMA_VERSION

# copy order respects the foreign keys (documents first); chunks_fts is rebuilt from chunks
KEPT_TABLES = ("documents", "chunks", "chunk_vectors", "document_links", "chunk_symbol_mentions")
SUFFIX = ".docs-keep"


def _stored_layout(conn: sqlite3.Connection) -> int:
    # indexes written before meta.docs_layout existed hold layout 1, the only one there was
    return int(get_meta(conn, "docs_layout", "1") or 1)


def save_before_rebuild(db_path: str | os.PathLike[str], *, rebuild: bool) -> Path | None:
    """Copy the document tables aside if the index at ``db_path`` is about to be rebuilt.

    A rebuild happens with ``rebuild`` or when the stored schema version differs from this lore's.
    Returns the copy's path, or ``None`` when there is nothing to carry (no index, no rebuild, no
    documents, or documents of another layout, which ``lore docs add`` must then add again).
    """
    path = Path(db_path)
    if not path.is_file():
        return None
    conn = sqlite3.connect(str(path))
    try:
        try:
            version = get_meta(conn, "schema_version")
            has_docs = conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is not None
            layout = _stored_layout(conn)
        except sqlite3.DatabaseError:  # not a lore index, or one without document tables
            return None
        if not has_docs or layout != DOCS_LAYOUT:
            return None
        if not rebuild and version is not None and int(version) == SCHEMA_VERSION and (
                get_meta(conn, "index_format") == str(INDEX_FORMAT)):
            return None
        kept = path.with_name(path.name + SUFFIX)
        kept.unlink(missing_ok=True)
        conn.execute("ATTACH DATABASE ? AS keep", (str(kept),))
        for table in KEPT_TABLES:  # names from a fixed tuple
            conn.execute(f"CREATE TABLE keep.{table} AS SELECT * FROM main.{table}")
        conn.commit()
        conn.execute("DETACH DATABASE keep")
        return kept
    finally:
        conn.close()


def restore_after_rebuild(db_path: str | os.PathLike[str], kept: str | os.PathLike[str]) -> int:
    """Copy the saved document tables into the fresh index at ``db_path``; returns the documents restored.

    Nothing is copied (0) when the index already holds documents: whatever rebuilt it kept them.
    Bumps ``docs_generation`` so cached vector matrices are rebuilt; the code index's ``generation``
    is left alone (documents never invalidate the graph or clusters). Symbol mentions are copied as
    they were; the caller refreshes them against the new symbols.
    """
    conn = sqlite3.connect(str(db_path))
    try:
        if conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is not None:
            return 0
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("ATTACH DATABASE ? AS keep", (str(kept),))
        with write_transaction(conn, str(db_path)):
            for table in KEPT_TABLES:
                cols = ", ".join(r[1] for r in conn.execute(f"PRAGMA keep.table_info({table})"))
                conn.execute(f"INSERT INTO main.{table}({cols}) SELECT {cols} FROM keep.{table}")
            conn.execute(
                "INSERT INTO chunks_fts(rowid, title, breadcrumb, content) "
                "SELECT c.id, d.title, c.breadcrumb, c.content FROM chunks c JOIN documents d ON d.id = c.document_id"
            )
            n = int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
            gen = int(get_meta(conn, "docs_generation", "0") or 0)
            set_meta(conn, "docs_generation", str(gen + 1))
            set_meta(conn, "docs_layout", str(DOCS_LAYOUT))
        conn.execute("DETACH DATABASE keep")
        return n
    finally:
        conn.close()


def discard(kept: str | os.PathLike[str] | None) -> None:
    """Delete a copy made by :func:`save_before_rebuild` (``None`` is fine)."""
    if kept is not None:
        Path(kept).unlink(missing_ok=True)
