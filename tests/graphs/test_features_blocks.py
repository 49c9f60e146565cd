"""The ranker's features are built a block of rows at a time (lore.graphs._feature_matrix): the arrays equal
the whole-list build's, and the build holds about one block's Python objects, not every row's."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.api import index_repo, open_index
from lore.graphs import _features
from lore.graphs._feature_matrix import WordMatrix
from lore.text.tokens import split_identifier


def _reference(n: int, rows: list[int], lists: list[list[str]], *, presence: bool):
    """The whole-list build this replaced: every (row, column) pair at once, COO to CSR."""
    vocab = sorted({w for ws in lists for w in ws})
    col = {w: i for i, w in enumerate(vocab)}
    r, c = [], []
    for row, ws in zip(rows, lists, strict=True):
        for w in (set(ws) if presence else ws):
            r.append(row)
            c.append(col[w])
    m = sp.csr_matrix((np.ones(len(r)), (np.array(r, dtype=np.int64), np.array(c, dtype=np.int64))),
                      shape=(n, max(len(vocab), 1)))
    m.sum_duplicates()
    return m, vocab


def _same(a, b) -> bool:
    return (a.shape == b.shape and all(np.asarray(getattr(a, k)).dtype == np.asarray(getattr(b, k)).dtype
                                       and np.array_equal(getattr(a, k), getattr(b, k))
                                       for k in ("data", "indices", "indptr")))


words = st.lists(st.lists(st.sampled_from(["get", "user", "id", "a", "zz", "Get", "x1"]), max_size=6), max_size=30)


@settings(max_examples=60, deadline=None)
@given(words, st.integers(1, 7), st.booleans(), st.randoms(use_true_random=False))
def test_blocks_equal_the_whole_list_build(lists, block, presence, rnd):
    n = len(lists)
    rows = list(range(n))
    rnd.shuffle(rows)  # blocks of rows in any order
    m = WordMatrix(presence=presence)
    for k in range(0, n, block):
        m.add(rows[k:k + block], [lists[r] for r in rows[k:k + block]])
    got, vocab = m.finish(n)
    want, want_vocab = _reference(n, list(range(n)), lists, presence=presence)
    assert vocab == want_vocab and _same(got, want)


@settings(max_examples=60, deadline=None)
@given(words, words, st.integers(1, 5), st.randoms(use_true_random=False))
def test_kept_rows_equal_the_whole_list_build(old_lists, new_lists, block, rnd):
    """Rows copied from an earlier build (its vocabulary renumbered) beside rows tokenized now."""
    old, old_vocab = _reference(len(old_lists), list(range(len(old_lists))), old_lists, presence=False)
    n = len(new_lists) + len(old_lists)
    kept = [r for r in range(n) if r % 2 == 0][:len(old_lists)]
    olds = list(range(len(kept)))
    rnd.shuffle(olds)
    fresh = [r for r in range(n) if r not in set(kept)][:len(new_lists)]
    m = WordMatrix(presence=False, old=old, old_vocab=old_vocab)
    for k in range(0, len(kept), block):
        m.add_kept(np.array(kept[k:k + block], dtype=np.int64), np.array(olds[k:k + block], dtype=np.int64))
    for k in range(0, len(fresh), block):
        m.add(fresh[k:k + block], new_lists[k:k + block])
    got, vocab = m.finish(n)
    rows = kept + fresh
    lists = [old_lists[o] for o in olds] + new_lists[:len(fresh)]
    want, want_vocab = _reference(n, rows, lists, presence=False)
    assert vocab == want_vocab and _same(got, want)


def _doc(i: int) -> str:
    return " ".join(f"word{(i * 7 + j) % 500} item{j}" for j in range(30))


@pytest.fixture(scope="module")
def wordy(tmp_path_factory):
    """3,000 functions whose signatures and docstrings hold 60 words each."""
    root = tmp_path_factory.mktemp("wordy")
    for p in range(10):
        body = "\n\n".join(f'def handle_request_{p}_{i}(alpha_{i}, beta, gamma=None):\n    """{_doc(i)}."""\n'
                           f"    return beta\n" for i in range(300))
        (root / f"mod{p}.py").write_text(body + "\n")
    index_repo(root, clusters=False, history="off")
    return root / ".lore" / "index.db"


def test_the_build_holds_one_block_of_words(wordy, monkeypatch):
    """The build's peak of Python allocations stays within a small multiple of the arrays it returns.

    Building every row's word list first (the whole-list build) held every row's words and (row, column)
    pairs as Python objects at once: here a peak of 47x the result's arrays (27.5 MB), against 13x
    (7.6 MB: mostly the rows' names, signatures and summaries, which every block reads) with blocks of
    500 rows."""
    monkeypatch.setattr(_features, "BLOCK", 500)
    with open_index(wordy) as idx:
        g = idx.graph()
        assert g.n > 3000
        _features.build_features(idx.conn, g, split=split_identifier)  # imports and caches warmed
        tracemalloc.start()
        try:
            feats = _features.build_features(idx.conn, g, split=split_identifier)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    result = sum(a.nbytes for m in (feats.name_presence, feats.text_terms, feats.text_counts, feats.param_presence)
                 for a in (m.data, m.indices, m.indptr))
    assert peak < 25 * result, (peak, result)
