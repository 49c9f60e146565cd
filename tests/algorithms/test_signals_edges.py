"""Edge signals of the hybrid ranker: a direct call either way (``linked``) and membership (``is_member``)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.algorithms import _signals as sig
from lore.errors import InvalidArgumentError


def _calls(edges: list[tuple[int, int]], n: int) -> sp.csr_matrix:
    rows, cols = zip(*edges, strict=True) if edges else ((), ())
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))


def test_linked_is_one_for_callees_and_callers_only():
    m = _calls([(0, 1), (2, 0), (1, 3), (3, 4)], 5)
    got = sig.linked(m, m.T.tocsr(), 0, [1, 2, 3, 4])
    assert got.tolist() == [1.0, 1.0, 0.0, 0.0]  # 3 is a callee of a callee: a shared neighbour, not an edge


def test_linked_rejects_a_mismatched_transpose_and_handles_no_candidate():
    m = sp.csr_matrix(np.zeros((3, 4)))
    with pytest.raises(InvalidArgumentError):
        sig.linked(m, m.tocsr(), 0, [1])
    sq = _calls([(0, 1)], 3)
    assert sig.linked(sq, sq.T.tocsr(), 0, np.zeros(0, dtype=np.int64)).size == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=30), st.integers(0, 7))
def test_linked_matches_a_dense_check_and_is_symmetric(edges, seed):
    m = _calls(edges, 8)
    cand = np.arange(8)
    got = sig.linked(m, m.T.tocsr(), seed, cand)
    dense = m.toarray() > 0
    want = (dense[seed, :] | dense[:, seed]).astype(float)
    assert got.tolist() == want.tolist()
    for c in range(8):  # the relation is symmetric: seed ~ c iff c ~ seed
        assert sig.linked(m, m.T.tocsr(), c, [seed])[0] == got[c]


def test_is_member_marks_the_seeds_children_only():
    parent = np.array([-1, 0, 0, 1, -1])
    assert sig.is_member(parent, 0, [1, 2, 3, 4]).tolist() == [1.0, 1.0, 0.0, 0.0]  # 3 is a grandchild
    assert sig.is_member(parent, 4, [0, 1]).tolist() == [0.0, 0.0]
