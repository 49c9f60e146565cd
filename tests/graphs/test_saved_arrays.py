"""A graph mapped from its saved arrays ranks without scipy, and gives scipy's matrices to the bit.

The numpy kernels of ``lore.algorithms._csr`` run only in a process that has not imported scipy (a
cold CLI call); here scipy is loaded, so the tests switch them on by hand and compare with scipy's.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from lore import lore_graph, open_index
from lore.algorithms import _csr
from lore.algorithms._csr import Csr
from lore.graphs import _walk, build
from lore.graphs import related as rel

WEIGHTS = (rel.DEFAULT_PPR_WEIGHTS, rel.CLUSTER_WEIGHTS, {"calls": 0.3, "types": 1.7, "imports": 2.5})


def _bits(a, b) -> bool:
    return (tuple(a.shape) == tuple(b.shape) and np.array_equal(a.indptr, b.indptr)
            and np.array_equal(a.indices, b.indices) and a.data.dtype == b.data.dtype
            and np.array_equal(np.asarray(a.data).view(np.uint64), np.asarray(b.data).view(np.uint64)))


def _mapped(idx) -> build.CodeGraph:
    """The index's graph as a new process maps it (arrays, nothing computed yet)."""
    g = idx.graph()
    loaded = build.load_saved(build._cache_path(idx.db_path), g.stamp)
    assert loaded is not None
    assert all(isinstance(m, Csr) for m in (*loaded.matrices.values(), *loaded.transposes.values()))
    return loaded


def _derived(g: build.CodeGraph) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in build.RELATIONS:
        for t in (False, True):
            for closed in (False, True):
                out[f"presence {name} {t} {closed}"] = g.presence_arrays(name, transpose=t, closed=closed)
    for w in WEIGHTS:
        for d in rel.DIRECTIONS:
            out[f"walk {sorted(w.items())} {d}"] = _walk.walk_arrays(g, w, d)
    return out


def test_numpy_and_scipy_kernels_give_the_same_matrices(sample_index, monkeypatch):
    with_scipy = _mapped(sample_index)
    with_scipy.walks.clear()
    with_scipy._presence.clear()
    _walk._WALK_CACHE.clear()
    expected = _derived(with_scipy)
    without = _mapped(sample_index)
    without.walks.clear()
    without._presence.clear()
    _walk._WALK_CACHE.clear()
    monkeypatch.setattr(_csr, "scipy_loaded", lambda: False)
    got = _derived(without)
    _walk._WALK_CACHE.clear()
    assert got.keys() == expected.keys()
    for key in expected:
        assert _bits(got[key], expected[key]), key


def test_the_default_walk_and_closed_neighbourhoods_are_saved_with_the_graph(sample_index):
    g = sample_index.graph()
    folder = build._state_dir(build._cache_path(sample_index.db_path), g.stamp)
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["canonical"] is True
    assert meta["walks"] == [_walk.walk_name(rel.DEFAULT_PPR_WEIGHTS, "both")]
    assert len(meta["presence"]) == 2 * len(build.SAVED_CLOSED)
    loaded = _mapped(sample_index)
    saved = loaded.walks[meta["walks"][0]]
    _walk._WALK_CACHE.clear()
    assert _walk.walk_arrays(loaded, rel.DEFAULT_PPR_WEIGHTS, "both") is saved  # read, not summed again
    assert _bits(saved, _walk._walk_scipy(g, [(r, w) for r, w in rel.DEFAULT_PPR_WEIGHTS.items() if w > 0], "both"))
    for key in meta["presence"]:
        name, _, rest = key.partition(".")
        fresh = build.CodeGraph(g.generation, g.nodes, g.kind, g.is_test, g.file, g.parent, g.matrices, g.transposes)
        assert _bits(loaded._presence[key], fresh.presence_arrays(name, transpose=rest.startswith("T"), closed=True))


@pytest.mark.parametrize("algorithm", ["hybrid", "overlap", "fusion", "pagerank_push", "pagerank"])
def test_a_save_without_the_derived_arrays_answers_the_same(sample_repo, sample_index, algorithm):
    """An older save (no walk, no closed neighbourhoods, canonical form not recorded) still serves."""
    g = sample_index.graph()
    ref = "shop.orders.Order.amount"
    before = lore_graph(sample_index, kind="related", source_id=ref, algorithm=algorithm)
    folder = build._state_dir(build._cache_path(sample_index.db_path), g.stamp)
    meta = json.loads((folder / "meta.json").read_text())
    for key in (*meta.pop("walks"), *meta.pop("presence")):
        for part in ("data", "indices", "indptr"):
            (folder / f"{key}.{part}.npy").unlink()
    meta.pop("canonical")
    (folder / "meta.json").write_text(json.dumps(meta))
    build._MEMORY.clear()
    _walk._WALK_CACHE.clear()
    with open_index(sample_repo) as idx:
        old = idx.graph()
        assert not old.walks and not old._presence
        assert lore_graph(idx, kind="related", source_id=ref, algorithm=algorithm) == before
