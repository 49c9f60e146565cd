"""``--engine ray`` answers byte-for-byte like the local engine, through the CLI, Python and MCP.

The fixture repository is a copy of lore's own source (about 160 Python files). Cluster runs are
cached in the index, so the local and the Ray answers come from two copies of the same index: each
engine computes its own run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lore
from lore.api import index_repo
from lore.cli import app as lore_app

pytest.importorskip("ray")

runner = CliRunner()
SEED = "lore.algorithms.pagerank.personalized_pagerank"
ALGORITHMS = ("overlap", "pagerank", "pagerank_mc", "fusion", "pagerank_push", "hybrid", "cluster")


@pytest.fixture(scope="module")
def two_indexes(tmp_path_factory):
    """(local db, ray db): two copies of one index of lore's source."""
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(Path(lore.__file__).parent, root / "lore", ignore=shutil.ignore_patterns("__pycache__"))
    index_repo(root)
    copy = tmp_path_factory.mktemp("copy")
    shutil.copytree(root / ".lore", copy / ".lore")
    return root / ".lore" / "index.db", copy / ".lore" / "index.db"


def _cli(*args: str) -> str:
    res = runner.invoke(lore_app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_cli_related_is_byte_identical(ray_local, two_indexes, algorithm):
    local_db, ray_db = two_indexes
    args = ("graph", "related", SEED, "-a", algorithm, "--walks", "3000", "--json")
    local = _cli(*args, "--db", str(local_db))
    ray = _cli(*args, "--engine", "ray", "--db", str(ray_db))
    assert local == ray
    assert json.loads(local)["results"]


def test_cli_clusters_are_byte_identical(ray_local, two_indexes):
    local_db, ray_db = two_indexes
    local = _cli("graph", "clusters", "--json", "--db", str(local_db))
    ray = _cli("graph", "clusters", "--json", "--engine", "ray", "--ray-address", "", "--db", str(ray_db))
    assert local == ray
    assert json.loads(local)["total"] > 3


def test_python_and_mcp_use_the_engine(ray_local, two_indexes, monkeypatch):
    from lore.graphs import engines
    from lore.mcp_server import LoreTools

    local_db, ray_db = two_indexes
    calls = []
    real = engines.get_engine

    def spy(name="local", ray_address=None):
        calls.append(name)
        return real(name, ray_address)

    monkeypatch.setattr(engines, "get_engine", spy)
    monkeypatch.setattr("lore.graphs.related.get_engine", spy)
    args = {"kind": "related", "source_id": SEED, "algorithm": "pagerank", "compact": False}
    ray_tools, local_tools = LoreTools(ray_db, engine="ray"), LoreTools(local_db)
    try:
        got = ray_tools.call("lore_graph", dict(args))
        assert calls == ["ray"]
        assert json.dumps(got) == json.dumps(local_tools.call("lore_graph", dict(args)))
        assert calls[-1] == "local"
        assert json.dumps(ray_tools.call("lore_clusters", {})) == json.dumps(local_tools.call("lore_clusters", {}))
    finally:
        ray_tools.close()
        local_tools.close()
    with lore.open_index(local_db, readonly=True) as idx:  # the engine named per query, in Python
        py = lore.lore_graph(idx, kind="related", source_id=SEED, algorithm="overlap", engine="ray")
        assert calls[-1] == "ray"
        assert json.dumps(py) == json.dumps(lore.lore_graph(idx, kind="related", source_id=SEED, algorithm="overlap"))
        assert calls[-1] == "local"


def test_unknown_engine_exits_2_with_one_line(two_indexes):
    res = runner.invoke(lore_app, ["graph", "related", SEED, "--engine", "spark", "--db", str(two_indexes[0])])
    assert res.exit_code == 2
    assert "unknown engine 'spark'; choose one of: local, ray" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_serve_refuses_an_unknown_engine_before_starting(two_indexes):
    res = runner.invoke(lore_app, ["serve", "--engine", "dask", "--db", str(two_indexes[0])])
    assert res.exit_code == 2
    assert "unknown engine 'dask'" in res.output
