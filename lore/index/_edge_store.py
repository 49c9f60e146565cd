"""The edge store's upkeep on a run that changed no code (:mod:`lore.store.parquet`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..store import db as store_db
from ..store import parquet as edge_parquet


def sync_edge_store(conn: sqlite3.Connection, db_path: Path, wanted: str | None) -> None:
    """A run that changed no code: still honour ``edge_store`` (start or stop writing shards), and rewrite
    the shards of the current generation when they are missing or damaged."""
    kind = wanted or edge_parquet.recorded(conn)
    stamp = store_db.index_stamp(conn)
    if kind == "parquet" and not edge_parquet.is_valid(db_path, stamp):
        edge_parquet.write_state(conn, db_path, stamp)  # under the lock: no writer changes these rows
    if edge_parquet.recorded(conn) != kind:
        with store_db.write_transaction(conn, db_path):
            edge_parquet.set_recorded(conn, kind)
    if kind == "sqlite":
        edge_parquet.prune(db_path, ())
