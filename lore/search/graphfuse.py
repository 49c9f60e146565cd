"""Search fused with the graph: the best hits vote for their structural neighbours.

A bug report names what the user saw (a public method, an error message, a traceback's frames); the
fix often sits one call or one containment away. After the BM25 ranking, each of the ``SEEDS`` best
hits votes for every neighbour (callers, callees, its class or methods, overrides;
:func:`~lore.store.search.neighbours`) ``GRAPH_WEIGHT * seed score * EDGE_WEIGHTS[edge]``; a symbol's
fused score is its own text score plus its *best* vote, divided by the best. A hit the graph links to
a stronger hit rises; a neighbour with no text evidence of its own enters below the hit that brought it.

The best vote, not the sum: a class holding many hits, or a helper every hit calls, is linked to the
hits for reasons of its place in the code, not of the report; summed votes lifted such hubs over the
hit the report names (``lore bench localize``: search + graph lost 5.9 points at any@3 against search
alone with the sum, and lost at no k with the best vote). It is the rule ``lore search --expand`` keeps
as well: each symbol's best path.

Examples
--------
>>> fuse({1: 1.0, 2: 0.5, 3: 0.4}, [(1, 3, "calls", "out"), (1, 4, "contains", "out")], seeds=[1])
{1: 1.0, 2: 0.5, 3: 0.6, 4: 0.2}

A helper that three hits call gains the best of their votes, not their sum:

>>> fuse({1: 1.0, 2: 0.9, 3: 0.8, 9: 0.5}, [(s, 9, "calls", "out") for s in (1, 2, 3)], seeds=[1, 2, 3])[9]
0.7
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from ..store import search as store

SEEDS = 10
FANOUT = 30
GRAPH_WEIGHT = 0.5  # lore bench localize: 0.15 and 0.3 gave the same any@10 and a lower any@1
EDGE_WEIGHTS: dict[str, float] = {
    "calls": 0.4,
    "contains": 0.4,
    "extends": 0.3,
    "implements": 0.3,
    "overrides": 0.5,
    "embeds": 0.3,
    "imports": 0.0,
}


def fuse(
    scores: dict[int, float],
    edges: Iterable[tuple[int, int, str, str]],
    *,
    seeds: Sequence[int],
    weight: float = GRAPH_WEIGHT,
    via: dict[int, tuple[int, str, str]] | None = None,
) -> dict[int, float]:
    """Text scores plus each symbol's best vote from the seeds along ``edges`` (source, neighbour,
    edge, direction), best = 1. ``via``, when given, receives each voted symbol's best vote as
    (seed, edge, direction): the reason it rose is the vote that raised it."""
    seed_set = set(seeds)
    vote: dict[int, float] = {}
    best: dict[int, tuple[int, str, str]] = {}
    for src, dst, edge, direction in edges:
        if src not in seed_set or dst == src:
            continue
        v = weight * scores.get(src, 0.0) * EDGE_WEIGHTS.get(edge, 0.0)
        if v > vote.get(dst, 0.0):
            vote[dst] = v
            best[dst] = (src, edge, direction)
    out = dict(scores)
    for i, v in vote.items():
        out[i] = out.get(i, 0.0) + v
    if via is not None:
        via.update(best)
    top = max(out.values(), default=0.0)
    return {i: round(s / top, 6) for i, s in out.items()} if top > 0 else out


def graph_fused(
    conn: sqlite3.Connection, scores: dict[int, float], *, seeds: int = SEEDS
) -> tuple[dict[int, float], dict[int, tuple[int, str, str]]]:
    """(fused scores, each voted symbol's best vote as (seed, edge, direction)) for a text ranking's
    scores; a voted symbol absent from ``scores`` is one the graph brought in."""
    best = sorted(scores, key=lambda i: (-scores[i], i))[:seeds]
    if not best:
        return dict(scores), {}
    edges = store.neighbours(conn, best, fanout=FANOUT)
    via: dict[int, tuple[int, str, str]] = {}
    fused = fuse(scores, edges, seeds=best, via=via)
    return fused, via
