"""Synthetic code-like graphs for the engine benchmark and the engine-equality tests.

The generator of the distributed-engine study (``research/dist/gen_graph.py``): out-degree
1 + Poisson(avg_deg - 1), 60% of the edges inside a ``module`` of consecutive symbols, the rest to
Zipf(1.6)-popular targets (the hubs a call graph has: ``len``, ``log``), self-loops dropped,
duplicates merged, weights drawn from {0.5, 1, 2}. Deterministic for a seed.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def code_like_graph(n: int, *, avg_deg: float = 5.0, seed: int = 42, module: int = 200) -> sp.csr_matrix:
    """Weighted directed ``n x n`` adjacency of a code-like graph.

    Examples
    --------
    >>> g = code_like_graph(1000, seed=1)
    >>> g.shape, bool(g.diagonal().any()), (code_like_graph(1000, seed=1) != g).nnz
    ((1000, 1000), False, 0)
    """
    rng = np.random.default_rng(seed)
    outdeg = 1 + rng.poisson(avg_deg - 1, size=n)
    src = np.repeat(np.arange(n, dtype=np.int64), outdeg)
    local = rng.random(src.size) < 0.6
    dst = np.empty(src.size, dtype=np.int64)
    base = (src[local] // module) * module
    dst[local] = np.minimum(base + rng.integers(0, module, size=int(local.sum())), n - 1)
    ranks = np.minimum(rng.zipf(1.6, size=int((~local).sum())) - 1, n - 1)
    dst[~local] = rng.permutation(n)[ranks]
    keep = src != dst
    key = np.unique(src[keep] * n + dst[keep])
    del src, dst, keep, local
    weights = rng.choice([0.5, 1.0, 2.0], size=key.size)
    return sp.csr_matrix((weights, (key // n, key % n)), shape=(n, n))
