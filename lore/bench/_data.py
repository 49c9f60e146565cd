"""Small read helpers shared by the benchmark suites (no SQL here: it goes through lore.store.read)."""

from __future__ import annotations

from ..api import Index
from ..store import read


def symbol_table(idx: Index) -> dict[int, tuple]:
    """Every symbol (externals included): id -> (id, name, qualified_name, kind, path, start_line,
    end_line, signature, docstring, is_test, file_id, parent_id)."""
    ids = [r[0] for r in read.iter_symbols(idx.conn, include_external=True)]
    return read.symbols_by_ids(idx.conn, ids)
