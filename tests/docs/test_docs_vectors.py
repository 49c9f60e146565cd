from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.docs.vectors import VectorIndex
from lore.errors import InvalidArgumentError
from lore.text.vectors import matvec, top_k


def random_index(n: int, dim: int, seed: int) -> VectorIndex:
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(n, dim)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    ids = np.sort(rng.choice(10 * n, size=n, replace=False))
    return VectorIndex(ids, m, model="toy")


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 200), st.integers(1, 20), st.integers(0, 10_000), st.booleans())
def test_search_equals_brute_force(n, k, seed, use_mask):
    index = random_index(n, 16, seed)
    rng = np.random.default_rng(seed + 1)
    q = rng.normal(size=16).astype(np.float32)
    mask = rng.random(n) < 0.5 if use_mask else None
    ids, scores = index.search(q, k=k, mask=mask)
    cos = index.matrix @ (q / np.linalg.norm(q))
    allowed = np.arange(n) if mask is None else np.flatnonzero(mask)
    brute = sorted(allowed, key=lambda r: (-cos[r], index.ids[r]))[:k]
    assert ids.tolist() == index.ids[brute].tolist()
    assert np.allclose(scores, cos[brute], atol=1e-6)


def test_mask_min_score_and_rows():
    index = VectorIndex(np.array([3, 5, 9]), np.eye(3, dtype=np.float32), model="toy")
    ids, _ = index.search(np.array([1, 1, 0], dtype=np.float32), k=5, min_score=0.5)
    assert ids.tolist() == [3, 5]
    ids, _ = index.search(np.array([1, 1, 0], dtype=np.float32), k=5, mask=index.mask_for(np.array([5, 9])))
    assert ids.tolist() == [5, 9]
    assert index.row_of(9) == 2 and index.row_of(4) is None
    assert top_k(index.ids, np.zeros(3), k=0)[0].size == 0
    with pytest.raises(InvalidArgumentError):
        index.scores(np.ones(4, dtype=np.float32))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-1, 30), min_size=0, max_size=60),
    st.lists(st.integers(-5, 40), min_size=0, max_size=10),
)
def test_document_mask_equals_isin(doc_ids, wanted):
    n = len(doc_ids)
    index = VectorIndex(np.arange(n), np.ones((n, 2), dtype=np.float32), model="toy", doc_ids=np.array(doc_ids))
    expected = np.isin(np.array(doc_ids, dtype=np.int64), [w for w in wanted if w >= 0])
    assert index.document_mask(wanted).tolist() == expected.tolist()


def test_matvec_matches_blas():
    rng = np.random.default_rng(3)
    m = rng.normal(size=(500, 384)).astype(np.float32)
    q = rng.normal(size=384).astype(np.float32)
    assert np.allclose(matvec(m, q), m @ q, atol=1e-4)
