"""End to end: ``python -m lore serve`` as a subprocess, driven by the SDK's ClientSession over stdio."""

from __future__ import annotations

import importlib.util
import random
import shutil
import time
from pathlib import Path

import pytest

from lore.api import list_clusters, lore_graph, open_index

from .conftest import error_text, payload, run_session

READ_ONLY = [
    "lore_search",
    "lore_graph",
    "lore_symbol",
    "lore_clusters",
    "lore_status",
    "search_docs",
    "get_related",
]


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def test_list_tools_over_stdio(shop_repo):
    _root, db = shop_repo

    async def body(session):
        return (await session.list_tools()).tools

    tools = run_session(db, body)
    assert [t.name for t in tools] == READ_ONLY  # read-only by default: no lore_refresh
    graph = next(t for t in tools if t.name == "lore_graph")
    assert graph.input_schema["properties"]["limit"]["maximum"] == 100
    assert graph.annotations.read_only_hint is True


def test_results_match_the_python_api(shop_repo):
    _root, db = shop_repo
    queries = [
        {"kind": "related", "source_id": "shop.orders.place_order"},
        {"kind": "related", "source_id": "shop.orders.place_order", "algorithm": "pagerank", "alpha": 0.5},
        {
            "kind": "related",
            "source_id": ["shop.orders.place_order", "shop.refunds.refund_order"],
            "limit": 3,
        },
        {"kind": "call", "source_id": "shop.orders.place_order", "compact": False},
        {"kind": "callers", "source_id": "shop.validate.check_qty", "include_tests": True},
        {"kind": "inheritance", "source_id": "shop.models.DigitalItem", "direction": "out"},
        {"kind": "import", "source_id": "shop.refunds", "direction": "out"},
        {"kind": "cluster", "source_id": "shop.orders.place_order", "max_tokens": 300},
    ]

    async def body(session):
        out = {"graph": [payload(await session.call_tool("lore_graph", q)) for q in queries]}
        out["symbol"] = payload(
            await session.call_tool("lore_symbol", {"symbol": "shop.orders.Order.amount"})
        )
        out["clusters"] = payload(await session.call_tool("lore_clusters", {"min_size": 2}))
        out["status"] = payload(await session.call_tool("lore_status", {}))
        return out

    got = run_session(db, body)
    with open_index(db, readonly=True) as idx:
        for q, answer in zip(queries, got["graph"], strict=True):
            expected = lore_graph(idx, **{"limit": 10, "compact": True, **q})
            assert answer == expected, q
            assert {"query", "generation", "total", "truncated", "results"} <= answer.keys()
        assert got["symbol"] == idx.symbol("shop.orders.Order.amount", snippet_lines=12)
        assert got["clusters"] == list_clusters(idx, min_size=2, limit=20)
        status = idx.status()
    assert got["graph"][0]["results"], "related should rank something on the fixture"
    assert "place_bulk_order" in {r["qualified_name"].rsplit(".", 1)[-1] for r in got["graph"][0]["results"]}
    assert got["symbol"]["snippet"].lstrip().startswith("def amount")
    assert {k: got["status"][k] for k in status} == status
    assert got["status"]["read_only"] is True and got["status"]["fresh"] is True


def test_bad_arguments_are_tool_errors(shop_repo):
    _root, db = shop_repo
    bad = [
        ("lore_graph", {"kind": "related", "source_id": "no.such.symbol"}, "unknown symbol 'no.such.symbol'"),
        ("lore_graph", {"kind": "related", "source_id": 999999}, "unknown symbol 999999"),
        (
            "lore_graph",
            {"kind": "related", "source_id": 1, "limit": 1000},
            "limit must be an integer from 1 to 100",
        ),
        (
            "lore_graph",
            {"kind": "related", "source_id": 1, "alpha": 1.5},
            "alpha must be a number strictly between",
        ),
        (
            "lore_graph",
            {"kind": "call", "source_id": ["shop.orders", "shop.models"]},
            "takes one source symbol",
        ),
        ("lore_graph", {"kind": "teleport", "source_id": 1}, "kind must be one of"),
        ("lore_graph", {}, "missing required argument 'kind'"),
        ("lore_symbol", {"symbol": "shop.nothing"}, "unknown symbol 'shop.nothing'"),
        ("lore_symbol", {"symbol": 1, "snippet_lines": -1}, "snippet_lines must be an integer from 0 to 200"),
        ("lore_clusters", {"limit": "many"}, "limit must be an integer"),
        ("lore_status", {"verbose": True}, "unknown argument 'verbose'"),
        ("lore_refresh", {}, "unknown tool 'lore_refresh' (start the server with --allow-refresh"),
        ("no_such_tool", {}, "unknown tool 'no_such_tool'"),
    ]

    async def body(session):
        msgs = [error_text(await session.call_tool(name, args)) for name, args, _ in bad]
        payload(await session.call_tool("lore_status", {}))  # still serving
        return msgs

    for (name, _args, expected), msg in zip(bad, run_session(db, body), strict=True):
        assert expected in msg, (name, msg)


def test_survives_1000_mixed_calls(shop_repo):
    _root, db = shop_repo
    rng = random.Random(0)
    good = [
        ("lore_graph", {"kind": "related", "source_id": "shop.orders.place_order", "limit": 5}),
        ("lore_graph", {"kind": "callers", "source_id": "shop.validate.check_name"}),
        ("lore_graph", {"kind": "cluster", "source_id": "shop.models.Item"}),
        ("lore_symbol", {"symbol": "shop.refunds.exchange", "snippet_lines": 3}),
        ("lore_status", {}),
        ("lore_clusters", {}),
    ]
    bad = [
        ("lore_graph", {"kind": "related", "source_id": "missing.symbol"}),
        ("lore_graph", {"kind": "related", "source_id": 1, "limit": -5}),
        ("lore_graph", {"kind": "related", "source_id": {"id": 1}}),
        ("lore_symbol", {"symbol": None}),
        ("lore_symbol", {}),
        ("lore_clusters", {"min_size": 0}),
        ("lore_graph", {"kind": "import", "source_id": "shop.orders.place_order", "direction": "both"}),
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

    start = time.perf_counter()
    outcomes = run_session(db, body, timeout=120)
    elapsed = time.perf_counter() - start
    assert len(outcomes) == 1000
    for (ok, name, args), (is_error, text) in zip(calls, outcomes, strict=True):
        assert is_error is (not ok), (name, args, text[:200])
        if is_error:
            assert "\n" not in text and "internal error" not in text, text
    assert elapsed < 60


def test_missing_index_is_a_tool_error_not_a_crash(tmp_path: Path):
    db = tmp_path / "repo" / ".lore" / "index.db"

    async def body(session):
        tools = [t.name for t in (await session.list_tools()).tools]
        return tools, [
            error_text(await session.call_tool(n, a))
            for n, a in [("lore_status", {}), ("lore_graph", {"kind": "related", "source_id": 1})]
        ]

    tools, msgs = run_session(db, body)
    assert tools == READ_ONLY
    assert all(m == f"no index at {db}; run `lore index` first" for m in msgs)
    assert not db.parent.exists()


def test_refresh_only_with_allow_refresh(shop_repo, tmp_path: Path):
    root, _db = shop_repo
    repo = tmp_path / "copy"
    shutil.copytree(root, repo, ignore=shutil.ignore_patterns(".lore"))
    from lore.index import index_repo

    db = repo / ".lore" / "index.db"
    index_repo(repo, db=db, workers=1)
    (repo / "shop" / "validate.py").write_text(
        (repo / "shop" / "validate.py").read_text()
        + "\n\ndef check_price(price: float) -> float:\n    return price\n"
    )

    async def body(session):
        names = [t.name for t in (await session.list_tools()).tools]
        before = payload(await session.call_tool("lore_status", {}))
        missing = error_text(await session.call_tool("lore_symbol", {"symbol": "shop.validate.check_price"}))
        report = payload(await session.call_tool("lore_refresh", {}))
        after = payload(await session.call_tool("lore_status", {}))
        found = payload(await session.call_tool("lore_symbol", {"symbol": "shop.validate.check_price"}))
        return names, before, missing, report, after, found

    names, before, missing, report, after, found = run_session(db, body, "--allow-refresh")
    assert names == [*READ_ONLY, "lore_refresh"]
    assert before["fresh"] is False and before["changed_on_disk"] == ["shop/validate.py"]
    assert before["read_only"] is False
    assert "unknown symbol" in missing
    assert report["changed"] == ["shop/validate.py"] and report["changed_count"] == 1
    assert after["fresh"] is True and after["generation"] > before["generation"]
    assert found["kind"] == "function" and found["snippet"].startswith("def check_price")


@pytest.mark.skipif(not _has("lore.search.api"), reason="code search (lore.search.api) not in this build yet")
def test_search_matches_the_python_api(shop_repo):
    from lore.api import lore_search

    _root, db = shop_repo
    args = [{"query": "place order", "limit": 5}, {"query": "check qty", "mode": "keyword", "limit": 3}]

    async def body(session):
        good = [payload(await session.call_tool("lore_search", a)) for a in args]
        bad = error_text(await session.call_tool("lore_search", {"query": "x", "mode": "psychic"}))
        return good, bad

    good, bad = run_session(db, body)
    with open_index(db, readonly=True) as idx:
        for a, answer in zip(args, good, strict=True):
            expected = lore_search(idx, a["query"], **{k: v for k, v in a.items() if k != "query"})
            assert answer["results"] == expected["results"]
            assert {"total", "truncated"} <= answer.keys()
    assert "mode must be one of: hybrid, vector, keyword" in bad


@pytest.mark.skipif(not _has("lore.docs.api"), reason="document side (lore.docs.api) not in this build yet")
def test_docs_tools_match_the_python_api(shop_repo, tmp_path: Path):
    from lore.docs.api import add_documents, get_related, search_docs

    root, _db = shop_repo
    repo = tmp_path / "docs_repo"
    shutil.copytree(root, repo, ignore=shutil.ignore_patterns(".lore"))
    from lore.index import index_repo

    db = repo / ".lore" / "index.db"
    index_repo(repo, db=db, workers=1)
    docs = repo / "docs"
    docs.mkdir()
    (docs / "orders.md").write_text(
        "# Orders\n\nPlace an order with place_order; bulk orders get a discount.\n"
    )
    (docs / "refunds.md").write_text("# Refunds\n\nA refund gives the order amount back to the customer.\n")
    (docs / "shipping.md").write_text(
        "# Shipping\n\nDigital items ship without a parcel; orders ship in a box.\n"
    )
    add_documents(db, sorted(docs.glob("*.md")), embedder="hashing", progress=False)
    expected_search = search_docs(db, "order discount", mode="keyword", limit=5)
    chunk = expected_search["results"][0]["chunk_id"]
    expected_related = get_related(db, chunk, limit=5)

    async def body(session):
        found = payload(
            await session.call_tool("search_docs", {"query": "order discount", "mode": "keyword", "limit": 5})
        )
        related = payload(await session.call_tool("get_related", {"chunk_id": chunk, "limit": 5}))
        missing = error_text(await session.call_tool("get_related", {"chunk_id": 987654}))
        return found, related, missing

    found, related, missing = run_session(db, body)
    assert found["results"] == expected_search["results"] and found["total"] == expected_search["total"]
    assert related["results"] == expected_related["results"]
    assert "truncated" in found and "truncated" in related
    assert "unknown chunk 987654" in missing


def test_streamable_http_on_loopback(shop_repo):
    import socket
    import subprocess

    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from .conftest import server_params

    _root, db = shop_repo
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    params = server_params(db, "--http", f"127.0.0.1:{port}")
    proc = subprocess.Popen(
        [params.command, *params.args], env=params.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )

    async def main():
        with anyio.fail_after(30):
            while True:  # wait for the port
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    assert proc.poll() is None, "the HTTP server exited"
                    await anyio.sleep(0.1)
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    names = [t.name for t in (await session.list_tools()).tools]
                    good = payload(
                        await session.call_tool(
                            "lore_graph", {"kind": "callers", "source_id": "shop.validate.check_qty"}
                        )
                    )
                    bad = error_text(await session.call_tool("lore_symbol", {"symbol": "shop.absent"}))
                    return names, good, bad

    try:
        names, good, bad = anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert names == READ_ONLY
    assert good["total"] >= 2 and "unknown symbol 'shop.absent'" in bad
