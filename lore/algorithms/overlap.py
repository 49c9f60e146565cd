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

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from ..errors import InvalidArgumentError
from ._checks import cached_per_matrix, check_choice, check_csr, check_int, check_rows, row_segments
from ._engine import Engine, RowBlocks, check_engine
from ._threads import one_blas_thread

MEASURES = ("adamic_adar", "resource_allocation", "cosine", "idf_cosine", "jaccard", "count")
_NORMALIZED = ("cosine", "idf_cosine", "jaccard")

__all__ = ["MEASURES", "default_max_neighbour_degree", "overlap_explain", "overlap_scores"]


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
    if isinstance(features, sp.spmatrix | sp.sparray) or not isinstance(features, Sequence) or not features:
        raise InvalidArgumentError("features must be a non-empty list of CSR matrices, one per relation")
    feats = [check_csr(f, name=f"features[{r}]") for r, f in enumerate(features)]
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
        trans = [f.T.tocsr() for f in feats]
    elif transposes is None:  # only column degrees are needed: one bincount instead of a transpose
        trans = [np.bincount(f.indices, minlength=f.shape[1]) for f in feats]
    else:
        if len(transposes) != len(feats):
            raise InvalidArgumentError(
                f"transposes must have one matrix per relation ({len(feats)}), got {len(transposes)}"
            )
        trans = [check_csr(t, name=f"transposes[{r}]") for r, t in enumerate(transposes)]
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


def _relation_scores(f, trans, seeds, cap, measure, engine: Engine):
    """Target rows and their similarity to the seeds (summed over seeds) in one relation.

    The seed rows of ``f`` and the rows of ``trans`` they point to are gathered through ``engine``
    (the sparse row product ``F[seeds] @ F.T``), in the same order on every engine.
    """
    fo = engine.rows(f, cache_on=f, name="overlap:features")
    to = engine.rows(trans, cache_on=trans, name="overlap:transpose")
    fcols, fvals, flens = fo.gather(seeds)
    spos = np.repeat(np.arange(seeds.size), flens)
    cols = fcols.astype(np.int64, copy=False)
    deg = to.row_lengths()[cols]
    x = fvals.astype(np.float64, copy=False)
    keep = (deg <= cap) & (deg > 0) & (x != 0)
    spos, cols, x, deg = spos[keep], cols[keep], x[keep], deg[keep]
    if cols.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    coef = x * _discount(measure, deg, f.shape[0])
    tcols, tdata, tlens = to.gather(cols)
    targets = tcols.astype(np.int64, copy=False)
    vals = tdata * np.repeat(coef, tlens)
    if measure not in _NORMALIZED:
        return targets, vals
    norms = _all_squared_norms(f, trans, fo, to, cap, measure, engine.name)
    tpos = np.repeat(spos, tlens)
    out_t, out_v = [], []
    for s in range(seeds.size):  # a loop over the (few) seeds, not over nodes
        mine = tpos == s if seeds.size > 1 else slice(None)
        uniq, dots = _sum_by_target(targets[mine], vals[mine])
        if uniq.size == 0:
            continue
        mine_s = spos == s
        seed_norm2 = float(np.sum(x[mine_s] ** 2 * _column_weight(measure, deg[mine_s], f.shape[0])))
        target_norm2 = norms[uniq]
        if measure in ("cosine", "idf_cosine"):
            denom = np.sqrt(seed_norm2 * target_norm2)
        else:
            denom = seed_norm2 + target_norm2 - dots
        # a zero denominator means nothing weighs anything (idf_cosine: columns every row touches)
        sim = np.divide(dots, denom, out=np.zeros_like(dots), where=denom > 0)
        out_t.append(uniq)
        out_v.append(sim)
    if not out_t:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    return np.concatenate(out_t), np.concatenate(out_v)


def _sum_by_target(targets: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct targets (sorted) and their summed values; O(t log t) in the number of entries only."""
    uniq, inv = np.unique(targets, return_inverse=True)
    return uniq, np.bincount(inv.ravel(), weights=vals, minlength=uniq.size)


@one_blas_thread
def overlap_scores(
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
    all_targets, all_vals = [], []
    for f, t, w in zip(feats, trans, ws, strict=True):
        if w == 0:
            continue
        targets, vals = _relation_scores(f, t, seed_rows, cap, measure, check_engine(engine))
        all_targets.append(targets)
        all_vals.append(vals * w)
    scores = np.zeros(n)
    if all_targets:
        np.add.at(scores, np.concatenate(all_targets), np.concatenate(all_vals))
    scores[seed_rows] = 0.0
    return scores


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
