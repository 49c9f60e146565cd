"""The hybrid features saved beside the index: same arrays back, never stale, never written when read-only."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from lore.algorithms._csr import Csr
from lore.api import lore_graph, open_index
from lore.graphs import _features, _hybrid_cache
from lore.index import index_repo
from lore.text.tokens import split_identifier
from tests.conftest import write_tree

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": '''
        import functools


        def get_user(user_id: int) -> dict:
            """Fetch one user."""
            return load_row("users", user_id)


        def get_order(order_id: int) -> dict:
            """Fetch one order."""
            return load_row("orders", order_id)


        def load_row(table, key):
            return {}


        class Base:
            def run(self, x):
                return x


        class Child(Base):
            @functools.cache
            def run(self, x):
                return get_user(x)
        ''',
}


@pytest.fixture
def indexed(tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "repo", FILES)
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    return db


def _same(a, b) -> bool:
    if sp.issparse(a):  # a saved matrix comes back as its arrays (no scipy import), the same ones
        return (isinstance(b, Csr) and a.format == b.format and a.shape == b.shape
                and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("data", "indices", "indptr"))
                and (a != b.to_scipy()).nnz == 0)
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


def _fresh():
    _features._CACHE.clear()


def test_saved_features_come_back_equal(indexed):
    _fresh()
    with open_index(indexed) as idx:
        g = idx.graph()
        built = _features.load_features(idx.conn, g, split=split_identifier, db_path=idx.db_path)
        folders = list(_hybrid_cache.cache_dir(idx.db_path).iterdir())
        assert len(folders) == 1 and (folders[0] / "meta.json").exists()
        _fresh()
        again = _features.load_features(idx.conn, g, split=split_identifier, db_path=idx.db_path)
    assert again is not built
    for f in dataclasses.fields(_features.SymbolFeatures):
        assert _same(getattr(built, f.name), getattr(again, f.name)), f.name


def test_a_new_process_reads_the_disk_not_the_symbols(indexed, monkeypatch):
    _fresh()
    with open_index(indexed) as idx:
        first = lore_graph(idx, kind="related", source_id="pkg.core.get_user", algorithm="hybrid", limit=5)
    _fresh()

    def boom(*_a, **_k):
        raise AssertionError("rebuilt although a saved state exists")

    monkeypatch.setattr(_features, "build_features", boom)
    with open_index(indexed) as idx:
        second = lore_graph(idx, kind="related", source_id="pkg.core.get_user", algorithm="hybrid", limit=5)
    assert [r["id"] for r in first["results"]] == [r["id"] for r in second["results"]]
    assert [r["score"] for r in first["results"]] == [r["score"] for r in second["results"]]


def test_never_stale_after_a_refresh(indexed, tmp_path):
    _fresh()
    with open_index(indexed) as idx:
        g1 = idx.graph()
        _features.load_features(idx.conn, g1, split=split_identifier, db_path=idx.db_path)
        old = next(_hybrid_cache.cache_dir(idx.db_path).iterdir())
    extra = "\n\ndef get_invoice(invoice_id):\n    return load_row('invoices', invoice_id)\n"
    core = tmp_path / "repo" / "pkg" / "core.py"
    core.write_text(core.read_text() + extra)
    index_repo(tmp_path / "repo", db=indexed, workers=1)
    _fresh()
    with open_index(indexed) as idx:
        g2 = idx.graph()
        assert g2.stamp != g1.stamp
        f2 = _features.load_features(idx.conn, g2, split=split_identifier, db_path=idx.db_path)
        assert f2.stamp == g2.stamp and len(f2.line) == g2.n
        folders = list(_hybrid_cache.cache_dir(idx.db_path).iterdir())
    assert folders and old not in folders  # the older state was dropped


def test_meta_must_match_key_and_fields(indexed):
    _fresh()
    with open_index(indexed) as idx:
        g = idx.graph()
        feats = _features.load_features(idx.conn, g, split=split_identifier, db_path=idx.db_path)
    folder = next(_hybrid_cache.cache_dir(indexed).iterdir())
    key = json.loads((folder / "meta.json").read_text())["key"]
    assert _hybrid_cache.load(indexed, key, _features.SymbolFeatures) is not None
    assert _hybrid_cache.load(indexed, key + "x", _features.SymbolFeatures) is None  # another state

    @dataclasses.dataclass
    class SymbolFeatures:  # same name, one field more: an older save must not be read into it
        stamp: str
        extra: int = 0

    assert _hybrid_cache.load(indexed, key, SymbolFeatures) is None
    meta = json.loads((folder / "meta.json").read_text())
    meta["format"] = -1
    (folder / "meta.json").write_text(json.dumps(meta))
    assert _hybrid_cache.load(indexed, key, _features.SymbolFeatures) is None
    assert feats.stamp == g.stamp


def test_read_only_index_writes_nothing(indexed):
    _fresh()
    with open_index(indexed, readonly=True) as idx:
        res = lore_graph(idx, kind="related", source_id="pkg.core.get_user", algorithm="hybrid", limit=5)
    assert res["results"]
    assert not _hybrid_cache.cache_dir(indexed).exists()


def test_unwritable_place_and_unsupported_fields_are_not_errors(tmp_path):
    @dataclasses.dataclass
    class Feats:
        a: np.ndarray
        b: object = None

    blocker = tmp_path / "file"
    blocker.write_text("")
    assert _hybrid_cache.save_state(blocker / "index.db", "k", Feats(np.arange(3))) is None  # parent is a file
    assert _hybrid_cache.save_state(tmp_path / "index.db", "k", Feats(np.arange(3), b=object())) is None
    assert not _hybrid_cache.cache_dir(tmp_path / "index.db").exists()
    assert _hybrid_cache.save_state(tmp_path / "index.db", "k", Feats(np.arange(3), b={1: 2})) is None  # int keys
    saved = _hybrid_cache.save_state(tmp_path / "index.db", "k", Feats(np.arange(3), b={"x": [1, 2]}))
    assert saved is not None
    back = _hybrid_cache.load(tmp_path / "index.db", "k", Feats)
    assert back.b == {"x": [1, 2]} and back.a.tolist() == [0, 1, 2]


def test_no_disk_without_a_path_or_stamp(tmp_path):
    calls = []

    def build():
        calls.append(1)
        return "built"

    assert _hybrid_cache.cached(None, "s:1", None, "k", build, cls=object) == "built"
    assert _hybrid_cache.cached(None, "", tmp_path / "index.db", "k", build, cls=object) == "built"
    assert len(calls) == 2 and not _hybrid_cache.cache_dir(tmp_path / "index.db").exists()
