"""Cached cluster assignments: one run per parameter key, stamped with the index generation.

A run's members are stored as one little-endian int64 blob of (symbol id, cluster id) pairs sorted by
symbol id: reading a million of them back is one row and one ``frombuffer`` (milliseconds), where a
row per member took 0.6 s.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np


class Member(NamedTuple):
    """What a cluster's label reads of one member."""

    name: str
    kind: str
    path: str


def members_of(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, Member]:
    """id -> :class:`Member` of the given symbols (unknown ids left out), each path and kind one shared string.

    The label of every cluster reads the name, kind and path of every member: on the Linux kernel a
    million rows, which as whole symbol rows (signatures, docstrings) were the clusters step's largest
    allocation after the graph.
    """
    out: dict[int, Member] = {}
    shared: dict[str, str] = {}
    ids = sorted(set(ids))
    for k in range(0, len(ids), 900):
        chunk = ids[k : k + 900]
        q = ",".join("?" * len(chunk))
        for sid, name, kind, path in conn.execute(
            f"""SELECT s.id, s.name, s.kind, COALESCE(f.path, '') FROM symbols s LEFT JOIN files f ON f.id = s.file_id
                WHERE s.id IN ({q})""", chunk):
            out[sid] = Member(name, shared.setdefault(kind, kind), shared.setdefault(path, path))
    return out


def load_run(conn: sqlite3.Connection, key: str, generation: int) -> tuple[dict, np.ndarray] | None:
    """(summary, K x 2 int64 array of (symbol id, cluster id)) of a run made at ``generation``, or ``None``."""
    import numpy as np

    row = conn.execute("SELECT generation, summary, members FROM cluster_runs WHERE key = ?", (key,)).fetchone()
    if row is None or int(row[0]) != generation:
        return None
    members = np.frombuffer(zlib.decompress(row[2]), dtype="<i8").reshape(-1, 2).astype(np.int64, copy=False)
    return json.loads(zlib.decompress(row[1])), members


def load_summary(conn: sqlite3.Connection, key: str, generation: int) -> dict | None:
    """The summary of a run made at ``generation`` (no members, no numpy), or ``None``."""
    row = conn.execute("SELECT summary FROM cluster_runs WHERE key = ? AND generation = ?", (key, generation)).fetchone()
    return None if row is None else json.loads(zlib.decompress(row[0]))


def has_run(conn: sqlite3.Connection, key: str, generation: int) -> bool:
    """Whether a run made at ``generation`` is stored under ``key`` (one indexed lookup, no blob read)."""
    row = conn.execute("SELECT 1 FROM cluster_runs WHERE key = ? AND generation = ?", (key, generation)).fetchone()
    return row is not None


def save_run(conn: sqlite3.Connection, key: str, generation: int, summary: dict, members: np.ndarray) -> None:
    """Replace the run stored under ``key`` (inside the caller's transaction); ``members``: K x 2 (id, cluster)."""
    import numpy as np

    pairs = np.asarray(members, dtype=np.int64).reshape(-1, 2)
    pairs = pairs[np.argsort(pairs[:, 0], kind="stable")].astype("<i8")
    conn.execute(
        "INSERT OR REPLACE INTO cluster_runs(key, generation, created_at, summary, members) VALUES (?,?,?,?,?)",
        (key, generation, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
         zlib.compress(json.dumps(summary).encode("utf-8"), 1), zlib.compress(pairs.tobytes(), 1)),
    )


def clear_stale(conn: sqlite3.Connection, generation: int) -> None:
    """Drop runs made at another generation (called when a refresh invalidates them)."""
    conn.execute("DELETE FROM cluster_runs WHERE generation != ?", (generation,))


def carry_forward(conn: sqlite3.Connection, old: int, new: int) -> int:
    """Keep the runs made at generation ``old`` as runs of ``new`` and drop every other (inside the
    caller's transaction): for a refresh that provably left the graph as it was. Returns how many."""
    conn.execute("DELETE FROM cluster_runs WHERE generation != ?", (old,))
    return conn.execute("UPDATE cluster_runs SET generation = ? WHERE generation = ?", (new, old)).rowcount
