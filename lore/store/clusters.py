"""Cached cluster assignments: one run per parameter key, stamped with the index generation."""

from __future__ import annotations

import json
import sqlite3
import time


def load_run(conn: sqlite3.Connection, key: str, generation: int) -> tuple[dict, list[tuple[int, int]]] | None:
    """(summary, [(symbol_id, cluster_id)]) of a run made at ``generation``, or ``None`` if missing or stale."""
    row = conn.execute("SELECT generation, summary FROM cluster_runs WHERE key = ?", (key,)).fetchone()
    if row is None or int(row[0]) != generation:
        return None
    members = conn.execute(
        "SELECT symbol_id, cluster_id FROM cluster_members WHERE key = ? ORDER BY symbol_id", (key,)
    ).fetchall()
    return json.loads(row[1]), members


def save_run(conn: sqlite3.Connection, key: str, generation: int, summary: dict, members: list[tuple[int, int]]) -> None:
    """Replace the run stored under ``key`` (inside the caller's transaction)."""
    conn.execute("DELETE FROM cluster_members WHERE key = ?", (key,))
    conn.execute(
        "INSERT OR REPLACE INTO cluster_runs(key, generation, created_at, summary) VALUES (?,?,?,?)",
        (key, generation, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), json.dumps(summary)),
    )
    conn.executemany(
        "INSERT INTO cluster_members(key, symbol_id, cluster_id) VALUES (?,?,?)", ((key, s, c) for s, c in members)
    )


def clear_stale(conn: sqlite3.Connection, generation: int) -> None:
    """Drop runs made at another generation (called when a refresh invalidates them)."""
    keys = [r[0] for r in conn.execute("SELECT key FROM cluster_runs WHERE generation != ?", (generation,))]
    for k in keys:
        conn.execute("DELETE FROM cluster_members WHERE key = ?", (k,))
        conn.execute("DELETE FROM cluster_runs WHERE key = ?", (k,))
