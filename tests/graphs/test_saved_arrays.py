"""A graph mapped from its saved arrays ranks without scipy, and gives scipy's matrices to the bit.

The numpy kernels of ``lore.algorithms._csr`` run only in a process that has not imported scipy (a
cold CLI call); here scipy is loaded, so the tests switch them on by hand and compare with scipy's.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from lore import lore_graph, open_index
from lore.algorithms import _csr
from lore.algorithms._csr import Csr
from lore.graphs import _saved_arrays, _walk, build
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
            (folder / f"{key}.{part}.npy").unlink(missing_ok=True)  # (an array of one value has no file)
    meta.pop("canonical")
    (folder / "meta.json").write_text(json.dumps(meta))
    build._MEMORY.clear()
    _walk._WALK_CACHE.clear()
    with open_index(sample_repo) as idx:
        old = idx.graph()
        assert not old.walks and not old._presence
        assert lore_graph(idx, kind="related", source_id=ref, algorithm=algorithm) == before


def _same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return (a.dtype == b.dtype and a.shape == b.shape
            and np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)))


_RNG = np.random.default_rng(7)
_RARE = np.zeros(300_000)
_RARE[1::3][:40] = np.arange(1, 41) / 7  # values the table's sample (every 4th element) never sees
ARRAYS = {
    "one value": np.ones(5000),
    "negative zero and zero": np.array([-0.0, 0.0] * 3000),
    "nan payloads": np.array([1.0, np.nan, -np.nan, np.inf, 2.5] * 1000),
    "a table": _RNG.choice(np.array([0.25, 1 / 3, 1e300, -7.0]), size=(400, 30)),
    "a table the sample misses": _RARE,
    "257 values": np.repeat(np.arange(257) / 4, 40),
    "float32 exact": _RNG.integers(0, 10**6, 9000).astype(np.float64) / 4,
    "float64 only": _RNG.random(9000),
    "float32": _RNG.random(9000).astype(np.float32),
    "int64 small": _RNG.integers(-100, 100, 9000),
    "int64 wide": _RNG.integers(0, 2**40, 9000),
    "int64 edge": np.array([np.iinfo(np.int32).min, np.iinfo(np.int32).max] * 10, dtype=np.int64),
    "uint64 keys": _RNG.integers(0, 2**63, 9000, dtype=np.uint64) * 2,
    "int32 indices": _RNG.permutation(70_000).astype(np.int32),
    "int32 small indices": _RNG.permutation(60_000).astype(np.int32),
    "row pointers": np.concatenate([[0], np.cumsum(_RNG.integers(0, 200, 9000))]).astype(np.int32),
    "sorted ids": np.cumsum(_RNG.integers(1, 40_000, 9000)),
    "unsigned falling": np.arange(9000, 0, -1, dtype=np.uint32),
    "bool": _RNG.random(500) < 0.5,
    "empty": np.zeros((0, 3)),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_a_saved_array_comes_back_with_the_same_dtype_shape_and_bits(tmp_path, name):
    a = ARRAYS[name]
    manifest = _saved_arrays.write_arrays(tmp_path, {"a": a})
    (tmp_path / "meta.json").write_text("{}")
    back = _saved_arrays.open_array(tmp_path, "a", manifest)
    assert _same_bits(back, a)
    assert _saved_arrays.verify(tmp_path, manifest, {"a": back})
    stored = (tmp_path / "a.npy").stat().st_size if (tmp_path / "a.npy").exists() else 0
    assert stored <= a.nbytes + 128  # never larger than the plain array (header aside)


def test_arrays_are_stored_narrow():
    kinds = {name: (_saved_arrays.encode(a)[1] or {}) for name, a in ARRAYS.items()}
    assert "const" in kinds["one value"]
    assert len(kinds["a table"]["table"]) == 4 and len(kinds["a table the sample misses"]["table"]) == 41
    assert kinds["257 values"] == {"as": "<f4"} == kinds["float32 exact"]
    assert kinds["int64 small"] == {"as": "|i1"} and kinds["int64 edge"] == {"as": "<i4"}
    assert kinds["int32 small indices"] == {"as": "<u2"} and not kinds["int32 indices"]
    assert kinds["row pointers"] == {"steps": "|u1", "first": 0}
    assert kinds["sorted ids"] == {"steps": "<u2", "first": int(ARRAYS["sorted ids"][0])}
    assert kinds["unsigned falling"] == {"as": "<u2"}
    assert not any(kinds[k] for k in ("float64 only", "int64 wide", "uint64 keys", "bool", "empty"))


def test_a_damaged_encoded_array_is_refused(tmp_path):
    manifest = _saved_arrays.write_arrays(tmp_path, {"t": ARRAYS["a table"], "n": ARRAYS["int64 small"],
                                                     "r": ARRAYS["row pointers"]})
    (tmp_path / "meta.json").write_text("{}")
    for name in ("t", "n", "r"):
        m = np.load(tmp_path / f"{name}.npy", mmap_mode="r+")
        m[0, ...] = m[0, ...] + 1 if m.ndim > 1 else m[0] + 1
        m.flush()
        del m
        with pytest.raises(_saved_arrays.DamagedStateError):
            _saved_arrays.open_array(tmp_path, name, manifest)
    short = {"t": [*manifest["t"][:3], {**manifest["t"][3], "table": manifest["t"][3]["table"][:2]}]}
    with pytest.raises(_saved_arrays.DamagedStateError):  # a code past the end of its table
        _saved_arrays.open_array(tmp_path, "t", short)


def test_saved_graph_and_features_decode_to_the_arrays_built(sample_index, tmp_path):
    """What a new process reads back (graph, features, word rows) is what the build held in memory."""
    from lore.graphs import _features, _hybrid_cache
    from lore.text.tokens import split_identifier

    conn = sample_index.conn
    g = build.build_graph(conn)
    loaded = build.load_saved(build.save_graph(g, tmp_path / "graph").parent, g.stamp)
    assert loaded is not None
    for name in ("kind", "is_test", "file", "parent"):
        assert _same_bits(getattr(loaded, name), getattr(g, name)), name
    assert _same_bits(loaded.nodes.ids, g.nodes.ids)
    for name in build.RELATIONS:
        for t in (False, True):
            a, b = loaded.arrays(name, transpose=t), g.arrays(name, transpose=t)
            for part in ("data", "indices", "indptr"):
                assert _same_bits(getattr(a, part), getattr(b, part)), (name, t, part)
    rows: list = []
    feats = _features.build_features(conn, g, split=split_identifier, rows_out=rows)
    db = tmp_path / "index.db"
    assert _hybrid_cache.save_state(db, "k", feats) is not None
    assert _hybrid_cache.save_state(db, "k", rows[0], suffix=_features.ROWS, like=(_hybrid_cache.FEATURES,))
    encoded = 0
    for cls, built, suffix in ((_features.SymbolFeatures, feats, _hybrid_cache.FEATURES),
                               (_features.FeatureRows, rows[0], _features.ROWS)):
        back = _hybrid_cache.load(db, "k", cls, suffix=suffix)
        assert back is not None
        for f in dataclasses.fields(cls):
            want, got = getattr(built, f.name), getattr(back, f.name)
            if isinstance(want, np.ndarray):
                assert _same_bits(got, want), f.name
            elif hasattr(want, "indptr"):
                for part in ("data", "indices", "indptr"):
                    assert _same_bits(getattr(got, part), getattr(want, part)), (f.name, part)
            else:
                assert got == want, f.name
        folder = _hybrid_cache._state_dir(_hybrid_cache.cache_dir(db, suffix), "k")
        encoded += sum(len(e) > 3 for e in json.loads((folder / "meta.json").read_text())["arrays"].values())
    assert encoded > 10  # the decoding was exercised
    # the word rows' columns are the features' query side: one file on disk, two names
    feat_dir = _hybrid_cache._state_dir(_hybrid_cache.cache_dir(db), "k")
    rows_dir = _hybrid_cache._state_dir(_hybrid_cache.cache_dir(db, _features.ROWS), "k")
    assert (rows_dir / "text.indices.npy").samefile(feat_dir / "text_terms.indices.npy")
    # the features hold the raw word rows (weighed when read): the same arrays as the word rows, stored once
    assert (rows_dir / "names.indices.npy").samefile(feat_dir / "name_presence.indices.npy")
    assert (rows_dir / "params.indptr.npy").samefile(feat_dir / "param_presence.indptr.npy")


def test_a_mapped_state_decodes_an_array_only_when_it_is_read(sample_index, tmp_path):
    """Mapping a saved graph or saved features checks every array but decodes none; reading one decodes
    that one (to the arrays built), and a query decodes only what it reads."""
    from lore.graphs import _features, _hybrid_cache
    from lore.graphs._lazy_csr import LazyCsr
    from lore.text.tokens import split_identifier

    conn = sample_index.conn
    g = build.build_graph(conn)
    loaded = build.load_saved(build.save_graph(g, tmp_path / "graph").parent, g.stamp)
    feats = _features.build_features(conn, g, split=split_identifier)
    db = tmp_path / "index.db"
    assert _hybrid_cache.save_state(db, "k", feats) is not None
    back = _hybrid_cache.load(db, "k", _features.SymbolFeatures)
    assert loaded is not None and back is not None
    mats = [*loaded.matrices.values(), *loaded.transposes.values(), *loaded.walks.values(),
            *loaded._presence.values()]
    sparse = [getattr(back, f.name) for f in dataclasses.fields(back) if isinstance(getattr(back, f.name), Csr)]
    assert all(isinstance(m, LazyCsr) for m in (*mats, *sparse))
    deferred = {id(m): [k for k, v in m._parts.items() if isinstance(v, _saved_arrays.Deferred)]
                for m in (*mats, *sparse)}
    assert sum(map(len, deferred.values())) > 10  # encoded arrays, none decoded yet
    calls = loaded.matrices["calls"]
    untouched = loaded.matrices["inherits"]
    assert deferred[id(calls)]
    assert _same_bits(calls.data, g.arrays("calls").data) and _same_bits(calls.indptr, g.arrays("calls").indptr)
    assert not any(isinstance(calls._parts[k], _saved_arrays.Deferred) for k in ("data", "indptr"))
    assert [k for k, v in untouched._parts.items() if isinstance(v, _saved_arrays.Deferred)] == deferred[id(untouched)]
    counts = back.text_counts
    assert _same_bits(counts.T.data, feats.text_counts.data)  # the transposed view decodes the same arrays


def test_a_deferred_array_read_from_several_threads_is_decoded_once():
    """Queries in several threads (the MCP server) may read one saved array first at the same time: each gets
    the same decoded array, equal to what was written."""
    import threading

    a = np.array([0.5, 2.0, 3.0] * 100_000)
    for _ in range(10):
        d = _saved_arrays.Deferred(*_saved_arrays.encode(a), a.dtype.str, list(a.shape))
        got: list[np.ndarray] = []
        threads = [threading.Thread(target=lambda d=d, got=got: got.append(d.get())) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(got) == 6 and all(g is got[0] for g in got) and _same_bits(got[0], a)
