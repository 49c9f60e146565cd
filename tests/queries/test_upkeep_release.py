"""lore index's upkeep steps (clusters, ranker features) leave nothing of theirs in memory: what they build is
saved beside the index, and the next step (or a later query) maps it again instead of standing on it."""

from __future__ import annotations

from lore.api import index_repo, lore_graph, open_index
from lore.graphs import _features, _fold, _walk, build

CODE = '''
def helper(value):
    """Help with a value."""
    return value * 2


def run(x):
    return helper(x) + helper(x + 1)


class Worker:
    def work(self, x):
        return run(x) + helper(x)
'''


def test_upkeep_steps_leave_no_graph_caches(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "m.py").write_text(CODE)
    (root / "n.py").write_text(CODE.replace("helper", "assist"))
    build._MEMORY.clear()
    report = index_repo(root, history="off")
    assert report.seconds.get("clusters") is not None and report.seconds.get("ranker") is not None
    assert build._MEMORY == {} and _walk._WALK_CACHE == {} and _features._CACHE == {} and _fold._CACHE == {}
    db = root / ".lore" / "index.db"
    assert (root / ".lore" / "index.db.features").is_dir() and (root / ".lore" / "index.db.graph").is_dir()
    with open_index(db) as idx:  # a query after the steps reads what they saved
        out = lore_graph(idx, kind="related", source_id="m.run", algorithm="hybrid", limit=5)
    assert out["results"]
