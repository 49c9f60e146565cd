"""The Python API: open_index, symbols, edges, and the graph kinds that need no ranking."""

from __future__ import annotations

import pytest

import lore
from lore import InvalidArgumentError, UnknownAlgorithmError, UnknownSymbolError, lore_graph, open_index


def test_public_names_sorted_and_complete():
    assert lore.__all__ == sorted(lore.__all__)
    for name in lore.__all__:
        assert hasattr(lore, name), name
    public = {n for n in dir(lore) if not n.startswith("_") and not isinstance(getattr(lore, n), type(lore))}
    assert public <= set(lore.__all__) | {"annotations"}


def test_symbol_lookup(sample_index):
    s = sample_index.symbol("shop.models.Item")
    assert s["kind"] == "class" and s["docstring"] == "A thing to sell." and s["line"] == 1
    assert sample_index.symbol(s["id"])["qualified_name"] == "shop.models.Item"
    assert sample_index.symbol(str(s["id"]))["id"] == s["id"]
    with pytest.raises(UnknownSymbolError, match="unknown symbol 'shop.nope'"):
        sample_index.symbol("shop.nope")
    with pytest.raises(UnknownSymbolError):
        sample_index.symbol(10**9)


def test_symbols_and_edges(sample_index):
    syms = sample_index.symbols(kind="method")
    assert {"shop.orders.Order.amount", "shop.orders.RushOrder.amount"} <= {s["qualified_name"] for s in syms}
    refs = sample_index.edges("symbol_refs")
    assert refs and {"caller_id", "callee_id", "resolution", "confidence", "callee_name", "line"} <= set(refs[0])
    for table in ("type_refs", "file_imports", "symbol_relationships"):
        assert sample_index.edges(table)
    with pytest.raises(UnknownAlgorithmError):
        sample_index.edges("files; DROP TABLE files")


def test_open_index_missing(tmp_path):
    with pytest.raises(lore.IndexNotFoundError, match="run `lore index` first"):
        open_index(tmp_path)


def test_call_and_callers(sample_index):
    out = lore_graph(sample_index, kind="call", source_id="shop.orders.RushOrder.amount")
    got = {r["qualified_name"]: r["why"]["resolution"] for r in out["results"]}
    assert got["shop.orders.Order.amount"] == "self_method"  # super().amount()
    assert out["generation"] == sample_index.generation and out["total"] == len(out["results"])
    out = lore_graph(sample_index, kind="callers", source_id="shop.models.Item.total")
    assert [r["qualified_name"] for r in out["results"]] == ["shop.orders.Order.amount"]
    assert out["results"][0]["why"]["resolution"] == "annotated_type"  # self.item: Item via __init__ param


def test_unresolved_targets_keep_their_name(make_repo):
    root = make_repo({"m.py": "def f(x):\n    x.frobnicate()\n    mystery()\n"})
    lore.index_repo(root, workers=1)
    with open_index(root) as idx:
        out = lore_graph(idx, kind="call", source_id="m.f")
    names = {(r["name"], r["why"]["resolution"]) for r in out["results"]}
    assert ("frobnicate", "unresolved") in names and ("mystery", "unresolved") in names


def test_inheritance_and_overrides(sample_index):
    out = lore_graph(sample_index, kind="inheritance", source_id="shop.orders.Order")
    rows = {r["qualified_name"]: r["why"]["relation"] for r in out["results"]}
    assert rows == {"shop.orders.RushOrder": "subclass"}
    out = lore_graph(sample_index, kind="inheritance", source_id="shop.orders.RushOrder.amount", direction="out")
    assert [r["qualified_name"] for r in out["results"]] == ["shop.orders.Order.amount"]


def test_imports_both_directions(sample_index):
    out = lore_graph(sample_index, kind="import", source_id="shop.report")
    stmts = {r["why"]["statement"] for r in out["results"]}
    assert "shop import place_order" in stmts
    targets = {r["qualified_name"] for r in out["results"]}
    assert "shop.orders.place_order" in targets  # re-export followed to the definition
    out = lore_graph(sample_index, kind="import", source_id="shop.models", direction="in")
    assert {r["qualified_name"] for r in out["results"]} == {"shop.orders"}


def test_bad_arguments(sample_index):
    with pytest.raises(UnknownAlgorithmError, match="graph kind"):
        lore_graph(sample_index, kind="nope", source_id=1)
    with pytest.raises(InvalidArgumentError, match="limit"):
        lore_graph(sample_index, kind="call", source_id="shop.models.Item", limit=0)
    with pytest.raises(InvalidArgumentError, match="one source"):
        lore_graph(sample_index, kind="call", source_id=["shop.models.Item", "shop.orders.Order"])


def test_status_reports_freshness(sample_repo, sample_index):
    st = sample_index.status()
    assert st["fresh"] and st["files"] == 5
    (sample_repo / "shop/models.py").write_text("# changed\n")
    st = sample_index.status()
    assert not st["fresh"] and st["changed_on_disk"] == ["shop/models.py"]


def test_the_issue_api_end_to_end(sample_repo, tmp_path):
    """lore.index_repo(path, db=...) and lore.open_index(path) with symbols, symbol, edges, search."""
    db = tmp_path / "elsewhere" / "code.db"
    report = lore.index_repo(sample_repo, db=db, workers=1)
    assert report.db == str(db) and report.full and not (sample_repo / ".lore").exists()
    assert report.seconds["total"] > 0 and report.seconds["cpu"] > 0
    with open_index(db) as idx:
        assert idx.symbol("shop.orders.Order.amount")["kind"] == "method"
        ids = [s["id"] for s in idx.symbols()]
        assert ids == sorted(ids) and len(ids) == len(set(ids))
        first, second = idx.edges("symbol_refs"), idx.edges("symbol_refs")
        assert first == second  # deterministic order (rowid)
        hits = idx.search("order amount")["results"]
        assert "shop.orders.Order.amount" in [h["qualified_name"] for h in hits]
    with pytest.raises(InvalidArgumentError, match="not a directory"):
        lore.index_repo(tmp_path / "missing", db=db)
    with pytest.raises(InvalidArgumentError, match="workers"):
        lore.index_repo(sample_repo, db=db, workers=0)
