from __future__ import annotations

import numpy as np
import pytest

from lore.api import open_index
from lore.bench import structural
from lore.bench.seealso import extract_judgements, see_also_entries
from lore.errors import EmptyGroundTruthError


def test_entries_forms():
    doc = "x\n\nSee Also\n--------\na, b : both\n    more text, c\n`d`\n:meth:`Graph.e`\nf: g\n\nNotes\n-----\nz, y\n"
    assert see_also_entries(doc) == ["a", "b", "d", "Graph.e", "f"]
    assert see_also_entries(None) == []
    assert see_also_entries("no section") == []


def _qnames(idx, j):
    return {idx.symbol(s)["qualified_name"]: [idx.symbol(t)["qualified_name"] for t in ts] for s, ts in j.pairs.items()}


def test_resolution_like_a_reader(seealso_repo):
    with open_index(seealso_repo) as idx:
        g = idx.graph()
        containers = {g.nodes.id(r): {g.nodes.id(c) for c in g.containers_of(np.array([r]))} for r in range(g.n)}
        j = extract_judgements(idx, containers=containers)
        got = _qnames(idx, j)
    assert got["pkg.core.alpha"] == ["pkg.core.beta", "pkg.sub.deep.deep_func", "pkg.core.gamma"]
    assert got["pkg.core.beta"] == ["pkg.core.alpha"]  # role + ~ + package re-export (star import)
    assert got["pkg.core.Thing.run"] == ["pkg.core.Thing.stop"]  # class member; the container is dropped
    assert got["pkg.sub.deep.deep_func"] == ["pkg.core.alpha"]  # through the package namespace
    assert not any(q.startswith("tests.") for q in got)  # test code is never a source
    s = j.summary()
    assert s["unresolved"] == 1 and s["unresolved_examples"] == ["pkg.core.alpha: nowhere"]
    assert s["dropped_pairs"] == {"container": 1}


def test_prepare_and_score_fixture(seealso_repo):
    suite = structural.prepare(seealso_repo)
    assert suite.info["queries"] == 4 and suite.info["pairs"] == 6
    params = structural.params_for("overlap:adamic_adar")
    res = structural.evaluate(suite, structural.lore_ranker(suite, params))
    assert res["all"]["queries"] == 4 and 0.0 <= res["all"]["mrr"] <= 1.0
    base = structural.baseline_rankers(suite, names=("random", "same_file", "bm25_names", "file_pagerank"))
    same = structural.evaluate(suite, base["same_file"])
    assert same["all"]["recall@10"] > 0.5  # most pairs share a file in the fixture
    # the direct ranking is the api's ranking
    assert structural.consistency_check(suite, {"overlap:adamic_adar": structural.lore_ranker(suite, params)}) == []
    suite.idx.close()


def test_empty_ground_truth(tmp_path):
    from lore.index import index_repo

    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "m.py").write_text("def f():\n    '''No sections.'''\n")
    index_repo(tmp_path / "r", db=tmp_path / "i.db", workers=1)
    with pytest.raises(EmptyGroundTruthError):
        structural.prepare(tmp_path / "i.db")
    with open_index(tmp_path / "i.db") as idx, pytest.raises(EmptyGroundTruthError):
        structural.score_pairs(idx, {})


def test_any_ground_truth_drops_what_a_query_may_never_return(seealso_repo):
    """Co-change and question files arrive unfiltered: a target that the related query for its source
    excludes by contract (its class, a test) is dropped and counted, as See-Also judgements are."""
    with open_index(seealso_repo) as idx:
        q = {idx.symbol(s)["qualified_name"]: s for s in (r[0] for r in idx.conn.execute("SELECT id FROM symbols"))}
        pairs = {q["pkg.core.Thing.run"]: [q["pkg.core.Thing"], q["pkg.core.Thing.stop"], q["tests.test_core.test_alpha"]],
                 q["pkg.core.Thing"]: [q["pkg.core.Thing.run"]],  # a class's member stays: only containers go
                 q["pkg.core.Thing.stop"]: [q["pkg.core.Thing"]]}  # nothing left: the query goes too
        suite = structural.build_suite(idx, pairs)
        got = {suite.names[s]: sorted(suite.names[t] for t in ts) for s, ts in zip(suite.sources, suite.relevant, strict=True)}
        assert got == {"run": ["stop"], "Thing": ["run"]}
        assert suite.info["dropped_pairs"] == {"container": 2, "not answerable": 1}
        assert suite.info["dropped_queries"] == 1 and suite.info["queries"] == 2 and suite.info["pairs"] == 2
        # the masks the suite ranks with are the ones it filtered with
        for k, s in enumerate(suite.sources):
            assert not suite.mask(k)[suite.relevant[k]].any() and suite.mask(k)[s]
        with pytest.raises(EmptyGroundTruthError, match="may return"):
            structural.build_suite(idx, {q["pkg.core.Thing.stop"]: [q["pkg.core.Thing"]]})
