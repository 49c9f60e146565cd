"""Large saved arrays are stored in blocks, and a refresh links the blocks the last state holds with the same bits.

A saved graph or saved features written after a refresh encoded and wrote every array again, although a
new symbol only appends to most of them. Now an array of more than ``BLOCK`` elements is stored in blocks,
and a block whose bits the last state's same block holds (decoded and compared, its checksum checked) is
hard-linked. These tests make ``BLOCK`` tiny so that every array of a small repository is blocked:
the arrays read back are bit for bit the ones written, a damaged block is never linked nor served, and
after each of several refreshes (a function added, one removed, a body changed) the saved graph and the
saved features equal a build from scratch and ``related`` answers as a fresh index of the same tree.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from lore import index_repo, open_index
from lore.api import lore_graph
from lore.graphs import _features, _hybrid_cache, _saved_arrays, build
from lore.store import db as store_db
from lore.store.graph_files import features_key
from lore.text.tokens import split_identifier


def _bits_equal(a, b) -> bool:
    a, b = np.ascontiguousarray(np.asarray(a)), np.ascontiguousarray(np.asarray(b))
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


ARRAYS = {
    "const": np.ones(50),
    "codes": np.array([0.5, 2.0, 7.0] * 40),
    "steps": np.cumsum(np.arange(130) % 3).astype(np.int64),
    "narrow": (np.arange(77) * 3 - 40).astype(np.int64),
    "plain": np.random.default_rng(3).random(90),
    "small": np.arange(5, dtype=np.int32),  # under BLOCK: one file, as before
    "table": np.arange(12, dtype=np.int64).reshape(3, 4),  # 2-D: never blocked
}


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(_saved_arrays, "BLOCK", 16)


def _write(folder: Path, arrays: dict, prev: Path | None = None) -> dict:
    folder.mkdir()
    manifest = _saved_arrays.write_arrays(folder, arrays, prev=prev)
    (folder / "meta.json").write_text(json.dumps({"arrays": manifest}))
    return manifest


def test_blocked_arrays_read_back_bit_for_bit(tiny, tmp_path):
    manifest = _write(tmp_path / "a", ARRAYS)
    assert "blocks" in manifest["codes"][3] and "blocks" not in (manifest["small"][3:] or [{}])[0]
    assert (tmp_path / "a" / "codes.7.npy").is_file() and not (tmp_path / "a" / "const.0.npy").exists()
    for name, a in ARRAYS.items():
        assert _bits_equal(_saved_arrays.open_array(tmp_path / "a", name, manifest), a), name
        lazy = _saved_arrays.open_array(tmp_path / "a", name, manifest, lazy=True)
        assert _bits_equal(_saved_arrays.resolve(lazy), a), name
    assert _saved_arrays.verify(tmp_path / "a", manifest)


def test_a_refresh_links_the_unchanged_blocks_and_writes_the_rest(tiny, tmp_path, monkeypatch):
    _write(tmp_path / "a", ARRAYS)
    new = dict(ARRAYS)
    new["codes"] = np.append(ARRAYS["codes"], 7.0)  # a row appended: every old block kept
    plain = ARRAYS["plain"].copy()
    plain[40] = -1.0  # one element in block 2 changed
    new["plain"] = plain
    encoded: list[int] = []
    real = _saved_arrays.encode
    monkeypatch.setattr(_saved_arrays, "encode", lambda a: encoded.append(a.size) or real(a))
    manifest = _write(tmp_path / "b", new, prev=tmp_path / "a")
    for name, a in new.items():
        assert _bits_equal(_saved_arrays.open_array(tmp_path / "b", name, manifest), a), name

    def same(name: str, k: int) -> bool:
        return os.path.samefile(tmp_path / "a" / f"{name}.{k}.npy", tmp_path / "b" / f"{name}.{k}.npy")

    assert all(same("codes", k) for k in range(7)) and not same("codes", 7)
    assert same("plain", 0) and same("plain", 1) and not same("plain", 2) and same("plain", 3)
    assert same("steps", 3) and same("narrow", 2)
    # encoded: the small and 2-D arrays, the last block of codes and the changed block of plain only
    assert sorted(encoded) == sorted([5, 12, 9, 16])


def test_a_damaged_block_of_the_last_state_is_neither_linked_nor_served(tiny, tmp_path):
    before = _write(tmp_path / "a", ARRAYS)
    f = tmp_path / "a" / "plain.1.npy"
    raw = bytearray(f.read_bytes())
    raw[-3] ^= 0xFF  # one byte of the stored values
    f.write_bytes(bytes(raw))
    with pytest.raises(_saved_arrays.DamagedStateError):
        _saved_arrays.open_array(tmp_path / "a", "plain", before)
    manifest = _write(tmp_path / "b", ARRAYS, prev=tmp_path / "a")
    assert not os.path.samefile(f, tmp_path / "b" / "plain.1.npy")
    assert _bits_equal(_saved_arrays.open_array(tmp_path / "b", "plain", manifest), ARRAYS["plain"])


BASE = '''"""Shop."""


class Store:
    def put(self, item):
        return item


def make_item(name):
    return {"name": name}


def order_total(item, count):
    """Total of an order."""
    return item["price"] * count


def checkout(names):
    return [make_item(n) for n in names]
'''

EDITS = [
    BASE + '''

def refund_item(item, reason):
    """Refund an item."""
    return order_total(item, -1)
''',  # a function added (new words, a new caller)
    BASE.replace('''def make_item(name):
    return {"name": name}


''', ""),  # one removed
    BASE.replace("return item", "return dict(item)"),  # a body changed, same shape
]


def _saved_equal_a_build(db: Path) -> None:
    with open_index(db) as idx:
        stamp = store_db.index_stamp(idx.conn)
        saved = build.load_saved(build._cache_path(idx.db_path), stamp)
        fresh = build.build_graph(idx.conn)
        assert saved is not None
        assert _bits_equal(saved.nodes.ids, fresh.nodes.ids)
        for name in build.RELATIONS:
            for t in (False, True):
                a, b = saved.arrays(name, transpose=t), fresh.arrays(name, transpose=t)
                assert all(_bits_equal(getattr(a, p), getattr(b, p)) for p in ("data", "indices", "indptr")), name
        feats = _hybrid_cache.load(idx.db_path, features_key(idx.conn, stamp), _features.SymbolFeatures)
        want = _features.build_features(idx.conn, fresh, split=split_identifier)
        assert feats is not None
        for fld in dataclasses.fields(want):
            a, b = getattr(feats, fld.name), getattr(want, fld.name)
            if isinstance(b, np.ndarray):
                assert _bits_equal(a, b), fld.name
            elif hasattr(b, "indptr"):
                assert all(_bits_equal(getattr(a, p), getattr(b, p)) for p in ("data", "indices", "indptr")), fld.name
            elif fld.name not in ("inputs", "stamp"):
                assert a == b, fld.name


def _related(root: Path) -> dict:
    out = {}
    with open_index(root) as idx:
        for (q,) in idx.conn.execute("SELECT DISTINCT qualified_name FROM symbols WHERE kind != 'module'"):
            res = lore_graph(idx, kind="related", source_id=q)["results"]
            # (ties are ordered by symbol id, and ids differ between a refreshed and a fresh index)
            out[q] = sorted(((r["qualified_name"], r.get("score")) for r in res), key=lambda x: (-x[1], x[0]))
    return out


def test_refreshes_over_blocked_arrays_equal_a_build_from_scratch(tiny, tmp_path, monkeypatch):
    root = tmp_path / "r"
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "core.py").write_text(BASE)
    (root / "shop" / "util.py").write_text('"""Util."""\n\n\ndef slugify(text):\n    return text.lower()\n')
    index_repo(root, workers=1, history="off")
    db = root / ".lore" / "index.db"
    encoded: list[int] = []
    real = _saved_arrays.encode
    monkeypatch.setattr(_saved_arrays, "encode", lambda a: encoded.append(a.size) or real(a))
    for edit in EDITS:
        (root / "shop" / "core.py").write_text(edit)
        encoded.clear()
        report = index_repo(root, workers=1, history="off")
        assert report.changed == ["shop/core.py"]
        _saved_equal_a_build(db)
        blocks = sum(len(e[3]["blocks"]) for d in (db.with_name("index.db.graph"), db.with_name("index.db.features"))
                     for folder in d.iterdir() if folder.is_dir()
                     for e in json.loads((folder / "meta.json").read_text())["arrays"].values()
                     if len(e) > 3 and "blocks" in e[3])
        assert blocks and len([s for s in encoded if s == 16]) < blocks  # some full blocks linked, not encoded
        fresh = tmp_path / f"f{EDITS.index(edit)}"
        shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".lore"))
        index_repo(fresh, workers=1, history="off")
        assert _related(root) == _related(fresh)
