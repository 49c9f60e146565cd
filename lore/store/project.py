"""What each language read from the repository beside its sources (``compile_commands.json``,
``tsconfig.json``), as the index last saw it: a digest per language, and the files read with their size and
mtime (see :mod:`lore.index._project`)."""

from __future__ import annotations

import json
import sqlite3

from .db import get_meta, set_meta

__all__ = ["project_digests", "project_inputs", "set_project_state"]


def project_digests(conn: sqlite3.Connection) -> dict[str, str]:
    """Language -> digest of its project data at the last resolution (``{}`` for an older index)."""
    got = json.loads(get_meta(conn, "project_digests") or "{}")
    return got if isinstance(got, dict) else {}


def project_inputs(conn: sqlite3.Connection) -> dict[str, list] | None:
    """Repository-relative path -> ``[size, mtime_ns]`` (``None`` when absent) of the files read; ``None``
    for an index made before they were kept."""
    text = get_meta(conn, "project_inputs")
    got = json.loads(text) if text is not None else None
    return got if isinstance(got, dict) else None


def set_project_state(conn: sqlite3.Connection, digests: dict[str, str], inputs: dict[str, list | None]) -> None:
    set_meta(conn, "project_digests", json.dumps(digests, sort_keys=True))
    set_meta(conn, "project_inputs", json.dumps(inputs, sort_keys=True))
