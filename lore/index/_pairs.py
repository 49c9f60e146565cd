"""Co-change counts: per pair of symbols the commits that changed both, per symbol the commits that changed it
(:mod:`lore.index.history` stores them; the ranker's history signals read them). Plain Python: the background
miner loads no numpy (a tenth of a second of a first index's history cost)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable


def count_pairs(per_commit: Iterable[Iterable[int]]) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """(sorted (a, b, commits) with a < b, sorted (symbol, commits)) over commits' symbol lists.

    Examples
    --------
    >>> count_pairs([[1, 2, 3], [1, 2], [4]])
    ([(1, 2, 2), (1, 3, 1), (2, 3, 1)], [(1, 2), (2, 2), (3, 1), (4, 1)])
    """
    pairs: Counter[tuple[int, int]] = Counter()
    touched: Counter[int] = Counter()
    for ids in per_commit:
        unique = sorted({int(i) for i in ids})
        touched.update(unique)
        pairs.update(itertools.combinations(unique, 2))
    return sorted((a, b, n) for (a, b), n in pairs.items()), sorted(touched.items())
