"""Co-change counts: per pair of symbols the commits that changed both, per symbol the commits that changed it
(:mod:`lore.index.history` stores them; the ranker's history signals read them)."""

from __future__ import annotations

import numpy as np


def count_pairs(per_commit: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(K x 3 (a, b, commits) with a < b, M x 2 (symbol, commits)) over commits' symbol lists, sorted.

    Examples
    --------
    >>> p, t = count_pairs([[1, 2, 3], [1, 2], [4]])
    >>> p.tolist(), t.tolist()
    ([[1, 2, 2], [1, 3, 1], [2, 3, 1]], [[1, 2], [2, 2], [3, 1], [4, 1]])
    """
    a_parts, b_parts, all_ids = [], [], []
    for ids in per_commit:
        arr = np.unique(np.asarray(ids, dtype=np.int64))
        if arr.size == 0:
            continue
        all_ids.append(arr)
        if arr.size > 1:
            i, j = np.triu_indices(arr.size, k=1)
            a_parts.append(arr[i])
            b_parts.append(arr[j])
    if all_ids:
        sym, cnt = np.unique(np.concatenate(all_ids), return_counts=True)
        touched = np.column_stack([sym, cnt]).astype(np.int64)
    else:
        touched = np.zeros((0, 2), dtype=np.int64)
    if not a_parts:
        return np.zeros((0, 3), dtype=np.int64), touched
    pairs, cnt = np.unique(np.column_stack([np.concatenate(a_parts), np.concatenate(b_parts)]), axis=0,
                           return_counts=True)
    return np.column_stack([pairs, cnt]).astype(np.int64), touched
