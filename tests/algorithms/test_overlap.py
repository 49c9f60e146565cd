"""Overlap scores against a dense brute-force oracle, symmetry, hubs and explanations."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.algorithms.overlap import MEASURES, default_max_neighbour_degree, overlap_explain, overlap_scores

from . import graphs


def dense_similarity(x: np.ndarray, s: int, measure: str) -> np.ndarray:
    """Similarity of every row of dense ``x`` to row ``s``, straight from the formulas."""
    deg = (x != 0).sum(axis=0).astype(float)
    prod = x * x[s]
    dot = prod.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if measure == "count":
            sim = dot
        elif measure == "adamic_adar":
            sim = np.where(prod != 0, prod / np.log1p(deg), 0.0).sum(axis=1)
        elif measure == "resource_allocation":
            sim = np.where(prod != 0, prod / deg, 0.0).sum(axis=1)
        elif measure == "cosine":
            sim = dot / (np.linalg.norm(x, axis=1) * np.linalg.norm(x[s]))
        elif measure == "idf_cosine":
            y = x * np.log((x.shape[0] + 1.0) / (deg + 1.0))
            denom = np.linalg.norm(y, axis=1) * np.linalg.norm(y[s])
            sim = np.where(denom > 0, (y * y[s]).sum(axis=1) / denom, 0.0)  # idf 0 everywhere: not alike
        else:
            sim = dot / ((x * x).sum(axis=1) + (x[s] * x[s]).sum() - dot)
    return np.where(dot > 0, sim, 0.0)


def dense_overlap(features, seeds, weights, measure, cap):
    n = features[0].shape[0]
    out = np.zeros(n)
    for f, w in zip(features, weights, strict=True):
        x = f.toarray()
        x[:, (x != 0).sum(axis=0) > cap] = 0.0
        for s in set(seeds):
            out += w * dense_similarity(x, s, measure)
    out[list(seeds)] = 0.0
    return out


@st.composite
def feature_sets(draw):
    n = draw(st.integers(2, 15))
    n_rel = draw(st.integers(1, 3))
    feats = []
    for _ in range(n_rel):
        m = draw(st.integers(1, 10))
        cells = draw(
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, m - 1), st.floats(0.1, 3.0)), max_size=40
            )
        )
        f = sp.csr_matrix((n, m))
        if cells:
            r, c, w = zip(*cells, strict=True)
            f = sp.csr_matrix((w, (r, c)), shape=(n, m))
        feats.append(f)
    weights = draw(st.lists(st.floats(0.0, 2.0), min_size=n_rel, max_size=n_rel))
    seeds = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    cap = draw(st.sampled_from([None, 1, 2, 4]))
    return feats, seeds, weights, cap


@settings(max_examples=40, deadline=None)
@given(feature_sets(), st.sampled_from(MEASURES))
def test_scores_match_dense_oracle(case, measure):
    feats, seeds, weights, cap = case
    got = overlap_scores(feats, seeds, weights=weights, measure=measure, max_neighbour_degree=cap)
    want = dense_overlap(
        feats, seeds, weights, measure, cap or default_max_neighbour_degree(feats[0].shape[0])
    )
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    trans = [f.T.tocsr() for f in feats]
    cached = overlap_scores(
        feats, seeds, weights=weights, measure=measure, max_neighbour_degree=cap, transposes=trans
    )
    np.testing.assert_array_equal(got, cached)


@settings(max_examples=30, deadline=None)
@given(feature_sets(), st.sampled_from(MEASURES))
def test_symmetric_on_a_single_relation(case, measure):
    f = case[0][0]
    n = f.shape[0]
    s = np.array([overlap_scores([f], [i], measure=measure) for i in range(n)])
    np.testing.assert_allclose(s, s.T, rtol=1e-9, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(feature_sets(), st.sampled_from(MEASURES), st.data())
def test_explain_sums_to_the_score(case, measure, data):
    feats, seeds, weights, cap = case
    n = feats[0].shape[0]
    seed = seeds[0]
    target = data.draw(st.integers(0, n - 1))
    score = overlap_scores(feats, [seed], weights=weights, measure=measure, max_neighbour_degree=cap)[target]
    why = overlap_explain(
        feats, seed, target, weights=weights, measure=measure, max_neighbour_degree=cap, top=None
    )
    assert sum(c for _, _, c in why) == pytest.approx(score, rel=1e-9, abs=1e-12)
    keys = [(-c, col, rel) for rel, col, c in why]
    assert keys == sorted(keys)


def test_explain_names_the_shared_neighbours():
    calls = sp.csr_matrix([[1, 1, 0, 1], [1, 1, 0, 0], [0, 1, 1, 1], [0, 0, 1, 0]], dtype=float)
    types = sp.csr_matrix([[1, 0], [1, 0], [0, 1], [0, 1]], dtype=float)
    why = overlap_explain([calls, types], 0, 1, measure="resource_allocation", weights=[1.0, 0.5])
    assert why == [(0, 0, 0.5), (0, 1, pytest.approx(1 / 3)), (1, 0, 0.25)]
    assert overlap_explain([calls, types], 0, 1, measure="resource_allocation", top=1) == [(0, 0, 0.5)]
    assert overlap_explain([calls], 0, 0) == []
    assert overlap_explain([calls], 1, 3) == []


def test_seeds_score_zero_and_several_seeds_add_up():
    a = graphs.code_like(300, seed=4)
    feats = [a, a.T.tocsr()]
    one = overlap_scores(feats, [10], measure="count")
    two = overlap_scores(feats, [20], measure="count")
    both = overlap_scores(feats, [10, 20], measure="count")
    expected = one + two
    expected[[10, 20]] = 0.0
    np.testing.assert_allclose(both, expected)


def test_a_shared_hub_contributes_almost_nothing():
    # rows 0..4999 all call column 0 (like `len`); rows 0 and 1 also share the rare column 1
    n = 6000
    rows = np.r_[np.arange(5000), [0, 1]]
    cols = np.r_[np.zeros(5000, dtype=int), [1, 1]]
    f = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, 2))
    for measure in ("adamic_adar", "resource_allocation"):
        default = overlap_scores([f], [0], measure=measure)
        assert default[2] == 0.0  # the hub is above the default cap
        uncapped = overlap_scores([f], [0], measure=measure, max_neighbour_degree=n)
        assert 0 < uncapped[2] < 0.15 * uncapped[1]
    assert overlap_scores([f], [0], measure="count", max_neighbour_degree=n)[2] == 1.0
    assert overlap_scores([f], [0], measure="count")[2] == 0.0


@pytest.mark.parametrize("measure", MEASURES)
def test_a_column_every_row_touches_gives_finite_scores(measure):
    # idf_cosine gives such a column idf 0: rows that share only it are not alike at all
    f = sp.csr_matrix(np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 0.0]]))
    scores = overlap_scores([f], [0], measure=measure)
    assert np.isfinite(scores).all()
    why = overlap_explain([f], 0, 2, measure=measure, top=None)
    assert sum(c for _, _, c in why) == pytest.approx(scores[2])
    if measure == "idf_cosine":
        assert scores.tolist() == [0.0, 0.0, 0.0]


def test_adamic_adar_variant_is_finite_for_degree_one():
    f = sp.csr_matrix([[1.0, 1.0], [1.0, 0.0]])
    assert overlap_scores([f], [1], measure="adamic_adar").tolist() == [pytest.approx(1 / np.log(3)), 0.0]
    why = overlap_explain([f], 0, 1, measure="adamic_adar", top=None)
    assert why == [(0, 0, pytest.approx(1 / np.log(3)))]


def test_zero_weight_relation_is_skipped():
    a = graphs.code_like(100)
    np.testing.assert_array_equal(overlap_scores([a, a.T.tocsr()], [3], weights=[0.0, 0.0]), np.zeros(100))
