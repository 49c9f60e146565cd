"""``lore index`` saves what the default ranker needs (the fold of copies, the hybrid features), so the
first ``graph related`` of a new process builds neither (issue 33: 55 s on the Linux kernel)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lore.algorithms import _csr
from lore.api import index_repo, lore_graph, open_index
from lore.graphs import _features, _fold, _hybrid_cache
from lore.store import _fold as store_fold
from lore.store import db as store_db
from lore.store import graph_files
from tests.conftest import write_tree

FILES = {
    "inc/list.h": "int list_add(int a, int b);\nint list_del(int a);\n",
    "src/list.c": (
        '#include "list.h"\n'
        "int list_add(int a, int b) { return list_del(a) + b; }\n"
        "int list_del(int a) { return a; }\n"
    ),
    "src/use.c": '#include "list.h"\nint use(void) { return list_add(1, 2) + list_del(3); }\n',
    "pkg/__init__.py": "",
    "pkg/mod.py": (
        "from typing import overload\n\n\n"
        "@overload\ndef parse(x: int) -> int: ...\n\n\n"
        "@overload\ndef parse(x: str) -> str: ...\n\n\n"
        "def parse(x):\n    return helper(x)\n\n\n"
        "def helper(x):\n    return x\n"
    ),
    "pkg/mod.pyi": "def parse(x): ...\ndef helper(x): ...\n",
}


@pytest.fixture
def indexed(tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "repo", FILES)
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1, history="off")
    return db


def test_index_saves_the_fold_and_the_features_of_its_state(indexed: Path) -> None:
    with open_index(indexed) as idx:
        stamp = store_db.index_stamp(idx.conn)
        assert _hybrid_cache.has_state(indexed, graph_files.fold_key(stamp), suffix=".fold")
        assert _hybrid_cache.has_state(indexed, graph_files.features_key(idx.conn, stamp))


def test_saved_fold_maps_back_to_the_fold_built_from_the_store(indexed: Path) -> None:
    with open_index(indexed) as idx:
        g = idx.graph()
        built = _fold.build_fold(g, store_fold.same_key_symbols(idx.conn), store_fold.overload_decorators(idx.conn))
        assert built.canonical_id and built.also_at  # the fixture has copies: header prototypes, @overload, a stub
        _fold._CACHE.clear()
        mapped = _fold.fold_for(idx.conn, g, db_path=indexed, save=False)
        assert isinstance(mapped.canonical_id, _fold.SortedLookup)  # read from disk, not built
        assert np.array_equal(mapped.canon, built.canon) and np.array_equal(mapped.copies, built.copies)
        for sid in range(0, max(built.canonical_id) + 3):
            assert mapped.canonical_id.get(sid) == built.canonical_id.get(sid)
            assert mapped.also_at.get(sid) == built.also_at.get(sid)
        assert mapped.canonical_ids([*built.canonical_id]) == built.canonical_ids([*built.canonical_id])


def test_related_answers_the_same_from_the_saved_state(indexed: Path, tmp_path: Path) -> None:
    with open_index(indexed) as idx:
        from_disk = lore_graph(idx, kind="related", source_id="pkg.mod.parse")
    for suffix in (".fold", ".features"):
        _hybrid_cache.discard(next(_hybrid_cache.cache_dir(indexed, suffix).iterdir()))
    _fold._CACHE.clear()
    _features._CACHE.clear()
    with open_index(indexed) as idx:
        built = lore_graph(idx, kind="related", source_id="pkg.mod.parse")
    assert from_disk == built


def test_saved_sparse_features_say_their_indices_are_sorted(indexed: Path) -> None:
    """A reader trusts the flag recorded at save time (the checksums hold the arrays to it) instead of
    checking every row again (0.7 s per process on the Linux kernel)."""
    with open_index(indexed) as idx:
        stamp = store_db.index_stamp(idx.conn)
        feats = _hybrid_cache.load(indexed, graph_files.features_key(idx.conn, stamp), _features.SymbolFeatures)
    assert feats is not None
    assert feats.text_terms._sorted is True  # known from the save, not checked (None until asked)
    assert feats.text_terms.has_sorted_indices == _csr._sorted_within(feats.text_terms.indices,
                                                                      feats.text_terms.indptr, strict=False)
