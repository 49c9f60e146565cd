"""What a step derives from a graph for one purpose, dropped when that purpose is served.

The clusters step builds the graph, saves it, sums the cluster adjacency and runs label propagation in
one process; every matrix computed only to be written or summed and then kept cached on the graph stood
under that step's peak. Sits below :mod:`lore.graphs.build` and :mod:`lore.graphs.related`, which use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._walk import _WALK_CACHE


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
    presence = set(g._presence)
    walks = set(_WALK_CACHE)
    try:
        yield
    finally:
        for key in set(g._presence) - presence:
            g._presence.pop(key, None)
        for key in set(_WALK_CACHE) - walks:
            _WALK_CACHE.pop(key, None)
