"""Neighbourhood overlap: rows that share (few-user) neighbours with the seed rows.

Each relation ``r`` is a CSR feature matrix ``F_r`` (N x M_r): row = symbol, column = neighbour in
that relation (a callee, a caller, a type...), value = edge weight or confidence. The score of row
``j`` for seed ``i`` is a weighted sum over relations of a similarity of rows ``i`` and ``j``::

    score(j) = sum_seeds sum_r weight_r * sim_r(i, j)

with, over the shared neighbours ``k`` (columns stored in both rows)::

    count                sum_k x_ik x_jk
    adamic_adar          sum_k x_ik x_jk / log(1 + deg_k)
    resource_allocation  sum_k x_ik x_jk / deg_k
    cosine               sum_k x_ik x_jk / (|x_i| |x_j|)
    idf_cosine           cosine of the rows reweighted by idf_k = log((N + 1) / (deg_k + 1))
                         (TF-IDF: normalised like cosine, and a neighbour shared by many rows counts less)
    jaccard              sum_k x_ik x_jk / (|x_i|^2 + |x_j|^2 - sum_k x_ik x_jk)   (Tanimoto)

Design decisions
----------------
* ``deg_k`` is the **unweighted** number of rows that touch column ``k`` (stored entries of row
  ``k`` of the transpose): the hub discount measures how many symbols share a neighbour, while the
  confidence of each edge already enters through ``x_ik x_jk``.
* Adamic-Adar uses ``1 / log(1 + deg_k)`` instead of the textbook ``1 / log(deg_k)``: it is finite for
  every column (``deg_k = 1`` gives ``1 / log 2``), still decreasing, and for a shared neighbour
  (``deg_k >= 2``) it differs from the textbook value by less than a factor 1.6.
* Jaccard on weighted rows is the Tanimoto coefficient; on 0/1 rows it equals set Jaccard.
* ``idf_cosine`` is the cosine of ``x_ik * idf_k``: the products carry ``idf_k ** 2`` and the norms
  are taken over the reweighted rows. A column touched by every row has ``idf`` near 0.
* Columns touched by more than ``max_neighbour_degree`` rows are dropped from the relation (for every
  measure, norms included): a hub like ``len`` called by 5,000 functions says nothing about
  similarity, and skipping it bounds the cost of a query (a seed calling a hub with 100k callers
  would otherwise touch 100k rows). The default is ``default_max_neighbour_degree(N)``.
* Cosine and Jaccard need every row's norm: the first query on a feature matrix computes them all
  (one O(nnz) pass) and caches them per matrix object; later queries only index that array.
* The seed rows themselves always score 0, and duplicate seeds count once.

Cost: per relation, one sparse row product of the seed rows with the cached transpose, computed as a
gather over the stored entries actually touched; no N x N precomputation and no full pass over the
matrix per query.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from operator import is_
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InvalidArgumentError
from ._checks import cached_per_matrix, check_choice, check_csr, check_int, check_rows, row_segments
from ._csr import Csr, is_sparse
from ._engine import LOCAL, Engine, LocalEngine, RowBlocks, check_engine
from ._threads import one_blas_thread

if TYPE_CHECKING:
    import scipy.sparse as sp

MEASURES = ("adamic_adar", "resource_allocation", "cosine", "idf_cosine", "jaccard", "count")
_NORMALIZED = ("cosine", "idf_cosine", "jaccard")

__all__ = ["MEASURES", "default_max_neighbour_degree", "overlap_explain", "overlap_explain_many", "overlap_scores"]


def default_max_neighbour_degree(n_rows: int) -> int:
    """The default hub cut-off: 5% of the rows, but at least 100 and at most 2,000.

    Parameters
    ----------
    n_rows : int
        Number of rows N of the feature matrices.

    Returns
    -------
    int

    Examples
    --------
    >>> default_max_neighbour_degree(10), default_max_neighbour_degree(10_000), default_max_neighbour_degree(10**6)
    (100, 500, 2000)
    """
    return int(min(2000, max(100, n_rows // 20)))


def _check_inputs(features, weights, measure, transposes, max_neighbour_degree, *, need_transposes=True):
    if is_sparse(features) or not isinstance(features, Sequence) or not features:
        raise InvalidArgumentError("features must be a non-empty list of CSR matrices, one per relation")
    # scipy CSR matrices or CSR arrays (Csr) pass as they are: the kernels below only read their arrays
    feats = [f if _is_csr(f) else check_csr(f, name=f"features[{r}]") for r, f in enumerate(features)]
    n = feats[0].shape[0]
    for r, f in enumerate(feats):
        if f.shape[0] != n:
            raise InvalidArgumentError(
                f"features[{r}] has {f.shape[0]} rows, features[0] has {n}; all need the same rows"
            )
    if weights is None:
        ws = np.ones(len(feats))
    else:
        ws = np.asarray(weights, dtype=np.float64)
        if ws.shape != (len(feats),) or not np.isfinite(ws).all() or (ws < 0).any():
            raise InvalidArgumentError(
                f"weights must be {len(feats)} finite nonnegative numbers, one per relation"
            )
    check_choice(measure, MEASURES, what="measure")
    if transposes is None and need_transposes:
        trans = [(f.to_scipy() if isinstance(f, Csr) else f).T.tocsr() for f in feats]
    elif transposes is None:  # only column degrees are needed: one bincount instead of a transpose
        trans = [np.bincount(f.indices, minlength=f.shape[1]) for f in feats]
    else:
        if len(transposes) != len(feats):
            raise InvalidArgumentError(
                f"transposes must have one matrix per relation ({len(feats)}), got {len(transposes)}"
            )
        trans = [t if _is_csr(t) else check_csr(t, name=f"transposes[{r}]")
                 for r, t in enumerate(transposes)]
        for r, (f, t) in enumerate(zip(feats, trans, strict=True)):
            if t.shape != (f.shape[1], f.shape[0]):
                raise InvalidArgumentError(
                    f"transposes[{r}] must have shape {(f.shape[1], f.shape[0])}, got {t.shape}"
                )
    cap = (
        default_max_neighbour_degree(n)
        if max_neighbour_degree is None
        else check_int("max_neighbour_degree", max_neighbour_degree, 1)
    )
    return feats, trans, ws, n, cap


def _is_csr(m) -> bool:
    """A scipy ``csr_matrix`` or CSR arrays: read as they are (anything else goes through ``check_csr``)."""
    return (isinstance(m, Csr) and m.format == "csr") or type(m).__name__ == "csr_matrix" and is_sparse(m)


def _discount(measure: str, deg: np.ndarray, n_rows: int) -> np.ndarray | float:
    """The factor each shared neighbour's product ``x_ik x_jk`` is multiplied by."""
    if measure == "adamic_adar":
        return 1.0 / np.log1p(deg)
    if measure == "resource_allocation":
        return 1.0 / deg
    if measure == "idf_cosine":
        return _idf(deg, n_rows) ** 2
    return 1.0


def _idf(deg: np.ndarray, n_rows: int) -> np.ndarray:
    return np.log((n_rows + 1.0) / (np.asarray(deg, dtype=np.float64) + 1.0))


def _column_degree(trans: sp.csr_matrix | np.ndarray, cols: np.ndarray) -> np.ndarray:
    """deg_k for ``cols``, from the transpose (O(len(cols))) or from a precomputed degree array."""
    if isinstance(trans, np.ndarray):
        return trans[cols]
    return (trans.indptr[cols + 1] - trans.indptr[cols]).astype(np.int64, copy=False)


def _kept_entries(f: sp.csr_matrix, trans, rows: np.ndarray, cap: int):
    """(row position, column, value, column degree) of the stored entries of ``rows`` under the cap."""
    idx, lens = row_segments(f.indptr, rows)
    pos = np.repeat(np.arange(rows.size), lens)
    cols = f.indices[idx].astype(np.int64, copy=False)
    deg = _column_degree(trans, cols)
    vals = f.data[idx].astype(np.float64, copy=False)
    keep = (deg <= cap) & (deg > 0) & (vals != 0)
    return pos[keep], cols[keep], vals[keep], deg[keep]


def _squared_norms(f: sp.csr_matrix, trans, rows: np.ndarray, cap: int, measure: str) -> np.ndarray:
    """Squared norms of ``rows`` over the columns under the cap (idf-weighted for ``idf_cosine``).

    Per-matrix cached when ``trans`` is a matrix: one O(nnz) pass, then an index per query.
    """
    if isinstance(trans, np.ndarray):  # explain without transposes: a handful of rows
        pos, _, vals, deg = _kept_entries(f, trans, rows, cap)
        return np.bincount(pos, weights=vals * vals * _column_weight(measure, deg, f.shape[0]), minlength=rows.size)

    def compute() -> np.ndarray:
        deg = np.diff(trans.indptr)[f.indices]
        weight = np.where(deg <= cap, _column_weight(measure, deg, f.shape[0]), 0.0)
        owner = np.repeat(np.arange(f.shape[0]), np.diff(f.indptr))
        return np.bincount(owner, weights=f.data.astype(np.float64) ** 2 * weight, minlength=f.shape[0])

    return cached_per_matrix(f, f"squared_norms:{measure}<={cap}", compute, depends_on=(trans,))[rows]


def _column_weight(measure: str, deg: np.ndarray, n_rows: int) -> np.ndarray:
    """Per-entry weight of the squared norm: ``idf_k ** 2`` for ``idf_cosine``, else 1."""
    if measure == "idf_cosine":
        return _idf(deg, n_rows) ** 2
    return np.ones(np.shape(deg))


def norm_rows(block: sp.csr_matrix, first: int, rows: np.ndarray | None, col_degree: np.ndarray, cap: int,
              measure: str, n_rows: int) -> np.ndarray:
    """Squared norms of a row block over the columns under the cap (row-wise; see ``_squared_norms``)."""
    deg = col_degree[block.indices]
    weight = np.where(deg <= cap, _column_weight(measure, deg, n_rows), 0.0)
    owner = np.repeat(np.arange(block.shape[0]), np.diff(block.indptr))
    return np.bincount(owner, weights=block.data.astype(np.float64) ** 2 * weight, minlength=block.shape[0])


def _all_squared_norms(f, trans, fo: RowBlocks, to: RowBlocks, cap: int, measure: str, engine: str) -> np.ndarray:
    """Every row's squared norm, by row blocks of ``f`` on the engine; cached per matrix pair."""
    norms = cached_per_matrix(
        f, f"squared_norms:{measure}<={cap}:{engine}",
        lambda: fo.map_rows(norm_rows, None, to.row_lengths(), cap, measure, f.shape[0]), depends_on=(trans,),
    )
    assert isinstance(norms, np.ndarray)
    return norms


# Per-matrix values a query reads (column degrees, row norms), kept while the matrix lives and its
# arrays are the same objects: checked by identity, which costs nanoseconds, where a query on a
# 45k-symbol graph takes a fraction of a millisecond. The values are what the engines compute.
_MEMO: dict[tuple[int, object], tuple[weakref.ref, tuple, object]] = {}
_MEMO_SIZE = 64


def _memo(matrix: sp.csr_matrix, name: object, compute: Callable[[], object], *, depends_on=()) -> object:
    """``compute()`` once per (matrix object, name), recomputed if its arrays (or those of
    ``depends_on``) are replaced."""
    key = (id(matrix), name)
    arrays = (matrix.data, matrix.indices, matrix.indptr,
              *(a for m in depends_on for a in (m.data, m.indices, m.indptr)))
    hit = _MEMO.get(key)
    if hit is not None and hit[0]() is matrix and len(hit[1]) == len(arrays) and all(map(is_, hit[1], arrays)):
        return hit[2]
    value = compute()

    def forget(_ref: weakref.ref, key: tuple[int, object] = key, memo: dict = _MEMO) -> None:
        memo.pop(key, None)

    try:
        ref = weakref.ref(matrix, forget)
    except TypeError:  # not weak-referenceable: just don't keep it
        return value
    while len(_MEMO) >= _MEMO_SIZE:  # the oldest entry goes (another thread may have taken it already)
        try:
            _MEMO.pop(next(iter(_MEMO)), None)
        except (RuntimeError, StopIteration):
            break
    _MEMO[key] = (ref, arrays, value)
    return value


def _column_degrees(trans: sp.csr_matrix) -> np.ndarray:
    """deg_k of every column: the row lengths of the transpose (what ``RowBlocks.row_lengths`` gives)."""
    deg = _memo(trans, "row_lengths", lambda: np.diff(trans.indptr).astype(np.int64, copy=False))
    assert isinstance(deg, np.ndarray)
    return deg


def _gather(engine: Engine, m: sp.csr_matrix, rows: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stored entries of ``rows`` of ``m`` (column indices, values, lengths) through ``engine``;
    on the local engine straight from the CSR arrays, as its row blocks would give them."""
    if type(engine) is not LocalEngine:
        return engine.rows(m, cache_on=m, name=name).gather(rows)
    if rows.size == 1:
        lo, hi = int(m.indptr[rows[0]]), int(m.indptr[rows[0] + 1])
        return m.indices[lo:hi], m.data[lo:hi], np.array([hi - lo], dtype=np.int64)
    idx, lens = row_segments(m.indptr, rows)
    return m.indices[idx], m.data[idx], lens


def _norms(f: sp.csr_matrix, trans: sp.csr_matrix, cap: int, measure: str, engine: Engine) -> np.ndarray:
    """Every row's squared norm (see ``_all_squared_norms``), kept per matrix pair."""

    def compute() -> np.ndarray:
        fo = engine.rows(f, cache_on=f, name="overlap:features")
        to = engine.rows(trans, cache_on=trans, name="overlap:transpose")
        return _all_squared_norms(f, trans, fo, to, cap, measure, engine.name)

    norms = _memo(f, ("norms", measure, cap, engine.name, id(trans)), compute, depends_on=(trans,))
    assert isinstance(norms, np.ndarray)
    return norms


def _scores(feats, trans, ws, seeds: np.ndarray, n: int, cap: int, measure: str, engine: Engine) -> np.ndarray:
    """The overlap score of every row, all relations in one pass (see :func:`overlap_scores`).

    Per relation, the seed rows of ``F`` and the rows of ``F.T`` they point to are gathered through
    ``engine`` (the sparse row product ``F[seeds] @ F.T``); then every relation's products are summed
    per (relation, seed, target) at once, normalised, weighted and added up. The sums run over the
    same entries in the same order as a relation-by-relation loop would (relation, then seed, then
    stored entry), so the scores are the same bits.
    """
    n_seeds = seeds.size
    span = n_seeds * n  # key = (relation slot * n_seeds + seed position) * n + target
    keys: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    slot_of: list[tuple[float, np.ndarray]] = []  # per relation kept: (weight, each seed's squared norm)
    norm_of: list[tuple[sp.csr_matrix, sp.csr_matrix]] = []
    for f, t, w in zip(feats, trans, ws, strict=True):
        if w == 0:
            continue
        fcols, fvals, flens = _gather(engine, f, seeds, "overlap:features")
        if fcols.size == 0:
            continue
        cols = fcols.astype(np.int64, copy=False)
        deg = _column_degrees(t)[cols]
        x = fvals.astype(np.float64, copy=False)
        keep = (deg <= cap) & (deg > 0) & (x != 0)
        spos = np.repeat(np.arange(n_seeds), flens)[keep] if n_seeds > 1 else None
        cols, x, deg = cols[keep], x[keep], deg[keep]
        if cols.size == 0:
            continue
        coef = x * _discount(measure, deg, n)
        tcols, tdata, tlens = _gather(engine, t, cols, "overlap:transpose")
        targets = tcols.astype(np.int64, copy=False)
        v = tdata * np.repeat(coef, tlens)
        if measure not in _NORMALIZED:  # every product adds to its target as it is
            keys.append(targets)
            vals.append(v * w)
            continue
        key = targets + len(slot_of) * span
        if spos is not None:
            key += np.repeat(spos, tlens) * n
        keys.append(key)
        vals.append(v)
        sq = x**2 * _column_weight(measure, deg, n)
        if spos is None:
            seed_norm2 = np.array([float(np.sum(sq))])
        else:  # each seed's own sum (numpy's pairwise summation over that seed's entries)
            bounds = np.searchsorted(spos, np.arange(n_seeds + 1))
            seed_norm2 = np.array([float(np.sum(sq[bounds[i]:bounds[i + 1]])) for i in range(n_seeds)])
        slot_of.append((w, seed_norm2))
        norm_of.append((f, t))
    if not keys:
        return np.zeros(n)
    key, v = np.concatenate(keys), np.concatenate(vals)
    if measure not in _NORMALIZED:
        scores = np.bincount(key, weights=v, minlength=n)  # in entry order: np.add.at's sums
        scores[seeds] = 0.0
        return scores
    uniq, inv = np.unique(key, return_inverse=True)
    dots = np.bincount(inv.ravel(), weights=v, minlength=uniq.size)
    slot, rest = np.divmod(uniq, span)
    spos_u, target = np.divmod(rest, n)
    bounds = np.searchsorted(slot, np.arange(len(slot_of) + 1))
    seed_norm2 = np.empty(uniq.size)
    target_norm2 = np.empty(uniq.size)
    weight = np.empty(uniq.size)
    for k, ((w, s_norm2), (f, t)) in enumerate(zip(slot_of, norm_of, strict=True)):
        lo, hi = bounds[k], bounds[k + 1]
        seed_norm2[lo:hi] = s_norm2[spos_u[lo:hi]]
        target_norm2[lo:hi] = _norms(f, t, cap, measure, engine)[target[lo:hi]]
        weight[lo:hi] = w
    if measure in ("cosine", "idf_cosine"):
        denom = np.sqrt(seed_norm2 * target_norm2)
    else:
        denom = seed_norm2 + target_norm2 - dots
    # a zero denominator means nothing weighs anything (idf_cosine: columns every row touches)
    sim = np.divide(dots, denom, out=np.zeros_like(dots), where=denom > 0)
    scores = np.bincount(target, weights=sim * weight, minlength=n)  # relation, seed, target order
    scores[seeds] = 0.0
    return scores


def overlap_scores(  # no BLAS call inside (gathers, bincounts, elementwise): no thread pinning needed
    features: Sequence[sp.csr_matrix],
    seeds,
    *,
    weights: Sequence[float] | None = None,
    measure: str = "adamic_adar",
    transposes: Sequence[sp.csr_matrix] | None = None,
    max_neighbour_degree: int | None = None,
    engine: Engine | None = None,
) -> np.ndarray:
    """Score every row by the neighbours it shares with the seed rows.

    Parameters
    ----------
    features : sequence of scipy.sparse CSR matrices
        One N x M_r matrix per relation; ``features[r][i, k]`` is the weight of row ``i``'s edge to
        neighbour ``k`` in relation ``r`` (weights are assumed nonnegative).
    seeds : int or array of int
        Seed rows; scores sum over the distinct seeds.
    weights : sequence of float, optional
        One nonnegative weight per relation (default: all 1.0).
    measure : str
        One of :data:`MEASURES` (see the module docstring for the formulas).
    transposes : sequence of scipy.sparse CSR matrices, optional
        The precomputed CSR transpose of each feature matrix (M_r x N). Pass them whenever you
        query more than once: without them every call transposes every matrix, O(nnz).
    max_neighbour_degree : int, optional
        Neighbours (columns) shared by more rows than this are ignored. Default
        :func:`default_max_neighbour_degree` of N.
    engine : Engine, optional
        Where the row products run (default: this process); the Ray engine holds each feature
        matrix and transpose in row blocks and gathers the rows asked for: the same scores.

    Returns
    -------
    numpy.ndarray
        Length-N float array; 0 for rows sharing nothing with the seeds and for the seeds themselves.

    Raises
    ------
    InvalidArgumentError
        Mismatched shapes, bad weights, seeds out of range or no seeds.
    UnknownAlgorithmError
        ``measure`` not in :data:`MEASURES`.

    See Also
    --------
    overlap_explain : the shared neighbours behind one score.

    Examples
    --------
    Rows 0 and 1 both call column 0 (called by 2 rows) and column 1 (called by 3 rows):

    >>> import scipy.sparse as sp
    >>> calls = sp.csr_matrix([[1, 1, 0], [1, 1, 0], [0, 1, 1], [0, 0, 1]], dtype=float)
    >>> overlap_scores([calls], [0], measure="count").tolist()
    [0.0, 2.0, 1.0, 0.0]
    >>> overlap_scores([calls], [0], measure="resource_allocation").round(3).tolist()
    [0.0, 0.833, 0.333, 0.0]
    """
    feats, trans, ws, n, cap = _check_inputs(features, weights, measure, transposes, max_neighbour_degree)
    seed_rows = check_rows(seeds, n)
    return _scores(feats, trans, ws, seed_rows, n, cap, measure, check_engine(engine))


@one_blas_thread
def overlap_explain(
    features: Sequence[sp.csr_matrix],
    seed: int,
    target: int,
    *,
    weights: Sequence[float] | None = None,
    measure: str = "adamic_adar",
    transposes: Sequence[sp.csr_matrix] | None = None,
    max_neighbour_degree: int | None = None,
    top: int | None = 5,
) -> list[tuple[int, int, float]]:
    """The shared neighbours that earned ``target`` its :func:`overlap_scores` score for ``seed``.

    Parameters
    ----------
    features, weights, measure, transposes, max_neighbour_degree
        As for :func:`overlap_scores`.
    seed, target : int
        One seed row and the row whose score is explained.
    top : int or None
        Keep the ``top`` largest contributions (``None``: all of them).

    Returns
    -------
    list of (relation index, column, contribution)
        Sorted by contribution descending, then column, then relation ascending. The contributions
        of all shared neighbours sum to ``overlap_scores(features, [seed], ...)[target]``; empty when
        ``target == seed`` or nothing is shared.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> calls = sp.csr_matrix([[1, 1, 0], [1, 1, 0], [0, 1, 1], [0, 0, 1]], dtype=float)
    >>> [(r, c, round(v, 3)) for r, c, v in overlap_explain([calls], 0, 1, measure="resource_allocation")]
    [(0, 0, 0.5), (0, 1, 0.333)]
    """
    feats, trans, ws, n, cap = _check_inputs(
        features, weights, measure, transposes, max_neighbour_degree, need_transposes=False
    )
    seed_row = check_rows(seed, n, name="seed")
    target_row = check_rows(target, n, name="target")
    if top is not None:
        check_int("top", top, 1)
    if seed_row[0] == target_row[0]:
        return []
    rels, cols, contribs = [], [], []
    for r, (f, t, w) in enumerate(zip(feats, trans, ws, strict=True)):
        if w == 0:
            continue
        _, cs, xs, deg = _kept_entries(f, t, seed_row, cap)
        _, ct, xt, _ = _kept_entries(f, t, target_row, cap)
        shared, i_s, i_t = np.intersect1d(cs, ct, assume_unique=True, return_indices=True)
        if shared.size == 0:
            continue
        terms = xs[i_s] * xt[i_t] * _discount(measure, deg[i_s], f.shape[0])
        if measure in ("cosine", "idf_cosine"):
            denom = np.sqrt(
                _squared_norms(f, t, seed_row, cap, measure)[0] * _squared_norms(f, t, target_row, cap, measure)[0]
            )
        elif measure == "jaccard":
            denom = np.dot(xs, xs) + np.dot(xt, xt) - terms.sum()
        else:
            denom = 1.0
        terms = terms / denom if denom > 0 else np.zeros_like(terms)
        rels.append(np.full(shared.size, r))
        cols.append(shared)
        contribs.append(w * terms)
    if not rels:
        return []
    rel, col, con = np.concatenate(rels), np.concatenate(cols), np.concatenate(contribs)
    order = np.lexsort((rel, col, -con))
    if top is not None:
        order = order[:top]
    return [(int(rel[i]), int(col[i]), float(con[i])) for i in order]


@one_blas_thread
def overlap_explain_many(
    features: Sequence[sp.csr_matrix],
    seed: int,
    targets,
    *,
    weights: Sequence[float] | None = None,
    measure: str = "adamic_adar",
    transposes: Sequence[sp.csr_matrix] | None = None,
    max_neighbour_degree: int | None = None,
    top: int | None = 5,
) -> list[list[tuple[int, int, float]]]:
    """:func:`overlap_explain` of one seed for many targets at once: one gather per relation, not per target.

    Parameters
    ----------
    features, weights, measure, transposes, max_neighbour_degree, top
        As for :func:`overlap_explain`.
    seed : int
        The seed row.
    targets : array of int
        The rows whose scores are explained, in any order (repeats allowed).

    Returns
    -------
    list of list of (relation index, column, contribution)
        One list per target, in the order of ``targets``, each equal (the same floats, the same
        order) to ``overlap_explain(features, seed, target, ...)``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> calls = sp.csr_matrix([[1, 1, 0], [1, 1, 0], [0, 1, 1], [0, 0, 1]], dtype=float)
    >>> [[(r, c, round(v, 3)) for r, c, v in why]
    ...  for why in overlap_explain_many([calls], 0, [1, 2, 3, 0], measure="resource_allocation")]
    [[(0, 0, 0.5), (0, 1, 0.333)], [(0, 1, 0.333)], [], []]
    """
    feats, trans, ws, n, cap = _check_inputs(
        features, weights, measure, transposes, max_neighbour_degree, need_transposes=False
    )
    seed_row = check_rows(seed, n, name="seed")
    tgt = np.asarray(targets)
    if tgt.ndim != 1 or (tgt.size and not np.issubdtype(tgt.dtype, np.integer)):
        raise InvalidArgumentError("targets must be a 1-d array of row ids")
    tgt = tgt.astype(np.int64, copy=False)
    if tgt.size and (tgt.min() < 0 or tgt.max() >= n):
        raise InvalidArgumentError(f"targets must be row ids in [0, {n}), got values up to {int(tgt.max())}")
    if top is not None:
        check_int("top", top, 1)
    out: list[list[tuple[int, int, float]]] = [[] for _ in range(tgt.size)]
    if tgt.size == 0:
        return out
    pairs, rels, cols, contribs = [], [], [], []
    for r, (f, t, w) in enumerate(zip(feats, trans, ws, strict=True)):
        if w == 0:
            continue
        lo, hi = int(f.indptr[seed_row[0]]), int(f.indptr[seed_row[0] + 1])
        cs = f.indices[lo:hi].astype(np.int64, copy=False)
        deg = _column_degree(t, cs)
        xs = f.data[lo:hi].astype(np.float64, copy=False)
        kept = (deg <= cap) & (deg > 0) & (xs != 0)
        cs, xs, deg = cs[kept], xs[kept], deg[kept]
        if cs.size == 0:
            continue
        pos, ct, xt, _ = _kept_entries(f, t, tgt, cap)
        by_col = np.argsort(cs, kind="stable")
        at = np.minimum(np.searchsorted(cs[by_col], ct), cs.size - 1)
        i_s = by_col[at]
        hit = np.flatnonzero((cs[i_s] == ct) & (tgt[pos] != seed_row[0]))
        if not hit.size:
            continue
        if measure == "jaccard":  # its sums run per target by column, as intersect1d gives them
            hit = hit[np.lexsort((ct[hit], pos[hit]))]
        i_s, p, shared = i_s[hit], pos[hit], ct[hit]
        # the same elementwise operations as overlap_explain, on all (target, shared neighbour) at once
        terms = xs[i_s] * xt[hit] * _discount(measure, deg[i_s], f.shape[0])
        if measure in ("cosine", "idf_cosine"):
            if isinstance(t, np.ndarray):  # no transposes: the norms of these rows only
                seed_norm2 = _squared_norms(f, t, seed_row, cap, measure)[0]
                target_norm2 = _squared_norms(f, t, tgt[p], cap, measure)
            else:  # every row's, kept per matrix (the values the scores used)
                norms = _norms(f, t, cap, measure, LOCAL)
                seed_norm2, target_norm2 = norms[seed_row[0]], norms[tgt[p]]
            denom = np.sqrt(seed_norm2 * target_norm2)
        elif measure == "jaccard":  # reductions per pair, in overlap_explain's order (the same rounding)
            seed_dot = np.dot(xs, xs)
            starts = np.searchsorted(pos, np.arange(tgt.size + 1))
            per_pair = np.zeros(tgt.size)
            for k in np.unique(p).tolist():
                xt_k = xt[starts[k]:starts[k + 1]]
                per_pair[k] = seed_dot + np.dot(xt_k, xt_k) - terms[p == k].sum()
            denom = per_pair[p]
        else:
            denom = np.ones(terms.size)
        terms = np.divide(terms, denom, out=np.zeros_like(terms), where=denom > 0)
        pairs.append(p)
        rels.append(np.full(shared.size, r))
        cols.append(shared)
        contribs.append(w * terms)
    if not pairs:
        return out
    pair, rel, col, con = (np.concatenate(a) for a in (pairs, rels, cols, contribs))
    order = np.lexsort((rel, col, -con, pair))
    for i, k, c, v in zip(pair[order].tolist(), rel[order].tolist(), col[order].tolist(), con[order].tolist(),
                          strict=True):
        got = out[i]
        if top is None or len(got) < top:
            got.append((k, c, v))
    return out
