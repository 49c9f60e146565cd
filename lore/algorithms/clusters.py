"""Communities of an undirected weighted graph: label propagation, components, and their scores.

All functions take a symmetric N x N CSR adjacency (``A + A.T`` of a directed graph) and return
integer labels per row in canonical form: ``0..k-1`` numbered in order of first appearance by row,
so two labellings of the same partition are equal arrays.

Label propagation design
------------------------
* **Vectorized sweeps.** Each node takes the label with the largest total edge weight among its
  neighbours, computed for many nodes at once as ``W[rows] @ onehot(labels)`` and a per-row argmax.
  A node without neighbours keeps its label. After the first sweep only nodes with a neighbour that
  changed label are recomputed (the others would keep theirs), which makes late sweeps cheap.
* **Oscillation guard.** Fully synchronous updates oscillate (two nodes swapping labels forever).
  Each sweep splits the nodes into 4 batches at random (seeded) and updates the batches one after
  another, each seeing the labels the previous batches set (semi-synchronous); on a tie a node keeps
  its current label if it is among the best. Propagation stops when a sweep changes at most 0.1%
  of the nodes (no node, for N < 1,000) or after ``max_iter`` sweeps, so it always terminates.
* **Tie-breaks.** Other ties go to the label of smallest rank in a seeded random ranking of the label
  ids, redrawn for every batch. Breaking ties by the smallest label id itself was measured to be
  harmful: it gives one label priority everywhere, and in the first sweep (when all votes tie) that
  label floods the graph (one cluster on LFR graphs at mu = 0.3).
* **Giant-cluster guards**, measured on LFR graphs and on planted communities plus hubs (where plain
  label propagation puts everything in one cluster, as it did with 99% of a hub-heavy 10k-node code
  graph):

  - ``hub_degree_penalty``: edge ``i - j`` votes ``w_ij / sqrt(k_i k_j)``, ``k`` the number of
    neighbours (unweighted), so a hub touched by thousands of symbols has a tiny vote;
  - ``triangle_weighting``: edge ``i - j`` is first multiplied by ``1 + t_ij``, ``t_ij`` the number
    of common neighbours of ``i`` and ``j`` that have at most 32 neighbours themselves (0 when ``j``
    has more; as it has always been computed). Edges inside
    a community close triangles, edges between communities rarely do; skipping hubs keeps the cost
    near O(nnz). The triangles are listed from their lowest-degree corner (edges oriented by degree),
    not counted by a matrix product: 2.7 s instead of 6.4 s on a million-node code-like graph, the
    same counts.
* **Determinism.** Initial labels are the row ids, the batch split and tie ranking come from
  ``seed``: the same graph, row order and seed give identical labels. A different row order is a
  different update order, so the partition is invariant under relabelling of the nodes only where
  the communities are unambiguous (for example cliques joined by single edges), not in general.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..errors import InvalidArgumentError
from ._checks import (
    check_csr,
    check_int,
    check_nonnegative,
    check_rng,
    check_square,
    check_symmetric,
    row_segments,
)
from ._engine import Engine, check_engine
from ._threads import one_blas_thread

__all__ = [
    "adjusted_rand_index",
    "canonical_labels",
    "cluster_stats",
    "connected_components",
    "label_propagation",
    "normalized_mutual_info",
    "reattach_small",
    "weak_components",
]

_BATCHES = 4
_STOP_FRACTION = 1e-3
_TIE = 1e-9  # label weights within this relative distance of the best are ties
_TRIANGLE_MAX_DEGREE = 32  # common neighbours with more neighbours than this are not counted
# wedges searched at a time when counting triangles: about 50 B of temporaries each (4M made 200 MB, 1M
# 50 MB: the largest temporary of the clusters step on a 190k-symbol kernel copy; the blocks' results are
# the same whatever their size)
_BLOCK_WEDGES = 1 << 18
_EDGE_BLOCK = 1 << 20  # entries per block of reattach_small's label columns


def _check_labels(labels, n: int) -> np.ndarray:
    arr = np.asarray(labels)
    if arr.shape != (n,) or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise InvalidArgumentError(f"labels must be a 1-d integer array of length {n}, got shape {arr.shape}")
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError("labels must be nonnegative integers")
    return arr.astype(np.int64, copy=False)


def canonical_labels(labels) -> np.ndarray:
    """Relabel to ``0..k-1`` in order of first appearance.

    Parameters
    ----------
    labels : array of int
        Any integer labels.

    Returns
    -------
    numpy.ndarray
        int64 labels of the same partition.

    Examples
    --------
    >>> canonical_labels([7, 7, 3, 9, 3]).tolist()
    [0, 0, 1, 2, 1]
    """
    arr = np.asarray(labels)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, inv = np.unique(arr, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inv.ravel()]


def _vote_matrix(a: sp.csr_matrix, hub_degree_penalty: bool, triangle_weighting: bool) -> sp.csr_matrix:
    """The adjacency without self-loops or zero entries, sharpened by triangles and hub-penalised."""
    n = a.shape[0]
    owner = np.repeat(np.arange(n), np.diff(a.indptr))
    keep = (a.indices != owner) & (a.data != 0)
    owner, cols = owner[keep], a.indices[keep].astype(np.int64)
    data = a.data[keep].astype(np.float64)
    k = np.bincount(owner, minlength=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(k, out=indptr[1:])
    w = sp.csr_matrix((data, cols, indptr), shape=(n, n))
    del owner, keep, cols, data  # (int64 columns over every entry) not held under the triangles' temporaries
    if triangle_weighting:
        w = _sharpen(w, _common_neighbours(w, k))
    if hub_degree_penalty:
        owner = np.repeat(np.arange(n), np.diff(w.indptr))
        w.data = w.data / np.sqrt(k[owner].astype(np.float64) * k[w.indices])
    return w


def _sharpen(w: sp.csr_matrix, counts: sp.csr_matrix) -> sp.csr_matrix:
    """``w + w.multiply(counts)`` for ``counts`` stored on edges of ``w`` only: the few edges with a
    count are updated in place (``w_ij + w_ij * t_ij``, the same arithmetic), canonical like the sum."""
    w = w.copy()
    w.sum_duplicates()  # canonical: sorted indices, as ``w + ...`` returns them
    counts = counts.tocoo()
    hit = counts.data != 0
    rows, cols, t = counts.row[hit].astype(np.int64), counts.col[hit].astype(np.int64), counts.data[hit]
    n = w.shape[1]
    keys = np.repeat(np.arange(w.shape[0], dtype=np.int64), np.diff(w.indptr)) * n + w.indices
    pos = np.searchsorted(keys, rows * n + cols)
    if pos.size and (pos.max() >= keys.size or (keys[pos] != rows * n + cols).any()):
        raise AssertionError("counts outside the edges of w")  # pragma: no cover - internal invariant
    w.data[pos] = w.data[pos] + w.data[pos] * t
    return w


def _common_neighbours(w: sp.csr_matrix, k: np.ndarray) -> sp.csr_matrix:
    """Per edge ``i - j`` with ``k_j <= _TRIANGLE_MAX_DEGREE``: how many neighbours ``m`` with ``k_m <=
    _TRIANGLE_MAX_DEGREE`` (light) ``i`` and ``j`` share (0 when ``j`` is heavy); ``w`` symmetric.

    Lists triangles instead of multiplying matrices: rows are ranked by (neighbours, id), each edge
    points from its lower-ranked end to the higher, and a triangle ``a < b < c`` is found once, from
    its lowest corner ``a``, as a pair ``b < c`` of ``a``'s out-neighbours that is itself an edge (one
    search in the sorted edge keys, the queries grouped by ``b``). Light rows rank first, so only
    triangles whose two lowest corners are light count: ``i - j`` gains one for the triangle when
    ``j`` and the third corner are light. Work: the pairs of out-neighbours of light rows (their
    out-degree is small after the ranking), not the ``sum k^2`` wedges of ``B @ diag(light) @ B``;
    done in blocks of at most ``_BLOCK_WEDGES`` pairs.
    """
    n = w.shape[0]
    order = np.lexsort((np.arange(n), k))  # rank -> row; light rows (k <= 32) are a prefix
    # ranks, rows and positions fit int32 (rows and stored entries are below 2**31): each array over
    # the edges is half of an int64 one, and each is freed once read (the peak of the clusters step)
    idx = np.int32 if max(n, w.nnz) < np.iinfo(np.int32).max else np.int64
    rank = np.empty(n, dtype=idx)
    rank[order] = np.arange(n, dtype=idx)
    n_light = int(np.count_nonzero(k <= _TRIANGLE_MAX_DEGREE))
    ro = rank[np.repeat(np.arange(n, dtype=idx), np.diff(w.indptr))]
    rc = rank[w.indices]
    keep = (ro < rc) & (ro < n_light)  # edges a -> b (rank a < rank b) out of light rows
    ua, ub = ro[keep], rc[keep]
    del ro, rc, keep
    up = sp.csr_matrix((np.ones(ua.size, dtype=np.float32), (ua, ub)), shape=(n, n))  # only its pattern is read
    del ua, ub
    up.sort_indices()
    up_ptr = up.indptr.astype(np.int64)
    up_idx = up.indices.astype(idx)
    del up
    up_keys = np.repeat(np.arange(n, dtype=np.int64), np.diff(up_ptr)) * n + up_idx  # ascending
    # the same edges by their upper end b (rows b, columns a), carrying their position in ``up``
    # (stored as position + 1: a stored 0 would be an explicit zero)
    low = sp.csr_matrix((np.arange(1, up_idx.size + 1, dtype=idx), up_idx, up_ptr), shape=(n, n)).T.tocsr()
    low_ptr = low.indptr.astype(np.int64)
    low_rows = np.repeat(np.arange(n, dtype=idx), np.diff(low_ptr))
    after_b = low.data  # position of a -> b in ``up``, plus one: where the c's start
    # pairs (b, c) through a: the entries of a's row after b's
    tails = up_ptr[low.indices.astype(np.int64) + 1] - after_b
    stop = int(low_ptr[n_light])  # b must be light too
    wedges_to = np.r_[0, np.cumsum(tails[:stop])]
    cuts = np.unique(np.r_[0, np.searchsorted(wedges_to, np.arange(_BLOCK_WEDGES, wedges_to[-1], _BLOCK_WEDGES)),
                           stop])
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for lo, hi in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True):
        cnt = tails[lo:hi]
        total = int(cnt.sum())
        if total == 0:
            continue
        first = np.cumsum(cnt) - cnt
        pos = np.arange(total, dtype=np.int64) + np.repeat(after_b[lo:hi].astype(np.int64) - first, cnt)
        qb = np.repeat(low_rows[lo:hi].astype(np.int64), cnt)
        qc = up_idx[pos].astype(np.int64)
        qkey = qb * n + qc
        at = np.minimum(np.searchsorted(up_keys, qkey), up_keys.size - 1)
        hit = up_keys[at] == qkey
        if hit.any():
            found.append((np.repeat(low.indices[lo:hi].astype(np.int64), cnt)[hit], qb[hit], qc[hit]))
    if not found:
        return sp.csr_matrix((n, n))
    a, b, c = (np.concatenate(parts) for parts in zip(*found, strict=True))
    heavy_top = c >= n_light  # only (c, a) and (c, b) count; with c light all six ordered pairs do
    al, bl, cl = a[~heavy_top], b[~heavy_top], c[~heavy_top]
    rows = np.concatenate([al, bl, al, cl, bl, cl, c[heavy_top], c[heavy_top]])
    cols = np.concatenate([bl, al, cl, al, cl, bl, a[heavy_top], b[heavy_top]])
    return sp.csr_matrix((np.ones(rows.size), (order[rows], order[cols])), shape=(n, n))


def _common_neighbours_product(w: sp.csr_matrix, k: np.ndarray) -> sp.csr_matrix:
    """The reference for :func:`_common_neighbours`: ``B[rows] @ diag(light) @ B`` masked by the edges,
    over row blocks of bounded work (kept for the tests; costs ``sum k^2`` wedges)."""
    n = w.shape[0]
    b = sp.csr_matrix((np.ones(w.nnz), w.indices.copy(), w.indptr.copy()), shape=(n, n))
    light = k <= _TRIANGLE_MAX_DEGREE
    bl = sp.csr_matrix((light[b.indices].astype(np.float64), b.indices.copy(), b.indptr.copy()), shape=(n, n))
    bl.eliminate_zeros()
    work = np.cumsum(bl @ np.where(light, k, 0).astype(np.float64))
    bounds = (
        np.searchsorted(work, np.arange(1, int(work[-1] // _BLOCK_WEDGES) + 1) * _BLOCK_WEDGES) if n else []
    )
    edges = np.unique(np.r_[0, bounds, n])
    blocks = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        blocks.append(b[lo:hi].multiply(bl[lo:hi] @ bl).tocsr())
    return sp.vstack(blocks, format="csr") if blocks else sp.csr_matrix((n, n))


def _best_labels(sub: sp.csr_matrix, labels: np.ndarray, current: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Per row of ``sub``: the neighbour label of largest total weight, or -1 for a row without neighbours.

    Ties keep the row's current label when it is among them, else go to the label of lowest ``rank``
    (a seeded random ranking of the label ids, redrawn every batch).
    """
    n = labels.size
    onehot = sp.csr_matrix((np.ones(n), labels, np.arange(n + 1)), shape=(n, n))
    s = sub @ onehot
    lens = np.diff(s.indptr)
    nonempty = lens > 0
    best = np.full(sub.shape[0], -1, dtype=np.int64)
    if s.nnz:
        starts = s.indptr[:-1][nonempty]
        rowmax = np.maximum.reduceat(s.data, starts)
        tied = s.data >= np.repeat(rowmax * (1.0 - _TIE), lens[nonempty])
        # the tied label of lowest rank: rank is a permutation, so exactly one entry per row has that rank
        label_rank = np.where(tied, rank[s.indices], n)
        lowest = np.minimum.reduceat(label_rank, starts)
        winner = s.indices[label_rank == np.repeat(lowest, lens[nonempty])]
        cur = current[nonempty]
        keeps = np.maximum.reduceat(
            (tied & (s.indices == np.repeat(cur, lens[nonempty]))).astype(np.int8), starts
        )
        best[nonempty] = np.where(keeps > 0, cur, winner)
    return best


def vote_rows(block: sp.csr_matrix, first: int, rows: np.ndarray | None, labels: np.ndarray, rank: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """One batch of label propagation on a row block: the best label of each of ``rows`` (block-local),
    and the neighbours (global rows) of the rows whose label changes.

    Row-wise independent (see :mod:`lore.algorithms._engine`): any cut of the vote matrix into row
    blocks gives the same labels; the neighbours come in row order, to be marked dirty.
    """
    if rows is None:
        rows = np.arange(block.shape[0])
    current = labels[first + rows]
    best = _best_labels(block[rows], labels, current, rank)
    moved = rows[(best >= 0) & (best != current)]
    return best, block.indices[row_segments(block.indptr, moved)[0]]


@one_blas_thread
def label_propagation(
    adjacency,
    *,
    seed=0,
    max_iter: int = 100,
    hub_degree_penalty: bool = True,
    triangle_weighting: bool = True,
    engine: Engine | None = None,
) -> np.ndarray:
    """Weighted label propagation with a hub penalty, seeded and deterministic.

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        Symmetric N x N, nonnegative weights; self-loops are ignored.
    seed : None, int or numpy.random.Generator
        Seed of the update order (the random batch split of each sweep) and of tie-breaks.
    max_iter : int
        Maximum number of sweeps (>= 1).
    hub_degree_penalty : bool
        Weigh edge ``i - j`` by ``1 / sqrt(k_i k_j)`` (``k`` = number of neighbours).
    triangle_weighting : bool
        Multiply edge ``i - j`` by ``1 + t_ij``, ``t_ij`` its number of common neighbours (counting
        only neighbours with at most 32 neighbours themselves: a triangle through a hub is weak
        evidence, and skipping hubs bounds the cost).
    engine : Engine, optional
        Where the votes are counted (default: this process). The vote matrix is built here, then
        held in row blocks; every batch broadcasts the labels and the tie ranking once and gets back
        the best labels and the neighbours to recheck: the same labels on every engine.

    Returns
    -------
    numpy.ndarray
        Canonical int64 labels (``0..k-1`` by first appearance).

    See Also
    --------
    reattach_small : fold singleton and tiny clusters into their strongest neighbour.

    Examples
    --------
    Two triangles joined by one edge:

    >>> import scipy.sparse as sp
    >>> edges = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)]
    >>> r, c = zip(*edges)
    >>> a = sp.coo_matrix(([1.0] * 7, (r, c)), shape=(6, 6)).tocsr()
    >>> label_propagation(a + a.T, seed=0).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    a = check_csr(adjacency)
    check_square(a)
    max_iter = check_int("max_iter", max_iter, 1)
    rng = check_rng(seed)
    check_nonnegative(a)
    check_symmetric(a)
    n = a.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    w = _vote_matrix(a, bool(hub_degree_penalty), bool(triangle_weighting))
    votes = check_engine(engine).rows(w)
    labels = np.arange(n, dtype=np.int64)
    # only nodes with a neighbour that changed label since their last update can change: the others
    # would keep their label (it is still among the best), so skipping them changes nothing
    dirty = np.ones(n, dtype=bool)
    for _ in range(max_iter):
        batch = rng.integers(0, _BATCHES, size=n)
        changed = 0
        for b in range(_BATCHES):
            rank = rng.permutation(n)
            rows = np.flatnonzero((batch == b) & dirty)
            if rows.size == 0:
                continue
            dirty[rows] = False
            best, touched = votes.map_rows(vote_rows, rows, labels, rank)
            move = (best >= 0) & (best != labels[rows])
            moved = rows[move]
            labels[moved] = best[move]
            dirty[touched] = True
            changed += int(moved.size)
        if changed <= _STOP_FRACTION * n:
            break
    return canonical_labels(labels)


def _positive_entries(a: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, columns, weights) of the stored entries with positive weight, in storage order (row ids
    int32 where they fit; the matrix's own columns and weights when every entry is positive: no copy)."""
    idx = np.int32 if a.shape[0] < np.iinfo(np.int32).max else np.int64
    owner = np.repeat(np.arange(a.shape[0], dtype=idx), np.diff(a.indptr))
    cols, w = a.indices.astype(idx, copy=False), a.data.astype(np.float64, copy=False)
    positive = w > 0
    if positive.all():
        return owner, cols, w
    return owner[positive], cols[positive], w[positive]


def _leaving_small(lab: np.ndarray, small: np.ndarray, k: int, entries: tuple[np.ndarray, np.ndarray, np.ndarray]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(``label(i) * k + label(j)``, weight) of every entry ``i - j`` between two clusters whose ``i`` is in a
    small cluster, each entry listed both ways (every ``i -> j``, then every ``j -> i``), in that order.

    Read :data:`_EDGE_BLOCK` entries at a time: the two label columns of every entry listed both ways
    (four int64 arrays of the entries' size) were the clusters step's peak on the Linux kernel.
    """
    owner, cols, w = entries
    keys: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for src, dst in ((owner, cols), (cols, owner)):
        for lo in range(0, src.size, _EDGE_BLOCK):
            ls, ld = lab[src[lo : lo + _EDGE_BLOCK]], lab[dst[lo : lo + _EDGE_BLOCK]]
            m = small[ls] & (ls != ld)
            if m.any():
                keys.append(ls[m] * k + ld[m])
                weights.append(w[lo : lo + _EDGE_BLOCK][m])
    if not keys:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    return np.concatenate(keys), np.concatenate(weights)


@one_blas_thread
def reattach_small(adjacency, labels, *, min_size: int = 2, member_weight=None) -> np.ndarray:
    """Fold clusters smaller than ``min_size`` into their strongest neighbouring cluster.

    A small cluster joins the cluster it shares the most edge weight with (smallest label on ties;
    edges count in both directions). Joins are applied together and chains of small clusters merge
    (a small cluster joining another small one, joining a big one, all end in the big one); passes
    repeat until every small cluster is big enough or has no neighbour left. Two clusters of at least
    ``min_size`` never merge. Isolated small clusters stay as they are.

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        N x N nonnegative weights.
    labels : array of int
        Nonnegative labels per row, e.g. from :func:`label_propagation`.
    min_size : int
        Smallest cluster size kept as is (>= 1).
    member_weight : array of float, optional
        How much each row counts towards its cluster's size (default 1 each). A row that can never
        be an answer (a module, the class of its own methods) can count 0 or less, so that a cluster
        whose members could only answer with it is folded too.

    Returns
    -------
    numpy.ndarray
        Canonical int64 labels.

    Examples
    --------
    A leaf (row 3) hanging off a triangle, in its own cluster:

    >>> import scipy.sparse as sp
    >>> a = sp.coo_matrix(([1.0] * 4, ([0, 1, 0, 2], [1, 2, 2, 3])), shape=(4, 4)).tocsr()
    >>> reattach_small(a + a.T, [0, 0, 0, 1], min_size=2).tolist()
    [0, 0, 0, 0]
    """
    a = check_csr(adjacency)
    check_square(a)
    min_size = check_int("min_size", min_size, 1)
    lab = canonical_labels(_check_labels(labels, a.shape[0]))
    mw = None if member_weight is None else np.asarray(member_weight, dtype=np.float64)
    if mw is not None and mw.shape != (a.shape[0],):
        raise InvalidArgumentError(f"member_weight must have one value per row ({a.shape[0]}), got shape {mw.shape}")
    entries = _positive_entries(a)
    while lab.size:
        k = int(lab.max()) + 1
        small = np.bincount(lab, weights=mw, minlength=k) < min_size
        keys, weights = _leaving_small(lab, small, k, entries)
        if not keys.size:
            break
        pairs, inv = np.unique(keys, return_inverse=True)
        del keys
        total = np.bincount(inv, weights=weights)
        src, dst = np.divmod(pairs, k)
        order = np.lexsort((dst, -total, src))
        first = order[np.r_[True, src[order][1:] != src[order][:-1]]]
        # the joins' weak components (one edge per small cluster): numpy alone, since scipy.sparse.csgraph
        # would import scipy.sparse.linalg and scipy.linalg (0.05 s, 11 MB) into every fresh ``lore index``
        comp = weak_components(k, src[first], dst[first])
        lab = canonical_labels(comp[lab])
    return lab


def weak_components(n: int, src, dst) -> np.ndarray:
    """A component id per node of the graph on ``n`` nodes with edges ``src[i] - dst[i]`` (direction ignored).

    Hook and compress on arrays: every edge between two components points the larger root at the
    smaller, then pointer jumping makes every node point at its root. A root's id only decreases
    and every node points at a node of smaller or equal id, so there are no cycles; each round with
    an edge between components removes at least one root. The ids are each component's smallest
    node (the same partition as ``scipy.sparse.csgraph.connected_components(..., connection="weak")``,
    numbered differently; :func:`canonical_labels` numbers either the same way).

    Examples
    --------
    >>> weak_components(6, [4, 1, 3], [1, 3, 0]).tolist()
    [0, 0, 2, 0, 0, 5]
    """
    comp = np.arange(n, dtype=np.int64)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    while src.size:
        cs, cd = comp[src], comp[dst]
        between = cs != cd
        if not between.any():
            break
        np.minimum.at(comp, np.maximum(cs, cd)[between], np.minimum(cs, cd)[between])
        while True:
            up = comp[comp]
            if np.array_equal(up, comp):
                break
            comp = up
    return comp


def connected_components(adjacency) -> np.ndarray:
    """Weakly connected components, canonically labelled.

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        N x N; edge direction is ignored.

    Returns
    -------
    numpy.ndarray
        int64 component label per row (``0..k-1`` by first appearance).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> a = sp.csr_matrix(([1.0, 1.0], ([0, 3], [2, 1])), shape=(5, 5))
    >>> connected_components(a).tolist()
    [0, 1, 0, 1, 2]
    """
    a = check_csr(adjacency)
    check_square(a)
    if a.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    from scipy.sparse import csgraph  # ~85 ms to import: only when used

    _, comp = csgraph.connected_components(a, directed=True, connection="weak")
    return canonical_labels(comp)


def cluster_stats(adjacency, labels) -> tuple[np.ndarray, np.ndarray]:
    """Size and cohesion of every cluster.

    Cohesion of cluster ``C`` is ``internal / (internal + boundary)``: the weight of edges inside
    ``C`` over the weight of all edges touching it (each edge counted once for a symmetric matrix; 1.0
    for a cluster without outside edges, 0.0 for one without any edge).

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        N x N nonnegative weights.
    labels : array of int
        Labels ``0..k-1`` per row.

    Returns
    -------
    sizes : numpy.ndarray
        int64 number of rows per label.
    cohesion : numpy.ndarray
        float cohesion per label, in [0, 1].

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> a = sp.coo_matrix(([1.0] * 4, ([0, 1, 0, 2], [1, 2, 2, 3])), shape=(4, 4)).tocsr()
    >>> sizes, cohesion = cluster_stats(a + a.T, [0, 0, 0, 1])
    >>> sizes.tolist(), cohesion.round(2).tolist()
    ([3, 1], [0.75, 0.0])
    """
    a = check_csr(adjacency)
    check_square(a)
    lab = _check_labels(labels, a.shape[0])
    k = int(lab.max()) + 1 if lab.size else 0
    sizes = np.bincount(lab, minlength=k).astype(np.int64)
    owner = np.repeat(np.arange(a.shape[0]), np.diff(a.indptr))
    lr, lc = lab[owner], lab[a.indices]
    w = a.data.astype(np.float64)
    same = lr == lc
    internal = np.bincount(lr[same], weights=w[same], minlength=k)
    boundary = np.bincount(lr[~same], weights=w[~same], minlength=k) + np.bincount(
        lc[~same], weights=w[~same], minlength=k
    )
    touching = internal + boundary
    cohesion = np.divide(internal, touching, out=np.zeros(k), where=touching > 0)
    return sizes, cohesion


def _contingency(a, b) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray, int]:
    """The contingency table (CSR, counts) of two labellings and its row and column sums."""
    a, b = np.asarray(a).ravel(), np.asarray(b).ravel()
    if a.shape != b.shape:
        raise InvalidArgumentError(f"the two labellings must have the same length, got {a.size} and {b.size}")
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    table = sp.csr_matrix(
        (np.ones(a.size), (ia.ravel(), ib.ravel())), shape=(ia.max(initial=-1) + 1, ib.max(initial=-1) + 1)
    )
    table.sum_duplicates()
    ai = np.asarray(table.sum(axis=1)).ravel()
    bj = np.asarray(table.sum(axis=0)).ravel()
    return table, ai, bj, a.size


def normalized_mutual_info(a, b) -> float:
    """Normalized mutual information of two labellings (arithmetic-mean normalisation).

    Equals ``sklearn.metrics.normalized_mutual_info_score`` with its default
    ``average_method="arithmetic"``: 1.0 for the same partition, 0.0 for independent ones.

    Parameters
    ----------
    a, b : array of int
        Labels per item, same length.

    Returns
    -------
    float

    Examples
    --------
    >>> normalized_mutual_info([0, 0, 1, 1], [5, 5, 2, 2])
    1.0
    >>> normalized_mutual_info([0, 0, 1, 1], [0, 1, 0, 1])
    0.0
    """
    table, ai, bj, n = _contingency(a, b)
    if n == 0 or (ai.size == 1 and bj.size == 1):
        return 1.0
    rows = np.repeat(np.arange(table.shape[0]), np.diff(table.indptr))
    nij = table.data
    mi = float(np.sum(nij / n * np.log(nij * n / (ai[rows] * bj[table.indices]))))
    ha = float(-np.sum(ai / n * np.log(ai / n)))
    hb = float(-np.sum(bj / n * np.log(bj / n)))
    denom = (ha + hb) / 2.0
    if denom <= 0:
        return 1.0
    return float(min(max(mi / denom, 0.0), 1.0))


def adjusted_rand_index(a, b) -> float:
    """Adjusted Rand index of two labellings (Hubert and Arabie).

    1.0 for the same partition, about 0 for random ones (can be negative).

    Parameters
    ----------
    a, b : array of int
        Labels per item, same length.

    Returns
    -------
    float

    Examples
    --------
    >>> adjusted_rand_index([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    table, ai, bj, n = _contingency(a, b)
    nij = table.data
    if n < 2:
        return 1.0
    index = float(np.sum(nij * (nij - 1)) / 2)
    sum_a = float(np.sum(ai * (ai - 1)) / 2)
    sum_b = float(np.sum(bj * (bj - 1)) / 2)
    expected = sum_a * sum_b / (n * (n - 1) / 2)
    maximum = (sum_a + sum_b) / 2
    if maximum == expected:
        return 1.0
    return float((index - expected) / (maximum - expected))
