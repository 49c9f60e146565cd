"""The hybrid ranker end to end: features, ``lore bench fit``, weights files, lore_graph's hybrid rows."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from lore.api import lore_graph, open_index
from lore.bench import fit as ft
from lore.bench import structural
from lore.cli import app
from lore.errors import InvalidArgumentError
from lore.graphs import hybrid as hy
from lore.graphs._features import load_features, parameters, summary
from lore.text.tokens import split_identifier


def test_summary_and_parameters():
    assert summary("One line.\n\nSee Also\n--------\nother") == "One line."
    assert parameters("def f(self, a: dict[str, int] = {}, *, b=(1, 2), **kw)") == ["a", "b", "kw"]
    assert parameters("") == []


def test_features_align_with_graph_rows(seealso_repo):
    with open_index(seealso_repo) as idx:
        g = idx.graph()
        f = load_features(idx.conn, g, split=split_identifier)
        r = g.nodes.row(idx.resolve_ref("pkg.core.helper"))
        assert f.line[r] > 0 and f.directory[r] >= 0
        assert f.name_tokens.shape[0] == g.n == f.text_bm25.shape[0]
        assert load_features(idx.conn, g, split=split_identifier) is f  # cached per index state


def test_hybrid_rows_explain_their_score(seealso_repo):
    with open_index(seealso_repo) as idx:
        env = lore_graph(idx, kind="related", source_id="pkg.core.alpha", algorithm="hybrid", limit=5)
        again = lore_graph(idx, kind="related", source_id="pkg.core.alpha", algorithm="hybrid", limit=5)
    rows = env["results"]
    assert rows and [r["id"] for r in rows] == [r["id"] for r in again["results"]]
    for r in rows:
        signals = r["why"]["signals"]
        assert signals, r
        assert sum(s["contribution"] for s in signals) == pytest.approx(r["score"], abs=1e-3)
        assert all(s["signal"] in hy.SIGNALS and s["text"] for s in signals)
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    names = [r["qualified_name"] for r in rows]
    assert "pkg.core.alpha" not in names and "pkg.core" not in names  # seed and its module never answer


def test_private_helper_signal_pushes_helpers_down(seealso_repo):
    with open_index(seealso_repo) as idx:
        g = idx.graph()
        f = load_features(idx.conn, g, split=split_identifier)
        seed = g.nodes.row(idx.resolve_ref("pkg.core.alpha"))
        mask = np.zeros(g.n, dtype=bool)
        mask[seed] = True
        base = hy.score(g, f, [seed], mask, {"structure": 1.0})
        x = base.x[:, hy.SIGNALS.index("private_helper")]
        assert (x == 0).all()  # no private symbol in the fixture: the signal stays silent


def test_weights_override_and_bad_weights(seealso_repo, tmp_path):
    with open_index(seealso_repo) as idx:
        env = lore_graph(idx, kind="related", source_id="pkg.core.alpha", algorithm="hybrid",
                         weights={"structure": 0.0, "same_file": 1.0}, limit=3)
        assert env["query"]["weights"]["same_file"] == 1.0
        with pytest.raises(InvalidArgumentError, match="unknown hybrid signal"):
            lore_graph(idx, kind="related", source_id="pkg.core.alpha", algorithm="hybrid", weights={"nope": 1.0})
        with pytest.raises(InvalidArgumentError, match="negative|>= 0|must be"):
            lore_graph(idx, kind="related", source_id="pkg.core.alpha", algorithm="hybrid", weights={"callees": -1.0})
    bad = tmp_path / "w.json"
    bad.write_text("{}")
    with pytest.raises(InvalidArgumentError, match="lore bench fit"):
        hy.load_weights(bad)
    with pytest.raises(InvalidArgumentError, match="cannot read"):
        hy.load_weights(tmp_path / "missing.json")


def test_fit_writes_weights_the_ranker_reads(seealso_repo, tmp_path):
    out = tmp_path / "weights.json"
    report = ft.run_fit(seealso_repo, seealso=True, out=out)
    assert report["ground_truth"][0]["queries"] > 0
    w = hy.load_weights(out)
    assert w == report["weights"] and w["structure"] == 1.0
    assert json.loads(out.read_text())["fit"]["method"].startswith("coordinate ascent")
    with pytest.raises(InvalidArgumentError, match="ground truth"):
        ft.run_fit(seealso_repo)


def test_cli_fit_and_related_with_weights(seealso_repo, tmp_path):
    runner = CliRunner()
    out = tmp_path / "w.json"
    res = runner.invoke(app, ["bench", "fit", "--db", str(seealso_repo), "--seealso", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.exists()
    res = runner.invoke(app, ["graph", "related", "pkg.core.alpha", "-a", "hybrid", "--weights", str(out),
                              "--db", str(seealso_repo), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["results"]


def test_blocks_rank_like_the_ranker(seealso_repo):
    suite = structural.prepare(seealso_repo)
    b = ft.suite_blocks(suite)
    w = hy.load_weights(None)
    from_blocks = ft.block_metrics(b, w)
    direct = ft.per_query(suite, ft.hybrid_ranker(suite, w))
    for m in ("recall@10", "mrr@10", "hit@1"):
        assert np.allclose(from_blocks[m], direct[m]), m


def test_baselines_and_bootstrap(seealso_repo):
    suite = structural.prepare(seealso_repo)
    f = ft.features(suite)
    ranks = ft.baseline_rankers(suite, f)
    sf = ft.per_query(suite, ranks["same_file"])
    assert set(sf) == {"recall@10", "mrr@10", "hit@1"}
    for q in range(len(suite.sources)):
        got = ranks["same_dir_random"](q)
        assert (f.directory[got] == f.directory[suite.sources[q]]).all()
    d, lo, hi = ft.paired_bootstrap(sf["recall@10"], sf["recall@10"])
    assert d == lo == hi == 0.0
    with pytest.raises(InvalidArgumentError):
        ft.paired_bootstrap(np.ones(2), np.ones(3))


def test_group_blocks_gives_each_kind_of_ground_truth_equal_weight():
    def block(n):
        return ft.ltr.Blocks.stack([(np.array([1, 2]), np.ones((2, len(hy.SIGNALS))), np.array([True, False]), 1)] * n)

    a1, a2, b1 = block(2), block(3), block(4)
    grouped = ft.group_blocks([a1, a2, b1], ["seealso", "seealso", "cochange"])
    w = grouped.query_weight
    assert np.isclose(w.sum(), 1.0)
    # kinds in name order: cochange (b1, 4 queries) first, then seealso (a1, a2)
    assert np.isclose(w[:4].sum(), 0.5) and np.isclose(w[4:6].sum(), 0.25) and np.isclose(w[6:].sum(), 0.25)
    flat = ft.group_blocks([a1, a2, b1])  # no groups: one vote per block
    assert np.isclose(flat.query_weight[5:].sum(), 1 / 3)
    with pytest.raises(InvalidArgumentError):
        ft.group_blocks([a1, a2], ["seealso"])


def test_hybrid_honours_the_structure_options(seealso_repo):
    """measure, alpha, direction and relation weights shape the hybrid's structure signals, as they shape
    overlap and PageRank; the envelope says which were used."""
    seed = "pkg.core.alpha"
    with open_index(seealso_repo) as idx:
        base = lore_graph(idx, kind="related", source_id=seed, algorithm="hybrid", limit=50)
        assert {k: base["query"][k] for k in ("measure", "alpha", "direction")} == {
            "measure": "idf_cosine", "alpha": 0.85, "direction": "both"}
        only_structure = {s: 0.0 for s in hy.SIGNALS if s not in ("structure", "structure_abs")}

        def structure_values(**kw):
            env = lore_graph(idx, kind="related", source_id=seed, algorithm="hybrid", limit=50,
                             **{**kw, "weights": {**only_structure, **kw.get("weights", {})}})
            return env, {r["id"]: r["score"] for r in env["results"]}

        env, by_default = structure_values()
        env_j, jaccard = structure_values(measure="jaccard")
        assert env_j["query"]["measure"] == "jaccard" and jaccard != by_default
        _, no_callers = structure_values(weights={"callers": 0.0, "container": 0.0})
        assert no_callers != by_default
        env_a = lore_graph(idx, kind="related", source_id=seed, algorithm="hybrid", alpha=0.5, direction="out")
        assert (env_a["query"]["alpha"], env_a["query"]["direction"]) == (0.5, "out")


def test_digits_are_not_words(seealso_repo):
    with open_index(seealso_repo) as idx:
        f = load_features(idx.conn, idx.graph(), split=split_identifier)
    assert not [w for w in f.vocab + f.name_vocab if w.isdigit()]


def test_shared_words_in_the_why_are_the_rarest_first(tmp_path):
    """'shares words' names the words that say most (used by the fewest symbols), never 'a/of/the' first."""
    from lore import index_repo

    common = "".join(f'def filler{i}():\n    """Return the value of a thing from the store."""\n\n\n' for i in range(8))
    (tmp_path / "m.py").write_text(
        common
        + 'def seed():\n    """Return the quaternion of a thing from the gyroscope."""\n\n\n'
        + 'def other():\n    """Return the quaternion of a thing from the gyroscope, again."""\n')
    index_repo(tmp_path, workers=1)
    with open_index(tmp_path) as idx:
        env = lore_graph(idx, kind="related", source_id="m.seed", limit=12, weights={"text": 1.0})
    row = next(r for r in env["results"] if r["qualified_name"] == "m.other")
    words = next(s for s in row["why"]["signals"] if s["signal"] in ("text", "text_abs"))["text"]
    assert words.startswith("shares words gyroscope/quaternion"), words


def test_a_seealso_corpus_from_a_git_checkout_must_sit_at_its_pinned_tag(tmp_path):
    """``loo.py --repo networkx=PATH``: the checkout is used only at the tag the corpus pins."""
    import os
    import shutil
    import subprocess

    from lore.bench.corpora import SEEALSO, seealso_checkout
    from lore.errors import InvalidArgumentError

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path)}

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, env=env)

    git("init", "-q")
    (tmp_path / "networkx").mkdir()
    (tmp_path / "networkx" / "__init__.py").write_text("")
    git("add", "-A")
    git("commit", "-q", "-m", "one")
    tag = SEEALSO["networkx"].git[1]
    git("tag", tag)
    root, label = seealso_checkout("networkx", tmp_path)
    assert root == tmp_path / "networkx" and tag in label
    (tmp_path / "networkx" / "x.py").write_text("")
    git("add", "-A")
    git("commit", "-q", "-m", "two")  # HEAD moved past the tag
    with pytest.raises(InvalidArgumentError, match=tag):
        seealso_checkout("networkx", tmp_path)
    with pytest.raises(InvalidArgumentError, match="no git checkout is pinned"):
        seealso_checkout("scipy", tmp_path)
