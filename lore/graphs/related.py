"""Relatedness on a :class:`~lore.graphs.CodeGraph`: which rows play a role like the seed rows?

This module chooses the matrices and parameters, calls the pure algorithms in
``lore.algorithms`` and filters the result (seeds, their trivial containers, external symbols,
test code, kinds), and explains it from the same matrices (:func:`explain_overlap`,
:func:`strongest_paths`, batched over all result rows). It never touches SQL and never sees names;
``lore.queries.related`` turns rows into symbols.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from ..algorithms import fusion as fu
from ..algorithms import overlap as ov
from ..algorithms._checks import cached_per_matrix, row_segments
from ..algorithms._csr import Csr
from ..algorithms.push import push_pagerank
from ..errors import InvalidArgumentError, UnknownAlgorithmError
from ._fold import Fold
from ._transient import transient
from ._walk import _WALK_CACHE, DEFAULT_PPR_WEIGHTS, walk_arrays, walk_matrix
from .build import CodeGraph
from .engines import get_engine

if TYPE_CHECKING:
    import scipy.sparse as sp

# hybrid answers "what plays a role like this"; changes (the same ranker with weights fit on co-change
# judgements, history first) answers "what will I have to change with this" (lore.graphs.hybrid)
ALGORITHMS = ("fusion", "overlap", "pagerank", "pagerank_mc", "pagerank_push", "cluster", "hybrid", "changes")
WALK_RELATIONS = ("calls", "types", "inherits", "contains", "imports")
DIRECTIONS = ("out", "in", "both")
# Every default below was chosen with the structural benchmark: tuned on the See-Also pairs of
# networkx, then confirmed on those of scipy, which the tuning never saw (README, "Choosing the
# defaults"; benchmarks/structural).
DEFAULT_ALGORITHM = "hybrid"  # held out (benchmarks/structural/loo.py): >= +28% R@10 / +40% MRR@10 over same-file on five See-Also corpora
# overlap: neighbours compared per relation; "container" makes members of one class or module alike
DEFAULT_OVERLAP_WEIGHTS = {"callees": 0.5, "callers": 1.0, "types": 0.25, "inherits": 1.0, "inherited_by": 0.5,
                           "container": 1.0}
DEFAULT_MEASURE = "idf_cosine"
# pagerank: how much each relation contributes to the walk (DEFAULT_PPR_WEIGHTS, in lore.graphs._walk,
# which saves the default walk with the graph)
# fusion: overlap ranks (weight 1) and push-PageRank ranks (this weight) by Reciprocal Rank Fusion;
# 0.25 was its best setting on both corpora (0.5 and 1.0 lost 0.01-0.03 nDCG@10)
DEFAULT_FUSION_PPR_WEIGHT = 0.25


@dataclass
class RelatedParams:
    algorithm: str = DEFAULT_ALGORITHM
    measure: str = DEFAULT_MEASURE
    overlap_weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_OVERLAP_WEIGHTS))
    ppr_weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_PPR_WEIGHTS))
    alpha: float = 0.85
    direction: str = "both"
    n_walks: int = 10_000
    tol: float = 1e-8
    seed: int = 0
    fusion_ppr_weight: float = DEFAULT_FUSION_PPR_WEIGHT

    def check(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise UnknownAlgorithmError(self.algorithm, ALGORITHMS)
        if self.measure not in ov.MEASURES:
            raise UnknownAlgorithmError(self.measure, ov.MEASURES, what="measure")
        if self.direction not in DIRECTIONS:
            raise UnknownAlgorithmError(self.direction, DIRECTIONS, what="direction")
        if not 0.0 < self.alpha < 1.0:
            raise InvalidArgumentError(f"alpha must be between 0 and 1 (exclusive), got {self.alpha}")
        if not (isinstance(self.fusion_ppr_weight, int | float) and self.fusion_ppr_weight >= 0):
            raise InvalidArgumentError(f"fusion_ppr_weight must be a number >= 0, got {self.fusion_ppr_weight!r}")
        if self.n_walks < 1:
            raise InvalidArgumentError(f"n_walks must be at least 1, got {self.n_walks}")
        for name in self.overlap_weights:
            if name not in OVERLAP_RELATIONS:
                raise UnknownAlgorithmError(name, tuple(OVERLAP_RELATIONS), what="overlap relation")
        for name in self.ppr_weights:
            if name not in WALK_RELATIONS:
                raise UnknownAlgorithmError(name, WALK_RELATIONS, what="pagerank relation")
        for name, w in list(self.overlap_weights.items()) + list(self.ppr_weights.items()):
            if not isinstance(w, int | float) or isinstance(w, bool) or not w >= 0:
                raise InvalidArgumentError(f"relation weight {name!r} must be a number >= 0, got {w!r}")


# overlap relation -> (graph relation, transposed, closed): the neighbours a symbol is compared on.
# Closed relations count the symbol itself as its own neighbour, so a direct edge between seed and
# candidate (a call, an override) weighs like a shared neighbour; closing the call and type relations
# raised nDCG@10 on networkx's See-Also pairs from 0.567 to 0.616 and left scipy's unchanged (0.525 ->
# 0.528). "inherits" stays open: two methods overriding the same base method are peers in the same
# role (RedisCache.get and LocMemCache.get), and their own ids would halve that similarity; the
# direct override link comes from the closed "inherited_by". That split cost networkx 0.004 and gave
# scipy 0.006, and keeps polymorphic peers beside same-class siblings. The container is open too (a
# symbol and its own members are not siblings).
OVERLAP_RELATIONS = {
    "callees": ("calls", False, True),
    "callers": ("calls", True, True),
    "types": ("types", False, True),
    "inherits": ("inherits", False, False),
    "inherited_by": ("inherits", True, True),
    "container": ("contains", True, False),  # the enclosing class or module: siblings share it
}


def _features(g: CodeGraph, weights: dict[str, float], *, arrays: bool = True) -> tuple[list, list, list[float], list[str]]:
    """The overlap feature matrices of ``weights`` and their transposes: as arrays (what the local
    engine reads), or as scipy matrices (``arrays=False``: for an engine that ships them)."""
    feats, trans, ws, names = [], [], [], []
    presence = g.presence_arrays if arrays else g.presence
    for name, w in weights.items():
        if w <= 0:
            continue
        rel, t, closed = OVERLAP_RELATIONS[name]
        feats.append(presence(rel, transpose=t, closed=closed))
        trans.append(presence(rel, transpose=not t, closed=closed))
        ws.append(float(w))
        names.append(name)
    return feats, trans, ws, names


def excluded_mask(g: CodeGraph, seeds: np.ndarray, *, include_tests: bool, kinds: tuple[str, ...] | None,
                  fold: Fold | None = None) -> np.ndarray:
    """Rows that may never be returned: the seeds, their containers, externals, tests, other kinds.

    With ``fold`` (:func:`lore.graphs._fold.fold_for`) also every copy of a definition that does not
    stand for it (stubs, ``@overload`` signatures, header prototypes) and the seeds' own copies: one
    row per definition, the implementation's."""
    mask = g.is_external().copy()
    mask[seeds] = True
    if fold is not None:
        fold.exclude(mask, seeds)
    for r in g.containers_of(seeds):
        mask[r] = True
    if not include_tests:
        mask |= g.is_test
    if kinds:
        codes = [g.kind_code(k) for k in kinds]
        mask |= ~np.isin(g.kind, codes)
    else:
        seed_kinds = set(g.kind[seeds].tolist())
        if g.kind_code("module") not in seed_kinds:
            mask |= g.kind == g.kind_code("module")
    return mask


def rank(scores: np.ndarray, mask: np.ndarray, limit: int | None) -> tuple[np.ndarray, int]:
    """Rows with a positive score, best first, ties by row (= symbol id order); and how many there were."""
    rows = np.flatnonzero(scores > 0)
    rows = rows[~mask[rows]]
    return fu.order_rows(rows, scores[rows], limit), int(rows.size)


def related_scores(
    g: CodeGraph, seeds: np.ndarray, params: RelatedParams, *, exclude: np.ndarray | None = None,
    engine: str = "local", ray_address: str | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Scores for every row (and Monte-Carlo standard errors when that estimator was used).

    ``exclude`` (the rows that may not be returned) matters only to ``fusion``, which fuses ranks:
    an excluded row must not take a rank and push the candidates down.

    ``engine`` (``local`` or ``ray``, at ``ray_address``; see :mod:`lore.graphs.engines`) runs the
    sparse products of overlap, exact PageRank and the Monte-Carlo walks; the scores are the same
    bits either way. Forward push (``pagerank_push``, and the push half of ``fusion``) is local by
    nature (it touches only the seeds' neighbourhood) and always runs in this process.
    """
    params.check()
    algo = params.algorithm
    if algo == "fusion":
        overlap = related_scores(g, seeds, replace(params, algorithm="overlap"), engine=engine,
                                 ray_address=ray_address)[0]
        # the local push estimate (no residual spread): its support is the seeds' neighbourhood, so
        # ranking it stays cheap, and that is what the fusion weight was chosen on
        adj = walk_arrays(g, params.ppr_weights, params.direction)
        walk = push_pagerank(adj, personalization=seeds, alpha=params.alpha)
        return fu.rank_fusion([overlap, walk], weights=[1.0, params.fusion_ppr_weight], exclude=exclude), None
    if algo == "overlap":
        eng = get_engine(engine, ray_address)
        feats, trans, ws, _ = _features(g, params.overlap_weights, arrays=eng.name == "local")
        if not feats:
            return np.zeros(g.n), None
        return ov.overlap_scores(feats, seeds, weights=ws, measure=params.measure, transposes=trans,
                                 engine=eng), None
    if algo == "pagerank_push":
        # "both" walks a symmetric matrix: the left-over residual is spread by degree (see push_pagerank)
        return push_pagerank(walk_arrays(g, params.ppr_weights, params.direction), personalization=seeds,
                             alpha=params.alpha, undirected=params.direction == "both"), None
    from ..algorithms import pagerank as pr

    adj = walk_matrix(g, params.ppr_weights, params.direction)
    if algo == "pagerank":
        return pr.personalized_pagerank(adj, personalization=seeds, alpha=params.alpha, tol=params.tol, max_iter=1000,
                                        engine=get_engine(engine, ray_address)), None
    if algo == "pagerank_mc":
        scores, se = pr.monte_carlo_pagerank(adj, personalization=seeds, alpha=params.alpha, n_walks=params.n_walks,
                                             seed=params.seed, engine=get_engine(engine, ray_address))
        return scores, se
    if algo in ("hybrid", "changes"):  # they read per-symbol features too, not only the graph
        raise InvalidArgumentError(f"the {algo} ranker needs the index's symbol features: use lore.graphs.hybrid.score "
                                   f"(or lore_graph(kind='related', algorithm={algo!r}))")
    raise UnknownAlgorithmError(algo, ALGORITHMS)


def explain_overlap(g: CodeGraph, seeds: np.ndarray, targets: np.ndarray, params: RelatedParams, *,
                    top: int = 3, quiet: np.ndarray | None = None) -> list[list[tuple[str, int, float]]]:
    """Per target row, the shared neighbours that earned it its overlap score: (relation, row, contribution).

    One pass over all ``targets`` with the feature matrices the ranking used (built once): each
    seed's ``top`` contributions are pooled, and the ``top`` largest of the pool are kept (ties by
    neighbour row). ``quiet`` (a boolean per row: the language builtins) are never named: they weigh
    in the score, hub-discounted, but every function shares ``len``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lore.graphs.build import CodeGraph, NodeIndex
    >>> calls = sp.csr_matrix(([1.0, 1.0], ([0, 1], [2, 2])), shape=(3, 3))
    >>> empty = sp.csr_matrix((3, 3))
    >>> g = CodeGraph(1, NodeIndex(np.arange(3)), np.zeros(3, dtype=np.int8), np.zeros(3, dtype=bool),
    ...               np.zeros(3, dtype=np.int64), np.full(3, -1), {"calls": calls, "types": empty,
    ...               "inherits": empty, "contains": empty, "imports": empty})
    >>> params = RelatedParams(overlap_weights={"callees": 1.0})
    >>> [[(rel, col) for rel, col, _ in why] for why in explain_overlap(g, np.array([0]), np.array([1]), params)]
    [[('callees', 2)]]
    """
    feats, trans, ws, names = _features(g, params.overlap_weights)
    targets = np.asarray(targets, dtype=np.int64)
    pooled: list[list[tuple[str, int, float]]] = [[] for _ in range(targets.size)]
    if feats and targets.size:
        for s in seeds.tolist():  # a loop over the (few) seeds; each explains every target at once
            got = ov.overlap_explain_many(feats, int(s), targets, weights=ws, measure=params.measure,
                                          transposes=trans, top=top if quiet is None else top + _QUIET_SPARE)
            for shared, items in zip(pooled, got, strict=True):
                shared += [(names[rel], col, c) for rel, col, c in items if quiet is None or not quiet[col]]
    out: list[list[tuple[str, int, float]]] = []
    for shared in pooled:
        shared.sort(key=lambda t: (-t[2], t[1]))
        out.append(shared[:top])
    return out


_QUIET_SPARE = 16  # contributions read beyond ``top`` so that ``top`` remain once the builtins are left out


def _out_weight(adj) -> np.ndarray:
    """Each row's total out-weight (1 where it has none): what a path's weights are normalised by.

    ``adj.sum(axis=1)`` as scipy computes it for a float CSR matrix (``np.add.reduceat`` over each
    non-empty row's stored values), read from the arrays: no scipy import for :class:`Csr` arrays.
    """
    if not np.issubdtype(adj.data.dtype, np.floating):  # scipy's sum dtype rules: let scipy add
        m = adj.to_scipy() if isinstance(adj, Csr) else adj
        deg = np.asarray(m.sum(axis=1)).ravel()
    else:
        indptr = np.asarray(adj.indptr)
        deg = np.zeros(indptr.size - 1, dtype=adj.data.dtype)
        rows = np.flatnonzero(np.diff(indptr))
        if rows.size:
            deg[rows] = np.add.reduceat(adj.data, indptr[rows].astype(np.intp, copy=False))
    deg[deg == 0] = 1.0
    return deg


def strongest_paths(adj: sp.csr_matrix, seeds: np.ndarray, targets: np.ndarray, max_hops: int = 3) -> list[list[int]]:
    """Per target, the highest-weight path (by product of row-normalised weights) from a seed, up to ``max_hops``.

    One expansion from the seeds serves every target: a target's path is the best one known after
    the first hop that reaches it (later, longer paths do not replace it). A node keeps its 200
    strongest out-edges. Unreachable targets get ``[]``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> chain = sp.csr_matrix(([1.0, 1.0, 1.0], ([0, 1, 0], [1, 2, 3])), shape=(4, 4))
    >>> strongest_paths(chain, np.array([0]), np.array([2, 3, 1]))
    [[0, 1, 2], [0, 3], [0, 1]]
    """
    deg = cached_per_matrix(adj, "strongest_paths:out_weight", lambda: _out_weight(adj))
    assert isinstance(deg, np.ndarray)
    best = np.full(adj.shape[0], -np.inf)  # the best path weight known per node (-inf: not reached)
    frontier = np.array(list(dict.fromkeys(seeds.tolist())), dtype=np.int64)
    best[frontier] = 1.0
    weight = np.ones(frontier.size)
    want = np.unique(np.asarray(targets, dtype=np.int64))
    found_at: dict[int, int] = {}  # target -> the hop after which its path was taken
    hops: list[tuple[np.ndarray, np.ndarray]] = []  # per hop: nodes improved (ascending), the node before each
    for hop in range(1, max_hops + 1):
        node_of, col, q = _expand(adj, deg, frontier, weight)
        # the node-by-node relaxation (``best < q`` replaces, so the first of equal weights stays) in one
        # pass: a node improves if some edge beats what it had; the first edge of the largest weight wins,
        # and the next hop visits the improved nodes in the order of their first improvement
        better = np.flatnonzero(q > best[col])
        if better.size:
            by = better[np.lexsort((better, -q[better], col[better]))]
            head = np.flatnonzero(np.r_[True, col[by[1:]] != col[by[:-1]]])
            improved, gain, parent = col[by[head]], q[by[head]], node_of[by[head]]
            first = np.minimum.reduceat(by, head)
            best[improved] = gain
            hops.append((improved, parent))
            visit = np.argsort(first, kind="stable")
            frontier, weight = improved[visit], gain[visit]
        else:
            hops.append((np.zeros(0, np.int64), np.zeros(0, np.int64)))
            frontier = np.zeros(0, np.int64)
        reached = want[best[want] > -np.inf]
        for t in reached.tolist():
            found_at[t] = hop
        want = want[best[want] == -np.inf]
        if not frontier.size or not want.size:
            break
    return [_path_to(hops, int(t), found_at[int(t)]) if int(t) in found_at else [] for t in targets.tolist()]


def _expand(adj: sp.csr_matrix, deg: np.ndarray, frontier: np.ndarray,
            weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(from node, to node, path weight) of every edge out of the frontier, in the order the frontier
    is visited (and each node's edges in stored order, or its 200 strongest, strongest first)."""
    idx, lens = row_segments(adj.indptr, frontier)
    src = np.repeat(np.arange(frontier.size), lens)
    vals = adj.data[idx] / deg[frontier][src]
    col = adj.indices[idx].astype(np.int64, copy=False)
    big = np.flatnonzero(lens > 200)
    if big.size:  # a hub keeps its 200 strongest edges, strongest first (ties in stored order)
        starts = np.cumsum(lens) - lens
        rank = np.arange(idx.size) - np.repeat(starts, lens)
        for b in big.tolist():
            lo, hi = int(starts[b]), int(starts[b] + lens[b])
            rank[lo + np.argsort(-vals[lo:hi], kind="stable")] = np.arange(hi - lo)
        keep = np.lexsort((rank, src))
        keep = keep[rank[keep] < 200]
        src, vals, col = src[keep], vals[keep], col[keep]
    return frontier[src], col, weight[src] * vals


def _path_to(hops: list[tuple[np.ndarray, np.ndarray]], node: int, hop: int) -> list[int]:
    """The path ``node`` had after ``hop`` hops: through the node before it at its last improvement."""
    for h in range(hop, 0, -1):
        improved, parent = hops[h - 1]
        i = int(np.searchsorted(improved, node))
        if i < improved.size and int(improved[i]) == node:
            return [*_path_to(hops, int(parent[i]), h - 1), node]
    return [node]  # a seed


CLUSTER_WEIGHTS = {"calls": 1.0, "types": 0.5, "inherits": 1.0, "contains": 0.5}


def cluster_adjacency(g: CodeGraph) -> sp.csr_matrix:
    """Undirected structural graph used for clustering (external symbols left out: they join everything)."""
    key = (g.stamp or id(g), "cluster_adjacency")
    m = _WALK_CACHE.get(key)
    if m is None:
        import scipy.sparse as sp

        with transient(g):  # the capped relations and their weighted sum: only this matrix is kept
            adj = walk_matrix(g, CLUSTER_WEIGHTS, "both")
            keep = sp.diags((~g.is_external()).astype(np.float64))
            m = (keep @ adj @ keep).tocsr()
            del adj
        _WALK_CACHE[key] = m
    return m


def cluster_scores(g: CodeGraph, labels: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Members of the first seed's cluster, ranked by personalized PageRank inside the cluster.

    The walk runs on the cluster's own subgraph (a few hundred rows, not the whole index), from the
    seeds that belong to that cluster; every member scores above 0 so that isolated members still
    rank (last). Rows outside the cluster score 0. It runs in this process under either engine: the
    subgraph is small, and the clusters themselves came from the engine.
    """
    label = int(labels[int(seeds[0])])
    scores = np.zeros(g.n)
    if label < 0:
        return scores
    from ..algorithms import pagerank as pr

    members = np.flatnonzero(labels == label)
    local = np.flatnonzero(np.isin(members, seeds))
    sub = cluster_adjacency(g)[members][:, members]
    ppr = pr.personalized_pagerank(sub, personalization=local, alpha=0.85, tol=1e-8, max_iter=1000)
    scores[members] = ppr + 1e-12
    return scores


def compute_clusters(g: CodeGraph, *, seed: int = 0, mode: str = "lpa", min_size: int = 2,
                     include_tests: bool = False, engine: str = "local",
                     ray_address: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(labels per row, sizes per cluster, cohesion per cluster); externals get label -1.

    ``engine`` runs label propagation's votes (``local`` or ``ray``, the same labels); folding small
    clusters, components and the statistics are single passes and stay in this process.

    Test code is left out (label -1) unless ``include_tests``: tests calling the same fixtures formed
    the largest clusters, and attached to the code they call they still made up 99% of the largest
    cluster of networkx and of scipy (every test calls ``Graph``). A cluster
    counts its members by what they can answer: modules count 0 and classes half (a class is the
    container of its own methods, never their answer), so a cluster too small to give every member
    a non-empty answer is folded into its strongest neighbour.
    """
    import scipy.sparse as sp

    from ..algorithms import clusters as lpa

    adj = cluster_adjacency(g)
    ext = g.is_external()
    tests = np.asarray(g.is_test, dtype=bool) & ~ext
    core = adj
    if not include_tests and tests.any():
        keep = sp.diags((~tests).astype(np.float64))
        core = (keep @ adj @ keep).tocsr()
    if mode == "components":
        labels = lpa.connected_components(core)
    elif mode == "lpa":
        kind = np.asarray(g.kind)
        weight = np.where(kind == g.kind_code("module"), 0.0,
                          np.where(np.isin(kind, [g.kind_code(k) for k in ("class", "interface", "struct", "trait",
                                                                            "enum")]), 0.5, 1.0))
        labels = lpa.label_propagation(core, seed=seed, engine=get_engine(engine, ray_address))
        labels = lpa.reattach_small(core, labels, min_size=min_size, member_weight=weight)
    else:
        raise UnknownAlgorithmError(mode, ("lpa", "components"), what="cluster mode")
    labels = np.asarray(labels, dtype=np.int64).copy()
    labels[ext] = -1
    if not include_tests:
        labels[tests] = -1
    # canonical relabelling over the real nodes, in row order
    real = labels >= 0
    _, first = np.unique(labels[real], return_index=True)
    order = np.argsort(first, kind="stable")
    uniq = np.unique(labels[real])[order]
    remap = {int(u): i for i, u in enumerate(uniq.tolist())}
    out = np.full(g.n, -1, dtype=np.int64)
    out[real] = np.array([remap[int(x)] for x in labels[real].tolist()], dtype=np.int64) if real.any() else []
    k = len(uniq)
    if k == 0:
        return out, np.zeros(0, dtype=np.int64), np.zeros(0)
    sizes, cohesion = lpa.cluster_stats(adj[real][:, real], out[real])
    return out, np.asarray(sizes), np.asarray(cohesion)
