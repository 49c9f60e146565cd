"""End to end: ``python -m lore serve`` as a subprocess, driven by the SDK's ClientSession over stdio."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import anyio
import jsonschema

from lore.api import list_clusters, lore_search, open_index
from lore.docs.api import get_related, search_docs
from lore.mcp_schema import tool_definitions

from .conftest import (
    error_text,
    executed_markers,
    expected_graph,
    first_page,
    fresh_copy,
    payload,
    run_session,
    write_tree,
)

READ_ONLY = [
    "lore_search",
    "lore_locate",
    "lore_graph",
    "lore_symbol",
    "lore_clusters",
    "lore_status",
    "lore_search_docs",
    "lore_docs_related",
    "lore_search_similar",
]

GRAPH_QUERIES = [
    {"relation": "related", "source_id": "shop.orders.place_order"},
    {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "pagerank", "options": {"alpha": 0.5}},
    {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "pagerank_push"},
    {
        "relation": "related",
        "source_id": "shop.orders.place_order",
        "algorithm": "pagerank_mc",
        "options": {"n_walks": 500, "seed": 3},
    },
    {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "cluster"},
    {"relation": "related", "source_id": ["shop.orders.place_order", "shop.refunds.refund_order"], "limit": 3},
    {
        "relation": "related",
        "source_id": "shop.orders.place_order",
        "options": {"measure": "jaccard"},
        "kind": "function",
    },
    {"relation": "related", "source_id": "shop.validate.check_qty", "with_docs": True},
    {"relation": "call", "source_id": "shop.orders.place_order", "compact": False},
    {"relation": "callers", "source_id": "shop.validate.check_qty", "include_tests": True},
    {"relation": "inheritance", "source_id": "shop.models.DigitalItem", "direction": "out"},
    {"relation": "inheritance", "source_id": "shop.models.Item", "direction": "in"},
    {"relation": "import", "source_id": "shop.refunds", "direction": "out"},
    {"relation": "import", "source_id": "shop.validate", "direction": "in"},
    {"relation": "cluster", "source_id": "shop.orders.place_order", "max_tokens": 300},
]

SEARCHES = [
    {"query": "place order"},
    {"query": "check qty", "mode": "keyword", "expand": 0, "limit": 3},
    {"query": "refund money back", "mode": "vector", "min_score": 0.1},
    {
        "query": "order",
        "kind": "function",
        "path_prefix": "shop/",
        "expand": 2,
        "min_score": 0.2,
        "limit": 10,
    },
    {"query": "place order quantity", "any_terms": True, "include_tests": False},
    {"query": "refunds", "files": True},
    {"query": "orders validate", "files": True, "mode": "keyword", "any_terms": True, "min_score": 0.0},
]

DOC_SEARCHES = [
    {"query": "order discount", "mode": "keyword", "limit": 5},
    {"query": "refund the customer"},
    {"query": "quantity", "mode": "vector", "topic": "guides", "library": "shop", "tags": ["orders"]},
    {"query": "ship box parcel", "expand": 1, "min_score": 0.0},
    {"query": "refunds", "mode": "keyword", "title_boost": 1.0},
    {"query": "refunds", "mode": "keyword", "title_boost": 2.5},
]


def _compact(row: dict) -> dict:
    """What a compact search row must hold: the library row with ``at`` instead of name/path/line/end_line."""
    at = row["path"] if row["kind"] == "file" else f"{row['path']}:{row['line']}"
    return {**{k: v for k, v in row.items() if k not in ("name", "path", "line", "end_line")}, "at": at}


def _docs_envelope(expected: dict) -> dict:
    return {**expected, "truncated": bool(expected["has_more"])}


def test_tools_list_is_what_lore_tools_schema_prints(shop_repo):
    _root, db = shop_repo

    async def body(session):
        return (await session.list_tools()).tools

    listed = run_session(db, body)
    printed = json.loads(
        subprocess.run(
            [sys.executable, "-m", "lore", "tools", "--schema"], check=True, capture_output=True, text=True
        ).stdout
    )
    assert printed == tool_definitions()
    assert [t.name for t in listed] == [t["name"] for t in printed] == READ_ONLY  # read-only: no lore_refresh
    for tool, spec in zip(listed, printed, strict=True):
        jsonschema.Draft202012Validator.check_schema(spec["inputSchema"])
        assert tool.input_schema == spec["inputSchema"]
        assert (tool.title, tool.description) == (spec["title"], spec["description"])
        assert tool.output_schema == spec["outputSchema"]
        # destructiveHint means something only for a tool that writes (the MCP spec): not sent for these
        assert tool.annotations.read_only_hint is True and not tool.annotations.destructive_hint


def test_every_tool_matches_the_python_api(shop_repo):
    _root, db = shop_repo
    with open_index(db, readonly=True) as idx:
        chunk = search_docs(idx, "order discount", mode="keyword")["results"][0]["chunk_id"]
    related_args = [
        {"chunk_id": chunk},
        {"chunk_id": chunk, "limit": 1, "include_linked": True, "min_score": 0.0},
    ]

    async def body(session):
        async def call(name, args):
            return payload(await session.call_tool(name, args))

        return {
            "graph": [await call("lore_graph", q) for q in GRAPH_QUERIES],
            "search": [await call("lore_search", {**q, "compact": False}) for q in SEARCHES],
            "search_compact": [await call("lore_search", q) for q in SEARCHES],
            "symbol": [
                await call("lore_symbol", {"symbol": "shop.orders.Order.amount"}),
                await call("lore_symbol", {"symbol": "shop.validate.check_qty", "snippet_lines": 0}),
            ],
            "clusters": [
                await call("lore_clusters", {}),
                await call("lore_clusters", {"min_size": 2, "top": 2}),
            ],
            "status": await call("lore_status", {}),
            "docs": [await call("lore_search_docs", q) for q in DOC_SEARCHES],
            "related": [await call("lore_docs_related", a) for a in related_args],
        }

    got = run_session(db, body)
    with open_index(db, readonly=True) as idx:
        for q, answer in zip(GRAPH_QUERIES, got["graph"], strict=True):
            want = expected_graph(idx, q)
            if "max_tokens" in q:  # the budget cut rows from the end: a prefix of the rows
                assert 0 < len(answer["results"]) <= len(want["results"]), q
                assert answer["results"] == want["results"][: len(answer["results"])], q
            else:
                assert first_page(answer) == want, q
            assert {"query", "generation", "total", "truncated", "results"} <= answer.keys()
        for q, full, short in zip(SEARCHES, got["search"], got["search_compact"], strict=True):
            expected = lore_search(idx, q["query"], **{k: v for k, v in q.items() if k != "query"})
            full, short = first_page(full), first_page(short)
            assert full == expected, q
            assert {k: v for k, v in short.items() if k != "results"} == {
                k: v for k, v in expected.items() if k != "results"
            }
            assert short["results"] == [_compact(r) for r in expected["results"]], q
        assert got["symbol"][0] == idx.symbol("shop.orders.Order.amount", snippet_lines=12)
        assert got["symbol"][1] == idx.symbol("shop.validate.check_qty")
        assert [first_page(c) for c in got["clusters"]] == [
            list_clusters(idx, min_size=3, limit=20, top=5),
            list_clusters(idx, min_size=2, limit=20, top=2),
        ]
        status = idx.status()
        for q, answer in zip(DOC_SEARCHES, got["docs"], strict=True):
            expected = search_docs(
                idx, q["query"], **{"limit": 10, **{k: v for k, v in q.items() if k != "query"}}
            )
            assert first_page(answer) == _docs_envelope(expected), q
        for a, answer in zip(related_args, got["related"], strict=True):
            expected = get_related(
                idx, a["chunk_id"], **{"limit": 10, **{k: v for k, v in a.items() if k != "chunk_id"}}
            )
            assert first_page(answer) == _docs_envelope(expected), a
    assert got["status"] == {**status, "read_only": True} and status["fresh"] is True

    # the fixture really exercises what was compared
    related = got["graph"][0]["results"]
    assert "shop.orders.place_bulk_order" in {r["qualified_name"] for r in related}
    assert got["graph"][7]["docs"], "with_docs should find the chunk that mentions check_qty"
    assert got["symbol"][0]["snippet"].lstrip().startswith("def amount")
    assert all(s["results"] for s in got["search"]), "every search should find something"
    assert got["search"][2]["model"] and "fallback" not in got["search"][0], "vectors should be used"
    assert any(r["found_by"].get("seed") for r in got["search"][3]["results"]), "expansion should add rows"
    assert got["search"][5]["results"][0]["path"] == "shop/refunds.py"
    assert all(d["results"] for d in got["docs"]) and got["related"][0]["results"]


def test_max_tokens_is_honoured(shop_repo):
    _root, db = shop_repo
    calls = [
        ("lore_graph", {"relation": "related", "source_id": "shop.orders.place_order", "compact": False}),
        (
            "lore_search",
            {"query": "order", "mode": "keyword", "min_score": 0.0, "limit": 20, "compact": False},
        ),
        ("lore_clusters", {"min_size": 1, "limit": 50}),
        ("lore_search_docs", {"query": "order", "mode": "keyword", "min_score": 0.0}),
    ]

    async def body(session):
        out = []
        for name, args in calls:
            full = await session.call_tool(name, args)
            budget = max(50, len(full.content[0].text) // 4 * 2 // 3)  # two thirds of the full answer
            cut = await session.call_tool(name, {**args, "max_tokens": budget})
            out.append((payload(full), payload(cut), cut.content[0].text, budget))
        return out

    for (name, _args), (full, cut, text, budget) in zip(calls, run_session(db, body), strict=True):
        assert len(full["results"]) >= 2, name
        assert len(text) <= 4 * budget or not cut["results"], (name, len(text), budget)
        assert cut["truncated"] is True, name
        assert 0 < len(cut["results"]) < len(full["results"]), name
        assert cut["results"] == full["results"][: len(cut["results"])], name


def test_bad_arguments_are_tool_errors(shop_repo):
    _root, db = shop_repo
    bad = [
        ("lore_graph", {"relation": "related", "source_id": "no.such.symbol"}, "unknown symbol 'no.such.symbol'"),
        ("lore_graph", {"relation": "related", "source_id": 999999}, "unknown symbol 999999"),
        (
            "lore_graph",
            {"relation": "related", "source_id": 1, "limit": 1000},
            "limit must be an integer from 1 to 100",
        ),
        (
            "lore_graph",
            {"relation": "related", "source_id": 1, "options": {"alpha": 1.5}},
            "alpha must be a number strictly between",
        ),
        (
            "lore_graph",
            {"relation": "call", "source_id": ["shop.orders", "shop.models"]},
            "takes one source symbol",
        ),
        ("lore_graph", {"relation": "teleport", "source_id": 1}, "relation must be one of"),
        ("lore_graph", {}, "missing required argument 'relation'"),
        (
            "lore_graph",
            {"relation": "related", "source_id": 1, "max_tokens": 10},
            "max_tokens must be an integer from 50",
        ),
        ("lore_symbol", {"symbol": "shop.nothing"}, "unknown symbol 'shop.nothing'"),
        ("lore_symbol", {"symbol": 1, "snippet_lines": -1}, "snippet_lines must be an integer from 0 to 200"),
        ("lore_clusters", {"limit": "many"}, "limit must be an integer"),
        ("lore_status", {"verbose": True}, "unknown argument 'verbose'"),
        ("lore_search", {"query": "x", "mode": "psychic"}, "mode must be one of: hybrid, vector, keyword"),
        ("lore_search", {"query": "   "}, "query must be a non-empty string"),
        ("lore_search", {"query": "order", "files": True, "expand": 1}, "file search does not expand"),
        ("lore_search", {"query": "order", "files": True, "kind": "class"}, "file search has no kinds"),
        ("lore_search_docs", {"query": "order", "limit": 0}, "limit must be an integer from 1 to 100"),
        ("lore_search_docs", {"query": "order", "tags": "orders"}, "tags must be a list"),
        ("lore_docs_related", {"chunk_id": 987654}, "unknown chunk 987654"),
        ("lore_docs_related", {"chunk_id": "seven"}, "chunk_id must be a positive integer"),
        ("lore_refresh", {}, "unknown tool 'lore_refresh' (start the server with --allow-refresh"),
        ("no_such_tool", {}, "unknown tool 'no_such_tool'"),
    ]

    async def body(session):
        msgs = [error_text(await session.call_tool(name, args)) for name, args, _ in bad]
        payload(await session.call_tool("lore_status", {}))  # still serving
        return msgs

    for (name, _args, expected), msg in zip(bad, run_session(db, body), strict=True):
        assert expected in msg, (name, msg)
        assert "internal error" not in msg, msg


def test_survives_1000_mixed_calls(shop_repo):
    _root, db = shop_repo
    rng = random.Random(0)
    good = [
        ("lore_graph", {"relation": "related", "source_id": "shop.orders.place_order", "limit": 5}),
        ("lore_graph", {"relation": "callers", "source_id": "shop.validate.check_name"}),
        ("lore_graph", {"relation": "cluster", "source_id": "shop.models.Item"}),
        ("lore_symbol", {"symbol": "shop.refunds.exchange", "snippet_lines": 3}),
        ("lore_search", {"query": "refund order"}),
        ("lore_search", {"query": "validate", "files": True}),
        ("lore_search_docs", {"query": "shipping"}),
        ("lore_docs_related", {"chunk_id": 1}),
        ("lore_status", {}),
        ("lore_clusters", {}),
    ]
    bad = [
        ("lore_graph", {"relation": "related", "source_id": "missing.symbol"}),
        ("lore_graph", {"relation": "related", "source_id": 1, "limit": -5}),
        ("lore_graph", {"relation": "related", "source_id": {"id": 1}}),
        ("lore_graph", {"relation": "import", "source_id": "shop.orders.place_order", "direction": "both"}),
        ("lore_symbol", {"symbol": None}),
        ("lore_symbol", {}),
        ("lore_clusters", {"min_size": 0}),
        ("lore_search", {"query": ""}),
        ("lore_search", {"query": "x", "expand": 9}),
        ("lore_search_docs", {"query": "x", "mode": "telepathy"}),
        ("lore_docs_related", {"chunk_id": 10**9}),
        ("nope", {"x": 1}),
    ]
    calls = [
        (True, *rng.choice(good)) if rng.random() < 0.5 else (False, *rng.choice(bad)) for _ in range(1000)
    ]

    async def body(session):
        outcomes = []
        for _ok, name, args in calls:
            r = await session.call_tool(name, args)
            outcomes.append((r.is_error, r.content[0].text))
        return outcomes

    outcomes = run_session(db, body, timeout=300)
    assert len(outcomes) == 1000
    for (ok, name, args), (is_error, text) in zip(calls, outcomes, strict=True):
        assert is_error is (not ok), (name, args, text[:200])
        if is_error:
            assert "\n" not in text and "internal error" not in text, text


def test_missing_index_is_a_tool_error_not_a_crash(tmp_path: Path):
    db = tmp_path / "repo" / ".lore" / "index.db"
    calls = [
        ("lore_status", {}),
        ("lore_graph", {"relation": "related", "source_id": 1}),
        ("lore_search", {"query": "order"}),
        ("lore_search_docs", {"query": "order"}),
    ]

    async def body(session):
        tools = [t.name for t in (await session.list_tools()).tools]
        return tools, [error_text(await session.call_tool(n, a)) for n, a in calls]

    tools, msgs = run_session(db, body)
    assert tools == READ_ONLY
    assert msgs == [f"no index at {db}; run `lore index` first"] * len(calls)
    assert not db.parent.exists()


def test_refresh_only_with_allow_refresh(shop_repo, tmp_path: Path):
    repo, db = fresh_copy(shop_repo, tmp_path / "copy")
    with (repo / "shop" / "validate.py").open("a") as fh:
        fh.write("\n\ndef check_price(price: float) -> float:\n    return price\n")

    async def body(session):
        names = [t.name for t in (await session.list_tools()).tools]
        before = payload(await session.call_tool("lore_status", {}))
        missing = error_text(await session.call_tool("lore_symbol", {"symbol": "shop.validate.check_price"}))
        report = payload(await session.call_tool("lore_refresh", {}))
        after = payload(await session.call_tool("lore_status", {}))
        found = payload(await session.call_tool("lore_symbol", {"symbol": "shop.validate.check_price"}))
        docs = payload(
            await session.call_tool(
                "lore_graph", {"relation": "callers", "source_id": found["id"], "with_docs": True}
            )
        )
        return names, before, missing, report, after, found, docs

    names, before, missing, report, after, found, docs = run_session(db, body, "--allow-refresh")
    assert names == [*READ_ONLY, "lore_refresh"]
    assert before["fresh"] is False and before["changed_on_disk"] == ["shop/validate.py"]
    assert before["read_only"] is False
    assert "unknown symbol" in missing
    assert report["changed"] == ["shop/validate.py"] and report["changed_count"] == 1
    assert after["fresh"] is True and after["generation"] >= report["generation"] > before["generation"]
    assert found["kind"] == "function" and found["snippet"].startswith("def check_price")
    # lore.api.index_repo ran, not the bare indexer: the docs' mention of check_price now links to the new symbol
    assert [m["qualified_name"] for d in docs["docs"] for m in d["mentions"]] == ["shop.validate.check_price"]


def test_another_process_refreshing_is_served_at_once(shop_repo, tmp_path: Path):
    """A `lore index` in a second process while the server runs: the next call sees the new generation,
    never graph, cluster or search data cached from the old one (also after a rebuild, which restarts the
    generation count in a new file)."""
    repo, db = fresh_copy(shop_repo, tmp_path / "live")
    orders = repo / "shop" / "orders.py"
    gift = (
        "\n\ndef place_gift_order(name: str, price: float, qty: int) -> Order:\n"
        '    """Create a gift order, wrapped."""\n'
        "    item = Item(check_name(name), price)\n"
        "    order = Order(item, check_qty(qty))\n"
        '    log.info("gift order %s", order.amount())\n'
        "    return order\n"
    )
    related = {"relation": "related", "source_id": "shop.orders.place_order"}
    cluster = {"relation": "cluster", "source_id": "shop.orders.place_order"}
    search = {"query": "gift", "mode": "keyword", "expand": 0, "compact": False}

    async def index_in_another_process(*flags: str) -> None:
        await anyio.run_process(
            [sys.executable, "-m", "lore", "index", str(repo), "--db", str(db), "--workers", "1", *flags]
        )

    def expected() -> dict:
        with open_index(db, readonly=True) as idx:
            return {
                "related": expected_graph(idx, related),
                "cluster": expected_graph(idx, cluster),
                "search": lore_search(idx, "gift", mode="keyword", expand=0),
                "clusters": list_clusters(idx, min_size=3, limit=20, top=5),
                "status": idx.status(),
            }

    async def body(session):
        async def state() -> dict:
            return {
                "related": payload(await session.call_tool("lore_graph", related)),
                "cluster": payload(await session.call_tool("lore_graph", cluster)),
                "search": payload(await session.call_tool("lore_search", search)),
                "clusters": payload(await session.call_tool("lore_clusters", {})),
                "status": payload(await session.call_tool("lore_status", {})),
            }

        states = [(await state(), expected())]  # warms every cache of the server
        orders.write_text(orders.read_text() + gift)
        stale = payload(await session.call_tool("lore_status", {}))
        await index_in_another_process()
        states.append((await state(), expected()))
        orders.write_text(orders.read_text().replace("place_bulk_order", "place_large_order"))
        await index_in_another_process("--rebuild")
        states.append((await state(), expected()))
        return states, stale

    states, stale = run_session(db, body)
    assert stale["fresh"] is False and stale["changed_on_disk"] == ["shop/orders.py"]
    for got, want in states:
        assert got["status"] == {**want["status"], "read_only": True} and got["status"]["fresh"] is True
        for key in ("related", "cluster", "search", "clusters"):
            assert first_page(got[key]) == want[key], key
    (first, _), (second, _), (third, _) = states
    assert second["related"]["generation"] > first["related"]["generation"]
    names = [{r["qualified_name"] for r in s["related"]["results"]} for s in (first, second, third)]
    assert "shop.orders.place_gift_order" not in names[0] and "shop.orders.place_gift_order" in names[1]
    assert "shop.orders.place_bulk_order" in names[1] and "shop.orders.place_bulk_order" not in names[2]
    assert "shop.orders.place_large_order" in names[2]
    assert not first["search"]["results"]
    assert [r["qualified_name"] for r in second["search"]["results"]] == ["shop.orders.place_gift_order"]


def test_symlinks_out_of_the_root_and_indexed_code_are_never_followed_or_run(shop_repo, tmp_path: Path):
    repo, db = fresh_copy(shop_repo, tmp_path / "repo")
    outside = write_tree(
        tmp_path / "outside",
        {
            "secret.py": 'def leaked_secret():\n    return "do-not-leak"\n',
            "pkg/vendored.py": "def vendored_helper():\n    return 1\n",
            "evil_validate.py": 'open(__file__ + ".executed", "w").close()\n\n'
            'def check_name(name):\n    return "do-not-leak"\n',
        },
    )
    (repo / "shop" / "leak.py").symlink_to(outside / "secret.py")
    (repo / "vendor").symlink_to(outside / "pkg", target_is_directory=True)
    validate = (
        repo / "shop" / "validate.py"
    )  # indexed as a normal file, then swapped for a symlink out of the root
    validate.unlink()
    validate.symlink_to(outside / "evil_validate.py")

    async def body(session):
        async def ok(name, args):
            return payload(await session.call_tool(name, args))

        out = {
            "withheld": await ok("lore_symbol", {"symbol": "shop.validate.check_name", "snippet_lines": 20}),
            "inside": await ok("lore_symbol", {"symbol": "shop.validate.check_qty", "snippet_lines": 0}),
            "report": await ok("lore_refresh", {}),
            "gone": error_text(
                await session.call_tool("lore_symbol", {"symbol": "shop.validate.check_name"})
            ),
            "leak": error_text(await session.call_tool("lore_symbol", {"symbol": "shop.leak.leaked_secret"})),
            "vendor": error_text(
                await session.call_tool("lore_symbol", {"symbol": "vendor.vendored.vendored_helper"})
            ),
            "search": await ok(
                "lore_search", {"query": "leaked secret vendored helper", "any_terms": True, "min_score": 0}
            ),
        }
        # every other tool once, so that "nothing was executed" covers them all
        await ok(
            "lore_graph", {"relation": "related", "source_id": "shop.boom.detonate", "algorithm": "pagerank"}
        )
        await ok("lore_graph", {"relation": "import", "source_id": "shop.boom"})
        await ok("lore_clusters", {})
        await ok("lore_status", {})
        await ok("lore_search_docs", {"query": "order"})
        await ok("lore_docs_related", {"chunk_id": 1})
        return out

    got = run_session(db, body, "--allow-refresh")
    assert got["withheld"]["snippet"] is None and "outside the repository root" in got["withheld"]["note"]
    assert "snippet" not in got["inside"]
    assert got["report"]["skipped"]["symlink outside the root"] == 3  # leak.py, vendor/, validate.py
    assert got["report"]["removed"] == ["shop/validate.py"]
    assert (
        "unknown symbol" in got["gone"]
        and "unknown symbol" in got["leak"]
        and "unknown symbol" in got["vendor"]
    )
    assert "do-not-leak" not in json.dumps(got)
    assert got["search"]["total"] == 0
    assert executed_markers(repo, outside) == []


def test_search_similar_contract_over_stdio(shop_repo, tmp_path: Path):
    """search_similar through the official client: the envelope, clamped limits, failures as answers."""
    from lore.docs.api import search_similar

    _root, db = shop_repo
    calls = [
        {"query": "refund the customer"},
        {"query": "refund the customer", "limit": 0},
        {"query": "refund the customer", "limit": 500},
        {"query": "   "},
        {},
        {"query": "x", "limit": "ten"},
        {"query": "x", "surprise": True},
    ]

    async def body(session):
        return [await session.call_tool("lore_search_similar", a) for a in calls]

    got = run_session(db, body)
    assert all(not r.is_error for r in got), "search_similar answers, never a tool error"
    answers = [json.loads(r.content[0].text) for r in got]
    assert answers[0] == search_similar(db, "refund the customer")
    assert answers[0]["success"] and answers[0]["count"] == 4  # every chunk of the three documents (< 5)
    top = answers[0]["documents"][0]
    assert top["source_file"] == "docs/refunds.md" and top["source_type"] == "md" and top["page_number"] is None
    assert json.loads(top["metadata"])["library"] == "shop"
    assert answers[1]["count"] == 1 and answers[2]["count"] == 4
    failure = {"success": False, "count": 0, "documents": []}
    assert answers[3] == answers[4] == {**failure, "error": "Query parameter is required"}
    for a in answers[5:]:
        assert a["success"] is False and a["error"].startswith("Failed to search: ") and a["documents"] == []

    async def missing(session):
        return await session.call_tool("lore_search_similar", {"query": "x"})

    gone = run_session(tmp_path / "none" / "index.db", missing)
    out = json.loads(gone.content[0].text)
    assert not gone.is_error and out["success"] is False and "lore index" in out["error"]
