"""Part 8 end to end: docs that mention code symbols, through `lore index`, `lore docs add` and
`lore graph related --with-docs`, and what a refresh or a rebuild of the code index does to them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.cli import app
from lore.store.db import connect

runner = CliRunner()

ORDERS = """\
class Order:
    def amount(self):
        return sum(self.items)

    def refund(self):
        return retry_with_backoff(self.amount)


def retry_with_backoff(fn, attempts=3):
    for _ in range(attempts):
        return fn()
"""

GUIDE = """\
# Shop guide

Intro to the shop.

## Orders

An `Order` collects items. `Order.amount` is the total; shop.orders.Order.refund pays it back.

## Retries

Wrap flaky calls in `retry_with_backoff`. The `ship_order` step comes later.
"""


def lore(*args: str) -> dict | str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.output) if "--json" in args else res.output


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop_repo"
    (root / "shop").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "orders.py").write_text(ORDERS)
    (root / "docs" / "guide.md").write_text(GUIDE)
    lore("index", str(root), "--workers", "1")
    lore("docs", "add", str(root / "docs"), "--embedder", "hashing", "--db", str(root))
    return root


def doc_chunks(root: Path, symbol: str) -> list[tuple[str, list[str]]]:
    out = lore("graph", "related", symbol, "--with-docs", "--json", "--db", str(root))
    return [(d["breadcrumb"], [m["mention"] for m in d["mentions"]]) for d in out["docs"]]


def mentioned_names(root: Path) -> set[str]:
    conn = connect(root / ".lore" / "index.db")
    try:
        return {r[0] for r in conn.execute("SELECT DISTINCT qualified_name FROM chunk_symbol_mentions")}
    finally:
        conn.close()


def symbol_names(root: Path) -> set[str]:
    conn = connect(root / ".lore" / "index.db")
    try:
        return {r[0] for r in conn.execute("SELECT qualified_name FROM symbols WHERE file_id IS NOT NULL")}
    finally:
        conn.close()


def test_with_docs_lists_the_chunks_that_mention_a_symbol(shop):
    assert doc_chunks(shop, "shop.orders.retry_with_backoff") == [("Shop guide > Retries", ["retry_with_backoff"])]
    assert doc_chunks(shop, "shop.orders.Order.refund") == [("Shop guide > Orders", ["shop.orders.Order.refund"])]
    assert doc_chunks(shop, "shop.orders.Order.amount") == [("Shop guide > Orders", ["Order.amount"])]
    table = lore("graph", "related", "shop.orders.Order", "--with-docs", "--db", str(shop))
    assert "doc chunk" in table and "docs/guide.md > Shop guide > Orders (mentions Order)" in table
    assert doc_chunks(shop, "shop.orders") == []  # a module name the docs never write


def test_code_refresh_keeps_mentions_consistent(shop):
    src = shop / "shop" / "orders.py"
    # remove refund, add ship_order (named in the docs before it existed)
    src.write_text(ORDERS.replace("    def refund(self):\n        return retry_with_backoff(self.amount)\n", "")
                   + "\n\ndef ship_order(order):\n    return order\n")
    lore("index", str(shop), "--workers", "1")
    names = mentioned_names(shop)
    assert "shop.orders.Order.refund" not in names and "shop.orders.ship_order" in names
    assert names <= symbol_names(shop)  # nothing dangling
    assert doc_chunks(shop, "shop.orders.ship_order") == [("Shop guide > Retries", ["ship_order"])]


def test_body_edit_leaves_mentions_alone(shop, monkeypatch):
    import lore.docs.links as links

    calls = []
    monkeypatch.setattr(links.SymbolMatcher, "find", lambda self, text: calls.append(text) or set())
    src = shop / "shop" / "orders.py"
    src.write_text(ORDERS.replace("attempts=3", "attempts=5"))
    lore("index", str(shop), "--workers", "1")
    assert calls == []  # same symbol names: the docs are not matched again
    assert "shop.orders.retry_with_backoff" in mentioned_names(shop)


def test_rebuild_keeps_documents_vectors_and_mentions(shop):
    db = shop / ".lore" / "index.db"
    before = lore("docs", "search", "retry flaky", "--json", "--db", str(db))
    conn = connect(db)
    vectors_before = conn.execute("SELECT chunk_id, model, vector FROM chunk_vectors ORDER BY chunk_id").fetchall()
    conn.close()
    out = lore("index", str(shop), "--rebuild", "--workers", "1")
    assert "rebuilt" in out
    after = lore("docs", "search", "retry flaky", "--json", "--db", str(db))
    assert [r["chunk_id"] for r in after["results"]] == [r["chunk_id"] for r in before["results"]]
    conn = connect(db)
    try:
        assert conn.execute("SELECT chunk_id, model, vector FROM chunk_vectors ORDER BY chunk_id").fetchall() == (
            vectors_before
        )
        assert conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == conn.execute(
            "SELECT count(*) FROM chunks"
        ).fetchone()[0]
    finally:
        conn.close()
    assert not (shop / ".lore" / "index.db.docs-keep").exists()
    assert doc_chunks(shop, "shop.orders.retry_with_backoff") == [("Shop guide > Retries", ["retry_with_backoff"])]
    related = lore("docs", "related", str(after["results"][0]["chunk_id"]), "--same-document", "--json", "--db", str(db))
    assert related["source"]["chunk_id"] == after["results"][0]["chunk_id"]


@pytest.mark.parametrize("key", ["schema_version", "index_format"])
def test_schema_or_format_change_rebuild_keeps_documents(shop, key):
    db = shop / ".lore" / "index.db"
    conn = connect(db)
    n = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
    conn.execute("UPDATE meta SET value = '0' WHERE key = ?", (key,))
    conn.commit()
    conn.close()
    out = lore("index", str(shop), "--workers", "1")
    assert "rebuilt the index (" + ("schema version 0" if key == "schema_version" else "index format 0") in out
    conn = connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM chunks").fetchone()[0] == n
    finally:
        conn.close()


def test_with_docs_is_right_after_a_refresh_that_skipped_the_mentions(shop):
    from lore.index import index_repo as index_code_only  # what a caller bypassing lore.index_repo runs

    src = shop / "shop" / "orders.py"
    src.write_text(ORDERS.replace("retry_with_backoff", "retry_later") + "\n\ndef ship_order(order):\n    return order\n")
    index_code_only(shop, workers=1)
    assert "shop.orders.retry_with_backoff" in mentioned_names(shop)  # stored mentions are stale now...
    assert doc_chunks(shop, "shop.orders.ship_order") == [("Shop guide > Retries", ["ship_order"])]  # ...answers are not
    assert doc_chunks(shop, "shop.orders.retry_later") == []
