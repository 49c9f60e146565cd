"""End to end over streamable HTTP: ``lore serve --http 127.0.0.1:PORT`` driven by the SDK's HTTP client."""

from __future__ import annotations

from lore.api import lore_search, open_index
from lore.docs.api import search_docs

from .conftest import error_text, expected_graph, first_page, payload, run_http_session
from .test_stdio import READ_ONLY


def test_streamable_http_on_loopback(shop_repo):
    _root, db = shop_repo
    graph = {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "pagerank"}
    search = {"query": "place order", "compact": False}
    docs = {"query": "refund", "mode": "keyword"}

    async def body(session):
        names = [t.name for t in (await session.list_tools()).tools]
        good = {
            "graph": payload(await session.call_tool("lore_graph", graph)),
            "search": payload(await session.call_tool("lore_search", search)),
            "docs": payload(await session.call_tool("lore_search_docs", docs)),
            "status": payload(await session.call_tool("lore_status", {})),
        }
        bad = error_text(await session.call_tool("lore_symbol", {"symbol": "shop.absent"}))
        return names, good, bad

    names, good, bad = run_http_session(db, body)
    assert names == READ_ONLY
    with open_index(db, readonly=True) as idx:
        assert first_page(good["graph"]) == expected_graph(idx, graph)
        assert first_page(good["search"]) == lore_search(idx, "place order")
        assert good["docs"]["results"] == search_docs(idx, "refund", mode="keyword")["results"]
        assert good["status"] == {**idx.status(), "read_only": True}
    assert good["graph"]["results"] and good["docs"]["results"]
    assert "unknown symbol 'shop.absent'" in bad
