"""Pure graph algorithms on scipy CSR matrices: no SQL, no symbol names, rows in and rows out.

* :mod:`~lore.algorithms.overlap`: shared-neighbour similarity (Adamic-Adar, resource allocation,
  cosine, Jaccard, count) over several relations, one sparse row product per relation.
* :mod:`~lore.algorithms.pagerank`: personalized PageRank, exact (power iteration), Monte-Carlo
  (seeded, with standard errors) and local forward push.
* :mod:`~lore.algorithms.clusters`: label propagation with a hub penalty, components, cluster
  statistics, and partition agreement scores (NMI, ARI).

Their sparse products go through the engine seam (:mod:`~lore.algorithms._engine`): the local engine
runs them in this process; ``lore.graphs.ray_engine`` runs the same kernels on row blocks held by Ray
actors, with bit-identical results. networkx is the test oracle; ``lore.graphs`` builds the matrices
and maps rows to symbols.
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> submodule: imported on first use, so that a query that needs only overlap and push never
# imports scipy.sparse (about 175 ms of CPU) through the clustering or exact PageRank modules
_HOME = {
    "adjusted_rand_index": "clusters",
    "canonical_labels": "clusters",
    "cluster_stats": "clusters",
    "connected_components": "clusters",
    "label_propagation": "clusters",
    "normalized_mutual_info": "clusters",
    "reattach_small": "clusters",
    "MEASURES": "overlap",
    "default_max_neighbour_degree": "overlap",
    "overlap_explain": "overlap",
    "overlap_scores": "overlap",
    "directed": "pagerank",
    "monte_carlo_pagerank": "pagerank",
    "personalized_pagerank": "pagerank",
    "push_pagerank": "push",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "MEASURES",
    "adjusted_rand_index",
    "canonical_labels",
    "cluster_stats",
    "connected_components",
    "default_max_neighbour_degree",
    "directed",
    "label_propagation",
    "monte_carlo_pagerank",
    "normalized_mutual_info",
    "overlap_explain",
    "overlap_scores",
    "personalized_pagerank",
    "push_pagerank",
    "reattach_small",
]
