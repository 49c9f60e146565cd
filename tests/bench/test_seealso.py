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
