"""A refresh that leaves names, signatures, docstrings, paths, decorators and graph rows as they were
carries the hybrid features forward (new lines only) instead of building them again; anything else
builds. Either way the features equal a fresh build."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lore.api import index_repo, open_index
from lore.graphs import _features
from lore.text.tokens import split_identifier

CODE = '''"""A module."""


class Base:
    def run(self, x):
        """Run it."""
        return x


class Worker(Base):
    def run(self, x):
        return helper(x) + 1


def helper(value):
    """Help with a value."""
    return value * 2


@staticmethod
def other(a, b):
    return helper(a) + helper(b)
'''


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if hasattr(a, "indptr"):
        return (tuple(a.shape) == tuple(b.shape) and a.format == b.format
                and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("data", "indices", "indptr")))
    return a == b


def _assert_equal(got, want) -> None:
    for f in dataclasses.fields(want):
        assert _same(getattr(got, f.name), getattr(want, f.name)), f.name


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "m.py").write_text(CODE)
    index_repo(root, clusters=False)
    return root


def _features_now(root, monkeypatch, *, new_process: bool):
    """(features as a query gets them, how many full builds that took, a fresh build to compare with)."""
    if new_process:
        monkeypatch.setattr(_features, "_CACHE", {})
    builds = []
    real = _features.build_features

    def counting(*a, **k):
        builds.append(1)
        return real(*a, **k)

    monkeypatch.setattr(_features, "build_features", counting)
    db = root / ".lore" / "index.db"
    with open_index(db) as idx:
        g = idx.graph()
        got = _features.load_features(idx.conn, g, split=split_identifier, db_path=db)
        fresh = real(idx.conn, g, split=split_identifier)
    monkeypatch.setattr(_features, "build_features", real)
    return got, len(builds), fresh


@pytest.mark.parametrize("new_process", [False, True])
def test_a_body_edit_carries_the_features_forward(repo, monkeypatch, new_process):
    before, builds, _ = _features_now(repo, monkeypatch, new_process=new_process)
    assert builds == 1
    text = (repo / "m.py").read_text()
    (repo / "m.py").write_text(text.replace("        return x\n", "        y = x\n        # twice\n        return y\n"))
    index_repo(repo, clusters=False)
    after, builds, fresh = _features_now(repo, monkeypatch, new_process=new_process)
    assert builds == 0  # carried: lines moved, nothing else did
    assert after.stamp != before.stamp and not np.array_equal(after.line, before.line)
    _assert_equal(after, fresh)


@pytest.mark.parametrize("change", [
    ("def helper(value):", "def helper(value, scale=2):"),  # a signature
    ('"""Help with a value."""', '"""Help with a number."""'),  # a docstring
    ("class Worker(Base):", "class Worker:"),  # the inherits relation
])
def test_anything_else_builds_again(repo, monkeypatch, change):
    _features_now(repo, monkeypatch, new_process=True)
    (repo / "m.py").write_text((repo / "m.py").read_text().replace(*change))
    index_repo(repo, clusters=False)
    after, builds, fresh = _features_now(repo, monkeypatch, new_process=True)
    assert builds == 1
    _assert_equal(after, fresh)


def test_history_matrix_matches_scipy():
    sp = pytest.importorskip("scipy.sparse")

    class G:
        class nodes:
            ids = np.array([3, 5, 8, 13])
        n = 4

    pairs = np.array([[3, 8, 2], [5, 13, 1], [3, 5, 4], [8, 99, 7], [3, 8, 1]])  # 99: not a row; 3-8 twice
    co, changes = _features.history_matrix(G, pairs, np.array([[8, 6], [42, 1]]))
    a, b, c = np.array([0, 1, 0, 0]), np.array([2, 3, 1, 2]), np.array([2.0, 1.0, 4.0, 1.0])
    want = sp.coo_matrix((np.r_[c, c], (np.r_[a, b], np.r_[b, a])), shape=(4, 4)).tocsr()
    want.sum_duplicates()
    assert np.array_equal(co.indptr, want.indptr) and np.array_equal(co.indices, want.indices)
    assert np.array_equal(co.data, want.data) and co.indices.dtype == want.indices.dtype
    assert changes.tolist() == [0, 0, 6, 0]
