"""Ranker signals: pure, vectorized functions of one seed row and an array of candidate rows.

Each function returns one float per candidate (in the candidates' order). They read plain numpy
arrays and scipy CSR matrices built once per index (by ``lore.graphs._features``); none of them
sees SQL or a symbol name. The hybrid ranker (``lore.graphs.hybrid``) combines them linearly.

Signals by family:

* place: :func:`same_value` (same file, class, directory, kind), :func:`line_proximity` (a decay in
  lines), :func:`line_rank` and :func:`adjacent` (the order of the same-file baseline: the k-th
  nearest definition, the one just before or after), :func:`path_proximity` (how far apart two
  directories are in the package tree);
* words and role: :func:`row_cosine` over row-normalised idf-weighted sparse rows (name tokens,
  decorators, parameter names, base classes) prepared by :func:`idf_normalize`, and BM25 text
  similarity (:func:`bm25_weights`, :func:`bm25_scores`);
* any: :func:`max_normalize` puts an unbounded score (overlap, PageRank, BM25) on [0, 1] per query,
  so that one weight means the same thing for every seed;
* history: :func:`co_change_share` (the share of the seed's commits that also changed the
  candidate) and :func:`saturate` (a count put on [0, 1) without a per-query maximum); for the
  pairs history never saw changed together, :func:`co_change_reach` (changed with what changed with
  the seed) and :func:`file_coupling` (the candidate's file changed with the seed's file);
* edges: :func:`linked` (the seed calls the candidate or the candidate calls the seed: one edge,
  not a shared neighbour) and :func:`is_member` (the candidate is defined inside the seed: a
  class's own methods);
* :func:`top_rows` picks a signal's best candidates (the hybrid ranker's candidate pool is the
  union of several signals' top rows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import InvalidArgumentError
from ._checks import check_csr, row_segments
from ._csr import Csr

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = [
    "bm25_scores",
    "bm25_weights",
    "adjacent",
    "co_change_reach",
    "co_change_share",
    "file_coupling",
    "idf_normalize",
    "is_member",
    "line_proximity",
    "linked",
    "line_rank",
    "max_normalize",
    "path_proximity",
    "row_cosine",
    "same_value",
    "saturate",
    "shared_entries",
    "top_rows",
]


def _rows(cand) -> np.ndarray:
    arr = np.asarray(cand, dtype=np.int64)
    if arr.ndim != 1:
        raise InvalidArgumentError(f"candidates must be a 1-d array of rows, got shape {arr.shape}")
    return arr


def same_value(values: np.ndarray, seed: int, cand, *, missing: int = -1) -> np.ndarray:
    """1.0 where a candidate has the seed's value (file, parent, directory, kind), else 0.0.

    A seed whose value is ``missing`` matches nothing.

    Examples
    --------
    >>> same_value(np.array([3, 3, 4, -1]), 0, [1, 2, 3]).tolist()
    [1.0, 0.0, 0.0]
    >>> same_value(np.array([-1, -1]), 0, [1]).tolist()
    [0.0]
    """
    c = _rows(cand)
    v = values[seed]
    if v == missing:
        return np.zeros(c.size)
    return (values[c] == v).astype(np.float64)


def line_proximity(lines: np.ndarray, seed: int, cand, same_file: np.ndarray, *, scale: float = 30.0) -> np.ndarray:
    """``1 / (1 + |line distance| / scale)`` for candidates in the seed's file, 0 elsewhere.

    Examples
    --------
    >>> line_proximity(np.array([10, 40, 10, 500]), 0, [1, 2, 3], np.array([1.0, 1.0, 0.0])).tolist()
    [0.5, 1.0, 0.0]
    """
    if scale <= 0:
        raise InvalidArgumentError(f"scale must be > 0, got {scale}")
    c = _rows(cand)
    dist = np.abs(lines[c].astype(np.float64) - float(lines[seed]))
    return np.asarray(same_file, dtype=np.float64) / (1.0 + dist / scale)


def _file_order(lines: np.ndarray, seed: int, cand: np.ndarray, same_file) -> tuple[np.ndarray, np.ndarray]:
    """(positions of the same-file candidates, nearest first with ties by row; their signed distance)."""
    pos = np.flatnonzero(np.asarray(same_file) > 0)
    delta = lines[cand[pos]].astype(np.int64) - int(lines[seed])
    order = np.lexsort((cand[pos], np.abs(delta)))
    return pos[order], delta[order]


def line_rank(lines: np.ndarray, seed: int, cand, same_file: np.ndarray) -> np.ndarray:
    """``1 / r`` for the candidate that is the r-th nearest definition of the seed's file, 0 elsewhere.

    The order is the same-file baseline's (line distance, ties by row), so a dominant weight on this
    signal reproduces that baseline exactly, whatever the size of the file; :func:`line_proximity`
    decays in lines instead, which is flat in a long file and steep in a dense one.

    Examples
    --------
    >>> line_rank(np.array([10, 40, 12, 500, 8]), 0, [1, 2, 3, 4], np.array([1.0, 1.0, 0.0, 1.0])).tolist()
    [0.3333333333333333, 1.0, 0.0, 0.5]
    """
    c = _rows(cand)
    out = np.zeros(c.size)
    pos, _ = _file_order(lines, seed, c, same_file)
    out[pos] = 1.0 / np.arange(1, pos.size + 1)
    return out


def adjacent(lines: np.ndarray, seed: int, cand, same_file: np.ndarray) -> np.ndarray:
    """1.0 for the nearest same-file candidate defined before the seed and the nearest one after it.

    Examples
    --------
    >>> adjacent(np.array([10, 40, 12, 500, 8, 2]), 0, [1, 2, 3, 4, 5], np.array([1, 1, 0, 1, 1.0])).tolist()
    [0.0, 1.0, 0.0, 1.0, 0.0]
    """
    c = _rows(cand)
    out = np.zeros(c.size)
    pos, delta = _file_order(lines, seed, c, same_file)
    for side in (delta > 0, delta < 0):
        first = np.flatnonzero(side)
        if first.size:
            out[pos[first[0]]] = 1.0
    return out


def path_proximity(paths: np.ndarray, seed_path: int, cand_paths) -> np.ndarray:
    """``1 / (1 + tree distance)`` between directories given as rows of component ids.

    ``paths`` is a (directories x depth) int array, one row per directory listing its path
    components (ids) from the root, padded with -1. The tree distance is the number of steps up from
    one directory to the deepest common ancestor and down to the other. A path index of -1 (a
    symbol without a file) gets 0.

    Examples
    --------
    >>> paths = np.array([[0, 1, -1], [0, 2, -1], [0, 1, 3], [5, -1, -1]])
    >>> path_proximity(paths, 0, [0, 1, 2, 3]).round(3).tolist()
    [1.0, 0.333, 0.5, 0.25]
    """
    cp = _rows(cand_paths)
    out = np.zeros(cp.size)
    if seed_path < 0 or paths.size == 0:
        return out
    ok = cp >= 0
    sp_ = paths[seed_path]
    other = paths[cp[ok]]
    valid = (other >= 0) & (sp_[None, :] >= 0)
    common = np.cumprod((other == sp_[None, :]) & valid, axis=1).sum(axis=1)
    depth_s = int((sp_ >= 0).sum())
    depth_c = (other >= 0).sum(axis=1)
    out[ok] = 1.0 / (1.0 + depth_s + depth_c - 2 * common)
    return out


def idf_normalize(presence: sp.csr_matrix, *, max_df: float = 0.05, min_rows: int = 100) -> sp.csr_matrix:
    """Rows reweighted by ``idf_k = log((N + 1) / (df_k + 1))`` and scaled to unit length.

    Columns present in more than ``max(min_rows, max_df * N)`` rows (a token like ``get``, a decorator
    like ``property`` on thousands of rows) are dropped: they say little and would make every query
    touch their whole column. Then :func:`row_cosine` is one sparse product.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = idf_normalize(sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 1], [0, 0, 0]], dtype=float)))
    >>> np.round(np.asarray(m.multiply(m).sum(axis=1)).ravel(), 6).tolist()
    [1.0, 1.0, 0.0]
    """
    m = check_csr(presence, name="presence")
    n = m.shape[0]
    return idf_apply(m, idf_vector(np.bincount(m.indices, minlength=m.shape[1]), n, max_df=max_df,
                                   min_rows=min_rows))


def idf_vector(df: np.ndarray, n: int, *, max_df: float = 0.05, min_rows: int = 100) -> np.ndarray:
    """The column weights :func:`idf_normalize` gives rows of ``n`` with the document frequencies ``df``.

    Examples
    --------
    >>> idf_vector(np.array([2, 1, 0]), 3).round(3).tolist()
    [0.288, 0.693, 1.386]
    """
    df = np.asarray(df).astype(np.float64)
    idf = np.log((n + 1.0) / (df + 1.0))
    idf[df > max(min_rows, max_df * n)] = 0.0
    return idf


def idf_apply(presence, idf: np.ndarray) -> sp.csr_matrix:
    """Rows of ``presence`` weighted by ``idf`` (:func:`idf_vector`) and scaled to unit length.

    Every step works within a row, so the rows of a row slice come out with the bits the whole
    matrix's rows have: the query side weighs only the rows it reads
    (:mod:`lore.graphs._feature_weights`).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 1], [0, 0, 0]], dtype=float))
    >>> whole = idf_apply(m, idf_vector(np.array([2, 1, 1]), 3))
    >>> part = idf_apply(m[[1]], idf_vector(np.array([2, 1, 1]), 3))
    >>> np.array_equal(whole[1].toarray(), part.toarray())
    True
    """
    import scipy.sparse as sp

    m = check_csr(presence, name="presence").astype(np.float64)
    m.data = np.minimum(m.data, 1.0)
    w = (m @ sp.diags(idf)).tocsr()
    w.eliminate_zeros()
    norms = np.sqrt(np.asarray(w.multiply(w).sum(axis=1)).ravel())
    inv = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    return (sp.diags(inv) @ w).tocsr()


def row_cosine(normalized: sp.csr_matrix, seed: int, cand) -> np.ndarray:
    """Cosine of the seed's row with each candidate's row of an :func:`idf_normalize` d matrix.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = idf_normalize(sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 1], [1, 1, 0]], dtype=float)))
    >>> row_cosine(m, 0, [1, 2]).round(3).tolist()
    [0.0, 1.0]
    """
    c = _rows(cand)
    if c.size == 0:
        return np.zeros(0)
    if hasattr(normalized, "local"):  # rows weighed when read (lore.graphs._feature_weights): the same bits
        normalized, seed, c = normalized.local(seed, c)
    pos, _cols, vals = shared_entries(normalized, seed, c)
    return np.bincount(pos, weights=vals, minlength=c.size)


def shared_entries(matrix: sp.csr_matrix, seed: int, cand) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(candidate position, column, product of the two values) of every column the seed's row and a
    candidate's row both store: one gather over the candidates' entries, no sparse matrix built.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = sp.csr_matrix(np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 1.0], [4.0, 0.0, 0.0]]))
    >>> [a.tolist() for a in shared_entries(m, 0, np.array([1, 2]))]
    [[0, 1], [1, 0], [6.0, 4.0]]
    """
    c = _rows(cand)
    lo, hi = matrix.indptr[seed], matrix.indptr[seed + 1]
    seed_cols, seed_vals = matrix.indices[lo:hi], matrix.data[lo:hi]
    if seed_cols.size == 0 or c.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    idx, lens = row_segments(matrix.indptr, c)
    cols = matrix.indices[idx]
    order = np.argsort(seed_cols, kind="stable")
    sc, sv = seed_cols[order], seed_vals[order]
    at = np.minimum(np.searchsorted(sc, cols), sc.size - 1)
    hit = sc[at] == cols
    pos = np.repeat(np.arange(c.size), lens)[hit]
    return pos, cols[hit].astype(np.int64), matrix.data[idx][hit] * sv[at[hit]]


def bm25_weights(tf: sp.csr_matrix, *, k1: float = 1.2, b: float = 0.75) -> sp.csc_matrix:
    """Per (row, term) BM25 weights of a term-frequency matrix, as CSC (a query sums a few columns).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> w = bm25_weights(sp.csr_matrix(np.array([[1, 0], [1, 1], [0, 1]], dtype=float)))
    >>> w.shape, w.format
    ((3, 2), 'csc')
    """
    import scipy.sparse as sp

    tf = check_csr(tf, name="tf")
    if tf.dtype != np.float64:
        tf = tf.astype(np.float64)
    if not tf.has_canonical_format:  # a pair listed twice counts once, with its counts added
        tf = tf.copy()
        tf.sum_duplicates()
    n = tf.shape[0]
    row = np.repeat(np.arange(n, dtype=np.int32), np.diff(tf.indptr))
    dl = np.bincount(row, weights=tf.data, minlength=n)
    avgdl = bm25_avgdl(dl)
    idf = bm25_idf(np.bincount(tf.indices, minlength=tf.shape[1]), n)
    # the weights a block of pairs at a time, the same expression element for element: the
    # temporaries of one expression over every pair were the peak of the kernel's feature build
    w = np.empty(tf.nnz, dtype=np.float64)
    for k in range(0, tf.nnz, 1 << 20):
        r, c, x = row[k:k + (1 << 20)], tf.indices[k:k + (1 << 20)], tf.data[k:k + (1 << 20)]
        w[k:k + (1 << 20)] = bm25_entries(idf[c], x, dl[r], avgdl, k1=k1, b=b)
    del row
    return sp.csr_matrix((w, tf.indices, tf.indptr), shape=tf.shape).tocsc()


def bm25_avgdl(dl: np.ndarray) -> float:
    """The mean document length BM25 weighs rows against (1.0 for no rows or no words)."""
    return float(dl.mean()) if dl.size and dl.mean() > 0 else 1.0


def bm25_idf(df: np.ndarray, n: int) -> np.ndarray:
    """BM25's column weights for ``n`` rows and the document frequencies ``df``."""
    df = np.asarray(df).astype(np.float64)
    return np.log(1.0 + (n - df + 0.5) / (df + 0.5))


def bm25_entries(idf: np.ndarray, x: np.ndarray, dl: np.ndarray, avgdl: float, *, k1: float = 1.2,
                 b: float = 0.75) -> np.ndarray:
    """BM25 weights of stored entries: their column's ``idf``, their count ``x``, their row's length ``dl``.

    One expression element for element (the row's length norm too), so the weights of a few entries
    gathered at query time have the bits the whole matrix's have (:mod:`lore.graphs._feature_weights`).
    """
    return idf * x * (k1 + 1.0) / (x + k1 * (1.0 - b + b * dl / avgdl))


def bm25_scores(weights: sp.csc_matrix, query_terms) -> np.ndarray:
    """BM25 score of every row for a bag of query term columns (each distinct term counted once).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> w = bm25_weights(sp.csr_matrix(np.array([[1, 0], [1, 1], [0, 1]], dtype=float)))
    >>> s = bm25_scores(w, [1])
    >>> bool(s[0] == 0 and s[1] > 0 and s[2] > s[1])
    True
    """
    cols = np.unique(np.asarray(query_terms, dtype=np.int64))
    if cols.size == 0:
        return np.zeros(weights.shape[0])
    if hasattr(weights, "whole"):  # weighed when read (lore.graphs._feature_weights)
        weights = weights.whole()
    if isinstance(weights, Csr):
        weights = weights.to_scipy()
    return np.asarray(weights[:, cols].sum(axis=1)).ravel()


def max_normalize(values: np.ndarray) -> np.ndarray:
    """Values divided by their maximum (all zeros stay zeros; negative values are clipped to 0).

    Examples
    --------
    >>> max_normalize(np.array([2.0, 1.0, 0.0])).tolist()
    [1.0, 0.5, 0.0]
    >>> max_normalize(np.zeros(2)).tolist()
    [0.0, 0.0]
    """
    v = np.maximum(np.asarray(values, dtype=np.float64), 0.0)
    top = float(v.max()) if v.size else 0.0
    return v / top if top > 0 else v


def top_rows(scores: np.ndarray, allowed: np.ndarray, n: int) -> np.ndarray:
    """The (at most) ``n`` allowed rows with the highest positive scores, best first, ties by row.

    Examples
    --------
    >>> top_rows(np.array([0.5, 0.9, 0.0, 0.9]), np.array([True, True, True, False]), 2).tolist()
    [1, 0]
    """
    s = np.where(allowed, scores, 0.0)
    pos = np.flatnonzero(s > 0)
    if pos.size > n:
        part = np.argpartition(-s[pos], n - 1)[:n]
        cut = s[pos[part]].min()
        pos = pos[s[pos] >= cut]  # keep every row tied with the n-th, then order and cut by row
    order = np.lexsort((pos, -s[pos]))
    return pos[order][:n]


def co_change_share(together: np.ndarray, seed_changes: float) -> np.ndarray:
    """``together / seed_changes``: the share of the seed's commits that also changed each candidate.

    The confidence of the association rule "seed changed -> candidate changed" (Zimmermann et al.,
    2005). A seed no commit changed gives 0 everywhere.

    Examples
    --------
    >>> co_change_share(np.array([3.0, 0.0, 12.0]), 12).tolist()
    [0.25, 0.0, 1.0]
    >>> co_change_share(np.array([1.0]), 0).tolist()
    [0.0]
    """
    t = np.maximum(np.asarray(together, dtype=np.float64), 0.0)
    if seed_changes <= 0:
        return np.zeros(t.size)
    return np.minimum(t / float(seed_changes), 1.0)


def agreement(*evidence: np.ndarray) -> np.ndarray:
    """Per candidate, the strongest of several evidences in [0, 1] (clipped): how much structure, place
    or words already say about it. History multiplied by it can reorder what they put forward, never lift
    a candidate none of them sees.

    Examples
    --------
    >>> agreement(np.array([0.2, 0.0, 0.0]), np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.4, 0.0])).tolist()
    [1.0, 0.4, 0.0]
    """
    if not evidence:
        return np.zeros(0)
    return np.clip(np.max(np.vstack([np.asarray(e, dtype=np.float64) for e in evidence]), axis=0), 0.0, 1.0)


def saturate(counts: np.ndarray) -> np.ndarray:
    """``1 - 1 / (1 + count)``: 0 for none, 0.5 for one, 0.8 for four; the same scale for every query.

    Examples
    --------
    >>> saturate(np.array([0.0, 1.0, 4.0])).tolist()
    [0.0, 0.5, 0.8]
    """
    c = np.maximum(np.asarray(counts, dtype=np.float64), 0.0)
    return 1.0 - 1.0 / (1.0 + c)


def linked(out_edges: sp.csr_matrix, in_edges: sp.csr_matrix, seed: int, cand) -> np.ndarray:
    """1.0 where the seed has an edge to the candidate (``out_edges``) or the candidate one to the seed.

    ``in_edges`` is the transpose of ``out_edges`` (CSR both), so both directions are one row read:
    for calls, the seed's callees and callers. Unlike a shared neighbour, a direct edge means that
    changing one side's signature or behaviour is felt by the other.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> out = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]], dtype=float))
    >>> linked(out, out.T.tocsr(), 0, [1, 2, 3]).tolist()
    [1.0, 1.0, 0.0]
    """
    c = _rows(cand)
    out = check_csr(out_edges, name="out_edges", arrays=True)
    inn = check_csr(in_edges, name="in_edges", arrays=True)
    if out.shape != inn.shape[::-1]:
        raise InvalidArgumentError(f"in_edges {inn.shape} is not the transpose of out_edges {out.shape}")
    near = np.concatenate([out.indices[out.indptr[seed]:out.indptr[seed + 1]],
                           inn.indices[inn.indptr[seed]:inn.indptr[seed + 1]]])
    return np.isin(c, near).astype(np.float64)


def is_member(parent: np.ndarray, seed: int, cand) -> np.ndarray:
    """1.0 where the candidate is defined directly inside the seed (``parent[candidate] == seed``).

    Examples
    --------
    >>> is_member(np.array([-1, 0, 0, 1]), 0, [1, 2, 3]).tolist()
    [1.0, 1.0, 0.0]
    """
    c = _rows(cand)
    return (np.asarray(parent)[c] == seed).astype(np.float64)


def co_change_reach(co_change, seed: int, cand) -> np.ndarray:
    """Indirect coupling: ``sum_k co[seed, k] * co[k, c]``, the commits that changed the candidate together
    with a symbol that changed together with the seed (two steps in the co-change graph).

    ``co_change`` is the symmetric CSR count matrix (no diagonal). Code that changes with the seed's partners
    is likely to change with the seed itself next, even where the two never changed in one commit.

    Examples
    --------
    >>> co = Csr(np.array([2.0, 2.0, 3.0, 3.0]), np.array([1, 0, 2, 1]), np.array([0, 1, 3, 4]), (3, 3))
    >>> co_change_reach(co, 0, [1, 2]).tolist()
    [0.0, 6.0]
    """
    c = _rows(cand)
    lo, hi = int(co_change.indptr[seed]), int(co_change.indptr[seed + 1])
    partners, w = co_change.indices[lo:hi].astype(np.int64), np.asarray(co_change.data[lo:hi], dtype=np.float64)
    if partners.size == 0 or c.size == 0:
        return np.zeros(c.size)
    idx, lens = row_segments(co_change.indptr, partners)
    reach = np.bincount(co_change.indices[idx], weights=np.repeat(w, lens) * co_change.data[idx],
                        minlength=co_change.shape[1])
    return reach[c]


def file_coupling(co_change, changes: np.ndarray, file: np.ndarray, seed_file_rows: np.ndarray, cand) -> np.ndarray:
    """File-level coupling: per candidate, the co-changes between the symbols of the seed's file
    (``seed_file_rows``) and those of the candidate's file, over the commits that changed the seed's file's
    symbols (clipped to 1; 0 for a candidate without a file or a seed file no commit changed).

    A coarser grain than the symbols' own pairs: two files that change together couple their
    definitions, also the pairs that never changed in one commit yet.

    Examples
    --------
    >>> co = Csr(np.array([1.0, 1.0]), np.array([2, 0]), np.array([0, 1, 1, 2]), (3, 3))
    >>> file_coupling(co, np.array([2, 0, 1]), np.array([0, 0, 1]), np.array([0, 1]), [1, 2]).tolist()
    [0.0, 0.5]
    """
    c = _rows(cand)
    rows = np.asarray(seed_file_rows, dtype=np.int64)
    total = float(np.asarray(changes, dtype=np.float64)[rows].sum()) if rows.size else 0.0
    if total <= 0 or c.size == 0:
        return np.zeros(c.size)
    idx, _ = row_segments(co_change.indptr, rows)
    files = np.asarray(file)[co_change.indices[idx]]
    ok = files >= 0
    per_file = np.bincount(files[ok], weights=np.asarray(co_change.data[idx], dtype=np.float64)[ok],
                           minlength=int(np.max(file)) + 1 if len(file) else 0)
    cf = np.asarray(file)[c]
    out = np.zeros(c.size)
    has = (cf >= 0) & (cf < per_file.size)
    out[has] = np.minimum(per_file[cf[has]] / total, 1.0)
    return out
