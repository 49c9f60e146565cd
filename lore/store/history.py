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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

KEY = "git"
SPAN_KINDS = ("function", "method", "class")


def symbol_spans(conn: sqlite3.Connection) -> list[tuple[str, int, int, int]]:
    """(file path, start line, end line, symbol id) of every function, method and class with a file."""
    marks = ",".join("?" * len(SPAN_KINDS))
    return conn.execute(
        f"""SELECT f.path, s.start_line, s.end_line, s.id FROM symbols s JOIN files f ON f.id = s.file_id
            WHERE s.kind IN ({marks}) ORDER BY s.id""", SPAN_KINDS).fetchall()


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


def save_run(conn: sqlite3.Connection, generation: int, summary: dict, pairs: np.ndarray, touched: np.ndarray) -> None:
    """Replace the stored run (inside the caller's transaction)."""
    import numpy as np

    p = np.asarray(pairs, dtype=np.int64).reshape(-1, 3).astype("<i8")
    t = np.asarray(touched, dtype=np.int64).reshape(-1, 2).astype("<i8")
    conn.execute("INSERT OR REPLACE INTO history_runs(key, generation, summary, pairs, touched) VALUES (?,?,?,?,?)",
                 (KEY, generation, json.dumps(summary, sort_keys=True), p.tobytes(), t.tobytes()))
