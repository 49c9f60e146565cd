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

from .clusters import (
    adjusted_rand_index,
    canonical_labels,
    cluster_stats,
    connected_components,
    label_propagation,
    normalized_mutual_info,
    reattach_small,
)
from .overlap import MEASURES, default_max_neighbour_degree, overlap_explain, overlap_scores
from .pagerank import directed, monte_carlo_pagerank, personalized_pagerank
from .push import push_pagerank

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
