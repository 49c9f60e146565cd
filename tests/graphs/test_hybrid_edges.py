"""The hybrid ranker's edge signals on a real index: ``direct_call`` (one call either way) and ``member``."""

from __future__ import annotations

import numpy as np

from lore.api import open_index
from lore.graphs import hybrid as hy
from lore.graphs import related as rel
from lore.graphs._features import load_features
from lore.index import index_repo
from lore.text.tokens import split_identifier
from tests.conftest import write_tree

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": '''
        def get_user(user_id):
            return load_row("users", user_id)


        def get_order(order_id):
            return load_row("orders", order_id)


        def load_row(table, key):
            return {}


        class Cache:
            def get(self, key):
                return get_user(key)

            def put(self, key, value):
                return None
        ''',
}


def _scored(tmp_path, seed_name: str):
    root = write_tree(tmp_path / "repo", FILES)
    index_repo(root, db=tmp_path / "i.db")
    idx = open_index(tmp_path / "i.db")
    g = idx.graph()
    ids = {name: sid for sid, name in idx.conn.execute("SELECT id, name FROM symbols").fetchall()}
    feats = load_features(idx.conn, g, split=split_identifier, save=False)
    seed = g.nodes.rows([ids[seed_name]])
    mask = rel.excluded_mask(g, seed, include_tests=False, kinds=None)
    s = hy.score(g, feats, seed, mask, {"structure": 1.0, "direct_call": 1.0, "member": 1.0})
    names = {int(g.nodes.row(sid)): name for name, sid in ids.items() if g.nodes.has(sid)}
    got = {names[int(r)]: dict(zip(hy.SIGNALS, s.x[i].tolist(), strict=True)) for i, r in enumerate(s.rows)}
    return idx, g, feats, s, got


def test_direct_call_marks_callee_and_caller_but_not_a_sibling(tmp_path):
    idx, _g, _f, _s, got = _scored(tmp_path, "get_user")
    try:
        assert got["load_row"]["direct_call"] == 1.0  # get_user calls it
        assert got["get"]["direct_call"] == 1.0  # Cache.get calls get_user
        assert got["get_order"]["direct_call"] == 0.0  # a sibling that shares the callee: structure, not an edge
        assert got["get_order"]["structure"] > 0.0
        assert all(v["member"] == 0.0 for v in got.values())
    finally:
        idx.close()


def test_member_marks_a_class_seeds_methods_and_the_why_says_so(tmp_path):
    idx, g, feats, s, got = _scored(tmp_path, "Cache")
    try:
        assert got["get"]["member"] == 1.0 and got["put"]["member"] == 1.0
        assert got["get_user"]["member"] == 0.0
        i = int(np.flatnonzero([r == g.nodes.row(idx.conn.execute(
            "SELECT id FROM symbols WHERE name = 'put'").fetchone()[0]) for r in s.rows])[0])
        items = hy.explain(g, feats, s.top(len(s.rows)))[i]
        assert "defined inside it" in hy.why_text(items)
    finally:
        idx.close()


def test_a_signal_weighed_zero_is_not_computed_and_changes_nothing(tmp_path):
    idx, g, feats, _s, _got = _scored(tmp_path, "get")
    try:
        seed = g.nodes.rows([idx.conn.execute("SELECT id FROM symbols WHERE name = 'get'").fetchone()[0]])
        mask = rel.excluded_mask(g, seed, include_tests=False, kinds=None)
        cand, raw = hy.candidates(g, feats, seed, ~mask)
        w = hy.check_weights(hy.DEFAULT_WEIGHTS)
        full = hy.signal_matrix(g, feats, int(seed[0]), cand, raw)
        lean = hy.signal_matrix(g, feats, int(seed[0]), cand, raw, w)
        on = w != 0.0
        assert (~on).any() and np.array_equal(lean[:, on], full[:, on]) and not lean[:, ~on].any()
        assert np.array_equal(lean @ w, full @ w)
    finally:
        idx.close()
