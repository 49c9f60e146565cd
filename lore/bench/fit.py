"""``lore bench fit``: fit the hybrid ranker's weights on ground truth, and score rankers per query.

Ground truth is any mapping "source symbol -> related symbols" of an index: See-Also sections
(:mod:`lore.bench.seealso`), co-change pairs mined from git (:mod:`lore.bench.cochange`) or a question
file (:mod:`lore.bench.questions`: YAML or JSON, ``[{source, related: [...]}]``). For every source
the hybrid ranker's candidates and their signal matrix are computed once (:func:`suite_blocks`);
the weights are then fit by coordinate ascent (:func:`lore.algorithms._ltr.coordinate_ascent`) on
the mean of MRR@10 and Recall@10, every kind of ground truth weighing the same in total
(:func:`group_blocks`), and written as
JSON that ``related --algorithm hybrid --weights FILE`` reads.

Scoring helpers used by the leave-one-corpus-out benchmark live here too: per-query Recall@10,
MRR@10 and hit@1 of any ranker (:func:`per_query`), the baselines same-file-by-line-distance,
same-directory-random and global random, and a paired bootstrap interval (:func:`paired_bootstrap`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..algorithms import _ltr as ltr
from ..errors import EmptyGroundTruthError, InvalidArgumentError
from ..graphs import hybrid as hy
from ..graphs._features import SymbolFeatures
from . import baselines as bl
from .structural import Ranker, Suite, features, hybrid_ranker

__all__ = ["ascend_against_new_pair_loss", "block_metrics", "features", "fit_weights", "group_blocks", "hybrid_ranker",
           "new_pair_shortfall", "paired_bootstrap", "per_query", "run_fit", "suite_blocks", "write_weights"]

K = 10
QUERY_METRICS = (f"recall@{K}", f"mrr@{K}", "hit@1")
# coordinate ascent starts here: structure alone, a little place (the same-file baseline's signal)
INIT = {"structure": 1.0, "same_file": 0.25, "line_near": 0.25}


def suite_blocks(suite: Suite, feats: SymbolFeatures | None = None, *, pool: int = hy.POOL) -> ltr.Blocks:
    """Every query's hybrid candidates, signal matrix and relevance, stacked for fitting."""
    feats = feats or features(suite)
    parts = []
    for q, src in enumerate(suite.sources):
        mask = suite.mask(q)
        cand, raw = hy.candidates(suite.g, feats, np.array([src]), ~mask, pool=pool)
        x = hy.signal_matrix(suite.g, feats, int(src), cand, raw)
        parts.append((cand, x, np.isin(cand, suite.relevant[q]), len(suite.relevant[q])))
    return ltr.Blocks.stack(parts)


@dataclass
class Fit:
    weights: dict[str, float]
    objective: float
    history: list[float]
    queries: int
    seconds: float

    def as_dict(self) -> dict:
        return {"weights": self.weights, "objective": round(self.objective, 4),
                "history": [round(h, 4) for h in self.history], "queries": self.queries, "seconds": self.seconds}


def group_blocks(blocks: list[ltr.Blocks], groups: list[str] | None = None) -> ltr.Blocks:
    """One training set in which every *kind* of ground truth weighs the same in total.

    ``groups`` names each block's kind (``seealso``, ``cochange``, ``questions``); blocks of one kind
    share that kind's weight equally. Five See-Also corpora then count as much as three co-change
    repositories together, not five against three: the fit may not buy a gain on one kind of
    question with a loss on the other just because one kind has more corpora. Without ``groups``
    every block weighs the same.
    """
    if groups is None:
        return ltr.Blocks.concat(blocks)
    if len(groups) != len(blocks):
        raise InvalidArgumentError(f"{len(groups)} group names for {len(blocks)} ground truths")
    by_group: dict[str, list[ltr.Blocks]] = {}
    for g, b in zip(groups, blocks, strict=True):
        by_group.setdefault(g, []).append(b)
    return ltr.Blocks.concat([ltr.Blocks.concat(v) for _, v in sorted(by_group.items())])


# Signals every fit leaves at 0 whatever the ground truth: none. (Which signals each related algorithm's
# fit holds is :data:`HOLD_ZERO`; history cost See-Also questions asked in a git checkout -- networkx at
# 3.6.1, Recall@10 / MRR@10 0.765 / 0.669 with the old single weight set, 0.857 / 0.718 without -- so the
# "like this" list holds it and the "changes with this" list weighs it.)
OPT_IN_SIGNALS: tuple[str, ...] = ()
# Issue 36: one list cannot answer both questions. Per related algorithm, the signals its fit holds at 0:
# ``hybrid`` ("like this") holds every history signal (docs/ranking.md: too few See-Also corpora with a
# history to fit ``history_agrees`` held out); ``changes`` ("changes with this") holds none. Fit also on the
# pairs new after the cut, ``changes`` learned to push known partners down (history_agrees -2): it won on new
# pairs by demoting the answer to its own question, so it is fit on every pair changed after the cut alone.
# ``changes`` holds history_reach and history_file: held out on the three co-change corpora, fitting them cost
# Recall@10 on all pairs (requests .364 -> .362, httpx .391 -> .384, flask .398 -> .397) and on the new ones
# (docs/ranking.md); they stay available as --weights.
HOLD_ZERO: dict[str, tuple[str, ...]] = {"hybrid": hy.HISTORY_SIGNALS, "changes": ("history_reach", "history_file")}


# Issue 36: the ``changes`` fit may not buy all-pair recall with recall on the pairs new after the cut. After the
# plain ascent its history weights are ascended again on the all-pairs objective minus this factor times each
# training corpus's new-pair shortfall against its own history-off list (:func:`ascend_against_new_pair_loss`).
# Held out on the three co-change corpora (docs/ranking.md, "changes: four designs", 4c) it kept all-pair
# recall and brought the new-pair loss of the plain fit (-.006 / -.022 / -.003) to .000 / -.006 / +.001; 16 x
# chose the same weights as 4 x. ``hybrid`` holds every history signal at 0, so it has nothing to penalise.
NEW_PAIR_PENALTY: dict[str, float] = {"hybrid": 0.0, "changes": 4.0}


def new_pair_shortfall(b: ltr.Blocks, weights: np.ndarray, history: tuple[int, ...]) -> float:
    """Recall@10 the history costs on ``b``: the same weights with the ``history`` columns at 0, minus with
    them, floored at 0 (a gain is not a shortfall).

    Examples
    --------
    Signal 1 (history) lifts ten irrelevant candidates over the relevant one, out of the top 10:

    >>> x = np.array([[0.5, 1.0]] * 10 + [[1.0, 0.0]])
    >>> b = ltr.Blocks.stack([(np.arange(11), x, np.arange(11) == 10, 1)])
    >>> new_pair_shortfall(b, np.array([1.0, 0.0]), (1,)), new_pair_shortfall(b, np.array([1.0, 1.0]), (1,))
    (0.0, 1.0)
    """
    x = b.x.copy()
    x[:, list(history)] = 0.0
    off = ltr.query_metrics(ltr.Blocks(b.query, b.rows, x, b.relevant, b.n_relevant, b.query_weight), weights, k=K)
    on = ltr.query_metrics(b, weights, k=K)
    return max(0.0, float(off[f"recall@{K}"].mean() - on[f"recall@{K}"].mean()))


def ascend_against_new_pair_loss(b: ltr.Blocks, new: list[ltr.Blocks], weights: np.ndarray, *, free: tuple[int, ...],
                                 history: tuple[int, ...], penalty: float, grid: tuple[float, ...] = ltr.GRID,
                                 max_rounds: int = 6) -> tuple[np.ndarray, float]:
    """Re-ascend the ``free`` weights on ``objective(b) - penalty * sum of new_pair_shortfall(each of new)``.

    ``b`` is the training set of every judged pair, ``new`` one block per training corpus of its pairs the
    history never saw together, ``history`` the columns that make the history-off list. Coordinate
    ascent over ``grid`` from ``weights`` (a plain fit), visiting ``free`` in order, until a round
    changes nothing. Columns may be any (benchmarks add their own), so this works on indices, not names.
    Returns (weights, penalised objective).
    """
    def value(v: np.ndarray) -> float:
        return ltr.objective(b, v) - penalty * sum(new_pair_shortfall(n, v, history) for n in new)

    w = np.asarray(weights, dtype=np.float64).copy()
    best = value(w)
    for _ in range(max_rounds):
        improved = False
        for j in free:
            for g in grid:
                if g == w[j]:
                    continue
                t = w.copy()
                t[j] = g
                got = value(t)
                if got > best + 1e-12:
                    best, w, improved = got, t, True
        if not improved:
            break
    return w, best


def fit_weights(blocks: list[ltr.Blocks], *, init: dict[str, float] | None = None,
                groups: list[str] | None = None, hold_zero: tuple[str, ...] = (),
                new_pairs: list[ltr.Blocks] | None = None, new_pair_penalty: float = 0.0) -> Fit:
    """Coordinate ascent over the union of ``blocks`` (see :func:`group_blocks` for how they are weighed).

    ``structure`` is the scale anchor: it stays at its initial weight (1.0); the signals in
    ``hold_zero`` stay at 0 (the leave-one-out and shipped fits hold :data:`OPT_IN_SIGNALS` there). The ascent is
    greedy and stops at a local optimum that depends on the order it visits the signals: it runs
    twice, visiting them in :data:`lore.graphs.hybrid.SIGNALS` order and in reverse, and keeps the
    better objective (the first on a tie). Adding a signal then cannot lower the objective through
    the order alone (one order did: 0.631 -> 0.628 with two more signals; 0.6306 with both orders).

    With ``new_pairs`` (per training corpus, its judged pairs the history never saw together) and a
    ``new_pair_penalty`` above 0, the history weights not held at 0 are then ascended again against
    each corpus's new-pair shortfall (:func:`ascend_against_new_pair_loss`; :data:`NEW_PAIR_PENALTY`);
    the objective reported is then the penalised one.
    """
    if not blocks:
        raise EmptyGroundTruthError("no ground truth to fit on")
    t0 = time.perf_counter()
    b = group_blocks(blocks, groups)
    w0 = hy.check_weights(init or INIT)
    held = tuple(hy.SIGNALS.index(s) for s in hold_zero)
    w0[list(held)] = 0.0
    fixed = (hy.SIGNALS.index("structure"), *held)
    forward = tuple(range(len(hy.SIGNALS)))
    w, obj, hist = ltr.coordinate_ascent(b, w0, fixed=fixed, order=forward)
    w_rev, obj_rev, hist_rev = ltr.coordinate_ascent(b, w0, fixed=fixed, order=forward[::-1])
    if obj_rev > obj + 1e-12:
        w, obj, hist = w_rev, obj_rev, hist_rev
    if new_pairs and new_pair_penalty > 0:
        history = tuple(hy.SIGNALS.index(s) for s in hy.HISTORY_SIGNALS)
        w, obj = ascend_against_new_pair_loss(b, new_pairs, w, free=tuple(j for j in history if j not in held),
                                              history=history, penalty=new_pair_penalty)
        hist = [*hist, obj]
    weights = {s: float(v) for s, v in zip(hy.SIGNALS, w, strict=True) if v != 0.0}
    return Fit(weights, obj, hist, b.n_queries, round(time.perf_counter() - t0, 2))


def block_metrics(b: ltr.Blocks, weights: dict[str, float]) -> dict[str, np.ndarray]:
    """Per-query Recall@10, MRR@10, hit@1 of the hybrid ranker with ``weights`` over precomputed blocks."""
    return ltr.query_metrics(b, hy.check_weights(weights), k=K)


def per_query(suite: Suite, ranker: Ranker) -> dict[str, np.ndarray]:
    """Per-query Recall@10, MRR@10 (0 beyond rank 10) and hit@1 of any ranker (query -> ranked rows)."""
    out = {m: np.zeros(len(suite.sources)) for m in QUERY_METRICS}
    for q in range(len(suite.sources)):
        ranked = np.asarray(ranker(q))[:K]
        hit = np.isin(ranked, suite.relevant[q])
        out[f"recall@{K}"][q] = hit.sum() / max(len(suite.relevant[q]), 1)
        first = np.flatnonzero(hit)
        out[f"mrr@{K}"][q] = 1.0 / (first[0] + 1) if first.size else 0.0
        out["hit@1"][q] = float(hit[0]) if hit.size else 0.0
    return out


def same_dir_random_ranking(seed_row: int, candidates: np.ndarray, directory: np.ndarray, *, seed: int) -> np.ndarray:
    """Candidates in the seed's directory, in a seeded random order.

    Examples
    --------
    >>> same_dir_random_ranking(0, np.array([1, 2, 3]), np.array([4, 4, 5, 4]), seed=0).tolist() in ([1, 3], [3, 1])
    True
    """
    cand = np.asarray(candidates)
    d = directory[seed_row]
    if d < 0:
        return cand[:0]
    return bl.random_ranking(cand[directory[cand] == d], seed=seed)


def baseline_rankers(suite: Suite, feats: SymbolFeatures, *, seed: int = 0) -> dict[str, Ranker]:
    """same_file (line distance), same_dir_random and random, on the api's candidates."""
    g = suite.g
    return {
        "same_file": lambda q: bl.same_file_ranking(suite.sources[q], suite.candidates(q), g.file, feats.line),
        "same_dir_random": lambda q: same_dir_random_ranking(suite.sources[q], suite.candidates(q), feats.directory,
                                                             seed=seed * 100_003 + q),
        "random": lambda q: bl.random_ranking(suite.candidates(q), seed=seed * 100_003 + q),
    }


def paired_bootstrap(a: np.ndarray, b: np.ndarray, *, n: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """(mean of a - b, 2.5th and 97.5th percentile of the mean over ``n`` paired resamples of the queries).

    Examples
    --------
    >>> d, lo, hi = paired_bootstrap(np.array([1.0, 1.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0, 0.0]))
    >>> d, lo <= d <= hi
    (0.5, True)
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.size == 0:
        raise InvalidArgumentError("paired_bootstrap needs two equally long, non-empty per-query arrays")
    d = a - b
    rng = np.random.default_rng(seed)
    means = d[rng.integers(0, d.size, size=(n, d.size))].mean(axis=1)
    return float(d.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def write_weights(path: str | Path, fit: Fit, *, sources: list[str]) -> Path:
    """Write ``{"weights": ..., "fit": ...}`` (the format :func:`lore.graphs.hybrid.load_weights` reads)."""
    p = Path(path)
    doc = {"weights": fit.weights, "fit": {**fit.as_dict(), "ground_truth": sources,
                                           "objective_name": "mean of MRR@10 and Recall@10",
                                           "method": "coordinate ascent, structure fixed at 1.0"}}
    doc["fit"].pop("weights", None)
    p.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return p


def without_history(b: ltr.Blocks) -> ltr.Blocks:
    """The same training set with the history signals at 0 (their commits are the judgements' own)."""
    x = b.x.copy()
    for s in hy.HISTORY_SIGNALS:
        x[:, hy.SIGNALS.index(s)] = 0.0
    return ltr.Blocks(b.query, b.rows, x, b.relevant, b.n_relevant, b.query_weight)


def run_fit(db: str | Path = ".", *, seealso: bool = False, cochange: str | Path | None = None,
            questions: list[str | Path] | None = None, out: str | Path | None = None,
            max_files: int = 10, min_count: int = 2, split: str | None = None, algorithm: str | None = None) -> dict:
    """Fit hybrid weights on the ground truths given for the index at ``db``; write them to ``out``.

    ``algorithm`` names the question the weights answer, and so what the fit holds at 0
    (:data:`HOLD_ZERO`) and which shipped weights the report compares with: ``hybrid`` ("like this")
    or ``changes`` ("changes with this"; the default when co-change is the only ground truth).

    Returns a report: the weights, per ground truth the number of queries and Recall@10 / MRR@10 of
    the fitted weights against the shipped defaults (in-sample: a held-out check needs another corpus).

    Co-change judgements and the index's history signal come from the same git history, so a fit on
    both would learn the answers. With ``split`` (a date or a revision) the index's history is
    re-mined from the commits before it and the judgements from the commits at or after it; without
    it the history signals are left out (0) of the co-change ground truth, and the report says so.
    """
    from ..api import open_index
    from .structural import build_suite

    if not (seealso or cochange or questions):
        raise InvalidArgumentError("give at least one ground truth: --seealso, --cochange REPO or --questions FILE")
    if algorithm is None:
        algorithm = "changes" if cochange and not (seealso or questions) else "hybrid"
    if algorithm not in HOLD_ZERO:
        raise InvalidArgumentError(f"fit weights for 'hybrid' or 'changes', not {algorithm!r}")
    truths: list[tuple[str, dict[int, list[int]]]] = []
    with open_index(db) as idx:
        db_path = idx.db_path
        g = idx.graph()
        if seealso:
            from .seealso import extract_judgements
            from .structural import answerable_and_containers

            answerable, containers = answerable_and_containers(g)
            truths.append(("seealso", extract_judgements(idx, answerable=answerable, containers=containers).pairs))
        notes: list[str] = []
        if cochange:
            from ..index.history import refresh_history
            from .cochange import cochange_pairs

            if split is not None:
                refresh_history(db_path, cochange, until=split)
                notes.append(f"history signal from the commits before {split}, co-change judgements from those after")
            else:
                notes.append("history signals left out of the co-change ground truth (same commits); give split=T to use them")
            truths.append((f"cochange:{cochange}", cochange_pairs(idx, cochange, max_files=max_files,
                                                                  min_count=min_count, since=split)))
        for qf in questions or []:
            from .questions import load_questions, resolve_questions

            truths.append((f"questions:{qf}", resolve_questions(idx, load_questions(qf))[0]))
        blocks, groups, report_truths = [], [], []
        for name, pairs in truths:
            pairs = {s: t for s, t in pairs.items() if g.nodes.has(s) and any(g.nodes.has(x) for x in t)}
            pairs = {s: [x for x in t if g.nodes.has(x)] for s, t in pairs.items()}
            if not pairs:
                report_truths.append({"name": name, "queries": 0})
                continue
            suite = build_suite(idx, pairs, {"corpus": name})
            b = suite_blocks(suite)
            blocks.append(without_history(b) if name.startswith("cochange:") and split is None else b)
            groups.append(name.split(":", 1)[0])
            report_truths.append({"name": name, "queries": len(pairs)})
        if not blocks:
            raise EmptyGroundTruthError("none of the ground truths has a pair in this index; nothing to fit")
        fit = fit_weights(blocks, groups=groups, hold_zero=HOLD_ZERO[algorithm])
        for b, entry in zip(blocks, [t for t in report_truths if t["queries"]], strict=True):
            mine, default = block_metrics(b, fit.weights), block_metrics(b, hy.load_weights(None, algorithm=algorithm))
            entry.update({f"fitted {m}": round(float(mine[m].mean()), 4) for m in QUERY_METRICS[:2]})
            entry.update({f"default {m}": round(float(default[m].mean()), 4) for m in QUERY_METRICS[:2]})
    report = {"suite": "fit", "algorithm": algorithm, "index": str(db), "ground_truth": report_truths, "notes": notes,
              **fit.as_dict()}
    if out is not None:
        write_weights(out, fit, sources=[t["name"] for t in report_truths])
        report["written"] = str(out)
    return report
