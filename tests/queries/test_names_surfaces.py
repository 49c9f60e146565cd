"""Names as users write them, through the three surfaces (CLI, Python API, MCP), and the README's first
example run literally."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore import index_repo, lore_graph, open_index
from lore.cli import app as lore_app
from lore.mcp_server import LoreTools, call_tool

from ..conftest import write_tree
from .test_names import PROJECT

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(scope="module")
def names_db(tmp_path_factory) -> Path:
    root = write_tree(tmp_path_factory.mktemp("names_surfaces") / "proj", PROJECT)
    index_repo(root, clusters=False)
    return root / ".lore" / "index.db"


def test_cli_names(names_db):
    res = runner.invoke(lore_app, ["show", "Session.request", "--db", str(names_db)])
    assert res.exit_code == 0 and res.output.startswith("pkg.sessions.Session.request  (method, id ")
    res = runner.invoke(lore_app, ["show", "cobra.Command.Execute", "--db", str(names_db)])
    assert res.exit_code == 0 and res.output.startswith("gosrc.command.Command.Execute  (method, id ")
    res = runner.invoke(lore_app, ["show", "pkg/sessions.py:6", "--db", str(names_db)])
    assert res.exit_code == 0 and res.output.startswith("pkg.sessions.Session.get  (method, id ")
    res = runner.invoke(lore_app, ["graph", "callers", "pkg.Session.request", "--db", str(names_db)])
    assert res.exit_code == 0 and "pkg.sessions.Session.get" in res.output


def test_cli_ambiguity_exits_2_and_lists_candidates(names_db):
    res = runner.invoke(lore_app, ["graph", "callers", "kfree", "--db", str(names_db)])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert lines[0].startswith("lore: error: ambiguous symbol 'kfree': 2 symbols answer to that name")
    assert [re.split(r"\s{2,}", line.strip())[:3] for line in lines[1:]] == [
        ["csrc.mm.slab_common.kfree", "function", "csrc/mm/slab_common.c:2"],
        ["csrc.mm.slob.kfree", "function", "csrc/mm/slob.c:2"],
    ]
    assert "Traceback" not in res.output


def test_python_api_names(names_db):
    with open_index(names_db, readonly=True) as idx:
        out = lore_graph(idx, kind="callers", source_id="Session.request")
        assert [r["qualified_name"] for r in out["results"]] == ["pkg.sessions.Session.get"]
        assert out["query"]["source_ids"] == [idx.symbol("pkg.sessions.Session.request")["id"]]
        out = lore_graph(idx, kind="related", source_id=["pkg.Session", "github.com/acme/cobra.Command.Execute"])
        assert len(out["query"]["source_ids"]) == 2


def test_mcp_names_and_ambiguity(names_db):
    tools = LoreTools(names_db)
    try:
        got = call_tool(tools, "lore_symbol", {"symbol": "pkg.Session"})
        assert not got["isError"] and json.loads(got["content"][0]["text"])["qualified_name"] == "pkg.sessions.Session"
        got = call_tool(tools, "lore_graph", {"kind": "callers", "source_id": "cobra.Command.Execute"})
        assert not got["isError"]
        rows = json.loads(got["content"][0]["text"])["results"]
        assert [r["qualified_name"] for r in rows] == ["gosrc.doc.gen.GenTree"]
        got = call_tool(tools, "lore_graph", {"kind": "related", "source_id": "get"})
        text = got["content"][0]["text"]
        assert got["isError"] and text.startswith("ambiguous symbol 'get'")
        assert "pkg.api.get  function  pkg/api.py:6" in text and "pkg.sessions.Session.get  method" in text
    finally:
        tools.close()


def test_the_readme_first_example_runs_as_written(tmp_path):
    """README's first command line, run literally in a copy of this repository (the install step skipped)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(ln for ln in readme.splitlines() if "lore graph related lore.api.lore_graph" in ln)
    commands = [shlex.split(c.split("#", 1)[0]) for c in line.split("&&")]
    commands = [c for c in commands if c and c[0] == "lore"]
    assert [c[:2] for c in commands] == [["lore", "index"], ["lore", "graph"]]
    copy = tmp_path / "repo"
    shutil.copytree(REPO / "lore", copy / "lore", ignore=shutil.ignore_patterns("__pycache__", ".lore"))
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for cmd in commands:
        res = subprocess.run([sys.executable, "-m", "lore", *cmd[1:]], cwd=copy, env=env, capture_output=True,
                             text=True, timeout=600)
        assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("related of lore.api.lore_graph")
    assert len([ln for ln in res.stdout.splitlines() if re.match(r"\s+\d+\s", ln)]) >= 5
