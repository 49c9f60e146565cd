"""Related symbols: rank with one of the graph algorithms, then explain every row in one batched pass.

The explanation comes from the same matrices and scores that placed each row: the overlap features
give the shared neighbours (:func:`lore.graphs.related.explain_overlap`), the walk matrix gives the
strongest path from a seed (:func:`lore.graphs.related.strongest_paths`). Only then are the store's
names and edge resolutions fetched, for every row at once: one query for the symbols of all rows
and all explanations, one for the first stored edge of every hop. A 20-row answer costs the same
handful of statements as a 1-row answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import UnknownAlgorithmError
from ..store import read
from ._index import OpenIndex
from ._shape import symbol_dict
from .clusters import cluster_members

if TYPE_CHECKING:
    import numpy as np

    from ..graphs import CodeGraph
    from ..graphs.related import RelatedParams

Rows = tuple[list[dict], int, str]


def related_params(algorithm: str, *, alpha: float, direction: str | None, measure: str | None,
                   weights: dict[str, float] | None, n_walks: int, seed: int) -> RelatedParams:
    """The checked parameters of one ``related`` query.

    ``weights`` name overlap relations (``callees``, ``container``...) for 'overlap', walk relations
    (``calls``, ``contains``...) for the PageRank family, and either for 'fusion' (each name goes
    where it means something; ``types`` and ``inherits`` go to both).
    """
    from ..graphs import related as rel

    params = rel.RelatedParams(algorithm=algorithm, alpha=alpha, direction=direction or "both", n_walks=n_walks,
                               seed=seed)
    if measure:
        params.measure = measure
    if weights:
        if algorithm == "overlap":
            params.overlap_weights = {**params.overlap_weights, **weights}
        elif algorithm == "fusion":
            unknown = set(weights) - set(rel.OVERLAP_RELATIONS) - set(rel.WALK_RELATIONS)
            if unknown:
                raise UnknownAlgorithmError(sorted(unknown)[0], tuple(rel.OVERLAP_RELATIONS) + rel.WALK_RELATIONS,
                                            what="relation")
            params.overlap_weights.update({k: v for k, v in weights.items() if k in rel.OVERLAP_RELATIONS})
            params.ppr_weights.update({k: v for k, v in weights.items() if k in rel.WALK_RELATIONS})
        else:
            params.ppr_weights = {**params.ppr_weights, **weights}
    params.check()
    return params


def related(index: OpenIndex, seeds: list[int], algorithm: str, limit: int, kinds: tuple[str, ...] | None,
            include_tests: bool, direction: str | None, measure: str | None, alpha: float,
            weights: dict[str, float] | None, n_walks: int, seed: int, query: dict, *, engine: str = "local",
            ray_address: str | None = None) -> Rows:
    """Symbols that play a role like ``seeds``, best first, each with its ``why``.

    ``query`` (the answer's envelope) gets the parameters that shaped the ranking (measure, alpha,
    direction). Returns ``(rows, total, note)``. ``engine``/``ray_address`` say where the ranking's
    sparse products run (:func:`lore.graphs.related.related_scores`; ``cluster`` runs label
    propagation there); the ``why`` is gathered in this process, and the answer is the same either
    way. ``hybrid`` runs its structure signal's overlap on the engine and its other signals (push
    PageRank, per-symbol features) in this process.
    """
    import numpy as np

    from ..graphs import related as rel
    from ..graphs._fold import fold_for

    g = index.graph()
    # one row per definition (lore.graphs._fold): a seed named by its stub or an @overload copy means
    # the implementation, and no list shows a definition twice
    fold = fold_for(index.conn, g, db_path=index.db_path, save=not index.readonly)
    seeds = fold.canonical_ids(seeds)
    if algorithm == "cluster":
        return cluster_members(index, seeds[0], limit, kinds, include_tests, query, extra_seeds=seeds[1:],
                               engine=engine, ray_address=ray_address)  # (folds the same way itself)
    if algorithm in ("hybrid", "changes"):
        rows, total, note = related_hybrid(index, seeds, limit, kinds, include_tests, weights, query, alpha=alpha,
                                           direction=direction, measure=measure, engine=engine,
                                           ray_address=ray_address, algorithm=algorithm)
        return fold.annotate(rows), total, note
    params = related_params(algorithm, alpha=alpha, direction=direction, measure=measure, weights=weights,
                            n_walks=n_walks, seed=seed)
    if algorithm in ("overlap", "fusion"):
        query["measure"] = params.measure
    if algorithm != "overlap":
        query.update({"alpha": alpha, "direction": params.direction})
    srows = g.nodes.rows(seeds)
    mask = rel.excluded_mask(g, srows, include_tests=include_tests, kinds=kinds, fold=fold)
    scores, se = rel.related_scores(g, srows, params, exclude=mask, engine=engine, ray_address=ray_address)
    ranked, total = rel.rank(scores, mask, limit)
    if total == 0:
        return [], 0, "the seed has no structural neighbours (no resolved calls, callers or types); nothing to rank"
    ids = np.asarray(g.nodes.ids)[ranked].tolist()
    whys, info = explain(index, g, srows, ranked, params, also=ids, quiet=builtin_rows(index, g))
    rows = []
    for r, sid, why in zip(ranked.tolist(), ids, whys, strict=True):
        d = symbol_dict(info[sid])
        d["score"] = round(float(scores[r]), 6)
        if se is not None:
            why["stderr"] = round(float(se[r]), 6)
        d["why"] = why
        rows.append(d)
    return fold.annotate(rows), total, ""


# words a why never shows as shared besides the tokenizer's stop words: the forms of "be" (search keeps
# them, as it keeps "is"; in a docstring summary they say nothing about what two symbols do)
_AUXILIARIES = frozenset({"be", "been", "being", "are", "was", "were"})
_BUILTINS: dict[str, np.ndarray] = {}
# every language's builtin prefix (``lang.rules.builtin_prefix`` over ``lore.languages.LANGUAGES``), written
# out: importing the languages to read them compiles every parser's regular expressions, about 0.3 CPU s
# of a new process's first ``related`` (tests/queries/test_builtin_prefixes.py keeps the two equal)
BUILTIN_PREFIXES = ("Kernel", "System", "bash", "builtins", "c.stdlib", "cpp.std", "go.builtin", "java.lang",
                    "js.global", "kotlin", "lua", "php", "rust.prelude", "scala", "swift")


def builtin_rows(index: OpenIndex, g: CodeGraph) -> np.ndarray:
    """A boolean per graph row: the language builtins (``builtins.isinstance``, Go's ``len``, C's
    ``malloc``: the externals under each language's builtin prefix), which a ``why`` never names as shared
    neighbours (every function calls them). Cached per index state."""
    import numpy as np

    from ..store import _fold as store_fold

    key = g.stamp or f"graph-{id(g)}"
    got = _BUILTINS.get(key)
    if got is None or got.size != g.n:
        ids = np.asarray(store_fold.external_ids_under(index.conn, BUILTIN_PREFIXES), dtype=np.int64)
        rows = g.nodes.rows(ids)
        got = np.zeros(g.n, dtype=bool)
        got[rows[g.nodes.known(rows, ids)]] = True
        if len(_BUILTINS) > 4:
            _BUILTINS.clear()
        _BUILTINS[key] = got
    return got


def hybrid_params(weights: dict[str, float] | None, *, alpha: float = 0.85, direction: str | None = None,
                  measure: str | None = None, algorithm: str = "hybrid") -> tuple[dict[str, float], RelatedParams]:
    """(signal weights, structural parameters) of a hybrid query.

    The hybrid ranker's structure signals are the overlap and push-PageRank scores, so the options
    that shape those apply to it as they do to ``overlap`` and ``pagerank``: ``measure`` (the overlap
    similarity), ``alpha`` and ``direction`` (the walk), and in ``weights`` the overlap relations
    (``callees``, ``container``...) and walk relations (``calls``, ``contains``...). The other names in
    ``weights`` are the hybrid's signals (``structure``, ``same_file``, ``history``...: the names of
    ``lore bench fit``), overriding the shipped weights of ``algorithm`` (``hybrid`` or ``changes``) one
    by one. A name that is neither is an error.
    """
    from ..graphs import hybrid as hy
    from ..graphs import related as rel

    signal_w = {k: v for k, v in (weights or {}).items() if k in hy.SIGNALS}
    relation_w = {k: v for k, v in (weights or {}).items() if k not in hy.SIGNALS}
    known = (*hy.SIGNALS, *rel.OVERLAP_RELATIONS, *(r for r in rel.WALK_RELATIONS if r not in rel.OVERLAP_RELATIONS))
    for name in relation_w:
        if name not in rel.OVERLAP_RELATIONS and name not in rel.WALK_RELATIONS:
            raise UnknownAlgorithmError(name, known, what="hybrid signal or relation")
    params = related_params("fusion", alpha=alpha, direction=direction, measure=measure, weights=relation_w or None,
                            n_walks=1, seed=0)
    w = {**hy.load_weights(None, algorithm=algorithm), **signal_w}
    hy.check_weights(w)
    return w, params


def related_hybrid(index: OpenIndex, seeds: list[int], limit: int, kinds: tuple[str, ...] | None,
                   include_tests: bool, weights: dict[str, float] | None, query: dict, *, alpha: float = 0.85,
                   direction: str | None = None, measure: str | None = None, engine: str = "local",
                   ray_address: str | None = None, algorithm: str = "hybrid") -> Rows:
    """The hybrid ranker (:mod:`lore.graphs.hybrid`): structure, place, words, role and history, fit weights.

    ``algorithm`` picks the shipped weights: ``hybrid`` ("what plays a role like this", fit on See-Also
    judgements) or ``changes`` ("what will I have to change with this", fit on co-change judgements).

    ``weights`` override the shipped defaults per signal (``lore bench fit`` writes a whole set) and
    the structure signals' relation weights; ``measure``, ``alpha`` and ``direction`` shape the
    structure signals (:func:`hybrid_params`). Each row's ``why`` lists every signal's contribution
    (they sum to the score) and a one-line summary; the neighbours it names come from one store
    query for all rows.
    """
    import numpy as np

    from ..algorithms._checks import unique_ints
    from ..graphs import hybrid as hy
    from ..graphs import related as rel
    from ..graphs._features import load_features
    from ..graphs._fold import fold_for
    from ..text.tokens import STOP_WORDS, split_identifier

    g = index.graph()
    w, params = hybrid_params(weights, alpha=alpha, direction=direction, measure=measure, algorithm=algorithm)
    query["weights"] = dict(weights) if weights else "default"  # the shipped set is long: echo overrides only
    query.update({"measure": params.measure, "alpha": params.alpha, "direction": params.direction})
    srows = g.nodes.rows(seeds)
    fold = fold_for(index.conn, g, db_path=index.db_path, save=not index.readonly)
    mask = rel.excluded_mask(g, srows, include_tests=include_tests, kinds=kinds, fold=fold)
    feats = load_features(index.conn, g, split=split_identifier, db_path=index.db_path, save=not index.readonly)
    scored = hy.score(g, feats, srows, mask, w, params=params, engine=engine, ray_address=ray_address)
    total = len(scored.rows)
    if total == 0:
        return [], 0, "nothing shares structure, place or words with the seed; nothing to rank"
    top = scored.top(limit)
    items = hy.explain(g, feats, top, top=None, quiet=builtin_rows(index, g), stop_words=STOP_WORDS | _AUXILIARIES)
    named = unique_ints(np.concatenate([top.rows, np.fromiter(hy.neighbour_rows(items), dtype=np.int64)]))
    id_of = dict(zip(named.tolist(), np.asarray(g.nodes.ids)[named].tolist(), strict=True))  # one gather
    ids = [id_of[r] for r in top.rows.tolist()]
    info = read.symbols_by_ids(index.conn, id_of.values())
    _direct_call_resolutions(index, seeds, ids, items)

    def name_of(row: int) -> str:
        got = info.get(id_of[row])
        return got.name if got else f"#{id_of[row]}"

    rows = []
    for sid, score, row_items in zip(ids, top.scores.tolist(), items, strict=True):
        d = symbol_dict(info[sid])
        d["score"] = round(score, 6)
        texts, summary = hy.why_texts(row_items, name_of)
        for it, text in zip(row_items, texts, strict=True):  # the items are this answer's: shown without detail
            del it["detail"]
            it["text"] = text
        d["why"] = {"summary": summary, "signals": row_items}
        rows.append(d)
    note = ""
    if algorithm == "changes" and (feats.changes is None or not float(feats.changes[srows[0]])):
        note = ("no commit of this index's git history changed the seed (or the index has no history): ranked by "
                "structure and place alone")
    return rows, total, note


def explain(index: OpenIndex, g: CodeGraph, srows: np.ndarray, targets: np.ndarray, params: RelatedParams, *,
            also: Iterable[int] = (), quiet: np.ndarray | None = None) -> tuple[list[dict], dict[int, read.SymbolRow]]:
    """The ``why`` of every target row, gathered in one pass over the ranking's own matrices.

    Overlap and fusion rows list the (at most 3) shared neighbours that weighed most, marked
    ``direct`` when the neighbour is the seed or the row itself (a direct edge); every algorithm
    but overlap adds the strongest walk path from a seed with each hop's stored edge and resolution.
    The symbols of all neighbours and path nodes, and of the ids in ``also`` (the result rows), come
    from one store query, the hops' edges from one more. Returns the whys and those symbol rows.
    """
    import numpy as np

    from ..graphs import related as rel

    algorithm = params.algorithm
    shared = (rel.explain_overlap(g, srows, targets, params, top=3, quiet=quiet) if algorithm in ("overlap", "fusion")
              else None)
    row_paths: list[list[int]] | None = None
    if algorithm != "overlap":
        adj = rel.walk_arrays(g, params.ppr_weights, params.direction)  # the matrix the walk ranked with
        row_paths = rel.strongest_paths(adj, srows, targets)
    # every row named anywhere in the answer, turned into a symbol id in one gather
    rows_named = {col for items in shared or () for _, col, _ in items}
    rows_named.update(r for p in row_paths or () for r in p)
    named = np.fromiter(rows_named, dtype=np.int64, count=len(rows_named))
    id_of = dict(zip(named.tolist(), np.asarray(g.nodes.ids)[named].tolist(), strict=True))
    paths = [[id_of[r] for r in p] for p in row_paths] if row_paths is not None else None
    need: set[int] = set(also)
    need.update(id_of.values())
    hops: set[tuple[int, int]] = set()
    for ids in paths or ():
        hops.update(zip(ids, ids[1:], strict=False))
    info = read.symbols_by_ids(index.conn, need)
    names = {sid: row.qualified_name for sid, row in info.items()}
    edges = read.first_edges(index.conn, hops) if hops else {}
    seed_rows = set(srows.tolist())
    out = []
    for k, target in enumerate(targets.tolist()):
        why: dict[str, Any] = {}
        if shared is not None:
            why["shared"] = [_shared_item(id_of[col], names, rel_name, contrib, direct=col == target or col in seed_rows)
                             for rel_name, col, contrib in shared[k]]
        if paths is not None:
            why.update(_path_item(names, edges, paths[k]))
        out.append(why)
    return out, info


def _direct_call_resolutions(index: OpenIndex, seeds: list[int], ids: list[int], items: list[list[dict]]) -> None:
    """The resolution of the call edge behind each row's ``direct_call`` (one store query for all rows), so a
    why can say the edge was bound by a name alone (``name_only``)."""
    direct = [k for k, row_items in enumerate(items) if any(it["signal"] == "direct_call" for it in row_items)]
    if not direct:
        return
    edges = read.first_edges(index.conn, [p for k in direct for s in seeds for p in ((s, ids[k]), (ids[k], s))])
    for k in direct:
        found = [d for s in seeds for p in ((s, ids[k]), (ids[k], s)) if (d := edges.get(p)) is not None and d.table == "call"]
        if found:
            for it in items[k]:
                if it["signal"] == "direct_call":
                    it["detail"] = {**(it.get("detail") or {}), "resolution": found[0].resolution}


def _shared_item(sid: int, names: dict[int, str], relation: str, contrib: float, *, direct: bool) -> dict:
    item: dict[str, Any] = {"relation": relation, "id": sid, "name": names.get(sid), "weight": round(contrib, 4)}
    if direct:  # closed neighbourhoods: a direct edge between seed and result
        item["direct"] = True
    return item


def _path_item(names: dict[int, str], edges: dict[tuple[int, int], read.EdgeDetail], ids: list[int]) -> dict:
    hops = []
    for a, b in zip(ids, ids[1:], strict=False):
        det = edges.get((a, b))
        hops.append({"to": names.get(b, b), "edge": det.kind if det else "?",
                     "resolution": det.resolution if det else None})
    return {"path": [names.get(i, i) for i in ids], "hops": hops}
