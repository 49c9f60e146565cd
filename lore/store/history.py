"""Logical coupling mined from git: the co-change counts of symbol pairs, one run per index.

A run is one row of ``history_runs`` (key ``'git'``): a JSON summary (HEAD, the ``until`` cut,
commits read / used / skipped, the newest commit time counted), the generation of the index it was
mapped onto, and two little-endian int64 blobs: ``(a, b, commits)`` triples with ``a < b`` (symbols
changed in the same commits) and ``(symbol, commits)`` pairs (commits that changed a symbol). Like
cluster runs, a run made at another generation is never read (:func:`load_run` returns ``None``):
the symbols' line spans it was mapped with may have moved.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from array import array
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

KEY = "git"
SPAN_KINDS = ("function", "method", "class")


def symbol_spans(conn: sqlite3.Connection, *, tests: bool = True) -> list[tuple[str, int, int, int]]:
    """(file path, start line, end line, symbol id) of every function, method and class with a file (in a
    test file too, unless not ``tests``)."""
    marks = ",".join("?" * len(SPAN_KINDS))
    return conn.execute(
        f"""SELECT f.path, s.start_line, s.end_line, s.id FROM symbols s JOIN files f ON f.id = s.file_id
            WHERE s.kind IN ({marks}) AND (? OR f.is_test = 0) ORDER BY s.id""", (*SPAN_KINDS, int(tests))).fetchall()


def run_summary(conn: sqlite3.Connection) -> tuple[int, str] | None:
    """(generation, summary JSON text) of the stored run, or ``None``: one small row, the run's cache key."""
    try:
        row = conn.execute("SELECT generation, summary FROM history_runs WHERE key = ?", (KEY,)).fetchone()
    except sqlite3.OperationalError:  # an index written before the table existed
        return None
    return None if row is None else (int(row[0]), str(row[1]))


def load_run(conn: sqlite3.Connection, generation: int) -> tuple[dict, np.ndarray, np.ndarray] | None:
    """(summary, K x 3 (a, b, commits), M x 2 (symbol, commits)) of the run made at ``generation``, or ``None``."""
    import numpy as np

    try:
        row = conn.execute("SELECT generation, summary, pairs, touched FROM history_runs WHERE key = ?",
                           (KEY,)).fetchone()
    except sqlite3.OperationalError:
        return None
    if row is None or int(row[0]) != generation:
        return None
    pairs = np.frombuffer(row[2], dtype="<i8").reshape(-1, 3).astype(np.int64, copy=False)
    touched = np.frombuffer(row[3], dtype="<i8").reshape(-1, 2).astype(np.int64, copy=False)
    return json.loads(row[1]), pairs, touched


LOG_KEY = "git-log"  # the parsed commits of the last run, kept so that a new generation only re-maps them
NAMES_KEY = "git-names"  # what each mined commit changed, by qualified name (lore.index.revisions)


def _load_blob(conn: sqlite3.Connection, row_key: str) -> tuple[str, bytes] | None:
    """(label, blob) of a cache row of ``history_runs`` (its ``summary`` and ``pairs`` columns), or ``None``."""
    try:
        row = conn.execute("SELECT summary, pairs FROM history_runs WHERE key = ?", (row_key,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return (row[0], bytes(row[1])) if row is not None else None


def _save_blob(conn: sqlite3.Connection, row_key: str, label: str, blob: bytes) -> None:
    conn.execute("INSERT OR REPLACE INTO history_runs(key, generation, summary, pairs, touched) VALUES (?,?,?,?,?)",
                 (row_key, -1, label, blob, b""))


def load_log(conn: sqlite3.Connection, key: str) -> bytes | None:
    """The cached commit log saved under the identity ``key`` (HEAD, window, caps), or ``None``."""
    got = _load_blob(conn, LOG_KEY)
    return got[1] if got is not None and got[0] == key else None


def save_log(conn: sqlite3.Connection, key: str, blob: bytes) -> None:
    """Replace the cached commit log (inside the caller's transaction)."""
    _save_blob(conn, LOG_KEY, key, blob)


def load_names(conn: sqlite3.Connection) -> bytes | None:
    """The stored names cache of the history mining (see :func:`lore.index.revisions.encode_names`), or ``None``."""
    got = _load_blob(conn, NAMES_KEY)
    return got[1] if got is not None else None


def save_names(conn: sqlite3.Connection, blob: bytes) -> None:
    """Replace the names cache (inside the caller's transaction)."""
    _save_blob(conn, NAMES_KEY, "", blob)


def symbol_names(conn: sqlite3.Connection) -> list[tuple[int, str, str, str]]:
    """(symbol id, qualified name, kind, file path) of every module, function, method and class with a file."""
    kinds = ("module", *SPAN_KINDS)
    marks = ",".join("?" * len(kinds))
    return conn.execute(
        f"""SELECT s.id, s.qualified_name, s.kind, f.path FROM symbols s JOIN files f ON f.id = s.file_id
            WHERE s.kind IN ({marks}) ORDER BY s.id""", kinds).fetchall()


def save_run(conn: sqlite3.Connection, generation: int, summary: dict, pairs, touched) -> None:
    """Replace the stored run (inside the caller's transaction): ``pairs`` K rows (a, b, commits), ``touched`` M rows
    (symbol, commits), as lists of tuples or numpy arrays."""
    conn.execute("INSERT OR REPLACE INTO history_runs(key, generation, summary, pairs, touched) VALUES (?,?,?,?,?)",
                 (KEY, generation, json.dumps(summary, sort_keys=True), _int64_le(pairs), _int64_le(touched)))


def _int64_le(rows) -> bytes:
    """Rows of ints (a numpy array or a list of tuples) as little-endian int64 bytes, row by row, without numpy."""
    flat = array("q", (int(v) for row in (rows.tolist() if hasattr(rows, "tolist") else rows) for v in row))
    if sys.byteorder != "little":
        flat.byteswap()
    return flat.tobytes()


# The user-level cache of parsed file versions (lore.index.revisions.BlobSpans): one small SQLite file,
# shared by every index and checkout of the user, keyed by git's object id of the blob (and the
# span format), so no version is parsed twice. It is a cache: any error here means "not cached".
SPAN_CACHE_DDL = """CREATE TABLE IF NOT EXISTS spans (key TEXT PRIMARY KEY, value BLOB NOT NULL,
                                                    used INTEGER NOT NULL)"""
# ... and the parsed commit logs of the last few mined HEADs (a second checkout or a rebuild runs no `git log`)
LOG_CACHE_DDL = """CREATE TABLE IF NOT EXISTS logs (key TEXT PRIMARY KEY, value BLOB NOT NULL,
                                                  used INTEGER NOT NULL)"""


def open_span_cache(path: str) -> sqlite3.Connection:
    """A connection to the span cache at ``path`` (created if missing); raises ``sqlite3.Error`` for a
    damaged file (the caller moves it aside). WAL and a short busy timeout: concurrent miners write
    between each other's transactions, and one that would wait longer skips its write."""
    conn = sqlite3.connect(path, timeout=2.0, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute(SPAN_CACHE_DDL)
        conn.execute(LOG_CACHE_DDL)
        conn.commit()
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def get_spans(conn: sqlite3.Connection, keys: list[str]) -> dict[str, bytes]:
    """The stored values of those of ``keys`` that are cached."""
    out: dict[str, bytes] = {}
    for i in range(0, len(keys), 500):
        part = keys[i:i + 500]
        marks = ",".join("?" * len(part))
        out.update((k, bytes(v)) for k, v in conn.execute(f"SELECT key, value FROM spans WHERE key IN ({marks})", part))
    return out


def put_spans(conn: sqlite3.Connection, rows: list[tuple[str, bytes]], used: int) -> None:
    """Store (key, value) rows (replacing any: a damaged value is rewritten), stamped ``used``, in one transaction."""
    with conn:
        conn.executemany("INSERT OR REPLACE INTO spans(key, value, used) VALUES (?,?,?)",
                         [(k, v, used) for k, v in rows])


def touch_spans(conn: sqlite3.Connection, keys: list[str], used: int) -> None:
    """Mark ``keys`` as used at ``used`` (what the size bound keeps longest)."""
    with conn:
        conn.executemany("UPDATE spans SET used = ? WHERE key = ? AND used < ?", [(used, k, used) for k in keys])


def prune_spans(conn: sqlite3.Connection, max_rows: int) -> int:
    """Drop the least recently used rows beyond ``max_rows``; the number dropped."""
    (n,) = conn.execute("SELECT COUNT(*) FROM spans").fetchone()
    if n <= max_rows:
        return 0
    with conn:
        conn.execute("DELETE FROM spans WHERE key IN (SELECT key FROM spans ORDER BY used, key LIMIT ?)",
                     (n - max_rows,))
    return n - max_rows


def damage_span(conn: sqlite3.Connection, key: str, value: bytes) -> None:
    """Overwrite one cached value as is (tests: a damaged entry must be ignored and rewritten)."""
    with conn:
        conn.execute("UPDATE spans SET value = ? WHERE key = ?", (value, key))


def span_keys(conn: sqlite3.Connection) -> list[str]:
    """Every cached key, sorted."""
    return [k for (k,) in conn.execute("SELECT key FROM spans ORDER BY key")]


def get_cached_log(conn: sqlite3.Connection, key: str) -> bytes | None:
    """The parsed commit log cached under ``key`` in the user cache, or ``None``."""
    row = conn.execute("SELECT value FROM logs WHERE key = ?", (key,)).fetchone()
    return None if row is None else bytes(row[0])


def put_cached_log(conn: sqlite3.Connection, key: str, value: bytes, used: int, keep: int) -> None:
    """Store a parsed commit log and keep only the ``keep`` most recently used ones."""
    with conn:
        conn.execute("INSERT OR REPLACE INTO logs(key, value, used) VALUES (?,?,?)", (key, value, used))
        conn.execute("DELETE FROM logs WHERE key NOT IN (SELECT key FROM logs ORDER BY used DESC, key LIMIT ?)",
                     (keep,))
