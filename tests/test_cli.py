"""The CLI: every command end to end, --json output, one-line errors with exit code 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.cli import app

runner = CliRunner()


def run(*args: str, cwd: Path | None = None):
    if cwd is not None:
        import os

        old = os.getcwd()
        os.chdir(cwd)
        try:
            return runner.invoke(app, list(args))
        finally:
            os.chdir(old)
    return runner.invoke(app, list(args))


@pytest.fixture
def indexed(sample_repo):
    res = run("index", str(sample_repo), "--workers", "1")
    assert res.exit_code == 0, res.output
    return sample_repo


def test_index_twice_says_what_changed(sample_repo):
    first = run("index", str(sample_repo), "--workers", "1")
    assert first.exit_code == 0 and "5 added" in first.output
    second = run("index", str(sample_repo), "--workers", "1")
    assert second.exit_code == 0 and "up to date" in second.output
    data = json.loads(run("index", str(sample_repo), "--json").output)
    assert data["generation"] == 1 and data["added"] == []


def test_stats_json_and_table(indexed):
    data = json.loads(run("stats", "--db", str(indexed), "--json").output)
    assert data["files"] == 5
    assert data["edges"]["symbol_refs"]["total"] > 0
    assert "import" in data["edges"]["symbol_refs"]["by_resolution"]
    table = run("stats", "--db", str(indexed))
    assert table.exit_code == 0 and "python" in table.output and "by resolution" in table.output


def test_show_by_name_and_id(indexed):
    data = json.loads(run("show", "shop.orders.Order.amount", "--db", str(indexed), "--json").output)
    assert data["kind"] == "method" and data["path"] == "shop/orders.py"
    again = json.loads(run("show", str(data["id"]), "--db", str(indexed), "--json").output)
    assert again["qualified_name"] == "shop.orders.Order.amount"
    assert "def amount" in again["snippet"]


@pytest.mark.skipif(not hasattr(__import__("os"), "symlink"), reason="needs symlinks")
def test_show_never_follows_a_symlink_out_of_the_root(indexed, tmp_path):
    from lore.mcp_server import LoreTools

    secret = tmp_path / "secret.py"
    secret.write_text("class Order:\n    def amount(self):\n        return 'do-not-leak'\n")
    (indexed / "shop" / "orders.py").unlink()
    (indexed / "shop" / "orders.py").symlink_to(secret)
    data = json.loads(run("show", "shop.orders.Order.amount", "--db", str(indexed), "--json").output)
    assert data["snippet"] is None and "outside the repository root" in data["note"]
    table = run("show", "shop.orders.Order.amount", "--db", str(indexed))
    assert table.exit_code == 0, table.output
    assert "do-not-leak" not in table.output and "outside the repository root" in table.output
    tools = LoreTools(indexed / ".lore" / "index.db")
    try:  # the same answer as the MCP tool: one guard in the library serves both
        assert tools.call("lore_symbol", {"symbol": "shop.orders.Order.amount", "snippet_lines": 12}) == data
    finally:
        tools.close()
    inside = json.loads(run("show", "shop.report.summarize", "--db", str(indexed), "--json").output)
    assert inside["snippet"] and inside.get("note") is None


def test_graph_call_and_callers(indexed):
    calls = json.loads(run("graph", "call", "shop.orders.place_order", "--db", str(indexed), "--json").output)
    targets = {r["qualified_name"]: r["why"]["resolution"] for r in calls["results"]}
    assert targets["shop.models.Item.__init__"] == "import"
    assert targets["shop.orders.Order.describe"] == "constructor_type" or "shop.orders.Order.describe" in targets
    callers = json.loads(run("graph", "callers", "shop.orders.place_order", "--db", str(indexed), "--json").output)
    names = {r["qualified_name"] for r in callers["results"]}
    assert "shop.report.demo" in names  # through the package re-export in shop/__init__.py
    table = run("graph", "callers", "shop.orders.place_order", "--db", str(indexed))
    assert table.exit_code == 0 and "shop.report.demo" in table.output


def test_unknown_symbol_is_one_line_exit_2(indexed):
    res = run("show", "no.such.symbol", "--db", str(indexed))
    assert res.exit_code == 2
    assert res.output.strip().count("\n") == 0
    assert "unknown symbol 'no.such.symbol'" in res.output
    assert "Traceback" not in res.output
    res = run("graph", "call", "987654", "--db", str(indexed))
    assert res.exit_code == 2 and "unknown symbol 987654" in res.output


def test_missing_index_says_run_lore_index(tmp_path):
    res = run("stats", cwd=tmp_path)
    assert res.exit_code == 2
    assert "run `lore index` first" in res.output


def test_bad_index_files_are_one_line_exit_2(indexed, tmp_path):
    import sqlite3

    garbage = tmp_path / "notes.db"
    garbage.write_bytes(b"not a database at all" * 50)
    for args in (("stats", "--db", str(garbage)), ("index", str(indexed), "--db", str(garbage))):
        res = run(*args)
        assert res.exit_code == 2 and "is not a lore index" in res.output, res.output
        assert res.output.strip().count("\n") == 0 and "Traceback" not in res.output
    assert garbage.read_bytes() == b"not a database at all" * 50  # never overwritten
    db = indexed / ".lore" / "index.db"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    res = run("show", "shop.orders.Order", "--db", str(indexed))
    assert res.exit_code == 2 and "schema version 0" in res.output and "lore index --rebuild" in res.output
    res = run("index", str(indexed), "--workers", "1")
    assert res.exit_code == 0 and "rebuilt the index (schema version 0 -> " in res.output
    assert run("show", "shop.orders.Order", "--db", str(indexed)).exit_code == 0


def test_bad_arguments_exit_2(indexed):
    res = run("graph", "call", "shop.orders.place_order", "--limit", "-3", "--db", str(indexed))
    assert res.exit_code == 2 and "limit must be a positive integer" in res.output
    res = run("index", str(indexed / "nope"))
    assert res.exit_code == 2 and "not a directory" in res.output


def test_every_command_is_documented_in_readme():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    import typer.main

    click_app = typer.main.get_command(app)
    missing = []

    def walk(cmd, prefix):
        for name, sub in getattr(cmd, "commands", {}).items():
            if sub.hidden:  # a moved command that only says where it went
                continue
            full = f"{prefix} {name}".strip()
            if getattr(sub, "commands", None):
                walk(sub, full)
            elif not re.search(rf"lore {re.escape(full)}\b", readme):
                missing.append(full)

    walk(click_app, "")
    assert not missing, f"commands missing from README.md: {missing}"
