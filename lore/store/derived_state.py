"""Whole-project tallies a refresh carries from one generation to the next, kept beside the rows they add up.

Some of what the resolver reads depends on every file of the repository (a C project's ``#define``\\ s and
``#include``\\ s: :mod:`lore.languages.c._macro_tally`). Rebuilding such a tally from every file's records
costs what the repository weighs, not what the change does; instead the indexer stores it with the
index's stamp (random identity and generation, :func:`lore.store.db.index_stamp`) in the same transaction
as the rows it describes, and the next run starts from it when the stamp is the one it reads: never from
another index's, a rolled-back run's or an older generation's. The table is created on first use, so an
index written by an older lore simply has no state yet (its first refresh builds it).

The data is stored zlib-compressed at level 1 (the C macro tally of a kernel subsystem: 8.6 -> 2.2 MB for
about 0.1 CPU s); a row that does not decompress is no state.
"""

from __future__ import annotations

import sqlite3
import zlib

_DDL = "CREATE TABLE IF NOT EXISTS derived_state (key TEXT PRIMARY KEY, stamp TEXT NOT NULL, data BLOB NOT NULL)"


def load(conn: sqlite3.Connection, key: str, stamp: str) -> bytes | None:
    """The state saved under ``key`` for ``stamp``, or ``None`` (none saved, or saved for another state)."""
    try:
        row = conn.execute("SELECT stamp, data FROM derived_state WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:  # no table yet: an index written before it existed
        return None
    if row is None or row[0] != stamp:
        return None
    try:
        return zlib.decompress(row[1])
    except zlib.error:  # not written by this format: as good as none
        return None


def save(conn: sqlite3.Connection, key: str, stamp: str, data: bytes) -> None:
    """Store ``data`` under ``key`` for ``stamp``, inside the caller's transaction."""
    conn.execute(_DDL)
    conn.execute("INSERT OR REPLACE INTO derived_state(key, stamp, data) VALUES (?, ?, ?)",
                 (key, stamp, zlib.compress(data, 1)))


def drop(conn: sqlite3.Connection, key: str) -> None:
    """Forget the state under ``key`` (inside the caller's transaction)."""
    try:
        conn.execute("DELETE FROM derived_state WHERE key = ?", (key,))
    except sqlite3.OperationalError:
        pass
