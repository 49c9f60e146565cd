"""The two questions of a related list (issue 36): ``hybrid`` ("like this") and ``changes`` ("changes with this").

A tiny git repository in which ``parse_header`` changes together with ``dump_header`` (same file, same
callee) and with ``zeta`` -- a function in another file that shares no call, type, word or place with it --
in every commit, while ``format_header`` shares the callee and never changes with it. The default list
must not let the history lift ``zeta`` (nor tell ``dump_header`` from ``format_header`` by it); the
``changes`` list must put ``dump_header`` above ``format_header`` (and in its top two), from the CLI, Python and MCP alike.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.api import index_repo, lore_graph, open_index
from lore.cli import app as lore_app
from lore.graphs import hybrid as hy
from tests.mcp.conftest import expected_graph, payload, run_session

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

T0 = 1_600_000_000
DAY = 86_400
HISTORY = ("history", "history_count", "history_agrees")


@pytest.fixture(autouse=True)
def _own_span_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path / "lore-cache"))
    monkeypatch.delenv("LORE_HISTORY_CACHE", raising=False)


def _git(repo: Path, *args: str, when: int) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": f"@{when} +0000", "GIT_COMMITTER_DATE": f"@{when} +0000",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _write(repo: Path, step: int) -> None:
    """Every step changes parse_header's, dump_header's and zeta's return lines in place (no line moves).

    format_header and dump_header follow the seed's callee, alike in all but place and history: format_header
    is the nearer (line rank 2 against 3, five lines nearer), dump_header the one that changes with the seed.
    """
    (repo / "headers.py").write_text(
        f"def parse_header():\n    helper_one()\n    return {step}\n\n\n"
        "def helper_one():\n    return 1\n\n\n"
        "def format_header():\n    helper_one()\n    return 0\n\n\n"
        f"def dump_header():\n    helper_one()\n    return {step}\n")
    (repo / "zoo.py").write_text(f"def zeta():\n    return {step}\n")


@pytest.fixture
def coupled_repo(tmp_path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", when=T0)
    for step in range(5):  # the first commit creates the files (not a co-change); four change both
        _write(repo, step)
        _git(repo, "add", "-A", when=T0 + step * DAY)
        _git(repo, "commit", "-q", "-m", f"step {step}", when=T0 + step * DAY)
    return repo


def _names(env: dict) -> list[str]:
    return [r["name"] for r in env["results"]]


def test_history_does_not_lift_a_structurally_unrelated_symbol_in_hybrid(coupled_repo):
    db = index_repo(coupled_repo).db
    with open_index(db) as idx:
        like = lore_graph(idx, kind="related", source_id="headers.parse_header", algorithm="hybrid", limit=10)
        forced = lore_graph(idx, kind="related", source_id="headers.parse_header", algorithm="hybrid", limit=10,
                            weights={"history": 8.0})
    names = _names(like)
    for row in like["results"]:  # no history contribution reaches any row of "like this"
        assert not [s for s in row["why"]["signals"] if s["signal"] in (*HISTORY, "churn")], row["why"]
    assert "zeta" not in names or names.index("zeta") > names.index("format_header"), names
    # the history is there: weighed as the old single weight set did (8), it lifts zeta over format_header
    lifted = _names(forced)
    assert lifted.index("zeta") < lifted.index("format_header"), lifted


def test_history_agrees_is_zero_where_nothing_else_sees_the_candidate(coupled_repo):
    db = index_repo(coupled_repo).db
    with open_index(db) as idx:
        env = lore_graph(idx, kind="related", source_id="headers.parse_header", algorithm="hybrid", limit=10,
                         weights={"history_agrees": 5.0})
    rows = {r["name"]: r for r in env["results"]}
    sig_of = {n: {s["signal"]: s["value"] for s in r["why"]["signals"]} for n, r in rows.items()}
    assert "history_agrees" not in sig_of.get("zeta", {})  # history 1.0, but no structure, place or words


def test_changes_from_python_cli_and_mcp(coupled_repo):
    db = index_repo(coupled_repo).db
    with open_index(db, readonly=True) as idx:
        py = lore_graph(idx, kind="related", source_id="headers.parse_header", algorithm="changes", limit=5)
    res = CliRunner().invoke(lore_app, ["graph", "related", "headers.parse_header", "--algorithm", "changes",
                                        "--limit", "5", "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    cli = json.loads(res.output)

    args = {"relation": "related", "source_id": "headers.parse_header", "algorithm": "changes", "limit": 5,
            "compact": False}

    async def body(session):
        return payload(await session.call_tool("lore_graph", args))

    mcp = run_session(db, body)
    mcp.pop("next_cursor", None)
    assert py == cli
    with open_index(db, readonly=True) as idx:
        assert mcp == expected_graph(idx, args)  # the same answer, the query type named `relation` over MCP
    assert py["query"]["algorithm"] == "changes"
    names = _names(py)
    # dump_header and format_header share the seed's file and callee; format_header is nearer, dump_header changed
    # with the seed in 4 of 4 commits: history lifts it over a small lead in place (with the history signals at 0
    # format_header comes first). The seed's direct callee, helper_one, comes first: the weights fit with the
    # new-pair penalty rank a direct call above a co-changed sibling and weigh history little; docs/ranking.md.
    assert names.index("dump_header") < names.index("format_header"), names
    assert names.index("dump_header") <= 1, names
    top = py["results"][names.index("dump_header")]
    assert "changed together in 4 of 4 commits" in top["why"]["summary"]
    with open_index(db, readonly=True) as idx:
        like = lore_graph(idx, kind="related", source_id="headers.parse_header", limit=5)
        off = lore_graph(idx, kind="related", source_id="headers.parse_header", algorithm="changes", limit=5,
                         weights={**hy.load_weights(None, algorithm="changes"), **dict.fromkeys(hy.HISTORY_SIGNALS, 0.0)})
    assert _names(like) != _names(py)  # two questions, two answers
    unlifted = _names(off)  # the same weights without history: the nearer sibling first, so history decided
    assert unlifted.index("format_header") < unlifted.index("dump_header"), unlifted


def test_changes_without_history_says_so(tmp_path):
    (tmp_path / "m.py").write_text("def a():\n    b()\n\n\ndef b():\n    return 1\n\n\ndef c():\n    b()\n")
    db = index_repo(tmp_path).db
    with open_index(db) as idx:
        env = lore_graph(idx, kind="related", source_id="m.a", algorithm="changes", limit=5)
    assert _names(env) and "no commit" in env.get("note", "")


def test_changes_and_hybrid_ship_their_own_weights():
    like, changes = hy.load_weights(None), hy.load_weights(None, algorithm="changes")
    assert like != changes
    assert all(like.get(s, 0.0) == 0.0 for s in hy.HISTORY_SIGNALS)  # "like this": the list of the code alone
    assert changes.get("history_agrees", 0.0) > 0.0  # "changes with this": history, where structure agrees
    assert hy.default_provenance("changes")["corpora"] != hy.default_provenance()["corpora"]


def test_history_reach_and_file_weigh_only_the_pairs_history_never_saw(tmp_path):
    """fa changes with fb (twice) and with fd (once); fb with fc (twice); fa never with fc. For seed fa, fc is
    reached through fb (2 x 2 commits) and sits in the file fa changed with once of its 3 commits (fd's)."""
    import numpy as np

    from lore.graphs._features import load_features
    from lore.text.tokens import split_identifier

    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", when=T0)
    files = {"a.py": {"fa": 0}, "b.py": {"fb": 0}, "c.py": {"fc": 0, "fd": 0}}

    def commit(step: int, *changed: str) -> None:
        for path, funcs in files.items():
            for name in funcs:
                if name in changed:
                    funcs[name] = step
            (repo / path).write_text("".join(f"def {n}():\n    return {v}\n\n\n" for n, v in funcs.items()))
        _git(repo, "add", "-A", when=T0 + step * DAY)
        _git(repo, "commit", "-q", "-m", f"step {step}", when=T0 + step * DAY)

    commit(0)
    for step, changed in enumerate((("fa", "fb"), ("fa", "fb"), ("fb", "fc"), ("fb", "fc"), ("fa", "fd")), start=1):
        commit(step, *changed)
    db = index_repo(repo, history="wait").db
    with open_index(db) as idx:
        g = idx.graph()
        feats = load_features(idx.conn, g, split=split_identifier)
        ids = dict(idx.conn.execute("SELECT name, id FROM symbols WHERE name IN ('fa', 'fb', 'fc', 'fd')"))
        rows = {n: int(r) for n, r in zip(ids, g.nodes.rows(list(ids.values())), strict=True)}
    seed = rows["fa"]
    cand = np.array([rows["fb"], rows["fc"], rows["fd"]])
    _, raw = hy.candidates(g, feats, np.array([seed]), np.ones(g.n, bool))
    x = hy.signal_matrix(g, feats, seed, cand, raw)
    reach, file_ = x[:, hy.SIGNALS.index("history_reach")], x[:, hy.SIGNALS.index("history_file")]
    assert reach.tolist() == [0.0, 0.5, 0.0]  # fb and fd changed with fa: the signals above weigh them
    assert file_.tolist() == pytest.approx([0.0, 1 / 3, 0.0])
    assert x[1, hy.SIGNALS.index("history")] == 0.0
