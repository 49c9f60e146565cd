"""The weighted adjacency a random walk follows: the relations summed with their weights, as arrays.

Lives below :mod:`lore.graphs.build` (which saves the default walk with the graph) and
:mod:`lore.graphs.related` (which walks it); it reads a graph only through its methods.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

import numpy as np

from ..algorithms import _csr
from ..algorithms._csr import Csr

if TYPE_CHECKING:
    import scipy.sparse as sp

# pagerank: how much each relation contributes to the walk (containment lets it reach siblings);
# chosen with the structural benchmark, like the other defaults of lore.graphs.related
DEFAULT_PPR_WEIGHTS = {"calls": 1.0, "types": 0.5, "inherits": 0.5, "contains": 10.0, "imports": 0.0}

_WALK_CACHE: dict[tuple, Any] = {}  # (also the cluster adjacency of lore.graphs.related)


def walk_arrays(g: Any, weights: dict[str, float], direction: str) -> Csr:
    """The weighted adjacency the random walk follows, as arrays (cached per generation, weights and direction).

    ``sum_r w_r * presence(r)`` over the relations with a positive weight (many call sites of one
    callee are one edge), its transpose for ``in``, or the sum plus its transpose for ``both``: the
    transposes are summed from the graph's own transposed relations. Computed in numpy with the same
    additions in the same order as the scipy expression ``total + w * presence(r)`` (the same matrix
    to the bit: :func:`lore.algorithms._csr.weighted_sum`), or by that expression where scipy is
    loaded anyway. The default walk comes saved with the graph (:attr:`CodeGraph.walks`).
    """
    key = (g.stamp or id(g), tuple(sorted(weights.items())), direction)
    m = _WALK_CACHE.get(key) or g.walks.get(walk_name(weights, direction))
    if m is None:
        rels = [(rel, w) for rel, w in weights.items() if w > 0 and rel in g.matrices]
        out = [(g.presence_arrays(rel), w) for rel, w in rels] if direction != "in" else []
        inn = [(g.presence_arrays(rel, transpose=True), w) for rel, w in rels] if direction != "out" else []
        groups = [grp for grp in (out, inn) if grp]
        # numpy while scipy is not loaded (a cold query from a saved graph); scipy's C additions when it is
        m = _csr.weighted_sum(groups) if groups and not _csr.scipy_loaded() else None
        if m is None:
            m = Csr.of(_walk_scipy(g, rels, direction))
        if len(_WALK_CACHE) > 16:
            _WALK_CACHE.clear()
        _WALK_CACHE[key] = m
    return m


def walk_name(weights: dict[str, float], direction: str) -> str:
    """The name a walk matrix is saved under with its graph (:func:`lore.graphs.build.save_graph`):
    its direction and a digest of its relation weights.

    Examples
    --------
    >>> walk_name({"calls": 1.0}, "both") == walk_name({"calls": 1.0}, "both") != walk_name({"calls": 2.0}, "both")
    True
    """
    digest = hashlib.sha256(json.dumps(sorted(weights.items())).encode()).hexdigest()[:16]
    return f"walk-{direction}-{digest}"


def _walk_scipy(g: Any, rels: list[tuple[str, float]], direction: str) -> sp.csr_matrix:
    """:func:`walk_arrays` by scipy's own additions (an empty walk, or relations not in canonical form)."""
    import scipy.sparse as sp

    total = sp.csr_matrix((g.n, g.n), dtype=np.float64)
    for rel, w in rels:
        total = total + w * g.presence(rel)
    total = total.tocsr()
    if direction == "in":
        return total.T.tocsr()
    if direction == "both":
        return (total + total.T).tocsr()
    return total


def walk_matrix(g: Any, weights: dict[str, float], direction: str) -> sp.csr_matrix:
    """:func:`walk_arrays` as a scipy CSR matrix (the same object every call)."""
    return walk_arrays(g, weights, direction).to_scipy()
