"""The hybrid ranker: structure, place, words and role combined linearly, every row explained.

For one seed row:

1. **candidates** are the union of each family's best rows (``pool`` per family): neighbourhood
   overlap, push PageRank, the seed's file by line distance, BM25 over name + signature + summary.
   Place and words thus bring in rows that structure alone never reaches;
2. **signals** (:data:`SIGNALS`) are computed for the candidates only, each by a pure function of
   :mod:`lore.algorithms._signals`; unbounded scores are divided by their best candidate's
   (``structure``, ``text``), and also given on an absolute scale (``structure_abs``: the overlap
   over its total relation weight; ``text_abs``: BM25 over the seed's own BM25), so that a weak best
   candidate is not promoted to 1.0. Place is given both as a decay in lines (``line_near``) and as
   the same-file baseline's order (``line_rank`` = 1/r for the r-th nearest definition,
   ``adjacent`` for the definition just before and after): with a dominant weight the ranker
   reproduces that baseline exactly, whatever the file's size;
3. the **score** is ``x @ weights`` (weights fit by ``lore bench fit``: coordinate ascent on
   MRR@10 + Recall@10 over outside ground truth); ties go to the lower row (= symbol id);
4. the **why** of a returned row lists each signal's contribution ``x_s * w_s``, largest first, with
   the detail behind it (the shared callees, the line distance, the shared words), gathered for all
   returned rows at once from the same matrices (:func:`explain`), and put into words by
   :mod:`lore.graphs._why` (each fact once; no builtins among shared neighbours, no empty words).

**history** (where the index was built from a git checkout, :mod:`lore.index.history`): ``history``
is the share of the seed's commits that also changed the candidate (``c / n``: "changed together in
c of n commits", the confidence of the association rule seed -> candidate), ``history_count``
saturates in the count alone (``1 - 1 / (1 + c)``), so one shared commit of a seed changed once does
not weigh like ten. ``history_agrees`` is ``history`` times the candidate's strongest other evidence
(:func:`lore.algorithms._signals.agreement`: the largest of its structure, same-file and name
signals): history that reorders only what structure, place or words already put forward. ``churn``
saturates in the candidate's own commit count (``1 - 1 / (1 + c / 4)``): code that changed often keeps
changing, with this seed or one it never changed with before. For the pairs history never saw changed
together (0 for the others), two coarser couplings: ``history_reach`` (the candidate changed with what
changed with the seed, two steps in the co-change graph, saturating) and ``history_file`` (the
co-changes between the seed's file and the candidate's, over the commits that changed the seed's file):
on the pairs first changed together after a co-change corpus's cut, both are two to three times as
high for the judged pairs as for the other candidates (httpx, requests). Without a history all six are
0 and the ranker is what it is without them.

Two questions, two weight sets (:mod:`lore.graphs._hybrid_weights`): ``hybrid`` answers "what plays a
role like this" (its history signals held at 0: in a git checkout it is the list of the same code
without ``.git``), ``changes``
answers "what will I have to change with this" (fit on co-change judgements alone: history, structure
and place). The candidates, signals and why are the same; only the weights differ.

``private_helper`` is 1 for a private candidate (``_name``) of a public seed: helpers that many
public siblings call are evidence that the siblings belong together, not answers; its fitted weight
is negative.

``direct_call`` is 1 where the seed calls the candidate or the candidate calls the seed (one edge,
where ``structure`` counts shared neighbours); ``member`` is 1 for a candidate defined inside the
seed (a class's own methods). Both raise the pairs that change together: in the co-change corpora
a direct call is 2-4x and membership 4-9x as likely to be a judged pair as a random candidate.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._files import read_json
from ..algorithms import _signals as sig
from ..algorithms._checks import row_segments, unique_ints
from ..algorithms._csr import entry
from ..algorithms.push import push_pagerank
from ..errors import InvalidArgumentError
from . import related as rel
from ._feature_weights import Bm25Columns, local
from ._features import SymbolFeatures
from ._hybrid_weights import CHANGES_PROVENANCE, CHANGES_WEIGHTS, DEFAULT_WEIGHTS, PROVENANCE
from ._why import NEAR_LINES, NEAR_RANK, render, why_text, why_texts  # noqa: F401  (the why's text, named as hybrid's)
from .build import CodeGraph

if TYPE_CHECKING:
    import scipy.sparse as sp

SIGNALS = ("structure", "structure_abs", "pagerank", "same_class", "same_file", "line_near", "line_rank", "adjacent",
           "same_dir", "package_near", "name_tokens", "text", "text_abs", "same_kind", "decorators", "params",
           "same_arity", "shared_base", "private_helper", "direct_call", "member", "history", "history_count",
           "history_agrees", "churn", "history_reach", "history_file")
FAMILIES = {"structure": "structure", "structure_abs": "structure", "pagerank": "structure",
            "same_class": "place", "same_file": "place", "line_near": "place", "line_rank": "place",
            "adjacent": "place", "same_dir": "place", "package_near": "place",
            "name_tokens": "words", "text": "words", "text_abs": "words",
            "same_kind": "role", "decorators": "role", "params": "role", "same_arity": "role",
            "shared_base": "role", "private_helper": "role", "direct_call": "structure", "member": "place",
            "history": "history", "history_count": "history", "history_agrees": "history", "churn": "history",
            "history_reach": "history", "history_file": "history"}
HISTORY_SIGNALS = tuple(s for s in SIGNALS if FAMILIES[s] == "history")  # 0 without a git history
POOL = 40  # best rows per family that become candidates
# push PageRank tolerance: 10x coarser than fusion's; the walk is one signal among fifteen here and
# this halves the query time (held-out networkx / scipy Recall@10 and MRR@10 moved by less than 0.01)
PUSH_RMAX = 1e-4
# churn saturates in the candidate's own commit count: 0.5 at this many commits, 0.8 at four times as many
CHURN_SCALE = 4.0
# history_reach saturates in the two-step co-change count: 0.5 at this many
REACH_SCALE = 4.0


def check_weights(weights: dict[str, float]) -> np.ndarray:
    """The weight vector in :data:`SIGNALS` order; unknown names or non-numbers raise (missing ones are 0).

    Examples
    --------
    >>> w = check_weights({"structure": 1.0, "same_file": 0.5})
    >>> [float(w[SIGNALS.index(s)]) for s in ("structure", "same_file", "pagerank")]
    [1.0, 0.5, 0.0]
    """
    if not isinstance(weights, dict):
        raise InvalidArgumentError("hybrid weights must be a mapping of signal name to number")
    values = [0.0] * len(SIGNALS)
    for name, w in weights.items():
        at = _SIGNAL_AT.get(name)
        if at is None:
            raise InvalidArgumentError(f"unknown hybrid signal {name!r}; known: {', '.join(SIGNALS)}")
        if isinstance(w, bool) or not isinstance(w, int | float) or not abs(w) <= sys.float_info.max:  # NaN too
            raise InvalidArgumentError(f"hybrid weight {name!r} must be a finite number, got {w!r}")
        values[at] = float(w)
    return np.array(values)


_SIGNAL_AT = {name: i for i, name in enumerate(SIGNALS)}


PRESETS = ("hybrid", "changes")  # the related algorithms this ranker answers, each with its shipped weights


def load_weights(path: str | Path | None, *, algorithm: str = "hybrid") -> dict[str, float]:
    """Weights from a ``lore bench fit`` JSON file (``{"weights": {...}}``), or the shipped defaults of
    ``algorithm`` (``hybrid``: "like this"; ``changes``: "changes with this")."""
    if path is None:
        if algorithm not in PRESETS:
            raise InvalidArgumentError(f"no shipped weights for {algorithm!r}; known: {', '.join(PRESETS)}")
        return dict(CHANGES_WEIGHTS if algorithm == "changes" else DEFAULT_WEIGHTS)
    p = Path(path)
    data = read_json(p, "weights file", fix="write one with `lore bench fit`")
    w = data.get("weights") if isinstance(data, dict) else None
    if not isinstance(w, dict):
        raise InvalidArgumentError(f"{p} has no 'weights' mapping; write it with `lore bench fit`")
    check_weights(w)
    return {k: float(v) for k, v in w.items()}


def default_provenance(algorithm: str = "hybrid") -> dict:
    """Where the shipped default weights of ``algorithm`` came from (corpora, objective, command)."""
    return dict(CHANGES_PROVENANCE if algorithm == "changes" else PROVENANCE)


@dataclass
class Scored:
    """A seed's candidates with their signal matrix, ranked: ``rows[i]`` scored ``scores[i]``."""

    seed: int
    rows: np.ndarray
    x: np.ndarray  # candidates x signals
    scores: np.ndarray
    weights: np.ndarray

    def top(self, limit: int | None) -> Scored:
        k = len(self.rows) if limit is None else limit
        return replace(self, rows=self.rows[:k], x=self.x[:k], scores=self.scores[:k])


def _bm25_scores(weights: sp.csc_matrix, terms: sp.csr_matrix, seed: int) -> np.ndarray:
    """:func:`lore.algorithms._signals.bm25_scores` of the seed's row of ``terms``, by a gather.

    The same sums in the same order (the query's columns ascending, each column's stored entries
    in order, from 0: what scipy's ``weights[:, cols].sum(axis=1)`` adds), without building the
    column slice: a warm query reads a few hundred entries.
    """
    cols = unique_ints(terms.indices[terms.indptr[seed]:terms.indptr[seed + 1]].astype(np.int64))
    if cols.size == 0:
        return np.zeros(weights.shape[0])
    if isinstance(weights, Bm25Columns):  # the saved counts, weighed for the columns read
        rows, vals = weights.column_entries(cols)
        return np.bincount(rows, weights=vals, minlength=weights.shape[0])
    idx, _ = row_segments(weights.indptr, cols)
    return np.bincount(weights.indices[idx], weights=weights.data[idx].astype(np.float64, copy=False),
                       minlength=weights.shape[0])


def _top_rows(scores: np.ndarray, allowed: np.ndarray, n: int) -> np.ndarray:
    """:func:`lore.algorithms._signals.top_rows` (the ``n`` best allowed rows with a positive score, ties by
    row), reading the full-length arrays once: the rest runs on the few rows that score."""
    pos = np.flatnonzero(scores > 0)  # (a boolean scan: numpy's nonzero of a float array is 20x slower)
    pos = pos[allowed[pos]]
    s = scores[pos]
    if pos.size > n:
        cut = np.partition(s, pos.size - n)[pos.size - n]  # the n-th best; keep every row tied with it
        keep = s >= cut
        pos, s = pos[keep], s[keep]
    return pos[np.lexsort((pos, -s))][:n]


_FILE_ROWS: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # graph stamp -> (rows by file, their files)


def _file_rows(g: CodeGraph, seed: int) -> np.ndarray:
    """The rows defined in the seed's file, ascending (empty without a file); the rows grouped by file
    once per graph."""
    fid = int(g.file[seed])
    if fid < 0:
        return np.zeros(0, np.int64)
    if not g.stamp:  # a graph built in memory: nothing to key a cache on
        return np.flatnonzero(np.asarray(g.file) == fid)
    key = g.stamp
    got = _FILE_ROWS.get(key)
    if got is None or got[0].size != g.n:
        file = np.asarray(g.file)
        order = np.argsort(file, kind="stable")
        got = (order, file[order])
        if len(_FILE_ROWS) > 4:
            _FILE_ROWS.clear()
        _FILE_ROWS[key] = got
    order, sorted_file = got
    lo, hi = np.searchsorted(sorted_file, [fid, fid + 1])
    return order[lo:hi]


def candidates(g: CodeGraph, f: SymbolFeatures, seeds: np.ndarray, allowed: np.ndarray, *,
               pool: int = POOL, params: rel.RelatedParams | None = None, engine: str = "local",
               ray_address: str | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(candidate rows sorted, full-length raw scores of structure / pagerank / text / line_near).

    The structure signal's overlap products run on ``engine`` (``local`` or ``ray`` at
    ``ray_address``: the same bits); push PageRank and the per-symbol signals run in this process."""
    params = params or rel.RelatedParams(algorithm="overlap")
    seed = int(seeds[0])
    structure = rel.related_scores(g, seeds, replace(params, algorithm="overlap"), engine=engine,
                                   ray_address=ray_address)[0]
    adj = rel.walk_arrays(g, params.ppr_weights, params.direction)
    walk = push_pagerank(adj, personalization=seeds, alpha=params.alpha, rmax=PUSH_RMAX)
    text = _bm25_scores(f.text_bm25, f.text_terms, seed)
    same_file = _file_rows(g, seed)
    near = np.zeros(g.n)
    near[same_file] = sig.line_proximity(f.line, seed, same_file, np.ones(same_file.size)) + 1e-9
    history = np.zeros(g.n)
    changed = 0.0
    if f.co_change is not None and f.changes is not None:
        lo, hi = f.co_change.indptr[seed], f.co_change.indptr[seed + 1]
        history[f.co_change.indices[lo:hi]] = f.co_change.data[lo:hi]
        changed = float(f.changes[seed])
    parts = [_top_rows(s, allowed, pool) for s in (structure, walk, text, near, *([history] if changed else []))]
    cand = unique_ints(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
    total = float(sum(params.overlap_weights.values())) or 1.0
    # the absolute scales (0-d arrays): overlap over its total relation weight, BM25 over the seed's own
    return cand, {"structure": structure, "pagerank": walk, "text": text, "structure_scale": np.asarray(total),
                  "text_scale": np.asarray(float(text[seed])), "history": history,
                  "history_scale": np.asarray(changed)}


def signal_matrix(g: CodeGraph, f: SymbolFeatures, seed: int, cand: np.ndarray, raw: dict[str, np.ndarray],
                  weights: np.ndarray | None = None) -> np.ndarray:
    """The candidates x :data:`SIGNALS` matrix for one seed.

    ``weights`` (in :data:`SIGNALS` order): the columns they weigh 0 are left 0, not computed; they
    add nothing to a score or to its explanation (``lore bench fit`` needs every column: no weights).
    """
    kind = np.asarray(g.kind)
    same_file = sig.same_value(np.asarray(g.file), seed, cand)
    text_scale = float(raw.get("text_scale", 0.0))

    def unseen() -> np.ndarray:
        return (raw["history"][cand] <= 0).astype(np.float64)

    cols = {
        "structure": lambda: sig.max_normalize(raw["structure"][cand]),
        "structure_abs": lambda: np.clip(raw["structure"][cand] / float(raw.get("structure_scale", 1.0)), 0.0, 1.0),
        "pagerank": lambda: sig.max_normalize(raw["pagerank"][cand]),
        "same_class": lambda: sig.same_value(np.asarray(g.parent), seed, cand) * float(f.parent_is_class[seed]),
        "same_file": lambda: same_file,
        "line_near": lambda: sig.line_proximity(f.line, seed, cand, same_file),
        "line_rank": lambda: sig.line_rank(f.line, seed, cand, same_file),
        "adjacent": lambda: sig.adjacent(f.line, seed, cand, same_file),
        "same_dir": lambda: sig.same_value(f.directory, seed, cand),
        "package_near": lambda: sig.path_proximity(f.dir_paths, int(f.directory[seed]), f.directory[cand]),
        "name_tokens": lambda: sig.row_cosine(f.name_tokens, seed, cand),
        "text": lambda: sig.max_normalize(raw["text"][cand]),
        "text_abs": lambda: (np.clip(raw["text"][cand] / text_scale, 0.0, 1.0) if text_scale > 0
                             else np.zeros(cand.size)),
        "same_kind": lambda: sig.same_value(kind, seed, cand),
        "decorators": lambda: sig.row_cosine(f.decorators, seed, cand),
        "params": lambda: sig.row_cosine(f.params, seed, cand),
        "same_arity": lambda: sig.same_value(f.arity, seed, cand),
        "shared_base": lambda: sig.row_cosine(f.bases, seed, cand),
        "private_helper": lambda: (f.private[cand] & ~f.private[seed]).astype(np.float64),
        "direct_call": lambda: sig.linked(g.arrays("calls"), g.arrays("calls", transpose=True), seed, cand),
        "member": lambda: sig.is_member(np.asarray(g.parent), seed, cand),
        "history": lambda: sig.co_change_share(raw["history"][cand], float(raw.get("history_scale", 0.0))),
        "history_count": lambda: sig.saturate(raw["history"][cand]),
        "history_agrees": lambda: sig.co_change_share(raw["history"][cand], float(raw.get("history_scale", 0.0)))
        * sig.agreement(sig.max_normalize(raw["structure"][cand]), same_file, sig.row_cosine(f.name_tokens, seed, cand)),
        "churn": lambda: (sig.saturate(np.asarray(f.changes, dtype=np.float64)[cand] / CHURN_SCALE)
                          if f.changes is not None else np.zeros(cand.size)),
        # the pairs history never saw changed together (0 where it did: those the signals above weigh)
        # (not a candidate pool of its own: its best rows, added as candidates, cost requests 0.005 Recall@10
        # held out and httpx as much)
        "history_reach": lambda: (sig.saturate(sig.co_change_reach(f.co_change, seed, cand) / REACH_SCALE) * unseen()
                                  if f.co_change is not None else np.zeros(cand.size)),
        "history_file": lambda: (sig.file_coupling(f.co_change, f.changes, np.asarray(g.file), _file_rows(g, seed), cand)
                                 * unseen() if f.co_change is not None and f.changes is not None else np.zeros(cand.size)),
    }
    if not cand.size:
        return np.zeros((0, len(SIGNALS)))
    x = np.zeros((cand.size, len(SIGNALS)))
    for j, name in enumerate(SIGNALS):
        if weights is None or weights[j] != 0.0:
            x[:, j] = cols[name]()
    return x


def score(g: CodeGraph, f: SymbolFeatures, seeds, exclude: np.ndarray, weights: dict[str, float] | np.ndarray, *,
          params: rel.RelatedParams | None = None, pool: int = POOL, engine: str = "local",
          ray_address: str | None = None) -> Scored:
    """Rank the candidates of ``seeds`` (the first seed anchors place, words and role) by the hybrid score.

    ``exclude`` is the api's mask of rows that may never be returned (seeds, containers, externals...).
    """
    seeds = np.atleast_1d(np.asarray(seeds, dtype=np.int64))
    if seeds.size == 0:
        raise InvalidArgumentError("hybrid needs at least one seed")
    w = weights if isinstance(weights, np.ndarray) else check_weights(weights)
    cand, raw = candidates(g, f, seeds, ~exclude, pool=pool, params=params, engine=engine, ray_address=ray_address)
    x = signal_matrix(g, f, int(seeds[0]), cand, raw, w)
    s = x @ w
    order = np.lexsort((cand, -s))
    return Scored(int(seeds[0]), cand[order], x[order], s[order], w)


# ---------------------------------------------------------------- why

# the overlap relations, labelled for the why: (label, graph relation, transposed, closed)
_STRUCT_RELS = tuple((label, *rel.OVERLAP_RELATIONS[name]) for name, label in (
    ("callees", "callees"), ("callers", "callers"), ("types", "types"), ("inherits", "bases"),
    ("inherited_by", "subclasses / overriders"), ("container", "container")))


def _seed_weight(m: sp.csr_matrix, seed: int) -> Callable[[np.ndarray], np.ndarray]:
    """The seed row's stored weight of each column asked (0 where it has none): in an idf-normalised row
    the rarer a word, the larger its weight."""
    m, seed, _ = local(m, seed, np.zeros(0, np.int64))
    lo, hi = m.indptr[seed], m.indptr[seed + 1]
    order = np.argsort(m.indices[lo:hi], kind="stable")
    cols, vals = m.indices[lo:hi][order], m.data[lo:hi][order]

    def weight(asked: np.ndarray) -> np.ndarray:
        out = np.zeros(asked.size)
        if cols.size:
            pos = np.minimum(np.searchsorted(cols, asked), cols.size - 1)
            hit = cols[pos] == asked
            out[hit] = vals[pos[hit]]
        return out

    return weight


_TELLING = ("name_tokens", "text")  # the word matrices whose shared words must say something (names stay names)


def telling_word(word: str, stop_words: frozenset[str] = frozenset()) -> bool:
    """Whether a shared word says something: not a stop word, not one letter, not digits only.

    Examples
    --------
    >>> [w for w in ("a", "x", "2d", "85", "the", "axes", "Axes") if telling_word(w, frozenset({"the"}))]
    ['2d', 'axes', 'Axes']
    """
    return len(word) > 1 and not word.isdigit() and word.lower() not in stop_words


def _shared(m: sp.csr_matrix, seed: int, rows: np.ndarray, *, drop_seed: bool = False,
            quiet: np.ndarray | None = None) -> tuple[list[int], np.ndarray]:
    """(cut, columns): row ``i`` shares ``columns[cut[i]:cut[i + 1]]`` with the seed's row, in the row's
    stored order (one gather for all rows; ``drop_seed``: never the seed's own column; ``quiet``: a
    boolean per column, never those)."""
    m, seed, rows = local(m, seed, rows)
    lo, hi = m.indptr[seed], m.indptr[seed + 1]
    seed_cols = m.indices[lo:hi]
    if seed_cols.size == 0 or rows.size == 0:
        return [0] * (len(rows) + 1), np.zeros(0, np.int64)
    if not m.has_sorted_indices:  # (scipy checks once per matrix and remembers)
        seed_cols = np.sort(seed_cols)
    idx, lens = row_segments(m.indptr, rows)
    cols = m.indices[idx]
    hit = seed_cols[np.minimum(np.searchsorted(seed_cols, cols), seed_cols.size - 1)] == cols
    pos, cols = np.repeat(np.arange(rows.size), lens)[hit], cols[hit].astype(np.int64)
    if drop_seed and cols.size:
        keep = cols != seed
        pos, cols = pos[keep], cols[keep]
    if quiet is not None and cols.size:
        keep = ~quiet[cols]
        pos, cols = pos[keep], cols[keep]
    if cols.size == 0:
        return [0] * (len(rows) + 1), cols
    return np.searchsorted(pos, np.arange(len(rows) + 1)).tolist(), cols  # pos ascends: one slice per row


def explain(g: CodeGraph, f: SymbolFeatures, s: Scored, *, top: int | None = 4, quiet: np.ndarray | None = None,
            stop_words: frozenset[str] = frozenset()) -> list[list[dict]]:
    """Per ranked row: the signals that placed it, largest absolute contribution first.

    Each item is ``{"signal", "family", "value", "contribution", "detail"}``; ``contribution`` is
    ``value * weight`` and the contributions of a row sum to its score. ``detail`` holds what the
    text needs (shared neighbour rows per relation, line distance, shared words), gathered for all
    rows at once from the matrices that scored them (each matrix once, and only if some row's
    explanation reads it); :func:`render` turns an item into text once the caller has named the
    neighbour rows (one store query for every row).

    What says nothing is not named: ``quiet`` (a boolean per row: the language builtins, ``isinstance``,
    ``len``) never counts or appears among the shared neighbours, and a shared word is never one of
    ``stop_words``, one letter, or digits only (:func:`telling_word`). They still weigh in the score,
    where the overlap's hub discount and BM25's idf already make them light.
    """
    rows = s.rows
    if rows.size == 0:
        return []
    contrib = s.x * s.weights[None, :]
    # per row, the signals with a contribution, largest absolute first, ties by signal order
    order = np.lexsort((np.broadcast_to(np.arange(len(SIGNALS)), contrib.shape), -np.abs(contrib)))
    keep = np.take_along_axis(contrib != 0.0, order, axis=1)
    cut = np.r_[0, np.cumsum(keep.sum(axis=1))].tolist()
    shown_j = order[keep].tolist()
    contrib_l, x_l = contrib.tolist(), s.x.tolist()
    seed = s.seed
    # per relation: (cut, shared neighbours but the seed, as a list), gathered for every row at once
    struct: list[tuple[str, list[int], list[int]]] | None = None
    # shared words, rarest first: by the seed's idf weight, or (text) by how few documents hold the word,
    # read from the column pointers of the BM25 matrix that scored it
    text_df = f.text_bm25.indptr
    words = {"name_tokens": ("name_tokens", f.name_tokens, f.name_vocab, lambda: _seed_weight(f.name_tokens, seed)),
             "text": ("text", f.text_terms, f.vocab, lambda: lambda c: text_df[c] - text_df[c + 1]),
             "text_abs": ("text", f.text_terms, f.vocab, lambda: lambda c: text_df[c] - text_df[c + 1]),
             "decorators": ("decorators", f.decorators, f.decorator_vocab, lambda: _seed_weight(f.decorators, seed)),
             "params": ("params", f.params, f.param_vocab, lambda: _seed_weight(f.params, seed))}
    # per matrix: (cut, shared columns as a list, minus their rarity as a list), for every row at once
    word_cols: dict[str, tuple[list[int], list[int], list]] = {}
    shown: dict[tuple[str, int], list[str]] = {}  # (matrix, row) -> its words (text and text_abs share them)
    lines = np.abs(f.line[rows] - f.line[seed]).tolist()
    row_l = rows.tolist()
    out = []
    for i in range(len(rows)):
        items = []
        structure: dict | None = None  # the same shared neighbours explain structure and structure_abs
        c_i, x_i = contrib_l[i], x_l[i]
        for j in shown_j[cut[i]:cut[i + 1]]:
            name = SIGNALS[j]
            what = _DETAIL[j]
            if what == "":
                detail: dict = {}
            elif what == "structure":
                if structure is None:
                    if struct is None:
                        struct = []
                        for label, m, t, closed in _STRUCT_RELS:
                            pm = g.presence_arrays(m, transpose=t, closed=closed)
                            if closed and pm.indptr[seed + 1] - pm.indptr[seed] <= 1:
                                continue  # the seed's own column alone: nothing to share but the seed
                            at, cols = _shared(pm, seed, rows, drop_seed=True, quiet=quiet)
                            struct.append((label, at, cols.tolist()))
                    structure = {label: {"count": at[i + 1] - at[i], "rows": cols[at[i]:min(at[i] + 2, at[i + 1])]}
                                 for label, at, cols in struct if at[i + 1] > at[i]}
                detail = {label: dict(d) for label, d in structure.items()}
            elif what == "lines":
                detail = {"lines_apart": int(lines[i])}
                if name == "line_rank" and x_i[j] > 0:
                    detail["nearest"] = int(round(1.0 / x_i[j]))  # line_rank is 1 / r for the r-th nearest
            elif what == "words":
                key, m, vocab, rarity_of = words[name]
                got = shown.get((key, i))
                if got is None:
                    if key not in word_cols:
                        at, cols = _shared(m, seed, rows)
                        word_cols[key] = (at, cols.tolist(), (-rarity_of()(cols)).tolist() if cols.size else [])
                    at, cols_l, rare = word_cols[key]
                    lo, hi = at[i], at[i + 1]
                    # the rarest shared words say most (ties by the word)
                    got = shown[key, i] = [w for _r, w in sorted(zip(rare[lo:hi], [vocab[c_] for c_ in cols_l[lo:hi]],
                                                                     strict=True)) if key not in _TELLING or telling_word(w, stop_words)][:3]
                detail = {"words": list(got)}
            elif what == "arity":
                detail = {"parameters": int(f.arity[row_l[i]])}
            elif what == "churn" and f.changes is not None:
                detail = {"changed": int(f.changes[row_l[i]])}
            elif what == "history" and f.co_change is not None and f.changes is not None:
                detail = {"together": int(round(entry(f.co_change, seed, row_l[i]))), "commits": int(f.changes[seed])}
            else:
                detail = {}
            items.append({"signal": name, "family": _FAMILY[j], "value": round(x_i[j], 4),
                          "contribution": round(c_i[j], 4), "detail": detail})
        out.append(items[:top] if top else items)
    return out


# per signal (in SIGNALS order): its family, and what its explanation's detail holds
_FAMILY = tuple(FAMILIES[name] for name in SIGNALS)
_DETAIL = tuple({"structure": "structure", "structure_abs": "structure", "line_near": "lines", "line_rank": "lines",
                 "adjacent": "lines", "name_tokens": "words", "text": "words", "text_abs": "words",
                 "decorators": "words", "params": "words", "same_arity": "arity", "history": "history",
                 "history_count": "history", "history_agrees": "history", "churn": "churn"}.get(name, "") for name in SIGNALS)


def neighbour_rows(items: list[list[dict]]) -> set[int]:
    """Every neighbour row named in :func:`explain`'s details (to be named in one query)."""
    out: set[int] = set()
    for row_items in items:
        for it in row_items:
            if it["signal"] in ("structure", "structure_abs"):
                for d in it["detail"].values():
                    out.update(d["rows"])
    return out

