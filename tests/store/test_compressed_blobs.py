"""Whole-project blobs kept in the index (the C macro tally, the cluster runs) are stored compressed and
read back as written (schema 8, issue 33: 15.9 -> 3.6 MB on a kernel subsystem, about 90 MB on the kernel)."""

from __future__ import annotations

import sqlite3

import numpy as np

from lore.store import clusters, derived_state
from lore.store.schema import CORE_DDL


def _conn() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(CORE_DDL)
    return conn


def test_derived_state_is_stored_compressed_and_read_back_as_written():
    conn = _conn()
    data = b"".join(f"MACRO_NAME_{i % 5000}\n".encode() for i in range(100_000))
    derived_state.save(conn, "tally", "id:3", data)
    stored = conn.execute("SELECT data FROM derived_state WHERE key = 'tally'").fetchone()[0]
    assert len(stored) * 5 < len(data)
    assert derived_state.load(conn, "tally", "id:3") == data
    assert derived_state.load(conn, "tally", "id:4") is None  # another state
    conn.execute("UPDATE derived_state SET data = x'00ff'")  # not this format: no state, never an error
    assert derived_state.load(conn, "tally", "id:3") is None


def test_cluster_runs_are_stored_compressed_and_read_back_as_written():
    conn = _conn()
    rng = np.random.default_rng(3)
    members = np.column_stack([rng.permutation(50_000), rng.integers(0, 900, 50_000)]).astype(np.int64)
    summary = {"clusters": [{"id": i, "size": 55, "label": f"mm.slab_{i}"} for i in range(900)]}
    clusters.save_run(conn, "louvain|1.0", 7, summary, members)
    raw_summary, raw_members = conn.execute("SELECT summary, members FROM cluster_runs").fetchone()
    assert len(raw_members) < members.nbytes / 2 and len(raw_summary) * 3 < len(str(summary))
    got = clusters.load_run(conn, "louvain|1.0", 7)
    assert got is not None
    assert got[0] == summary and clusters.load_summary(conn, "louvain|1.0", 7) == summary
    order = np.argsort(members[:, 0], kind="stable")
    assert got[1].dtype == np.int64 and np.array_equal(got[1], members[order])
    assert clusters.load_run(conn, "louvain|1.0", 8) is None
