"""Rows leave the store by name: the queries never read a column by its position."""

from __future__ import annotations

import ast
from pathlib import Path

from lore.store import read

QUERIES = Path(__file__).resolve().parents[2] / "lore" / "queries"


def test_store_rows_are_named(sample_index):
    conn = sample_index.conn
    sid = sample_index.resolve_ref("shop.orders.place_order")
    row = read.symbols_by_ids(conn, [sid])[sid]
    assert isinstance(row, read.SymbolRow) and row.qualified_name == "shop.orders.place_order"
    assert row.kind == "function" and row.path == "shop/orders.py" and row.file_id is not None
    calls = read.calls_from(conn, sid)
    assert calls and all(isinstance(c, read.CallRow) for c in calls)
    assert {c.callee_name for c in calls} >= {"Item", "Order"}
    assert all(isinstance(s, read.SymbolHead) for s in read.iter_symbols(conn))


def test_no_query_module_indexes_a_row_by_position():
    offenders = []
    for path in sorted(QUERIES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                    and node.value.id in {"row", "r", "p", "det", "info"} and isinstance(node.slice, ast.Constant)
                    and isinstance(node.slice.value, int)):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_no_sql_in_the_queries():
    for path in sorted(QUERIES.glob("*.py")):
        text = path.read_text()
        assert ".execute(" not in text and "SELECT " not in text, path.name
