"""Drop what this process holds in memory of the graph side: graphs, walk matrices, features, folds.

Each of those caches serves later queries of a long-lived process (the MCP server, the Python API)
from memory. ``lore index`` runs its upkeep steps (the clusters, then the ranker's fold and
features) one after the other in the indexer's process and saves each result beside the index; what
a step keeps cached after it is only weight under the next step's peak (on the Linux kernel the
built graph and the cluster adjacency, over 1 GB). A step calls :func:`release` when it is done; a
later reader maps the saved arrays again in milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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


@contextmanager
def transient(g: Any) -> Iterator[None]:
    """Within the block, what is derived from ``g`` and cached (its capped and closed relations in
    :meth:`CodeGraph.presence_arrays`, walk matrices in :mod:`lore.graphs._walk`) serves the block only:
    what the block added is dropped when it ends; what was cached before stays.

    For the arrays a step computes to write them or to sum them into one result: saving a graph
    computes the default walk and six closed neighbourhoods, summing the cluster adjacency computes
    eight capped relations and a walk; kept on the graph, they stood under the clusters step's peak
    (the Linux kernel's graph: about 0.5 GB). A reader of the saved state maps them; a later query
    on this graph computes again what it asks for.

    Examples
    --------
    >>> from lore.graphs._walk import _WALK_CACHE
    >>> class G:
    ...     _presence = {"calls": "kept"}
    >>> g = G()
    >>> with transient(g):
    ...     g._presence["calls.closed"] = "for the block"
    ...     _WALK_CACHE[("x", 1)] = "for the block"
    >>> g._presence, ("x", 1) in _WALK_CACHE
    ({'calls': 'kept'}, False)
    """
    from ._walk import _WALK_CACHE

    presence = set(g._presence)
    walks = set(_WALK_CACHE)
    try:
        yield
    finally:
        for key in set(g._presence) - presence:
            g._presence.pop(key, None)
        for key in set(_WALK_CACHE) - walks:
            _WALK_CACHE.pop(key, None)
