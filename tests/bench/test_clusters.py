"""Cluster quality: co-change agreement, the Louvain anchor, the per-corpus report and ``lore bench clusters``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from typer.testing import CliRunner

from lore.bench import cluster_suite as suite
from lore.bench import clusters as bc
from lore.cli import app
from lore.errors import InvalidArgumentError


def test_cochange_agreement_by_hand():
    # items 0..4; pairs 0-1, 1-2, 3-4; clusters {0, 1} {2, 3, 4}
    labels = np.array([0, 0, 1, 1, 1])
    pairs = np.array([[0, 1], [1, 2], [3, 4]])
    r = bc.cochange_agreement(labels, pairs)
    # same-cluster pairs: 1 + 3 = 4, of which 0-1 and 3-4 co-changed; 2 of 3 co-changed pairs inside
    assert r["precision"] == 0.5 and r["recall"] == round(2 / 3, 4)
    assert r["f1"] == round(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3), 4)
    assert r["items"] == 5 and r["pairs"] == 3


def test_cochange_modularity_matches_networkx():
    rng = np.random.default_rng(3)
    G = nx.gnm_random_graph(40, 90, seed=3)
    pairs = np.array(sorted((min(a, b), max(a, b)) for a, b in G.edges()))
    labels = rng.integers(0, 5, 40)
    used = np.unique(pairs)
    H = G.subgraph(used.tolist())
    parts = [set(np.flatnonzero(labels == k).tolist()) & set(used.tolist()) for k in range(5)]
    expected = nx.community.modularity(H, [p for p in parts if p])
    assert bc.cochange_agreement(labels, pairs)["modularity"] == pytest.approx(expected, abs=1e-4)


def test_cochange_trivial_partitions_score_nothing():
    pairs = np.array([[0, 1], [2, 3], [1, 2]])
    one = bc.cochange_agreement(np.zeros(4, dtype=int), pairs)
    assert one["recall"] == 1.0 and one["modularity"] == 0.0
    single = bc.cochange_agreement(np.arange(4), pairs)
    assert single["recall"] == 0.0 and single["precision"] == 0.0 and single["modularity"] < 0
    assert bc.cochange_agreement(np.arange(4), np.zeros((0, 2)))["precision"] is None


def test_louvain_labels_two_cliques_and_an_isolated_row():
    G = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    G.add_edge(0, 5)
    G.add_node(10)
    a = sp.csr_matrix(nx.to_scipy_sparse_array(G, nodelist=range(11), dtype=np.float64))
    labels = bc.louvain_labels(a, seed=0)
    assert labels.tolist() == [0] * 5 + [1] * 5 + [2]
    assert (bc.louvain_labels(a, seed=0) == labels).all()  # seeded: the same answer


def test_corpus_quality_on_a_tiny_package(seealso_repo):
    from lore.api import open_index

    with open_index(seealso_repo) as idx:
        alpha, beta, gamma = (idx.symbol(f"pkg.core.{n}")["id"] for n in ("alpha", "beta", "gamma"))
        res = bc.corpus_quality(idx, cochange={alpha: [beta, gamma], beta: [alpha]})
    assert set(res["methods"]) == set(bc.METHODS)
    files, dirs = res["methods"]["baseline: files"], res["methods"]["baseline: directories"]
    assert files["nmi_module"] == 1.0 and files["ari_module"] == 1.0  # files are the module reference
    assert dirs["nmi_package"] == 1.0 and dirs["ari_package"] == 1.0
    assert res["cochange_pairs"] == 2  # alpha-beta once, alpha-gamma
    for r in res["methods"].values():
        assert r["cochange"]["pairs"] == 2 and 0 <= r["cochange"]["recall"] <= 1
    assert files["cochange"]["recall"] == 1.0  # all three in pkg/core.py
    assert res["symbols"] >= 6 and res["modules"] == 2  # pkg/core.py and pkg/sub/deep.py (tests left out)


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def cochange_checkout(tmp_path: Path) -> Path:
    """A repository where f and g change together twice, h alone once."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    body = "def f():\n    return g() + {f}\n\n\ndef g():\n    return {g}\n\n\ndef h():\n    return {h}\n"
    for n, (f, g, h) in enumerate([(0, 0, 0), (1, 1, 0), (2, 2, 0), (2, 2, 3)]):
        (root / "mod.py").write_text(body.format(f=f, g=g, h=h))
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"change {n}")
    return root


def test_run_clusters_on_a_cochange_checkout(cochange_checkout, tmp_path):
    report = suite.run_clusters(("requests",), workdir=tmp_path / "w", repos={"requests": str(cochange_checkout)},
                             lfr=False, log=lambda line: None)
    c = report["corpora"]["requests"]
    assert c["cochange_pairs"] == 1
    assert c["methods"]["baseline: files"]["cochange"]["recall"] == 1.0
    assert "requests" in suite.markdown(report) and "lfr" not in report
    with pytest.raises(InvalidArgumentError, match="unknown corpus"):
        suite.run_clusters(("nope",), log=lambda line: None)


def test_cli_bench_clusters(cochange_checkout, tmp_path):
    runner = CliRunner()
    args = ["bench", "clusters", "--corpus", "requests", "--repo", f"requests={cochange_checkout}", "--no-lfr",
            "--workdir", str(tmp_path / "w")]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["corpora"]["requests"]["cochange_pairs"] == 1
    res = runner.invoke(app, [*args, "--markdown"])
    assert res.exit_code == 0 and "| requests (" in res.output
    res = runner.invoke(app, ["bench", "clusters", "--repo", "requests"])
    assert res.exit_code == 2 and "NAME=PATH" in res.output


def test_lfr_has_the_louvain_anchor():
    methods = {r["method"] for r in bc.lfr_quality(seed=0)}
    assert {"lore", "networkx louvain (anchor)", "networkx asyn_lpa (reference)"} <= methods
