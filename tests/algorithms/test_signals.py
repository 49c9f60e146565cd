"""Ranker signals (lore.algorithms._signals) and the linear learning-to-rank core (lore.algorithms._ltr)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.algorithms import _ltr as ltr
from lore.algorithms import _signals as sig
from lore.errors import InvalidArgumentError


def test_same_value_matches_only_the_seed_value_and_never_missing():
    files = np.array([7, 7, 8, -1, -1])
    assert sig.same_value(files, 0, [1, 2, 3]).tolist() == [1.0, 0.0, 0.0]
    assert sig.same_value(files, 3, [4]).tolist() == [0.0]  # -1 is "no file", not a shared file


def test_line_proximity_decreases_with_distance_and_is_zero_off_file():
    lines = np.array([100, 101, 130, 400, 100])
    same = np.array([1.0, 1.0, 1.0, 0.0])
    p = sig.line_proximity(lines, 0, [1, 2, 3, 4], same)
    assert p[0] > p[1] > p[2] > 0 and p[3] == 0.0
    with pytest.raises(InvalidArgumentError):
        sig.line_proximity(lines, 0, [1], np.ones(1), scale=0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=2, max_size=25), st.lists(st.booleans(), min_size=25, max_size=25))
def test_line_rank_reproduces_the_same_file_baseline(lines, in_file):
    from lore.bench.baselines import same_file_ranking

    lines = np.array(lines)
    n = lines.size
    files = np.where(np.array(in_file[:n]), 0, 1)
    files[0] = 0
    cand = np.arange(1, n)
    same = (files[cand] == 0).astype(float)
    r = sig.line_rank(lines, 0, cand, same)
    ranked = cand[np.lexsort((cand, -r))][: int((r > 0).sum())]
    assert ranked.tolist() == same_file_ranking(0, cand, files, lines).tolist()
    assert np.all(r[same == 0] == 0) and np.all((r > 0) == (same > 0))


def test_adjacent_marks_the_nearest_definition_on_each_side():
    lines = np.array([50, 10, 40, 60, 90, 45, 50])
    same = np.array([1, 1, 1, 1, 0, 1.0])  # row 5 (line 45) is in another file
    got = sig.adjacent(lines, 0, [1, 2, 3, 4, 5, 6], same)
    assert got.tolist() == [0.0, 1.0, 1.0, 0.0, 0.0, 0.0]  # row 6 sits on the seed's own line: neither side
    assert sig.adjacent(lines, 0, [5], np.zeros(1)).tolist() == [0.0]


def test_path_proximity_is_tree_distance():
    # a/b, a/c, a/b/d, x
    paths = np.array([[0, 1, -1], [0, 2, -1], [0, 1, 3], [4, -1, -1]])
    got = sig.path_proximity(paths, 0, [0, 1, 2, 3, -1])
    assert got.tolist() == [1.0, 1 / 3, 1 / 2, 1 / 4, 0.0]
    assert sig.path_proximity(paths, -1, [0]).tolist() == [0.0]


def test_idf_normalize_rows_unit_and_drops_common_columns():
    dense = np.zeros((300, 3))
    dense[:, 0] = 1  # in every row: dropped
    dense[0, 1] = dense[1, 1] = 1
    dense[2, 2] = 1
    m = sig.idf_normalize(sp.csr_matrix(dense), max_df=0.05, min_rows=10)
    assert m[:, 0].nnz == 0
    norms = np.asarray(m.multiply(m).sum(axis=1)).ravel()
    assert np.allclose(norms[:3], 1.0) and np.allclose(norms[3:], 0.0)
    assert sig.row_cosine(m, 0, [1, 2, 5]).round(6).tolist() == [1.0, 0.0, 0.0]


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_row_cosine_symmetric_and_bounded(seed):
    rng = np.random.default_rng(seed)
    dense = (rng.random((12, 6)) < 0.4).astype(float)
    m = sig.idf_normalize(sp.csr_matrix(dense), max_df=1.0, min_rows=100)
    a = sig.row_cosine(m, 0, np.arange(12))
    b = np.array([sig.row_cosine(m, j, [0])[0] for j in range(12)])
    assert np.allclose(a, b)
    assert (a >= -1e-12).all() and (a <= 1 + 1e-9).all()


def test_bm25_prefers_rare_terms_and_shorter_rows():
    tf = sp.csr_matrix(np.array([[1, 1, 0, 0], [1, 0, 0, 0], [1, 0, 1, 1], [0, 1, 0, 0]], dtype=float))
    w = sig.bm25_weights(tf)
    s = sig.bm25_scores(w, [0, 0])  # duplicate terms count once
    assert np.isclose(s[1], s.max()) and s[3] == 0.0  # shortest row containing the term wins
    rare = sig.bm25_scores(w, [2])
    assert np.flatnonzero(rare).tolist() == [2]
    assert sig.bm25_scores(w, []).tolist() == [0.0] * 4


def test_top_rows_orders_by_score_then_row_and_respects_allowed():
    s = np.array([0.2, 0.9, 0.9, 0.0, 0.5])
    allowed = np.array([True, True, True, True, False])
    assert sig.top_rows(s, allowed, 2).tolist() == [1, 2]
    assert sig.top_rows(s, allowed, 10).tolist() == [1, 2, 0]


def test_max_normalize():
    assert sig.max_normalize(np.array([4.0, 2.0, -1.0])).tolist() == [1.0, 0.5, 0.0]


def _blocks():
    # query 0: the relevant row 11 is ranked second by signal 0, first by signal 1
    q0 = (np.array([10, 11, 12]), np.array([[1.0, 0.0], [0.5, 1.0], [0.2, 0.0]]), np.array([False, True, False]), 1)
    # query 1: relevant rows 20 and 22 (one more relevant outside the candidates)
    q1 = (np.array([20, 21, 22]), np.array([[0.9, 1.0], [1.0, 0.0], [0.1, 1.0]]), np.array([True, False, True]), 3)
    return ltr.Blocks.stack([q0, q1])


def test_query_metrics_rank_ties_by_row():
    b = _blocks()
    m = ltr.query_metrics(b, np.array([0.0, 0.0]))  # all tied: row order
    assert m["mrr@10"].tolist() == [0.5, 1.0]
    assert m["hit@1"].tolist() == [0.0, 1.0]
    assert np.allclose(m["recall@10"], [1.0, 2 / 3])  # the relevant row outside the candidates is never found


def test_coordinate_ascent_improves_and_is_deterministic():
    b = _blocks()
    w1, obj1, hist = ltr.coordinate_ascent(b, np.array([1.0, 0.0]), fixed=(0,))
    w2, obj2, _ = ltr.coordinate_ascent(b, np.array([1.0, 0.0]), fixed=(0,))
    assert w1.tolist() == w2.tolist() and obj1 == obj2
    assert hist[0] < obj1 and w1[0] == 1.0 and w1[1] > 0
    assert ltr.query_metrics(b, w1)["hit@1"].tolist() == [1.0, 1.0]


def test_concat_gives_each_block_equal_weight():
    b = ltr.Blocks.concat([_blocks(), ltr.Blocks.stack([_blocks_one()])])
    assert b.n_queries == 3
    assert np.allclose(b.query_weight, [0.25, 0.25, 0.5])


def _blocks_one():
    return (np.array([1, 2]), np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([True, False]), 1)


def test_linear_scores_checks_shape():
    with pytest.raises(InvalidArgumentError):
        ltr.linear_scores(np.ones((2, 3)), np.ones(2))


def test_history_signals_are_bounded_and_monotone():
    counts = np.array([0.0, 1.0, 2.0, 5.0, 40.0])
    share = sig.co_change_share(counts, 10)
    assert share.tolist() == [0.0, 0.1, 0.2, 0.5, 1.0]  # capped at 1: a pair cannot change more often than the seed
    sat = sig.saturate(counts)
    assert sat[0] == 0.0 and (np.diff(sat) > 0).all() and (sat < 1.0).all()
    assert sig.co_change_share(counts, 0).tolist() == [0.0] * 5
    assert sig.co_change_share(np.array([-1.0]), 3).tolist() == [0.0]
