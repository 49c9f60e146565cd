"""Personalized PageRank on a weighted directed graph: exact, Monte-Carlo and local push.

``adjacency`` is an N x N CSR matrix with ``A[i, j]`` the (nonnegative) weight of edge ``i -> j``;
the walk follows edges ``i -> j`` with probability proportional to weight, and restarts to the
personalization distribution with probability ``1 - alpha`` at each step. Nodes without out-weight
(dangling) jump to the personalization distribution, as ``networkx.pagerank(...,
dangling=personalization)`` does. Which direction the walk follows (callees, callers or both) is the
caller's choice of matrix; :func:`directed` builds it from a cached transpose.

``personalization`` is either an integer array of seed rows (uniform over the distinct seeds) or a
float vector of length N (nonnegative, positive sum; normalised here).

The three estimators of the same vector:

* :func:`personalized_pagerank`: power iteration, exact to ``tol`` (L1), O(nnz) per iteration.
* :func:`monte_carlo_pagerank`: random walks with restart, seeded, with a standard error per node.
* :func:`lore.algorithms.push.push_pagerank`: forward push (Andersen, Chung and Lang 2006), local:
  touches only nodes near the seeds.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..errors import ConvergenceError, InvalidArgumentError
from ._checks import (
    DIRECTIONS,
    cached_per_matrix,
    check_alpha,
    check_choice,
    check_csr,
    check_int,
    check_nonnegative,
    check_personalization,
    check_positive,
    check_rng,
    check_square,
)
from ._engine import Engine, check_engine
from ._threads import one_blas_thread

__all__ = ["WALK_BLOCK", "directed", "monte_carlo_pagerank", "personalized_pagerank"]


def directed(adjacency, direction: str, *, transpose=None) -> sp.csr_matrix:
    """The matrix a walk in ``direction`` follows: ``A`` (out), ``A.T`` (in) or ``A + A.T`` (both).

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        N x N, ``A[i, j]`` = weight of edge ``i -> j``.
    direction : {"out", "in", "both"}
        Follow edges forwards, backwards, or both ways.
    transpose : scipy.sparse matrix, optional
        A cached ``A.T`` in CSR; used instead of transposing again.

    Returns
    -------
    scipy.sparse.csr_matrix

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> a = sp.csr_matrix([[0, 1], [0, 0]], dtype=float)
    >>> directed(a, "in").toarray().tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    >>> directed(a, "both").toarray().tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    a = check_csr(adjacency)
    check_square(a)
    check_choice(direction, DIRECTIONS, what="direction")
    if direction == "out":
        return a
    if transpose is None:
        t = a.T.tocsr()
    else:
        t = check_csr(transpose, name="transpose")
        if t.shape != a.shape:
            raise InvalidArgumentError(f"transpose must have shape {a.shape}, got {t.shape}")
    return t if direction == "in" else (a + t).tocsr()


def _transition(a: sp.csr_matrix, weight_normalize: bool) -> tuple[sp.csr_matrix, np.ndarray]:
    """Row-(sub)stochastic P and the per-row probability mass that leaks to the personalization.

    Two O(nnz) passes, so computed once per matrix (cached while ``a`` lives): a query on a cached
    graph only iterates.
    """

    def compute() -> tuple[sp.csr_matrix, np.ndarray]:
        m = a.astype(np.float64, copy=False)
        out = np.asarray(m.sum(axis=1)).ravel()
        if weight_normalize:
            inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
            p = sp.csr_matrix((m.data * np.repeat(inv, np.diff(m.indptr)), m.indices, m.indptr), shape=m.shape)
            return p, (out <= 0).astype(np.float64)
        if out.size and out.max() > 1.0 + 1e-9:
            raise InvalidArgumentError("with weight_normalize=False every row of adjacency must sum to at most 1")
        return m, np.clip(1.0 - out, 0.0, 1.0)

    return cached_per_matrix(a, f"pagerank:transition:{weight_normalize}", compute)


@one_blas_thread
def personalized_pagerank(
    adjacency,
    *,
    personalization,
    alpha: float = 0.85,
    max_iter: int = 100,
    tol: float = 1e-6,
    weight_normalize: bool = True,
    engine: Engine | None = None,
) -> np.ndarray:
    """Personalized PageRank by power iteration.

    Iterates ``x <- alpha * P.T x + (alpha * leak . x + 1 - alpha) * p`` from ``x = p`` until the L1
    change is below ``tol``. ``P`` is the row-normalised adjacency and ``leak`` is 1 on dangling rows.

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        N x N, nonnegative, ``A[i, j]`` = weight of edge ``i -> j``.
    personalization : array of int or array of float
        Seed rows (uniform restart over them) or a length-N nonnegative restart vector.
    alpha : float
        Probability of following an edge at each step, in (0, 1).
    max_iter : int
        Maximum number of iterations (>= 1).
    tol : float
        Stop when the L1 change between iterations is below ``tol`` (> 0).
    weight_normalize : bool
        True: divide each row by its weight sum (the walk picks out-edges proportionally to weight).
        False: use ``adjacency`` as the transition matrix as given; each row must sum to at most 1 and
        the missing mass of a row goes to the personalization, like a dangling node's.
    engine : Engine, optional
        Where ``P.T @ x`` runs (default: this process). The Ray engine holds ``P.T`` in row blocks
        on its workers (shipped once per ``adjacency`` object) and returns the same bits.

    Returns
    -------
    numpy.ndarray
        Length-N nonnegative scores summing to 1.

    Raises
    ------
    InvalidArgumentError
        Bad ``alpha``, ``tol``, ``max_iter``, shape, weights or personalization.
    ConvergenceError
        The L1 change is still above ``tol`` after ``max_iter`` iterations.

    See Also
    --------
    monte_carlo_pagerank, push_pagerank : approximations of the same vector.
    networkx.pagerank : the reference (with ``dangling=personalization``).

    Examples
    --------
    A 3-cycle seeded at node 0:

    >>> import scipy.sparse as sp
    >>> cycle = sp.csr_matrix(([1.0, 1.0, 1.0], ([0, 1, 2], [1, 2, 0])), shape=(3, 3))
    >>> personalized_pagerank(cycle, personalization=[0], alpha=0.5, tol=1e-12).round(4).tolist()
    [0.5714, 0.2857, 0.1429]
    """
    a = check_csr(adjacency)
    check_square(a)
    alpha = check_alpha(alpha)
    max_iter = check_int("max_iter", max_iter, 1)
    tol = check_positive("tol", tol)
    rows, probs = check_personalization(personalization, a.shape[0])
    check_nonnegative(a)
    p_mat, leak = _transition(a, bool(weight_normalize))
    # locally a CSC view (P.T @ x without a transposed copy); row-wise the same sums as P.T in CSR blocks
    pt = check_engine(engine).rows(p_mat, transpose=True, cache_on=a, name=f"pagerank:P.T:{bool(weight_normalize)}")
    leaky = np.flatnonzero(leak != 0)
    leak_at = leak[leaky]
    # the iteration in place, one pass over N per dense step: the matrix product, its scaling, the
    # restart added on the seed rows only, the L1 change; the same arithmetic as
    # ``alpha * P.T x + (alpha * leak . x + 1 - alpha) * p`` entry by entry
    x = np.zeros(a.shape[0])
    x[rows] = probs
    x_new = np.empty_like(x)
    diff = np.empty_like(x)
    err = np.inf
    for _ in range(max_iter):
        restart = alpha * float(leak_at @ x[leaky]) + (1.0 - alpha)
        np.multiply(pt.matvec(x), alpha, out=x_new)
        x_new[rows] += restart * probs
        np.subtract(x_new, x, out=diff)
        err = float(np.abs(diff, out=diff).sum())
        x, x_new = x_new, x
        if err < tol:
            return x / x.sum()
    raise ConvergenceError("personalized_pagerank", max_iter, err, tol)


MAX_WALKS = 100_000_000  # the same bound for the API, CLI and MCP: more walks than this would not fit in memory
_GUIDE_STEPS = 2  # forward steps from the guide entry before a walk falls back to a binary search


def _walk_tables(a: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What a walk step reads, per matrix (cached while ``a`` lives; one O(nnz) pass to build).

    * ``spans``: (N, 2) integers (int32 while positions fit), each row's first stored entry and its
      number of entries;
    * ``cum``: the cumulative sum of the stored weights in CSR order, so entry ``e`` of a row holds
      the interval ``(cum[e - 1], cum[e]]``;
    * ``bounds``: (N, 2) float64, where each row's intervals start and their total width (its weight);
    * ``guide``: per entry ``lo + j`` of a row of ``d`` entries, the entry holding the point at
      ``j / d`` of the row's width (a guide table: Chen and Asau 1974), so the entry of a draw ``u``
      is found from ``guide[lo + floor(u d)]`` in about one step forward, whatever the row's length.

    A draw is exact inverse-CDF sampling on ``cum``: each interval is one rounded addition wide, so
    its width is the weight to within one unit in the last place of the running sum.
    """

    def compute() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        indptr = a.indptr.astype(np.int64)
        lo, deg = indptr[:-1], np.diff(indptr)
        cum = np.cumsum(a.data, dtype=np.float64)
        base = np.where(lo > 0, cum[np.maximum(lo - 1, 0)], 0.0) if cum.size else np.zeros(lo.size)
        total = np.where(deg > 0, cum[np.maximum(indptr[1:] - 1, 0)] - base, 0.0) if cum.size else base
        first = np.repeat(lo, deg)
        start = np.arange(cum.size, dtype=np.float64)
        start -= first
        start *= np.repeat(np.divide(total, deg, out=np.zeros_like(total), where=deg > 0), deg)
        start += np.repeat(base, deg)
        # a little below each bucket's start (rounding may put a draw a hair under it): the guide may
        # then lie before the right entry, never after it, and the forward search corrects it; it
        # cannot pass the row's last entry, whose cumulative weight is above every bucket's start
        start -= 4.0 * np.spacing(np.maximum(np.abs(start), 1.0))
        guide = np.maximum(np.searchsorted(cum, start, side="right"), first)
        small = np.int32 if cum.size < 2**31 else np.int64  # positions: half the memory when they fit
        return (np.column_stack([lo, deg]).astype(small), cum, np.column_stack([base, total]),
                guide.astype(small))

    return cached_per_matrix(a, "walk:tables", compute)


def _sample(rows: np.ndarray, cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Rows drawn with probabilities whose cumulative sums are ``cum`` (ending at 1), given uniforms ``u``."""
    return rows[np.minimum(np.searchsorted(cum, u * cum[-1], side="right"), rows.size - 1)]


def _step(indices: np.ndarray, tables: tuple, node: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One weighted out-edge per walk (-1 for a dangling node): one uniform draw each, inverse CDF.

    The draw ``u`` picks the point ``base + u * total`` of the row's intervals; the guide entry of
    bucket ``floor(u * deg)`` is at or before the entry holding it, a step or two forward finds it
    (walks still short after :data:`_GUIDE_STEPS` steps, in rows with very uneven weights, take one
    binary search). A handful of numpy calls per step, whatever the weights.
    """
    spans, cum, bounds, guide = tables
    out = np.full(node.size, -1, dtype=np.int64)
    if cum.size == 0:
        return out
    span = np.take(spans, node, axis=0)  # ``take``: several times faster than ``spans[node]`` on (N, 2)
    lo, deg = span[:, 0], span[:, 1]
    bound = np.take(bounds, node, axis=0)
    u = rng.random(node.size)
    point = bound[:, 0] + u * bound[:, 1]
    pos = guide[lo + np.minimum((u * deg).astype(np.int64), deg - 1)]
    ahead = np.flatnonzero(cum[pos] <= point)
    for _ in range(_GUIDE_STEPS):
        if ahead.size == 0:
            break
        pos[ahead] += 1
        moved = pos[ahead]
        ahead = ahead[cum[np.minimum(moved, cum.size - 1)] <= point[ahead]]
    if ahead.size:  # rows with very uneven weights: search the rest of the way
        pos[ahead] = np.searchsorted(cum, point[ahead], side="right")
    last = lo + deg - 1
    np.minimum(pos, last, out=pos)  # rounding at the top of a row stays in the row
    live = bound[:, 1] > 0
    out[live] = indices[pos[live]]
    return out


WALK_BLOCK = 16384  # walks per block: each block has its own random stream, whoever runs it


def _walk_seeds(seed, blocks: int) -> list[np.random.SeedSequence]:
    """One independent seed per walk block, from ``seed`` (None, int, SeedSequence or Generator)."""
    if isinstance(seed, np.random.SeedSequence):
        root = seed
    elif seed is None or (isinstance(seed, int | np.integer) and not isinstance(seed, bool)):
        check_rng(seed)  # the one-line error for a negative seed
        root = np.random.SeedSequence(None if seed is None else int(seed))
    else:  # a Generator (or anything else default_rng takes): draw the root from it
        root = np.random.SeedSequence(int(check_rng(seed).integers(2**63)))
    return root.spawn(blocks)


def walk_block(indices: np.ndarray, spans: np.ndarray, cum: np.ndarray, bounds: np.ndarray, guide: np.ndarray,
               rows: np.ndarray, cum_p: np.ndarray, item: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One block of random walks with restart: (nodes visited, sum of visit counts, sum of squared counts).

    ``item`` is ``(walks, seed_sequence, alpha, max_steps)``. The sums run over the block's walks of
    each walk's visit count ``X_w(v)``; they are integers, so adding blocks up in any order is exact.
    """
    n_walks, seq, alpha, max_steps = item
    tables = (spans, cum, bounds, guide)  # shared arrays, passed one by one: an engine ships each once
    rng = np.random.default_rng(seq)
    # walk lengths are geometric and known in advance; sorted longest first, the walks still going at
    # step t are a prefix of the array
    moves = np.sort(rng.geometric(1.0 - alpha, n_walks) - 1)[::-1]
    if max_steps is not None:
        moves = np.minimum(moves, max_steps)
    alive = np.searchsorted(-moves, -np.arange(1, int(moves[0]) + 1), side="right")  # walks with > t moves
    node = _sample(rows, cum_p, rng.random(n_walks))
    seen_walk, seen_node = [np.arange(n_walks)], [node]
    for m in alive.tolist():
        node = _step(indices, tables, node[:m], rng)
        dead = node < 0
        if dead.any():  # dangling: jump to the personalization
            node[dead] = _sample(rows, cum_p, rng.random(int(dead.sum())))
        seen_walk.append(np.arange(m))
        seen_node.append(node)
    # per-walk visit counts X_w(v): runs of equal (node, walk) keys after one sort, then runs of
    # equal nodes among those
    keys = np.sort(np.concatenate(seen_node) * n_walks + np.concatenate(seen_walk))
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    counts = np.diff(np.r_[starts, keys.size]).astype(np.float64)
    nodes = keys[starts] // n_walks
    first = np.flatnonzero(np.r_[True, nodes[1:] != nodes[:-1]])
    return nodes[first], np.add.reduceat(counts, first), np.add.reduceat(counts * counts, first)


@one_blas_thread
def monte_carlo_pagerank(
    adjacency,
    *,
    personalization,
    alpha: float = 0.85,
    n_walks: int = 10_000,
    seed=None,
    max_steps: int | None = None,
    engine: Engine | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Personalized PageRank estimated by random walks with restart, with standard errors.

    Each walk starts at a node drawn from the personalization, and at each step stops with
    probability ``1 - alpha`` or else moves along an out-edge chosen proportionally to its weight
    (from a dangling node: to a node drawn from the personalization). The walks run in blocks of
    :data:`WALK_BLOCK`, each block with its own random stream (``SeedSequence(seed).spawn``), so the
    result depends on ``seed`` and ``n_walks`` only, not on how many workers run the blocks; within
    a block all walks advance together, one numpy step at a time, each step one uniform draw per
    walk searched in the matrix's cumulative weights through a guide table (built once per matrix:
    about 1.5 s of CPU at 12 million stored entries, 30 ms on a 45,000-symbol graph).

    Estimator: ``pi(v) = (1 - alpha) * mean over walks of X_w(v)``, where ``X_w(v)`` counts the
    visits of walk ``w`` to ``v`` (the start included). It is unbiased (when ``max_steps`` is None) and
    uses every visit, not only end points. The standard error is ``(1 - alpha) * std(X_w(v)) /
    sqrt(n_walks)`` with the sample standard deviation of the per-walk visit counts, so it accounts
    for repeated visits within one walk. The scores sum to 1 only in expectation.

    Parameters
    ----------
    adjacency : scipy.sparse matrix
        N x N, ``A[i, j]`` = weight of edge ``i -> j`` (weights assumed nonnegative; not checked, to
        keep the call independent of the graph size).
    personalization : array of int or array of float
        Seed rows or a length-N nonnegative restart vector.
    alpha : float
        Continuation probability, in (0, 1).
    n_walks : int
        Number of walks (>= 2). The standard error shrinks as ``1 / sqrt(n_walks)``.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Root of the walk blocks' seeds; the same seed gives identical output on every engine.
    max_steps : int, optional
        Cut every walk after this many steps (biases scores down; default: walks run until they stop,
        which takes about ``log(n_walks) / log(1 / alpha)`` steps for the longest).
    engine : Engine, optional
        Where the walk blocks run (default: this process, one after another); the Ray engine runs
        them as tasks over one shared copy of the matrix per node.

    Returns
    -------
    scores, standard_errors : numpy.ndarray
        Two length-N arrays.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> cycle = sp.csr_matrix(([1.0, 1.0, 1.0], ([0, 1, 2], [1, 2, 0])), shape=(3, 3))
    >>> scores, se = monte_carlo_pagerank(cycle, personalization=[0], alpha=0.5, n_walks=20_000, seed=1)
    >>> bool(abs(scores[0] - 0.5714) < 4 * se[0])
    True
    >>> int(scores.argmax()), bool((se > 0).all())
    (0, True)
    """
    a = check_csr(adjacency)
    check_square(a)
    alpha = check_alpha(alpha)
    n_walks = check_int("n_walks", n_walks, 2, MAX_WALKS)
    if max_steps is not None:
        max_steps = check_int("max_steps", max_steps, 0)
    rows, probs = check_personalization(personalization, a.shape[0])
    sizes = [WALK_BLOCK] * (n_walks // WALK_BLOCK) + ([n_walks % WALK_BLOCK] if n_walks % WALK_BLOCK else [])
    seqs = _walk_seeds(seed, len(sizes))
    n = a.shape[0]
    cum_p = np.cumsum(probs)
    tables = _walk_tables(a)
    items = [(size, seq, alpha, max_steps) for size, seq in zip(sizes, seqs, strict=True)]
    blocks = check_engine(engine).map_tasks(walk_block, (a.indices, *tables, rows, cum_p), items, cache_on=a,
                                            name="monte_carlo:adjacency")
    if len(blocks) == 1:
        visited, s1, s2 = blocks[0]
    else:  # integer-valued sums: exact in any order
        visited, inv = np.unique(np.concatenate([b[0] for b in blocks]), return_inverse=True)
        s1 = np.bincount(inv, weights=np.concatenate([b[1] for b in blocks]), minlength=visited.size)
        s2 = np.bincount(inv, weights=np.concatenate([b[2] for b in blocks]), minlength=visited.size)
    # only the visited rows are computed: at a million rows the dense passes would cost more than the walks
    mean = s1 / n_walks
    var = np.maximum(s2 - n_walks * mean * mean, 0.0) / (n_walks - 1)
    scale = 1.0 - alpha
    scores = np.zeros(n)
    se = np.zeros(n)
    scores[visited] = scale * mean
    se[visited] = scale * np.sqrt(var / n_walks)
    return scores, se
