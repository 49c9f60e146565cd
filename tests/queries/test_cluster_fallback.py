"""``cluster`` never answers an empty list while the index has other symbols the filters allow (issue 36).

When the seed's cluster has no other member (a symbol no edge reaches, or members the filters drop),
the answer comes from the nearest clusters by edge weight, and the envelope and every row's ``why`` say so.
"""

from __future__ import annotations

import numpy as np

from lore.api import index_repo, lore_graph, open_index
from lore.graphs import related as rel
from lore.queries.clusters import nearest_cluster_scores

CODE = {
    "pkg/__init__.py": "",
    "pkg/core.py": (
        "def load():\n    return parse() + check()\n\n\n"
        "def parse():\n    return check()\n\n\n"
        "def check():\n    return 1\n\n\n"
        "def save():\n    return load() + check()\n"
    ),
    "pkg/shapes.py": (
        "class Box:\n    def area(self):\n        return size()\n\n\n"
        "def size():\n    return 2\n\n\n"
        "def draw():\n    return Box().area() + size()\n"
    ),
    "pkg/alone.py": "def lonely():\n    return 3\n",
}


def _repo(tmp_path):
    for path, text in CODE.items():
        p = tmp_path / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return index_repo(tmp_path, workers=1).db


def test_a_symbol_in_no_cluster_gets_the_nearest_clusters_and_is_told_so(tmp_path):
    db = _repo(tmp_path)
    with open_index(db) as idx:
        env = lore_graph(idx, kind="cluster", source_id="pkg.alone.lonely", limit=20)
    assert env["results"], env
    assert env["query"]["fallback"] == "nearest clusters"
    assert "nearest clusters" in env["note"]
    assert all(r["why"]["nearest"] is True for r in env["results"])
    assert "lonely" not in [r["name"] for r in env["results"]]


def test_members_filtered_away_fall_back_to_the_nearest_cluster_with_what_the_filter_allows(tmp_path):
    db = _repo(tmp_path)
    with open_index(db) as idx:
        own = lore_graph(idx, kind="cluster", source_id="pkg.core.load", limit=20)
        classes = lore_graph(idx, kind="cluster", source_id="pkg.core.load", limit=20, result_kind="class")
    assert "fallback" not in own["query"] and {"parse", "check", "save"} <= {r["name"] for r in own["results"]}
    assert [r["name"] for r in classes["results"]] == ["Box"]
    assert classes["query"]["fallback"] == "nearest clusters" and classes["results"][0]["why"]["nearest"]


def test_nearest_cluster_scores_order_clusters_by_edge_weight():
    # rows 0-1: the seed's cluster; rows 2-3 cluster 1 (two edges from it); rows 4-5 cluster 2 (one edge); row 6 none
    class G:
        n = 7

    labels = np.array([0, 0, 1, 1, 2, 2, -1])
    import scipy.sparse as sp

    edges = [(0, 2), (1, 3), (0, 4), (2, 3), (4, 5)]
    a = sp.coo_matrix((np.ones(len(edges)), tuple(np.array(edges).T)), shape=(7, 7)).tocsr()
    adj = (a + a.T).tocsr()
    saved = rel.cluster_adjacency
    rel.cluster_adjacency = lambda g: adj  # the graph here is its matrix alone
    try:
        scores, nearest = nearest_cluster_scores(G(), labels, np.array([0]), np.zeros(7, bool))
    finally:
        rel.cluster_adjacency = saved
    ranked, total = rel.rank(scores, np.array([True, True, False, False, False, False, False]), None)
    assert ranked.tolist()[:4] == [2, 3, 4, 5] and ranked.tolist()[-1] == 6 and total == 5
    assert nearest == {1: 2.0, 2: 1.0}
