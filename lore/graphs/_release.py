"""Drop what this process holds in memory of the graph side: graphs, walk matrices, features, folds.

Each of those caches serves later queries of a long-lived process (the MCP server, the Python API)
from memory. ``lore index`` runs its upkeep steps (the clusters, then the ranker's fold and
features) one after the other in the indexer's process and saves each result beside the index; what
a step keeps cached after it is only weight under the next step's peak (on the Linux kernel the
built graph and the cluster adjacency, over 1 GB). A step calls :func:`release` when it is done; a
later reader maps the saved arrays again in milliseconds.
"""

from __future__ import annotations


def release() -> None:
    """Empty the in-memory caches of graphs (:mod:`lore.graphs.build`), walk and cluster matrices
    (:mod:`lore.graphs._walk`), features (:mod:`lore.graphs._features`) and folds (:mod:`lore.graphs._fold`).

    Examples
    --------
    >>> release()
    """
    from . import _features, _fold, _walk, build

    with build._LOCK:
        build._MEMORY.clear()
    _walk._WALK_CACHE.clear()
    with _features._LOCK:
        _features._CACHE.clear()
    with _fold._LOCK:
        _fold._CACHE.clear()
