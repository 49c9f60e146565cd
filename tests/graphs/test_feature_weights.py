"""The ranker's word matrices are saved raw and weighted when read, with the bits of the whole weighted matrix.

The idf of a word and BM25's length norm depend on every row, so weights saved whole were computed and
written again whole after any refresh that added a symbol. Now the features hold raw presence / counts
and document frequencies, and a query weighs the rows (``IdfRows``) or columns (``Bm25Columns``) it
reads. These tests hold the rows and columns read, in any order and any grouping, bit for bit equal to
:func:`~lore.algorithms._signals.idf_normalize` and :func:`~lore.algorithms._signals.bm25_weights` over
the whole matrix (the functions the build ran before), on lore's own graph and algorithm sources (real
names, docstrings, decorators, parameters and base classes), and a refresh that adds a symbol
reweighs nothing whole.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from lore import index_repo, open_index
from lore.algorithms import _signals as sig
from lore.graphs import _feature_weights, _features
from lore.text.tokens import split_identifier

SOURCES = Path(__file__).resolve().parents[2] / "lore"


def _bits(a, b) -> bool:
    a, b = np.ascontiguousarray(np.asarray(a)), np.ascontiguousarray(np.asarray(b))
    return a.shape == b.shape and a.tobytes() == b.astype(a.dtype).tobytes()


@pytest.fixture(scope="module")
def feats(tmp_path_factory):
    root = tmp_path_factory.mktemp("src")
    for part in ("graphs", "algorithms", "store"):
        shutil.copytree(SOURCES / part, root / "lore" / part, ignore=shutil.ignore_patterns("__pycache__"))
    index_repo(root, workers=1, history="off", clusters=False)
    with open_index(root) as idx:
        g = idx.graph()
        yield _features.build_features(idx.conn, g, split=split_identifier)


@pytest.mark.parametrize("name,max_df", [("name_tokens", 0.05), ("decorators", 0.2), ("params", 0.05),
                                         ("bases", 0.2)])
def test_rows_read_have_the_bits_of_the_whole_idf_normalised_matrix(feats, name, max_df):
    m = getattr(feats, name)
    assert isinstance(m, _feature_weights.IdfRows)
    presence = m.presence
    whole = sig.idf_normalize(presence, max_df=max_df)
    assert whole.nnz
    if name in ("name_tokens", "params"):  # rows of several words: the norm's sum order matters
        assert any(np.diff(whole.indptr) > 3)
    got = m.whole()
    assert all(_bits(getattr(got, p), getattr(whole, p)) for p in ("data", "indices", "indptr"))
    n = presence.shape[0]
    rng = np.random.default_rng(5)
    order = rng.permutation(n)
    for lo, size in ((0, 1), (1, 7), (8, 300), (308, n)):  # every row, in groups of several sizes, shuffled
        rows = order[lo:lo + size]
        sub, ref = m.rows(rows), whole[rows]
        assert all(_bits(getattr(sub, p), getattr(ref, p)) for p in ("data", "indices", "indptr")), (name, lo)
    seed = int(np.argmax(np.diff(whole.indptr)))
    cand = np.arange(n)
    assert np.array_equal(sig.row_cosine(m, seed, cand), sig.row_cosine(whole, seed, cand))


def test_columns_read_have_the_bits_of_the_whole_bm25_matrix(feats):
    tf = feats.text_counts.tocsr()
    whole = sig.bm25_weights(tf)
    got = feats.text_bm25.whole()
    assert all(_bits(getattr(got, p), getattr(whole, p)) for p in ("data", "indices", "indptr"))
    cols = np.random.default_rng(2).permutation(whole.shape[1])[:500]
    rows, vals = feats.text_bm25.column_entries(cols)
    want = [whole[:, [c]] for c in cols.tolist()]
    assert _bits(rows, np.concatenate([w.indices for w in want]))
    assert _bits(vals, np.concatenate([w.data for w in want]))
    for seed in range(0, whole.shape[0], 97):
        assert np.array_equal(sig.bm25_scores(feats.text_bm25, feats.text_terms[seed].indices),
                              sig.bm25_scores(whole, feats.text_terms[seed].indices))


def test_a_refresh_that_adds_a_symbol_reweighs_nothing_whole(tmp_path, monkeypatch):
    root = tmp_path / "r"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text('def load_user(uid):\n    """Load a user."""\n    return uid\n')
    (root / "pkg" / "b.py").write_text('def save_user(user, store):\n    """Save a user."""\n    return store\n')
    index_repo(root, workers=1, history="off")
    for fn in ("idf_normalize", "bm25_weights"):
        monkeypatch.setattr(sig, fn, lambda *a, _fn=fn, **k: pytest.fail(f"{_fn} over every row"))
    (root / "pkg" / "a.py").write_text((root / "pkg" / "a.py").read_text()
                                       + '\n\ndef drop_user(uid):\n    """Drop a user."""\n    return uid\n')
    assert index_repo(root, workers=1, history="off").changed == ["pkg/a.py"]
    with open_index(root) as idx:
        from lore.api import lore_graph

        got = lore_graph(idx, kind="related", source_id="pkg.a.drop_user")["results"]
    assert [r["qualified_name"] for r in got][:1] == ["pkg.a.load_user"]
