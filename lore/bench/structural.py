"""The structural suite: lore's related-symbol rankings scored against See-Also judgements.

Corpus: the installed networkx package (pinned by the project), indexed from scratch into a
temporary database on every run, so that the current indexer and resolver are what is measured.
Ground truth: :mod:`lore.bench.seealso`. Rankings: every algorithm of
:func:`lore.graphs.related.related_scores` with the api's exclusion mask
(:func:`lore.graphs.related.excluded_mask`: the seed, its containers, externals, tests, modules),
computed directly on the graph rows for speed; a few queries per algorithm are checked against
:func:`lore.api.lore_graph` in the same run (``consistency``). The algorithms read only the
structural matrices (calls, types, inheritance, containment, imports): no docstring, name or
other text reaches them. Baselines (:mod:`lore.bench.baselines`) rank the same candidates.

Metrics per method: Recall@5, Recall@10, MRR and nDCG@10, averaged over queries; also split into
pairs whose two symbols share at least one caller, callee or type ("shared") and pairs that share
none ("unshared": structure cannot see them, except through longer paths).
"""

from __future__ import annotations

import importlib
import itertools
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..algorithms import overlap as ov
from ..errors import EmptyGroundTruthError, InvalidArgumentError
from ..graphs import related as rel
from ..graphs._fold import Fold, fold_for
from ..graphs.build import CodeGraph
from . import baselines as bl
from .metrics import METRICS, mean_metrics, ranking_metrics
from .seealso import Judgements, extract_judgements

STRUCTURE_NOTE = (
    "The structural algorithms never read docstrings or names: they rank over the call, type, inheritance, "
    "containment and import matrices only. hybrid also reads names, signatures and the first paragraph of each "
    "docstring (never a See Also section), besides file, line and directory."
)
DOCSTRING_NOTE = STRUCTURE_NOTE + " See-Also docstrings are read solely to build the ground truth."
MEASURES = ov.MEASURES
ALGORITHMS = ("hybrid", "fusion") + tuple(f"overlap:{m}" for m in MEASURES) + ("pagerank", "pagerank_mc", "pagerank_push",
                                                                     "cluster")
BASELINES = ("random", "same_file", "bm25_names", "file_pagerank")
# the overlap weight grid, over the two normalised cosine measures (the others trail them by > 0.1 nDCG@10);
# inherits is fixed at 0.5: 0 vs 0.5 moved nDCG@10 by < 0.005 in a full grid (README)
GRID_MEASURES = ("idf_cosine", "cosine")
GRID_VALUES = {"callees": (0.25, 0.5, 1.0), "callers": (0.5, 1.0), "types": (0.0, 0.25, 0.5), "inherits": (0.5,),
               "container": (0.0, 1.0)}
SPLITS = ("all", "shared", "unshared")
# personalized PageRank (push, as fusion runs it): how much containment edges (symbol <-> its class /
# module) count, and alpha
PPR_GRID = {"contains": (1.0, 3.0, 10.0, 30.0), "alpha": (0.5, 0.85)}
CORPORA = ("networkx", "scipy")  # installed packages with numpydoc See-Also sections


@dataclass
class Suite:
    """Everything the rankers need, prepared once per run."""

    idx: object
    g: CodeGraph
    judgements: Judgements | None
    sources: list[int]  # graph rows of the query symbols
    relevant: list[np.ndarray]  # graph rows of their See-Also targets
    shared: list[np.ndarray]  # per query, bool per relevant target: shares a caller / callee / type
    lines: np.ndarray
    names: list[str]
    info: dict = field(default_factory=dict)
    _masks: dict[int, np.ndarray] = field(default_factory=dict)
    fold: Fold | None = None  # one row per definition, as the api answers (lore.graphs._fold)

    def mask(self, q: int) -> np.ndarray:
        m = self._masks.get(q)
        if m is None:
            m = rel.excluded_mask(self.g, np.array([self.sources[q]]), include_tests=False, kinds=None, fold=self.fold)
            self._masks[q] = m
        return m

    def candidates(self, q: int) -> np.ndarray:
        return np.flatnonzero(~self.mask(q))


def _binary(m: sp.csr_matrix) -> sp.csr_matrix:
    b = m.copy().tocsr()
    b.data = np.ones_like(b.data)
    return b


def shared_neighbours(g: CodeGraph, source: int, targets: np.ndarray) -> np.ndarray:
    """Per target: does it share at least one callee, caller or type with ``source``?"""
    out = np.zeros(len(targets), dtype=bool)
    for m in (g.matrix("calls"), g.matrix("calls", transpose=True), g.matrix("types")):
        b = _binary(m)
        common = b[targets] @ b[source].T
        out |= np.asarray(common.todense()).ravel() > 0
    return out


def prepare(db_or_root: str | Path | None = None, *, workdir: Path | None = None, corpus: str = "networkx",
            aliases: dict[str, str] | None = None) -> Suite:
    """Index an installed package (or open the given index) and extract the judgements.

    With no ``db_or_root`` the installed package ``corpus`` (networkx by default; scipy is the
    held-out check of the defaults) is indexed into ``workdir`` (a temporary directory by default).
    """
    from ..api import open_index
    from ..index import index_repo

    t0 = time.perf_counter()
    info: dict = {}
    if db_or_root is None:
        if corpus not in CORPORA:
            raise InvalidArgumentError(f"unknown corpus {corpus!r}; choose one of {', '.join(CORPORA)}")
        module = importlib.import_module(corpus)
        if module.__file__ is None:  # a namespace package: no directory to index
            raise InvalidArgumentError(f"{corpus} is installed without a source directory; reinstall it from a wheel")
        root = Path(module.__file__).parent
        workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="lore-bench-"))
        db = workdir / "index.db"
        report = index_repo(root, db=db, rebuild=True, workers=2)
        info.update({"corpus": f"{corpus} {module.__version__}", "files": report.files_seen,
                     "symbols": report.symbols, "index_seconds": round(report.seconds.get("total", 0.0), 2)})
        idx = open_index(db)
    else:
        idx = open_index(db_or_root)
        info["corpus"] = str(db_or_root)
    g = idx.graph()
    answerable, containers = answerable_and_containers(g)
    j = extract_judgements(idx, answerable=answerable, containers=containers, aliases=aliases)
    if not j.pairs:
        raise EmptyGroundTruthError(f"no See-Also pair of {info['corpus']} resolved to a symbol; nothing to score")
    suite = build_suite(idx, j.pairs, info, judgements=j)
    suite.info["prepare_seconds"] = round(time.perf_counter() - t0, 2)
    return suite


def answerable_and_containers(g: CodeGraph) -> tuple[set[int], dict[int, set[int]]]:
    """(ids a related query may return, per symbol id the ids of its trivial containers)."""
    answerable = {g.nodes.id(int(r)) for r in np.flatnonzero(
        ~(g.is_external() | g.is_test | (g.kind == g.kind_code("module"))))}
    containers: dict[int, set[int]] = {}
    for r in range(g.n):
        p = int(g.parent[r])
        if p >= 0:
            containers[g.nodes.id(r)] = {g.nodes.id(c) for c in g.containers_of(np.array([r]))}
    return answerable, containers


def build_suite(idx, pairs: dict[int, list[int]], info: dict | None = None, *, judgements: Judgements | None = None) -> Suite:
    """A :class:`Suite` over any ground truth: source symbol id -> related symbol ids.

    A target that a related query for its source may never return (:func:`lore.graphs.related.excluded_mask`:
    the source itself, its containers, externals, tests, modules) is dropped and counted in
    ``info["dropped_pairs"]`` by reason, and a source left with no target in ``info["dropped_queries"]``:
    no ranking could find it, so it would only lower every method alike. See-Also judgements arrive
    filtered the same way (:func:`lore.bench.seealso.extract_judgements`); co-change and question
    files are filtered here.
    """
    if not pairs:
        raise EmptyGroundTruthError("the ground truth has no pair to score")
    info = dict(info or {})
    g = idx.graph()
    from ._data import symbol_table

    table = symbol_table(idx)
    lines = np.zeros(g.n, dtype=np.int64)
    names = [""] * g.n
    for r in range(g.n):
        row = table.get(g.nodes.id(r))
        if row is not None:
            lines[r] = row[5] or 0
            names[r] = row[1] or ""
    sources: list[int] = []
    relevant: list[np.ndarray] = []
    shared: list[np.ndarray] = []
    masks: dict[int, np.ndarray] = {}
    dropped: dict[str, int] = {}
    dropped_queries = 0
    fold = fold_for(idx.conn, g)  # as the api answers: one row per definition, the implementation's
    for sid in sorted(pairs):
        s = int(fold.canon[g.nodes.row(sid)])
        t = fold.canonical_rows(g.nodes.rows(pairs[sid]))
        mask = rel.excluded_mask(g, np.array([s]), include_tests=False, kinds=None, fold=fold)
        if mask[t].any():
            containers = np.isin(t, np.fromiter(g.containers_of(np.array([s])), np.int64))
            for reason, n in (("container", int(containers.sum())),
                              ("not answerable", int((mask[t] & ~containers).sum()))):
                if n:
                    dropped[reason] = dropped.get(reason, 0) + n
            t = t[~mask[t]]
            if not t.size:
                dropped_queries += 1
                continue
        masks[len(sources)] = mask
        sources.append(s)
        relevant.append(t)
        shared.append(shared_neighbours(g, s, t))
    if not sources:
        raise EmptyGroundTruthError("no pair of the ground truth is one a related query may return "
                                    f"(dropped: {dropped}); nothing to score")
    n_pairs = sum(len(t) for t in relevant)
    same_file = sum(int((g.file[t] == g.file[s]).sum()) for s, t in zip(sources, relevant, strict=True))
    n_shared = int(sum(int(x.sum()) for x in shared))
    calls = _binary(g.matrix("calls"))
    direct = sum(int(((np.asarray(calls[s][:, t].todense()).ravel() + np.asarray(calls[t][:, [s]].todense()).ravel()) > 0)
                     [~sh].sum()) for s, t, sh in zip(sources, relevant, shared, strict=True))
    info.update({
        "queries": len(sources), "pairs": n_pairs,
        "same_file_pairs": same_file, "same_file_fraction": round(same_file / n_pairs, 4),
        "shared_pairs": n_shared, "unshared_pairs": n_pairs - n_shared,
        "unshared_but_direct_call": direct,
    })
    if dropped or dropped_queries:
        info["dropped_pairs"] = dict(sorted(dropped.items()))
        info["dropped_queries"] = dropped_queries
    return Suite(idx, g, judgements, sources, relevant, shared, lines, names, info, _masks=masks, fold=fold)


Ranker = Callable[[int], np.ndarray]  # query number -> ranked rows


def evaluate(suite: Suite, ranker: Ranker, *, queries: list[int] | None = None) -> dict:
    """Mean metrics of a ranker, overall and per split, with the number of queries behind each."""
    per: dict[str, list[dict[str, float]]] = {s: [] for s in SPLITS}
    t0 = time.perf_counter()
    for q in queries if queries is not None else range(len(suite.sources)):
        ranked = ranker(q).tolist()
        rel_rows, sh = suite.relevant[q], suite.shared[q]
        per["all"].append(ranking_metrics(ranked, rel_rows.tolist()))
        if sh.any():
            per["shared"].append(ranking_metrics(ranked, rel_rows[sh].tolist()))
        if (~sh).any():
            per["unshared"].append(ranking_metrics(ranked, rel_rows[~sh].tolist()))
    out = {s: {**{k: round(v, 4) for k, v in mean_metrics(per[s]).items()}, "queries": len(per[s])} for s in SPLITS}
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def lore_ranker(suite: Suite, params: rel.RelatedParams) -> Ranker:
    """The api's ranking for one seed (same scores, same exclusion mask, same tie order)."""

    def rank(q: int) -> np.ndarray:
        seeds = np.array([suite.sources[q]])
        scores, _ = rel.related_scores(suite.g, seeds, params, exclude=suite.mask(q))
        ranked, _ = rel.rank(scores, suite.mask(q), None)
        return ranked

    return rank


def cluster_ranker(suite: Suite) -> Ranker:
    """``algorithm='cluster'`` as the api runs it: same-cluster members ranked by PPR inside the cluster, or
    the nearest clusters' members when the seed's cluster has no other answerable member."""
    from ..queries.clusters import nearest_cluster_scores

    _summary, labels = suite.idx.clusters()

    def rank(q: int) -> np.ndarray:
        seeds = np.array([suite.sources[q]])
        ranked, _ = rel.rank(rel.cluster_scores(suite.g, labels, seeds), suite.mask(q), None)
        if ranked.size == 0:
            ranked, _ = rel.rank(nearest_cluster_scores(suite.g, labels, seeds, suite.mask(q))[0], suite.mask(q), None)
        return ranked

    return rank


def features(suite: Suite):
    """The hybrid ranker's per-symbol arrays (:class:`lore.graphs._features.SymbolFeatures`), cached per index state."""
    from ..graphs._features import load_features
    from ..text.tokens import split_identifier

    return load_features(suite.idx.conn, suite.g, split=split_identifier)


def hybrid_ranker(suite: Suite, weights: dict[str, float], feats=None) -> Ranker:
    """The hybrid ranker as the api runs it (same candidates, mask and tie order)."""
    from ..graphs import hybrid as hy

    feats = feats or features(suite)
    w = hy.check_weights(weights)

    def rank(q: int) -> np.ndarray:
        return hy.score(suite.g, feats, np.array([suite.sources[q]]), suite.mask(q), w).rows

    return rank


def named_ranker(suite: Suite, name: str, *, seed: int = 0) -> Ranker:
    """The ranker of a benchmark method name: ``hybrid`` (shipped weights), ``cluster``, or :func:`params_for`'s."""
    if name == "hybrid":
        from ..graphs.hybrid import load_weights

        return hybrid_ranker(suite, load_weights(None))
    if name == "cluster":
        return cluster_ranker(suite)
    return lore_ranker(suite, params_for(name, seed=seed))


def params_for(name: str, *, weights: dict[str, float] | None = None, seed: int = 0) -> rel.RelatedParams:
    """RelatedParams for a benchmark method name: ``fusion``, ``overlap:<measure>``, ``pagerank``..."""
    if name.startswith("overlap:"):
        p = rel.RelatedParams(algorithm="overlap", measure=name.split(":", 1)[1], seed=seed)
        if weights is not None:
            p.overlap_weights = dict(weights)
        return p
    return rel.RelatedParams(algorithm=name, seed=seed)


def baseline_rankers(suite: Suite, *, seed: int = 0, names: tuple[str, ...] = BASELINES) -> dict[str, Ranker]:
    g = suite.g
    out: dict[str, Ranker] = {}
    for name in names:
        if name == "random":
            out[name] = lambda q: bl.random_ranking(suite.candidates(q), seed=seed * 100_003 + q)
        elif name == "same_file":
            out[name] = lambda q: bl.same_file_ranking(suite.sources[q], suite.candidates(q), g.file, suite.lines)
        elif name == "bm25_names":
            bm25 = bl.BM25Names(suite.names)
            out[name] = lambda q, bm25=bm25: bm25.rank(suite.sources[q], suite.candidates(q))
        elif name == "file_pagerank":
            fpr = bl.FilePageRank((g.matrix("calls") + g.matrix("types")).tocsr(), g.file)
            out[name] = lambda q, fpr=fpr: fpr.rank(suite.sources[q], suite.candidates(q))
        else:
            raise ValueError(f"unknown baseline {name!r}")
    return out


def consistency_check(suite: Suite, rankers: dict[str, Ranker], *, per_algorithm: int = 3) -> list[str]:
    """Compare the direct rankings with :func:`lore.api.lore_graph` on a few queries; return mismatches."""
    from ..api import lore_graph

    problems = []
    qs = list(range(0, len(suite.sources), max(1, len(suite.sources) // per_algorithm)))[:per_algorithm]
    for name, ranker in rankers.items():
        algo, _, measure = name.partition(":")
        for q in qs:
            sid = suite.g.nodes.id(suite.sources[q])
            env = lore_graph(suite.idx, kind="related", source_id=sid, algorithm=algo, measure=measure or None,
                             limit=10)
            api_ids = [r["id"] for r in env["results"]]
            mine = [suite.g.nodes.id(int(r)) for r in ranker(q)[:10]]
            if api_ids != mine:
                problems.append(f"{name} on symbol {sid}: api {api_ids[:5]} vs benchmark {mine[:5]}")
    return problems


def weight_grid(suite: Suite, measures: tuple[str, ...] = GRID_MEASURES, *, queries: list[int] | None = None) -> list[dict]:
    """Overlap scored over a grid of relation weights (GRID_VALUES) for each measure."""
    rows = []
    keys = list(GRID_VALUES)
    for measure in measures:
        for combo in itertools.product(*(GRID_VALUES[k] for k in keys)):
            w = dict(zip(keys, combo, strict=True))
            p = params_for(f"overlap:{measure}", weights=w)
            res = evaluate(suite, lore_ranker(suite, p), queries=queries)
            rows.append({"measure": measure, "weights": w, **{m: res["all"][m] for m in METRICS}})
    rows.sort(key=lambda r: (-r["ndcg@10"], -r["mrr"]))
    return rows


def ppr_grid(suite: Suite, *, algorithm: str = "pagerank_push", queries: list[int] | None = None) -> list[dict]:
    """Personalized PageRank over PPR_GRID (containment weight x alpha), other weights at their defaults."""
    rows = []
    for contains, alpha in itertools.product(PPR_GRID["contains"], PPR_GRID["alpha"]):
        p = rel.RelatedParams(algorithm=algorithm, alpha=alpha)
        p.ppr_weights = {**p.ppr_weights, "contains": contains}
        res = evaluate(suite, lore_ranker(suite, p), queries=queries)
        rows.append({"algorithm": algorithm, "alpha": alpha, "weights": dict(p.ppr_weights),
                     **{m: res["all"][m] for m in METRICS}})
    rows.sort(key=lambda r: (-r["ndcg@10"], -r["mrr"]))
    return rows


def run_structural(db_or_root: str | Path | None = None, *, seed: int = 0, grid: bool = True,
                   grid_measures: tuple[str, ...] | None = None, algorithms: tuple[str, ...] = ALGORITHMS,
                   clusters: bool = True, corpus: str = "networkx") -> dict:
    """Run the See-Also suite and return a JSON-ready report (see the module docstring)."""
    t0 = time.perf_counter()
    workdir = None if db_or_root is not None else Path(tempfile.mkdtemp(prefix="lore-bench-"))
    try:
        suite = prepare(db_or_root, workdir=workdir, corpus=corpus)
        rankers: dict[str, Ranker] = {}
        for name in algorithms:
            rankers[name] = named_ranker(suite, name, seed=seed)
        results = {name: evaluate(suite, r) for name, r in rankers.items()}
        base = baseline_rankers(suite, seed=seed)
        baseline_results = {name: evaluate(suite, r) for name, r in base.items()}
        report = {
            "suite": "see-also",
            "note": DOCSTRING_NOTE,
            "corpus": suite.info,
            "ground_truth": suite.judgements.summary(),
            "defaults": {"algorithm": rel.DEFAULT_ALGORITHM, "measure": rel.DEFAULT_MEASURE,
                         "overlap_weights": rel.DEFAULT_OVERLAP_WEIGHTS, "ppr_weights": rel.DEFAULT_PPR_WEIGHTS,
                         "fusion_ppr_weight": rel.DEFAULT_FUSION_PPR_WEIGHT},
            "algorithms": results,
            "baselines": baseline_results,
            "consistency": consistency_check(suite, {k: v for k, v in rankers.items()}),
        }
        if grid:
            report["grid"] = weight_grid(suite, grid_measures or GRID_MEASURES)
            report["ppr_grid"] = ppr_grid(suite)
            report["recommendation"] = recommend(report)
        if clusters:
            from .clusters import cluster_quality

            report["clusters"] = cluster_quality(suite, seed=seed)
        suite.idx.close()
    finally:
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
    report["seconds"] = round(time.perf_counter() - t0, 2)
    return report


def recommend(report: dict) -> dict:
    """The best grid rows by nDCG@10 (MRR breaks ties) beside what the current defaults measure."""
    best = report["grid"][0]
    ppr = report.get("ppr_grid", [None])[0]
    defaults = report["defaults"]
    algos = report["algorithms"]
    same_file = report["baselines"]["same_file"]["all"]["ndcg@10"]
    default_overlap = algos.get(f"overlap:{defaults['measure']}", {}).get("all", {}).get("ndcg@10")
    key = f"overlap:{defaults['measure']}" if defaults["algorithm"] == "overlap" else defaults["algorithm"]
    default_algorithm = algos.get(key, {}).get("all", {}).get("ndcg@10")
    return {
        "default_algorithm": defaults["algorithm"], "default_algorithm_ndcg@10": default_algorithm,
        "default_beats_same_file": default_algorithm is not None and default_algorithm > same_file,
        "overlap": {"measure": best["measure"], "weights": best["weights"], "ndcg@10": best["ndcg@10"],
                    "mrr": best["mrr"], "recall@10": best["recall@10"], "default_ndcg@10": default_overlap},
        "pagerank": None if ppr is None else {"alpha": ppr["alpha"], "ppr_weights": ppr["weights"],
                                              "ndcg@10": ppr["ndcg@10"], "mrr": ppr["mrr"],
                                              "default_ndcg@10": algos.get("pagerank_push", {}).get("all", {}).get(
                                                  "ndcg@10")},
        "same_file_ndcg@10": same_file,
    }


def gate_section(corpus: str) -> str:
    """The thresholds-file section a corpus is gated under (``structural`` for networkx)."""
    return "structural" if corpus == "networkx" else f"structural:{corpus}"


def flat_metrics(report: dict) -> dict[str, float]:
    """``{"algorithms.overlap:adamic_adar.recall@10": 0.41, ...}``: the numbers the thresholds gate on."""
    out = {}
    for section in ("algorithms", "baselines"):
        for name, res in report.get(section, {}).items():
            for m in METRICS:
                if res["all"].get(m) is not None:
                    out[f"{section}.{name}.{m}"] = res["all"][m]
    for k in ("nmi_module", "ari_module", "nmi_package", "ari_package", "lfr_nmi", "lfr_ari"):
        v = report.get("clusters", {}).get(k)
        if v is not None:
            out[f"clusters.{k}"] = v
    return out


DEFAULT_USER_ALGORITHMS = ("hybrid", "fusion", f"overlap:{rel.DEFAULT_MEASURE}", "pagerank", "cluster")


def score_pairs(idx, pairs: dict[int, list[int]], *, info: dict | None = None,
                algorithms: tuple[str, ...] = DEFAULT_USER_ALGORITHMS, seed: int = 0,
                baselines: tuple[str, ...] = ("random", "same_file", "bm25_names")) -> dict:
    """Score lore's algorithms and the baselines against any ground truth (co-change, a question file)."""
    t0 = time.perf_counter()
    suite = build_suite(idx, pairs, info)
    results = {}
    for name in algorithms:
        ranker = named_ranker(suite, name, seed=seed)
        results[name] = evaluate(suite, ranker)
    base = baseline_rankers(suite, seed=seed, names=baselines)
    return {
        "note": STRUCTURE_NOTE,
        "corpus": suite.info,
        "algorithms": results,
        "baselines": {k: evaluate(suite, base[k]) for k in baselines},
        "seconds": round(time.perf_counter() - t0, 2),
    }
