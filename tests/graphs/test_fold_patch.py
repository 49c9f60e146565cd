"""A refresh patches the saved fold from the last generation's instead of reading every symbol that shares a
name (issue 33: a whole-table read on every refresh of the Linux kernel); the patched fold equals one built
from the store, through edits that add, move, rename and remove copies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lore.api import index_repo, open_index
from lore.graphs import _fold
from lore.store import _fold as store_fold
from tests.conftest import write_tree
from tests.graphs.test_ranker_saved import FILES

EDITS = [
    {"src/list.c": FILES["src/list.c"] + "int list_new(void) { return 0; }\n"},  # a definition without copies
    {"inc/list.h": FILES["inc/list.h"] + "int list_new(void);\n"},  # ... that gets its prototype
    {"inc/list.h": "\n\n" + FILES["inc/list.h"].replace("int list_del(int a);\n", "")},  # lines move, a copy goes
    {"pkg/mod.py": FILES["pkg/mod.py"].replace("@overload\ndef parse(x: str) -> str: ...\n\n\n", "")},
    {"pkg/mod.pyi": "def parse(x): ...\n"},  # a stub loses a copy
    {"src/more.c": '#include "list.h"\nint list_del(int a) { return -a; }\n'},  # a second implementation
]


def _same(patched: _fold.Fold, built: _fold.Fold) -> None:
    assert np.array_equal(patched.canon, built.canon) and np.array_equal(patched.copies, built.copies)
    ids = set(built.canonical_id) | {*built.also_at} | set(range(0, int(patched.canon.size) + 50))
    for sid in sorted(ids):
        assert patched.canonical_id.get(sid) == built.canonical_id.get(sid), sid
        assert patched.also_at.get(sid) == built.also_at.get(sid), sid


@pytest.mark.parametrize("removed", [False, True])
def test_the_fold_a_refresh_saves_equals_one_built_from_the_store(tmp_path: Path, removed: bool) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1, history="off")
    for edit in EDITS:
        write_tree(root, edit)
        index_repo(root, db=db, workers=1, history="off")
        if removed:
            (root / "src/use.c").unlink(missing_ok=True)
            index_repo(root, db=db, workers=1, history="off")
        with open_index(db) as idx:
            g = idx.graph()
            _fold._CACHE.clear()
            saved = _fold.fold_for(idx.conn, g, db_path=db, save=False)
            assert isinstance(saved.canonical_id, _fold.SortedLookup)  # what the refresh saved
            built = _fold.build_fold(g, store_fold.same_key_symbols(idx.conn), store_fold.overload_decorators(idx.conn))
            _same(saved, built)


def test_a_refresh_never_reads_every_symbol_that_shares_a_name(tmp_path: Path, monkeypatch) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1, history="off")

    def whole_table(conn):
        raise AssertionError("the fold of a one-file refresh read every symbol that shares a name")

    monkeypatch.setattr(store_fold, "same_key_symbols", whole_table)
    write_tree(root, EDITS[1])
    index_repo(root, db=db, workers=1, history="off")
    monkeypatch.undo()
    with open_index(db) as idx:
        g = idx.graph()
        _fold._CACHE.clear()
        saved = _fold.fold_for(idx.conn, g, db_path=db, save=False)
        assert isinstance(saved.canonical_id, _fold.SortedLookup)
        _same(saved, _fold.build_fold(g, store_fold.same_key_symbols(idx.conn), store_fold.overload_decorators(idx.conn)))
