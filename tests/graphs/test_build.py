"""The CSR graph of an index: same edges as the store, and a cache that is never stale."""

from __future__ import annotations

import numpy as np

from lore import index_repo, open_index
from lore.graphs import build


def _edge_set(idx, table: str, src: str, dst: str) -> set[tuple[int, int]]:
    return {(e[src], e[dst]) for e in idx.edges(table) if e[dst] is not None}


def test_matrices_hold_exactly_the_resolved_edges(sample_index):
    g = sample_index.graph()
    calls = g.matrix("calls").tocoo()
    got = {(g.nodes.id(int(r)), g.nodes.id(int(c))) for r, c in zip(calls.row, calls.col, strict=True)}
    assert got == _edge_set(sample_index, "symbol_refs", "caller_id", "callee_id")
    # weights are confidences, summed over call sites
    rows = [e for e in sample_index.edges("symbol_refs") if e["callee_id"] is not None]
    a, b = rows[0]["caller_id"], rows[0]["callee_id"]
    expected = sum(e["confidence"] for e in rows if (e["caller_id"], e["callee_id"]) == (a, b))
    assert g.matrix("calls")[g.nodes.row(a), g.nodes.row(b)] == np.float64(expected)
    # the cached transpose is the transpose
    assert (g.matrix("calls", transpose=True) != g.matrix("calls").T).nnz == 0


def test_a_fresh_process_loads_the_saved_graph(sample_index):
    g = sample_index.graph()
    build._MEMORY.clear()
    cache = build._cache_path(sample_index.db_path)
    assert cache.exists()
    loaded = build.load_saved(cache, g.stamp)
    assert loaded is not None and loaded.stamp == g.stamp
    for name in build.RELATIONS:
        assert (loaded.matrix(name) != g.matrix(name)).nnz == 0


def test_refresh_is_never_served_stale(sample_repo, sample_index):
    before = sample_index.graph()
    (sample_repo / "shop" / "extra.py").write_text("from shop.models import Item\n\ndef f():\n    return Item('a', 1.0)\n")
    index_repo(sample_repo, workers=1)
    after = sample_index.graph()
    assert after.generation == before.generation + 1 and after.n > before.n


def test_two_indexes_in_one_folder_and_a_rebuilt_index_never_share_a_graph(sample_repo, make_repo, tmp_path):
    other = make_repo({"a.py": "def one():\n    return two()\n\ndef two():\n    return 1\n"}, name="other")
    index_repo(sample_repo, db=tmp_path / "a.db", workers=1)
    index_repo(other, db=tmp_path / "b.db", workers=1)
    with open_index(tmp_path / "a.db") as a, open_index(tmp_path / "b.db") as b:
        assert a.graph().n != b.graph().n  # both at generation 1, in the same folder
    # the same path deleted and indexed again from another repository starts again at generation 1
    build._MEMORY.clear()
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"b.db{suffix}").unlink(missing_ok=True)
    index_repo(sample_repo, db=tmp_path / "b.db", workers=1)
    with open_index(tmp_path / "b.db") as b, open_index(tmp_path / "a.db") as a:
        assert b.generation == 1
        assert b.graph().n == a.graph().n


def test_a_read_only_index_never_writes_the_graph_cache(sample_repo):
    index_repo(sample_repo, workers=1, clusters=False)  # the clusters step would save the graph as the writer
    build._MEMORY.clear()
    with open_index(sample_repo, readonly=True) as idx:
        cache = build._cache_path(idx.db_path)
        assert idx.graph().n > 0 and not cache.exists()
    build._MEMORY.clear()  # a fresh process
    with open_index(sample_repo) as idx:
        idx.graph()
        assert cache.exists()
