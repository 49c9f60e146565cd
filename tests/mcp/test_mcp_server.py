"""In-process checks of the MCP layer: tool definitions, argument checks, path safety, the CLI shells."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from lore.errors import IndexNotFoundError, InvalidArgumentError
from lore.mcp_schema import TOOLS
from lore.mcp_schema._common import SHARED_PARAMETERS
from lore.mcp_server import (
    INSTRUCTIONS,
    LoreTools,
    check_arguments,
    error_message,
    parse_http,
    tool_definitions,
)

from .conftest import SHOP, write_tree

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


def test_tool_definitions_are_valid_json_schema():
    import jsonschema

    tools = tool_definitions()
    assert [t["name"] for t in tools] == READ_ONLY
    assert [t["name"] for t in tool_definitions(allow_refresh=True)] == [*READ_ONLY, "lore_refresh"]
    for t in tool_definitions(allow_refresh=True):
        jsonschema.Draft202012Validator.check_schema(t["inputSchema"])
        jsonschema.Draft202012Validator.check_schema(t["outputSchema"])
        assert t["inputSchema"]["additionalProperties"] is False
        assert t["outputSchema"]["type"] == "object"
        assert t["name"].startswith("lore_")  # no clash with other servers' search_docs
        assert len(t["description"]) > 100, t["name"]
        assert t["annotations"]["readOnlyHint"] is (t["name"] != "lore_refresh")
    json.dumps(tools)  # plain JSON


def test_descriptions_say_what_comes_back_and_how_big():
    for t in tool_definitions(allow_refresh=True):
        text = t["description"]
        assert "Returns" in text or "returns" in text, t["name"]
        assert re.search(r"tokens|seconds|\d+ ms", text, re.IGNORECASE), t[
            "name"
        ]  # a size or cost to plan with
        for prop, spec in t["inputSchema"]["properties"].items():
            # said once: in its own description, in the tool's, or (shared by the list tools) in the instructions
            assert spec.get("description") or prop in text or (prop in SHARED_PARAMETERS and prop in INSTRUCTIONS), (
                t["name"], prop)


def test_schema_ranges():
    by = {t["name"]: t["inputSchema"]["properties"] for t in tool_definitions()}
    for name, props in by.items():
        if "limit" in props and name != "lore_search_similar":
            assert (props["limit"]["minimum"], props["limit"]["maximum"]) == (1, 100), name
    # lore_search_similar clamps its limit instead of refusing it: no bounds in its schema
    assert by["lore_search_similar"]["limit"] == {**by["lore_search_similar"]["limit"], "default": 5}
    assert "minimum" not in by["lore_search_similar"]["limit"] and "maximum" not in by["lore_search_similar"]["limit"]
    # the knobs of one algorithm are grouped (lore_graph options) or unlisted (lore_search expand): still checked
    alpha = TOOLS["lore_graph"]["schema"]["properties"]["options"]["properties"]["alpha"]
    assert (alpha["exclusiveMinimum"], alpha["exclusiveMaximum"]) == (0, 1)
    expand = TOOLS["lore_search"]["schema"]["properties"]["expand"]
    assert (expand["minimum"], expand["maximum"]) == (0, 3)
    assert "expand" not in by["lore_search"] and "alpha" not in by["lore_graph"]
    for name in ("lore_search", "lore_graph", "lore_locate"):
        assert by[name]["compact"]["default"] is True, name
    for name in ("lore_search", "lore_graph", "lore_clusters", "lore_search_docs", "lore_docs_related", "lore_locate"):
        assert by[name]["max_tokens"]["minimum"] == 50, name


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        (
            "lore_graph",
            {"relation": "related", "source_id": 1, "limit": 0},
            "limit must be an integer from 1 to 100, got 0",
        ),
        ("lore_graph", {"relation": "related", "source_id": 1, "limit": 101}, "got 101"),
        ("lore_graph", {"relation": "related", "source_id": 1, "limit": True}, "limit must be an integer"),
        ("lore_graph", {"relation": "related", "source_id": 1, "options": {"alpha": 1.0}}, "options.alpha must be a number strictly between 0 and 1"),
        ("lore_graph", {"relation": "related", "source_id": 1, "options": {"alpha": 0}}, "strictly between 0 and 1"),
        ("lore_graph", {"relation": "nearby", "source_id": 1}, "relation must be one of: call, callers"),
        ("lore_graph", {"relation": "related"}, "missing required argument 'source_id'"),
        ("lore_graph", {"relation": "related", "source_id": ""}, "source_id must be"),
        ("lore_graph", {"relation": "related", "source_id": []}, "source_id must be"),
        ("lore_graph", {"relation": "related", "source_id": 1, "algorithm": "magic"}, "algorithm must be one of"),
        ("lore_graph", {"relation": "related", "source_id": 1, "bogus": 1}, "unknown argument 'bogus'"),
        ("lore_search", {"query": "x", "expand": 4}, "expand must be an integer from 0 to 3"),
        ("lore_search", {"query": "   "}, "query must be a non-empty string"),
        ("lore_symbol", {"symbol": 1.5}, "symbol must be a positive integer"),
        (
            "lore_symbol",
            {"symbol": 10**30},
            "symbol must be a positive integer (an id) or a non-empty string, got 1000000000000000000000000000000",
        ),
        ("lore_docs_related", {"chunk_id": "seven"}, "chunk_id must be a positive integer"),
        ("lore_search_docs", {"query": "x", "tags": "a"}, "tags must be a list of non-empty strings"),
    ],
)
def test_bad_arguments_have_one_sentence(tool, args, message):
    with pytest.raises(InvalidArgumentError, match=re.escape(message)) as exc:
        check_arguments(tool, args)
    assert "\n" not in str(exc.value) and str(exc.value).startswith(f"{tool}: ")


def test_good_arguments_pass_and_nulls_mean_default():
    args = check_arguments(
        "lore_graph", {"relation": "related", "source_id": ["a.b", 3], "options": {"alpha": 0.5, "measure": None}}
    )
    assert args == {"relation": "related", "source_id": ["a.b", 3], "options": {"alpha": 0.5}}
    assert check_arguments("lore_status", None) == {}


def test_parse_http_is_loopback_only():
    assert parse_http("localhost:9000") == ("localhost", 9000)
    assert parse_http("[::1]:8765") == ("::1", 8765)
    for bad in ("0.0.0.0:8765", "192.168.1.2:80", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:http"):
        with pytest.raises(InvalidArgumentError):
            parse_http(bad)


def test_no_index_is_one_sentence(tmp_path: Path):
    tools = LoreTools(tmp_path / ".lore" / "index.db")
    with pytest.raises(IndexNotFoundError, match="run `lore index` first"):
        tools.call("lore_status", {})
    with pytest.raises(InvalidArgumentError, match="--allow-refresh"):
        tools.call("lore_refresh", {})
    assert not (tmp_path / ".lore").exists()  # nothing was created


def test_internal_errors_become_one_sentence():
    msg = error_message("lore_graph", RuntimeError("boom\nsecond line"))
    assert msg == "lore_graph failed with an internal error (RuntimeError: boom); the server is still running"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_snippet_never_follows_a_symlink_out_of_the_root(tmp_path: Path):
    from lore.index import index_repo

    root = write_tree(tmp_path / "repo", SHOP)
    index_repo(root, db=root / ".lore" / "index.db", workers=1)
    outside = tmp_path / "secret.py"
    outside.write_text("class Item:\n    TOKEN = 'do-not-leak'\n")
    (root / "shop" / "models.py").unlink()
    (root / "shop" / "models.py").symlink_to(outside)
    tools = LoreTools(root / ".lore" / "index.db")
    try:
        out = tools.call("lore_symbol", {"symbol": "shop.models.Item", "snippet_lines": 5})
        assert out["snippet"] is None and "outside the repository root" in out["note"]
        inside = tools.call("lore_symbol", {"symbol": "shop.validate.check_qty", "snippet_lines": 2})
        assert inside["snippet"].startswith("def check_qty")
    finally:
        tools.close()


def test_cli_serve_and_tools():
    from typer.testing import CliRunner

    from lore.cli import app

    runner = CliRunner()
    listed = runner.invoke(app, ["tools"])
    assert listed.exit_code == 0 and "lore_graph" in listed.output and "lore_refresh" not in listed.output
    schema = runner.invoke(app, ["tools", "--schema", "--allow-refresh"])
    assert schema.exit_code == 0 and json.loads(schema.output) == tool_definitions(allow_refresh=True)
    for spec, message in [("0.0.0.0:8765", "loopback only"), ("127.0.0.1", "HOST:PORT")]:
        bad = runner.invoke(app, ["serve", "--http", spec])
        assert bad.exit_code == 2 and message in bad.output, bad.output


def test_index_is_reopened_when_the_file_is_replaced(tmp_path: Path):
    from lore.index import index_repo

    root = write_tree(tmp_path / "repo", SHOP)
    db = root / ".lore" / "index.db"
    index_repo(root, db=db, workers=1)
    tools = LoreTools(db)
    try:
        assert tools.call("lore_symbol", {"symbol": "shop.validate.check_qty", "snippet_lines": 0})
        (root / "shop" / "extra.py").write_text("def added_later():\n    return 1\n")
        shutil.rmtree(root / ".lore")  # a new index file replaces the one the server has open
        index_repo(root, db=db, workers=1)
        assert tools.call("lore_symbol", {"symbol": "shop.extra.added_later"})["kind"] == "function"
        db.unlink()
        with pytest.raises(IndexNotFoundError):
            tools.call("lore_status", {})
    finally:
        tools.close()
