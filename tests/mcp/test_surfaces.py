"""One set of defaults and the same answers from the three surfaces: the CLI, Python and MCP (official client)."""

from __future__ import annotations

import inspect
import json

import pytest
import typer
from typer.testing import CliRunner

from lore.api import list_clusters, lore_graph, open_index
from lore.cli import app as lore_app
from lore.docs import api as docs_api
from lore.mcp_schema import tool_definitions

from .conftest import expected_graph, first_page, payload, run_session

runner = CliRunner()
GRAPH_COMMANDS = ("call", "callers", "import", "inheritance", "related", "cluster")

# (what, expected value, python (function, parameter), CLI (command path, parameter), MCP (tool, argument))
DEFAULTS = [
    *[("graph limit", 20, (lore_graph, "limit"), (("graph", c), "limit"), ("lore_graph", "limit")) for c in GRAPH_COMMANDS],
    *[
        ("graph test code", False, (lore_graph, "include_tests"), (("graph", c), "include_tests"), ("lore_graph", "include_tests"))
        for c in ("callers", "related", "cluster")
    ],
    ("related algorithm", "hybrid", (lore_graph, "algorithm"), (("graph", "related"), "algorithm"), ("lore_graph", "algorithm")),
    ("pagerank alpha", 0.85, (lore_graph, "alpha"), (("graph", "related"), "alpha"), ("lore_graph", "alpha")),
    ("monte-carlo walks", 10_000, (lore_graph, "n_walks"), (("graph", "related"), "walks"), ("lore_graph", "n_walks")),
    ("monte-carlo seed", 0, (lore_graph, "seed"), (("graph", "related"), "seed"), ("lore_graph", "seed")),
    ("clusters listed", 20, (list_clusters, "limit"), (("graph", "clusters"), "limit"), ("lore_clusters", "limit")),
    ("cluster size floor", 3, (list_clusters, "min_size"), (("graph", "clusters"), "min_size"), ("lore_clusters", "min_size")),
    ("doc search limit", 10, (docs_api.search_docs, "limit"), (("docs", "search"), "limit"), ("lore_search_docs", "limit")),
    ("doc search mode", "hybrid", (docs_api.search_docs, "mode"), (("docs", "search"), "mode"), ("lore_search_docs", "mode")),
    ("doc title boost", 1.5, (docs_api.search_docs, "title_boost"), (("docs", "search"), "title_boost"), ("lore_search_docs", "title_boost")),
    ("doc link hops", 0, (docs_api.search_docs, "expand"), (("docs", "search"), "expand"), ("lore_search_docs", "expand")),
    ("get-related limit", 10, (docs_api.get_related, "limit"), (("docs", "related"), "limit"), ("lore_docs_related", "limit")),
    ("get-related floor", 0.0, (docs_api.get_related, "min_score"), (("docs", "related"), "min_score"), ("lore_docs_related", "min_score")),
    ("linked documents", False, (docs_api.get_related, "include_linked"), (("docs", "related"), "include_linked"), ("lore_docs_related", "include_linked")),
    ("similar limit", 5, (docs_api.search_similar, "limit"), (("docs", "similar"), "limit"), ("lore_search_similar", "limit")),
]  # fmt: skip


def _cli_default(path: tuple[str, ...], name: str):
    cmd = typer.main.get_command(lore_app)
    for part in path:
        cmd = cmd.commands[part]  # type: ignore[attr-defined]
    (param,) = [p for p in cmd.params if p.name == name]
    return param.default


def _mcp_default(tool: str, arg: str):
    from lore.mcp_schema import TOOLS

    assert tool in [t["name"] for t in tool_definitions()]
    props = TOOLS[tool]["schema"]["properties"]  # as checked: with the unlisted knobs and lore_graph's options
    spec = props[arg] if arg in props else props["options"]["properties"][arg]
    return spec.get("default")


@pytest.mark.parametrize(("what", "value", "py", "cli", "mcp"), DEFAULTS, ids=[f"{d[0]}-{d[3][0][-1]}" for d in DEFAULTS])
def test_defaults_agree_across_surfaces(what, value, py, cli, mcp):
    func, param = py
    assert inspect.signature(func).parameters[param].default == value, f"python {func.__name__}"
    assert _cli_default(*cli) == value, f"cli {' '.join(cli[0])} --{cli[1]}"
    assert _mcp_default(*mcp) == value, f"mcp {mcp[0]}.{mcp[1]}"


def _shown(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:,}" if isinstance(value, int) else str(value)


def test_readme_table_states_the_same_defaults():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    table = readme[readme.index("### Defaults") :].split("\n\n", 2)[1]
    rows = {line.split("|")[1].strip(): line.replace("`", "") for line in table.splitlines() if line.startswith("| ")}
    for what, value, *_ in DEFAULTS:
        assert f"| {_shown(value)} |" in rows[what], (what, rows[what])


def _cli_json(*args: str) -> dict:
    res = runner.invoke(lore_app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_callers_tests_weights_and_limits_agree(shop_repo):
    _root, db = shop_repo
    weights = {"callees": 1.0, "callers": 0.0, "types": 5.0}
    mcp_calls = [
        {"relation": "callers", "source_id": "shop.orders.place_order", "compact": False},
        {"relation": "callers", "source_id": "shop.orders.place_order", "compact": False, "include_tests": True},
        {"relation": "related", "source_id": "shop.orders.place_order", "compact": False, "options": {"weights": weights}},
        {"relation": "related", "source_id": "shop.orders.place_order", "compact": False},
    ]

    async def body(session):
        return [payload(await session.call_tool("lore_graph", a)) for a in mcp_calls]

    via_mcp = run_session(db, body)
    via_cli = [
        _cli_json("graph", "callers", "shop.orders.place_order", "--db", str(db)),
        _cli_json("graph", "callers", "shop.orders.place_order", "--include-tests", "--db", str(db)),
        _cli_json("graph", "related", "shop.orders.place_order", "--weights", "callees=1,callers=0,types=5", "--db", str(db)),
        _cli_json("graph", "related", "shop.orders.place_order", "--db", str(db)),
    ]  # fmt: skip
    with open_index(db, readonly=True) as idx:
        via_py = [
            lore_graph(idx, kind="callers", source_id="shop.orders.place_order"),
            lore_graph(idx, kind="callers", source_id="shop.orders.place_order", include_tests=True),
            lore_graph(idx, kind="related", source_id="shop.orders.place_order", weights=weights),
            lore_graph(idx, kind="related", source_id="shop.orders.place_order"),
        ]
    assert via_cli == via_py
    with open_index(db, readonly=True) as idx:  # the same rows; MCP names the query type relation
        assert [first_page(m) for m in via_mcp] == [expected_graph(idx, a) for a in mcp_calls]
    assert [m["results"] for m in via_mcp] == [p["results"] for p in via_py]
    callers = {r["qualified_name"] for r in via_py[0]["results"]}
    with_tests = {r["qualified_name"] for r in via_py[1]["results"]}
    assert "tests.test_orders.test_place_order" in with_tests - callers  # the flag really works, off by default
    weighted = [r["id"] for r in via_py[2]["results"]]
    assert weighted != [r["id"] for r in via_py[3]["results"]], "the weights change the ranking"
    assert via_py[3]["query"]["limit"] == 20


def test_bad_weights_are_one_line_everywhere(shop_repo):
    _root, db = shop_repo
    res = runner.invoke(lore_app, ["graph", "related", "shop.orders.place_order", "--weights", "callees=lots", "--db", str(db)])
    assert res.exit_code == 2 and "--weights takes name=number pairs" in res.output
    res = runner.invoke(lore_app, ["graph", "related", "shop.orders.place_order", "--weights", "bogus=1", "--db", str(db)])
    assert res.exit_code == 2 and "unknown hybrid signal or relation 'bogus'" in res.output

    async def body(session):
        return await session.call_tool(
            "lore_graph", {"relation": "related", "source_id": "shop.orders.place_order", "options": {"weights": {"callers": -1}}}
        )

    result = run_session(db, body)
    assert result.is_error and "relation weight 'callers' must be a number >= 0" in result.content[0].text


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("amount", "shop.orders.Order.amount"),  # short name
        ("Order.amount", "shop.orders.Order.amount"),  # suffix of the qualified name
        ("order.AMOUNT", "shop.orders.Order.amount"),  # any case
        ("Order.amont", "shop.orders.Order.amount"),  # a typo
        ("place_ordr", "shop.orders.place_order"),
        ("shop.orders.place_ordre", "shop.orders.place_order"),
    ],
)
def test_did_you_mean_in_python(shop_repo, typed, first):
    from lore.errors import UnknownSymbolError
    from lore.queries.symbols import did_you_mean

    _root, db = shop_repo
    with open_index(db, readonly=True) as idx:
        found = did_you_mean(idx, typed)
        assert found["results"][0]["qualified_name"] == first and found["results"][0]["at"]
        if typed in ("amount", "Order.amount"):  # a unique short name or suffix names it (lore.queries._naming)
            assert idx.symbol(typed)["qualified_name"] == first
            return
        with pytest.raises(UnknownSymbolError, match=f"did you mean {first} \\(id ") as exc:
            idx.symbol(typed)
        assert exc.value.candidates == found["results"]
        assert did_you_mean(idx, "zzqqxx")["results"] == []


def test_did_you_mean_ranks_exact_names_before_typos(shop_repo):
    from lore.queries.symbols import did_you_mean

    _root, db = shop_repo
    with open_index(db, readonly=True) as idx:
        found = did_you_mean(idx, "total")
        names = [r["qualified_name"] for r in found["results"]]
        assert names[:2] == ["shop.models.Item.total", "shop.models.DigitalItem.total"]  # shorter first
        assert "tests.test_orders.test_place_order" not in names


def test_did_you_mean_over_cli_and_mcp(shop_repo):
    _root, db = shop_repo
    res = runner.invoke(lore_app, ["show", "place_ordr", "--db", str(db)])
    assert res.exit_code == 2
    line = res.output.strip()
    assert "\n" not in line and "did you mean shop.orders.place_order (id " in line
    res = runner.invoke(lore_app, ["graph", "related", "Order.amont", "--db", str(db)])
    assert res.exit_code == 2 and "did you mean shop.orders.Order.amount (id " in res.output

    async def body(session):
        return [
            await session.call_tool("lore_symbol", {"symbol": "amont"}),
            await session.call_tool("lore_graph", {"relation": "callers", "source_id": "check_qt"}),
        ]

    symbol, graph = run_session(db, body)
    assert symbol.is_error and "did you mean shop.orders.Order.amount (id " in symbol.content[0].text
    assert graph.is_error and "did you mean shop.validate.check_qty (id " in graph.content[0].text


def test_a_tiny_token_budget_keeps_one_row_and_names_the_option(shop_repo):
    _root, db = shop_repo
    calls = [
        ("lore_graph", {"relation": "related", "source_id": "shop.orders.place_order", "compact": False}),
        ("lore_search", {"query": "order", "mode": "keyword", "min_score": 0.0, "compact": False}),
        ("lore_clusters", {"min_size": 1}),
        ("lore_search_docs", {"query": "order", "mode": "keyword", "min_score": 0.0}),
    ]

    async def body(session):
        return [
            (payload(await session.call_tool(n, a)), payload(await session.call_tool(n, {**a, "max_tokens": 50})))
            for n, a in calls
        ]

    for (name, _), (full, cut) in zip(calls, run_session(db, body), strict=True):
        assert len(full["results"]) >= 2 and len(cut["results"]) >= 1, name
        assert cut["truncated"] is True and cut["truncated_by"] == "max_tokens", name
        first, whole = cut["results"][0], full["results"][0]
        named = [k for k in ("id", "chunk_id", "cluster", "qualified_name") if k in whole]
        assert named and all(first[k] == whole[k] for k in named), name  # the same best row, maybe trimmed
        assert first.get("trimmed") or first == whole, name
    # the CLI says which option to raise: --max-tokens when the budget cut rows, --limit otherwise
    res = runner.invoke(lore_app, ["graph", "related", "shop.orders.place_order", "--max-tokens", "100", "--db", str(db)])
    assert res.exit_code == 0 and "raise --max-tokens" in res.output and "raise --limit" not in res.output
    out = _cli_json("graph", "related", "shop.orders.place_order", "--max-tokens", "100", "--db", str(db))
    assert len(out["results"]) >= 1 and out["truncated_by"] == "max_tokens"
    res = runner.invoke(lore_app, ["graph", "related", "shop.orders.place_order", "-n", "1", "--db", str(db)])
    assert "raise --limit" in res.output
    with open_index(db, readonly=True) as idx:
        assert lore_graph(idx, kind="related", source_id="shop.orders.place_order", max_tokens=100) == out


def test_monte_carlo_standard_error_in_compact_rows(shop_repo):
    _root, db = shop_repo
    args = {"relation": "related", "source_id": "shop.orders.place_order", "algorithm": "pagerank_mc",
            "options": {"n_walks": 2000, "seed": 7}}

    async def body(session):
        return payload(await session.call_tool("lore_graph", args))

    compact = run_session(db, body)
    with open_index(db, readonly=True) as idx:
        full = lore_graph(idx, kind="related", source_id="shop.orders.place_order", algorithm="pagerank_mc",
                          n_walks=2000, seed=7)
    assert compact["results"] and len(compact["results"]) == len(full["results"])
    for short, row in zip(compact["results"], full["results"], strict=True):  # the one-line why keeps it
        assert short["id"] == row["id"] and row["why"]["stderr"] > 0 and f"±{row['why']['stderr']}" in short["why"]
        assert short["score"] == row["score"]
    cli = _cli_json("graph", "related", "shop.orders.place_order", "-a", "pagerank_mc", "--walks", "2000",
                    "--seed", "7", "--compact", "--db", str(db))  # fmt: skip
    assert [r["why"]["stderr"] for r in cli["results"]] == [r["why"]["stderr"] for r in full["results"]]


def test_search_similar_on_a_mixed_folder_over_mcp(tmp_path):
    """PDF, Markdown, reST written as .txt and plain text in one folder: cited right through the official client."""
    pytest.importorskip("pypdf")
    from lore.docs import add_documents, search_similar
    from tests.docs.mixed import write_mixed

    docs = write_mixed(tmp_path)
    db = tmp_path / ".lore" / "index.db"
    add_documents(db, [docs], embedder="hashing", progress=False)
    queries = [
        "nightly volume snapshots kept thirty days",
        "database cache table createcachetable",
        "collectstatic static files",
        "rotate the signing keys",
    ]

    async def body(session):
        return [payload(await session.call_tool("lore_search_similar", {"query": q, "limit": 1})) for q in queries]

    answers = run_session(db, body)
    cited = [(a["documents"][0]["source_file"], a["documents"][0]["source_type"], a["documents"][0]["page_number"])
             for a in answers]  # fmt: skip
    assert cited == [
        ("docs/ops.pdf", "pdf", 2),
        ("docs/caching.txt", "rst", None),
        ("docs/deploy.txt", "md", None),
        ("docs/notes.txt", "txt", None),
    ]
    assert answers == [search_similar(db, q, limit=1) for q in queries]
