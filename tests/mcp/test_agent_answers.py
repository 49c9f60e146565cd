"""What an agent gets, measured from outside with the official ``mcp`` client over stdio (``lore serve``):
the size of ``tools/list`` and of each answer (bytes, and tokens as characters / 4: no tokenizer is installed),
structured content, one-line reasons, call-site lines, cursor pages, the ``lore_`` names and the old ones."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lore.api import lore_graph, open_index

from .conftest import error_text, fresh_copy, payload, run_session

TOOLS_LIST_BUDGET = 8 * 1024  # bytes of the tools/list result: what sits in the agent's context before any call
RELATED_BUDGET = 6000  # bytes of a default lore_graph related answer (20 rows at most, about 1.5k tokens)
TRACEBACK = """Refunding an order of zero items crashes instead of saying why.

Traceback (most recent call last):
  File "/srv/shop/shop/refunds.py", line 8, in refund_order
    check_qty(order.qty)
  File "/srv/shop/shop/validate.py", line 10, in check_qty
    raise ValueError("qty must be positive")
ValueError: qty must be positive
"""


def _tokens(text: str) -> int:
    return (len(text) + 3) // 4


def _size(model) -> int:
    return len(json.dumps(model.model_dump(mode="json", by_alias=True, exclude_none=True), separators=(",", ":")))


def test_tools_list_and_answers_fit_their_budgets(shop_repo):
    _root, db = shop_repo
    calls = [
        ("lore_search", {"query": "place order"}),
        ("lore_locate", {"text": TRACEBACK}),
        ("lore_graph", {"relation": "related", "source_id": "shop.orders.place_order"}),
        ("lore_graph", {"relation": "callers", "source_id": "shop.validate.check_qty"}),
        ("lore_symbol", {"symbol": "shop.validate.check_qty"}),
        ("lore_clusters", {}),
        ("lore_status", {}),
        ("lore_search_docs", {"query": "refund"}),
        ("lore_search_similar", {"query": "refund"}),
    ]

    async def body(session):
        listed = await session.list_tools()
        return listed, [(name, await session.call_tool(name, args)) for name, args in calls]

    listed, answers = run_session(db, body)
    size = _size(listed)
    print(f"\ntools/list: {size} bytes, ~{_tokens('x' * size)} tokens, {len(listed.tools)} tools")
    assert size <= TOOLS_LIST_BUDGET, f"tools/list is {size} bytes"
    for name, result in answers:
        text = result.content[0].text
        print(f"{name}: {len(text.encode())} bytes, ~{_tokens(text)} tokens")
        # the same answer twice (the spec's advice): structured for clients that check it, text for the others
        assert result.structured_content == json.loads(text), name
    related = dict(answers)["lore_graph"].content[0].text
    assert len(related.encode()) <= RELATED_BUDGET


def test_tools_list_with_refresh_fits_too(shop_repo):
    _root, db = shop_repo

    async def body(session):
        return await session.list_tools()

    listed = run_session(db, body, "--allow-refresh")
    assert "lore_refresh" in [t.name for t in listed.tools] and _size(listed) <= TOOLS_LIST_BUDGET


def test_every_tool_declares_an_output_schema_the_client_checks(shop_repo):
    _root, db = shop_repo

    async def body(session):
        tools = (await session.list_tools()).tools
        # the client validates each structured answer against the declared outputSchema (raises if it fails)
        answers = [await session.call_tool("lore_graph", {"relation": "related", "source_id": 1}),
                   await session.call_tool("lore_symbol", {"symbol": "shop.orders.Order"}),
                   await session.call_tool("lore_status", {})]
        return tools, answers

    tools, answers = run_session(db, body)
    assert all(t.output_schema and t.output_schema["type"] == "object" for t in tools)
    assert all(t.name.startswith("lore_") for t in tools)
    assert all(a.structured_content and not a.is_error for a in answers)


def test_compact_rows_say_why_in_one_line_and_calls_give_their_lines(shop_repo):
    _root, db = shop_repo
    args = [
        {"relation": "related", "source_id": "shop.orders.place_order"},
        {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "overlap"},
        {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "pagerank"},
        {"relation": "call", "source_id": "shop.orders.place_order"},
        {"relation": "callers", "source_id": "shop.validate.check_qty"},
        {"relation": "cluster", "source_id": "shop.orders.place_order"},
        {"relation": "inheritance", "source_id": "shop.models.Item", "direction": "in"},
        {"relation": "import", "source_id": "shop.refunds"},
    ]

    async def body(session):
        return [payload(await session.call_tool("lore_graph", a)) for a in args]

    got = run_session(db, body)
    with open_index(db, readonly=True) as idx:
        full = [lore_graph(idx, kind=a["relation"], **{k: v for k, v in a.items() if k != "relation"}) for a in args]
    for a, answer, library in zip(args, got, full, strict=True):
        assert answer["results"], a
        for short, row in zip(answer["results"], library["results"], strict=True):
            assert isinstance(short["why"], str) and 0 < len(short["why"]) <= 100, (a, short)
            assert short["id"] == row["id"]
            if a["relation"] in ("call", "callers"):
                assert short["lines"] == row["why"]["call_lines"] and str(row["why"]["call_lines"][0]) in short["why"]
    hybrid = got[0]["results"][0]["why"]  # the ranker's own summary, cut at a phrase
    summary = full[0]["results"][0]["why"]["summary"]
    assert summary.startswith(hybrid.rstrip("…")), (hybrid, summary)
    assert any("shares" in r["why"] for r in got[1]["results"])  # overlap: the shared neighbours
    assert any(r["why"].startswith("path ") for r in got[2]["results"])  # pagerank: the walk


def test_cursor_pages_continue_exactly_and_refuse_other_calls(shop_repo):
    _root, db = shop_repo
    call = {"relation": "related", "source_id": "shop.orders.place_order"}

    async def body(session):
        whole = payload(await session.call_tool("lore_graph", call))
        pages, cursor = [], None
        while True:
            page = payload(await session.call_tool("lore_graph", {**call, "limit": 4, **({"cursor": cursor} if cursor else {})}))
            pages.append(page)
            cursor = page.get("next_cursor")
            if not cursor:
                break
        other = await session.call_tool("lore_graph", {**call, "algorithm": "overlap", "cursor": pages[0]["next_cursor"]})
        forged = await session.call_tool("lore_graph", {**call, "cursor": "not-a-cursor"})
        docs = payload(await session.call_tool("lore_search_docs", {"query": "order", "limit": 1}))
        docs2 = payload(await session.call_tool("lore_search_docs", {"query": "order", "limit": 1,
                                                                      "cursor": docs["next_cursor"]}))
        return whole, pages, error_text(other), error_text(forged), docs, docs2

    whole, pages, other, forged, docs, docs2 = run_session(db, body)
    assert len(pages) > 2 and "next_cursor" not in whole  # every row fits the default page
    assert [r for p in pages for r in p["results"]] == whole["results"]
    assert all(p["truncated"] for p in pages[:-1]) and not pages[-1]["truncated"]
    assert pages[1]["offset"] == 4 and pages[1]["query"]["limit"] == 4
    assert "continues another call" in other and "not one this server made" in forged
    assert docs["results"][0]["chunk_id"] != docs2["results"][0]["chunk_id"]


def test_a_cursor_from_another_generation_is_refused(shop_repo, tmp_path: Path):
    import anyio

    repo, db = fresh_copy(shop_repo, tmp_path / "gen")
    call = {"relation": "related", "source_id": "shop.orders.place_order", "limit": 2}

    async def body(session):
        first = payload(await session.call_tool("lore_graph", call))
        (repo / "shop" / "extra.py").write_text("def extra_order(qty):\n    return qty\n")
        await anyio.run_process([sys.executable, "-m", "lore", "index", str(repo), "--db", str(db), "--workers", "1"])
        return first, error_text(await session.call_tool("lore_graph", {**call, "cursor": first["next_cursor"]}))

    first, message = run_session(db, body)
    assert f"from index generation {first['generation']}" in message and "without cursor" in message


def test_old_names_still_work_unlisted_and_say_so(shop_repo):
    _root, db = shop_repo

    async def body(session):
        names = [t.name for t in (await session.list_tools()).tools]
        old = {
            "docs": payload(await session.call_tool("search_docs", {"query": "refund", "mode": "keyword"})),
            "new_docs": payload(await session.call_tool("lore_search_docs", {"query": "refund", "mode": "keyword"})),
            "graph": payload(await session.call_tool("lore_graph", {"kind": "callers", "source_id": "shop.validate.check_qty",
                                                                   "result_kind": "function", "alpha": 0.5})),
            "new_graph": payload(await session.call_tool("lore_graph", {"relation": "callers", "kind": "function",
                                                                       "source_id": "shop.validate.check_qty",
                                                                       "options": {"alpha": 0.5}})),
            "similar": payload(await session.call_tool("search_similar", {"query": "refund"})),
        }
        return names, old

    names, got = run_session(db, body)
    assert not {"search_docs", "get_related", "search_similar"} & set(names)
    assert "lore_search_docs" in got["docs"]["deprecated"][0]
    assert {k: v for k, v in got["docs"].items() if k != "deprecated"} == got["new_docs"]
    notes = " ".join(got["graph"]["deprecated"])
    assert "relation='callers'" in notes and "result_kind is now kind" in notes and "options" in notes
    assert {k: v for k, v in got["graph"].items() if k != "deprecated"} == got["new_graph"]
    assert {r["kind"] for r in got["new_graph"]["results"]} == {"function"}  # kind filters symbol kinds
    assert got["similar"]["success"] is True and got["similar"]["deprecated"]


def test_locate_over_mcp_names_the_frames_first(shop_repo):
    _root, db = shop_repo

    async def body(session):
        return payload(await session.call_tool("lore_locate", {"text": TRACEBACK, "limit": 5, "files": 3}))

    out = run_session(db, body)
    assert out["results"][0]["qualified_name"] == "shop.validate.check_qty"  # the innermost frame
    assert out["results"][1]["qualified_name"] == "shop.refunds.refund_order"
    assert out["files"][0]["path"] == "shop/validate.py" and len(out["files"]) == 3
    assert out["results"][0]["why"].startswith("stack frame 1 (shop/validate.py:10)")
    assert all(0 < len(r["why"]) <= 100 for r in out["results"] + out["files"])
