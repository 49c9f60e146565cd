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
   returned rows at once from the same matrices (:func:`explain`).

**history** (where the index was built from a git checkout, :mod:`lore.index.history`): ``history``
is the share of the seed's commits that also changed the candidate (``c / n``: "changed together in
c of n commits", the confidence of the association rule seed -> candidate), ``history_count``
saturates in the count alone (``1 - 1 / (1 + c)``), so one shared commit of a seed changed once does
not weigh like ten. Without a history both are 0 and the ranker is what it is without them.

``private_helper`` is 1 for a private candidate (``_name``) of a public seed: helpers that many
public siblings call are evidence that the siblings belong together, not answers; its fitted weight
is negative.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._files import read_json
from ..algorithms import _signals as sig
from ..algorithms import pagerank as pr
from ..errors import InvalidArgumentError
from . import related as rel
from ._features import SymbolFeatures
from ._hybrid_weights import DEFAULT_WEIGHTS, PROVENANCE
from .build import CodeGraph

SIGNALS = ("structure", "structure_abs", "pagerank", "same_class", "same_file", "line_near", "line_rank", "adjacent",
           "same_dir", "package_near", "name_tokens", "text", "text_abs", "same_kind", "decorators", "params",
           "same_arity", "shared_base", "private_helper", "history", "history_count")
FAMILIES = {"structure": "structure", "structure_abs": "structure", "pagerank": "structure",
            "same_class": "place", "same_file": "place", "line_near": "place", "line_rank": "place",
            "adjacent": "place", "same_dir": "place", "package_near": "place",
            "name_tokens": "words", "text": "words", "text_abs": "words",
            "same_kind": "role", "decorators": "role", "params": "role", "same_arity": "role",
            "shared_base": "role", "private_helper": "role", "history": "history", "history_count": "history"}
POOL = 40  # best rows per family that become candidates
# push PageRank tolerance: 10x coarser than fusion's; the walk is one signal among fifteen here and
# this halves the query time (held-out networkx / scipy Recall@10 and MRR@10 moved by less than 0.01)
PUSH_RMAX = 1e-4


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
    out = np.zeros(len(SIGNALS))
    for name, w in weights.items():
        if name not in SIGNALS:
            raise InvalidArgumentError(f"unknown hybrid signal {name!r}; known: {', '.join(SIGNALS)}")
        if isinstance(w, bool) or not isinstance(w, int | float) or not np.isfinite(w):
            raise InvalidArgumentError(f"hybrid weight {name!r} must be a finite number, got {w!r}")
        out[SIGNALS.index(name)] = float(w)
    return out


def load_weights(path: str | Path | None) -> dict[str, float]:
    """Weights from a ``lore bench fit`` JSON file (``{"weights": {...}}``), or the shipped defaults."""
    if path is None:
        return dict(DEFAULT_WEIGHTS)
    p = Path(path)
    data = read_json(p, "weights file", fix="write one with `lore bench fit`")
    w = data.get("weights") if isinstance(data, dict) else None
    if not isinstance(w, dict):
        raise InvalidArgumentError(f"{p} has no 'weights' mapping; write it with `lore bench fit`")
    check_weights(w)
    return {k: float(v) for k, v in w.items()}


def default_provenance() -> dict:
    """Where the shipped default weights came from (corpora, objective, date)."""
    return dict(PROVENANCE)


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
    adj = rel.walk_matrix(g, params.ppr_weights, params.direction)
    walk = pr.push_pagerank(adj, personalization=seeds, alpha=params.alpha, rmax=PUSH_RMAX)
    text = sig.bm25_scores(f.text_bm25, f.text_terms[seed].indices)
    same_file = np.flatnonzero(np.asarray(g.file) == g.file[seed]) if g.file[seed] >= 0 else np.zeros(0, np.int64)
    near = np.zeros(g.n)
    near[same_file] = sig.line_proximity(f.line, seed, same_file, np.ones(same_file.size)) + 1e-9
    history = np.zeros(g.n)
    changed = 0.0
    if f.co_change is not None and f.changes is not None:
        lo, hi = f.co_change.indptr[seed], f.co_change.indptr[seed + 1]
        history[f.co_change.indices[lo:hi]] = f.co_change.data[lo:hi]
        changed = float(f.changes[seed])
    parts = [sig.top_rows(s, allowed, pool) for s in (structure, walk, text, near, *([history] if changed else []))]
    cand = np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
    total = float(sum(params.overlap_weights.values())) or 1.0
    # the absolute scales (0-d arrays): overlap over its total relation weight, BM25 over the seed's own
    return cand, {"structure": structure, "pagerank": walk, "text": text, "structure_scale": np.asarray(total),
                  "text_scale": np.asarray(float(text[seed])), "history": history,
                  "history_scale": np.asarray(changed)}


def signal_matrix(g: CodeGraph, f: SymbolFeatures, seed: int, cand: np.ndarray, raw: dict[str, np.ndarray]) -> np.ndarray:
    """The candidates x :data:`SIGNALS` matrix for one seed."""
    kind = np.asarray(g.kind)
    same_file = sig.same_value(np.asarray(g.file), seed, cand)
    text_scale = float(raw.get("text_scale", 0.0))
    cols = {
        "structure": sig.max_normalize(raw["structure"][cand]),
        "structure_abs": np.clip(raw["structure"][cand] / float(raw.get("structure_scale", 1.0)), 0.0, 1.0),
        "pagerank": sig.max_normalize(raw["pagerank"][cand]),
        "same_class": sig.same_value(np.asarray(g.parent), seed, cand) * float(f.parent_is_class[seed]),
        "same_file": same_file,
        "line_near": sig.line_proximity(f.line, seed, cand, same_file),
        "line_rank": sig.line_rank(f.line, seed, cand, same_file),
        "adjacent": sig.adjacent(f.line, seed, cand, same_file),
        "same_dir": sig.same_value(f.directory, seed, cand),
        "package_near": sig.path_proximity(f.dir_paths, int(f.directory[seed]), f.directory[cand]),
        "name_tokens": sig.row_cosine(f.name_tokens, seed, cand),
        "text": sig.max_normalize(raw["text"][cand]),
        "text_abs": (np.clip(raw["text"][cand] / text_scale, 0.0, 1.0) if text_scale > 0 else np.zeros(cand.size)),
        "same_kind": sig.same_value(kind, seed, cand),
        "decorators": sig.row_cosine(f.decorators, seed, cand),
        "params": sig.row_cosine(f.params, seed, cand),
        "same_arity": sig.same_value(f.arity, seed, cand),
        "shared_base": sig.row_cosine(f.bases, seed, cand),
        "private_helper": (f.private[cand] & ~f.private[seed]).astype(np.float64),
        "history": sig.co_change_share(raw["history"][cand], float(raw.get("history_scale", 0.0))),
        "history_count": sig.saturate(raw["history"][cand]),
    }
    return np.column_stack([cols[s] for s in SIGNALS]) if cand.size else np.zeros((0, len(SIGNALS)))


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
    x = signal_matrix(g, f, int(seeds[0]), cand, raw)
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


def _shared(m: sp.csr_matrix, seed: int, rows: np.ndarray) -> list[np.ndarray]:
    """Per row, the columns it shares with the seed's row (one gather for all rows)."""
    pos, cols, _ = sig.shared_entries(m, seed, rows)
    return [cols[pos == i] for i in range(len(rows))]


def explain(g: CodeGraph, f: SymbolFeatures, s: Scored, *, top: int | None = 4) -> list[list[dict]]:
    """Per ranked row: the signals that placed it, largest absolute contribution first.

    Each item is ``{"signal", "family", "value", "contribution", "detail"}``; ``contribution`` is
    ``value * weight`` and the contributions of a row sum to its score. ``detail`` holds what the
    text needs (shared neighbour rows per relation, line distance, shared words), gathered for all
    rows at once from the matrices that scored them; :func:`render` turns an item into text once
    the caller has named the neighbour rows (one store query for every row).
    """
    rows = s.rows
    if rows.size == 0:
        return []
    contrib = s.x * s.weights[None, :]
    shared_struct = {label: _shared(g.presence(m, transpose=t, closed=c), s.seed, rows)
                     for label, m, t, c in _STRUCT_RELS}
    # shared words, rarest first: by the seed's idf weight, or (text) by how few documents hold the word,
    # read from the column pointers of the BM25 matrix that scored it
    text_df = f.text_bm25.indptr
    words = {"name_tokens": (_shared(f.name_tokens, s.seed, rows), f.name_vocab, _seed_weight(f.name_tokens, s.seed)),
             "text": (_shared(f.text_terms, s.seed, rows), f.vocab, lambda c: text_df[c] - text_df[c + 1]),
             "decorators": (_shared(f.decorators, s.seed, rows), f.decorator_vocab, _seed_weight(f.decorators, s.seed)),
             "params": (_shared(f.params, s.seed, rows), f.param_vocab, _seed_weight(f.params, s.seed))}
    words["text_abs"] = words["text"]  # the same shared words, scored without the per-query maximum
    lines = np.abs(f.line[rows] - f.line[s.seed])
    out = []
    for i in range(len(rows)):
        items = []
        for j in np.lexsort((np.arange(len(SIGNALS)), -np.abs(contrib[i]))):
            c = float(contrib[i, j])
            if c == 0.0:
                continue
            name = SIGNALS[j]
            detail: dict = {}
            if name in ("structure", "structure_abs"):
                for label, per_row in shared_struct.items():
                    cols = per_row[i]
                    cols = cols[cols != s.seed]
                    if cols.size:
                        detail[label] = {"count": int(cols.size), "rows": [int(r) for r in cols[:2]]}
            elif name in ("line_near", "line_rank", "adjacent"):
                detail["lines_apart"] = int(lines[i])
            elif name in words:
                per_row, vocab, rarity = words[name]
                cols = per_row[i]
                order = np.lexsort((np.array([vocab[int(c_)] for c_ in cols], dtype=object), -rarity(cols)))
                detail["words"] = [vocab[int(cols[k])] for k in order[:3]]  # the rarest shared words say most
            elif name == "same_arity":
                detail["parameters"] = int(f.arity[rows[i]])
            elif name in ("history", "history_count") and f.co_change is not None and f.changes is not None:
                detail["together"] = int(round(float(f.co_change[s.seed, rows[i]])))
                detail["commits"] = int(f.changes[s.seed])
            items.append({"signal": name, "family": FAMILIES[name], "value": round(float(s.x[i, j]), 4),
                          "contribution": round(c, 4), "detail": detail})
        out.append(items[:top] if top else items)
    return out


def neighbour_rows(items: list[list[dict]]) -> set[int]:
    """Every neighbour row named in :func:`explain`'s details (to be named in one query)."""
    out: set[int] = set()
    for row_items in items:
        for it in row_items:
            if it["signal"] in ("structure", "structure_abs"):
                for d in it["detail"].values():
                    out.update(d["rows"])
    return out


_FIXED_TEXT = {"pagerank": "close in the call graph", "same_class": "same class", "same_file": "same file",
               "same_dir": "same directory", "package_near": "nearby package", "same_kind": "same kind",
               "shared_base": "same base / overrides the same method",
               "private_helper": "private helper of a public seed"}


def render(item: dict, name_of=None) -> str:
    """One item of :func:`explain` as text ("12 lines apart", "shares 3 callees (a, b)", "name tokens add/edge").

    ``name_of`` maps a row to a name (default ``#row``).

    Examples
    --------
    >>> render({"signal": "line_near", "detail": {"lines_apart": 12}})
    '12 lines apart'
    >>> render({"signal": "structure", "detail": {"callees": {"count": 3, "rows": [4, 9]}}}, {4: "a", 9: "b"}.get)
    'shares 3 callees (a, b)'
    >>> render({"signal": "history", "detail": {"together": 7, "commits": 12}})
    'changed together in 7 of 12 commits'
    """
    name, detail = item["signal"], item.get("detail") or {}
    name_of = name_of or (lambda r: f"#{r}")
    if name in ("structure", "structure_abs"):
        parts = [f"shares {d['count']} {label} ({', '.join(str(name_of(r)) for r in d['rows'])})"
                 for label, d in detail.items()]
        return "; ".join(parts) or "similar neighbourhood"
    if name == "line_near":
        return f"{detail.get('lines_apart', '?')} lines apart"
    if name == "line_rank":
        return f"among the nearest definitions of the file ({detail.get('lines_apart', '?')} lines apart)"
    if name == "adjacent":
        return "the definition just before / after"
    if name in ("name_tokens", "text", "text_abs", "decorators", "params"):
        label = {"name_tokens": "name tokens", "text": "shares words", "text_abs": "shares words", "decorators": "same decorators",
                 "params": "same parameters"}[name]
        return f"{label} {'/'.join(detail.get('words', []))}".strip()
    if name == "same_arity":
        return f"same number of parameters ({detail.get('parameters', '?')})"
    if name in ("history", "history_count"):
        return f"changed together in {detail.get('together', '?')} of {detail.get('commits', '?')} commits"
    return _FIXED_TEXT.get(name, name)


def why_text(items: list[dict], name_of=None) -> str:
    """One line of a row's positive contributions: "same file; 12 lines apart; shares 3 callees (...)".

    A text said once: two signals read from the same evidence (``structure`` and ``structure_abs``,
    ``text`` and ``text_abs``) render alike and appear once.

    Examples
    --------
    >>> why_text([{"signal": "text", "contribution": 0.5, "detail": {"words": ["add"]}},
    ...           {"signal": "text_abs", "contribution": 0.2, "detail": {"words": ["add"]}},
    ...           {"signal": "same_file", "contribution": 1.0}])
    'shares words add; same file'
    """
    texts = [render(it, name_of) for it in items if it["contribution"] > 0]
    return "; ".join(dict.fromkeys(texts))
