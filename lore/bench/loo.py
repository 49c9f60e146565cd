"""Leave-one-corpus-out: every ranker and baseline on every corpus, the hybrid's weights fit without it.

For each corpus (:mod:`lore.bench.corpora`: See-Also of five libraries, co-change of three web/HTTP
libraries) the hybrid ranker is scored with weights fit by :func:`lore.bench.fit.fit_weights` on all
the *other* corpora, so the weights that rank a corpus never saw it. Every other algorithm runs
with its defaults; the baselines are same-file by line distance, same-directory random and global
random. Per method: Recall@10, MRR@10 and hit@1, and against same-file the paired bootstrap 95%
interval of the per-query difference (2,000 resamples, seeded).

Co-change corpora are split in time (:data:`lore.bench.corpora.COCHANGE` ``cut``): the judgements
come from the commits at or after the cut, the index's history signal from the commits before it
(:func:`check_no_leak` verifies the two sets of commits are disjoint and ordered, per corpus, and
the report records the evidence). See-Also corpora are installed packages or sdists, whose history
signal is 0, except networkx when it is indexed from its git checkout at the pinned tag
(``repos={"networkx": PATH}``): then its history counts, and the fit sees what the signal does to
See-Also questions where a repository has one.

Finally the weights are fit on all corpora together: those are the shipped defaults
(``lore/graphs/_hybrid_weights.py``, written with ``--write-defaults``).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..algorithms import _ltr as ltr
from ..index.history import refresh_history
from . import fit as ft
from . import structural as st
from .corpora import COCHANGE, SEEALSO, cochange_repo, seealso_checkout, seealso_root

ALGORITHMS = ("overlap:idf_cosine", "fusion", "pagerank", "pagerank_push", "cluster")
BASELINES = ("same_file", "same_dir_random", "random")


@dataclass
class Corpus:
    name: str
    kind: str  # seealso | cochange
    label: str
    suite: st.Suite
    blocks: ltr.Blocks
    index_seconds: float


def _index(root: Path, db: Path) -> float:
    from ..index import index_repo

    t0 = time.perf_counter()
    index_repo(root, db=db, workers=2)
    return round(time.perf_counter() - t0, 2)


def load_corpus(name: str, workdir: Path, *, repos: dict[str, str] | None = None) -> Corpus:
    """Index one corpus into ``workdir`` (refreshed, not rebuilt, when already there) and build its suite."""
    from ..api import open_index

    checkout = (repos or {}).get(name) if name in SEEALSO else None
    db = workdir / (f"{name}-git.db" if checkout else f"{name}.db")
    if name in SEEALSO:
        root, label = seealso_checkout(name, checkout) if checkout else seealso_root(name)
        secs = _index(root, db)
        # an installed package or an sdist: no git, the history signal is 0; a checkout at the pinned tag:
        # its history up to that tag (See-Also judgements come from docstrings, never from git)
        history = refresh_history(db, root)
        aliases = dict(SEEALSO[name].aliases)
        suite = st.prepare(db, aliases=aliases)
        suite.info["corpus"] = label
        suite.info["history"] = history.get("reason") or history.get("commits_used")
        kind = "seealso"
    else:
        from .cochange import cochange_pairs

        spec = COCHANGE[name]
        repo = cochange_repo(name, (repos or {}).get(name))
        secs = _index(repo, db)
        history = refresh_history(db, repo, until=spec.cut)  # the signal sees only commits before the cut
        idx = open_index(db)
        pairs = cochange_pairs(idx, repo, since=spec.cut)  # the judgements: commits at or after the cut
        leak_check = check_no_leak(repo, history, spec.cut)
        suite = st.build_suite(idx, pairs, {"corpus": f"{name} @ {spec.commit[:12]}, split {spec.cut}"})
        label, kind = suite.info["corpus"], "cochange"
        suite.info["history"] = {k: history.get(k) for k in ("until", "commits_read", "commits_used", "newest")}
        suite.info["leak_check"] = leak_check
    return Corpus(name, kind, label, suite, ft.suite_blocks(suite), secs)


def check_no_leak(repo: Path, history: dict, cut: str) -> dict:
    """Raise unless every commit the history signal counted is older than every commit of the judgements.

    The two sides are read separately from git: the history run's newest commit time (stored with the
    run) must be before ``cut`` and the judgements' oldest commit at or after it, and no commit may
    be on both sides. Returns the evidence (commit counts and the times on either side).
    """
    from .cochange import git_root, parse_time, read_history

    t_cut = parse_time(cut)
    assert t_cut is not None
    root = git_root(repo)
    before = {c.sha for c in read_history(root, until=t_cut, max_commits=int(history.get("max_commits") or 0) or None)}
    after = read_history(root, since=t_cut)
    newest = history.get("newest")
    shared = before & {c.sha for c in after}
    if (newest is not None and newest >= t_cut) or shared or any(c.time < t_cut for c in after):
        raise AssertionError(f"history leaks into the judgements at {cut}: newest history commit {newest}, "
                             f"{len(shared)} commits on both sides")
    return {"history_commits": len(before), "judgement_commits": len(after), "history_newest": newest,
            "judgements_oldest": min((c.time for c in after), default=None)}


def _summary(per: dict[str, np.ndarray], base: dict[str, np.ndarray] | None, *, seed: int) -> dict:
    out: dict = {m: round(float(v.mean()), 4) for m, v in per.items()}
    if base is not None:
        for m in ("recall@10", "mrr@10"):
            d, lo, hi = ft.paired_bootstrap(per[m], base[m], seed=seed)
            b = float(base[m].mean())
            out[f"{m} vs same_file"] = [round(d, 4), round(lo, 4), round(hi, 4)]
            out[f"{m} relative"] = round(d / b, 4) if b > 0 else None
    return out


def run_loo(names: tuple[str, ...] | None = None, *, workdir: Path | None = None, repos: dict[str, str] | None = None,
            seed: int = 0, algorithms: tuple[str, ...] = ALGORITHMS, log=print) -> dict:
    """The leave-one-corpus-out report (JSON-ready), plus the weights fit on all corpora."""
    t0 = time.perf_counter()
    names = names or (*SEEALSO, *COCHANGE)
    tmp = None
    if workdir is None:
        tmp = workdir = Path(tempfile.mkdtemp(prefix="lore-loo-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        corpora = {}
        for n in names:
            c = load_corpus(n, workdir, repos=repos)
            corpora[n] = c
            dropped = c.suite.info.get("dropped_pairs")
            log(f"{n}: {c.label}, {len(c.suite.sources)} queries, indexed in {c.index_seconds} s"
                + (f"; dropped {dropped} and {c.suite.info.get('dropped_queries', 0)} queries left with none" if dropped else ""))
        report: dict = {"suite": "leave-one-corpus-out", "corpora": {}, "seed": seed}
        for held, c in corpora.items():
            # See-Also and co-change weigh the same in total (fit.group_blocks): with one vote per corpus the
            # five See-Also corpora outvote the three co-change ones (held out, co-change MRR@10 fell 0.03-0.08
            # against this; See-Also stayed >= +20% over same-file either way)
            others = [o for n, o in corpora.items() if n != held] or [c]
            fit = ft.fit_weights([o.blocks for o in others], groups=[o.kind for o in others],
                                 hold_zero=ft.OPT_IN_SIGNALS)
            feats = ft.features(c.suite)
            base_rankers = ft.baseline_rankers(c.suite, feats, seed=seed)
            same_file = ft.per_query(c.suite, base_rankers["same_file"])
            rows: dict[str, dict] = {}
            rows["hybrid"] = _summary(ft.block_metrics(c.blocks, fit.weights), same_file, seed=seed)
            for a in algorithms:
                ranker = st.cluster_ranker(c.suite) if a == "cluster" else st.lore_ranker(c.suite, st.params_for(a))
                rows[a.split(":")[0]] = _summary(ft.per_query(c.suite, ranker), same_file, seed=seed)
            for b in BASELINES:
                per = same_file if b == "same_file" else ft.per_query(c.suite, base_rankers[b])
                rows[f"baseline: {b}"] = _summary(per, None if b == "same_file" else same_file, seed=seed)
            report["corpora"][held] = {"kind": c.kind, "label": c.label, "queries": len(c.suite.sources),
                                       "pairs": c.suite.info.get("pairs"), "trained_on": [n for n in corpora if n != held],
                                       "weights": fit.weights, "history": c.suite.info.get("history"),
                                       "leak_check": c.suite.info.get("leak_check"),
                                       "dropped_pairs": c.suite.info.get("dropped_pairs", {}),
                                       "dropped_queries": c.suite.info.get("dropped_queries", 0), "methods": rows}
            h = rows["hybrid"]
            log(f"{held}: hybrid R@10 {h['recall@10']} MRR@10 {h['mrr@10']} "
                f"(same_file {rows['baseline: same_file']['recall@10']} / {rows['baseline: same_file']['mrr@10']})")
        final = ft.fit_weights([c.blocks for c in corpora.values()], groups=[c.kind for c in corpora.values()],
                               hold_zero=ft.OPT_IN_SIGNALS)
        report["all_corpora_fit"] = final.as_dict()
        report["targets"] = {n: {m: (v["methods"]["hybrid"][f"{m} relative"] or 0) >= 0.2
                                 for m in ("recall@10", "mrr@10")} for n, v in report["corpora"].items()}
        report["seconds"] = round(time.perf_counter() - t0, 1)
        for c in corpora.values():
            c.suite.idx.close()
        return report
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def markdown(report: dict) -> str:
    """The README table: one block of rows per corpus, hybrid first, baselines last."""
    lines = ["| corpus | method | R@10 | MRR@10 | hit@1 | ΔR@10 vs same-file [95% CI] | ΔMRR@10 vs same-file [95% CI] |",
             "|---|---|---|---|---|---|---|"]
    for name, c in report["corpora"].items():
        for method, r in c["methods"].items():
            def ci(key, r=r):
                v = r.get(key)
                return f"{v[0]:+.3f} [{v[1]:+.3f}, {v[2]:+.3f}]" if v else "-"
            label = f"{name} ({c['kind']}, {c['queries']} q)"
            lines.append(f"| {label} | {method} | {r['recall@10']:.3f} | {r['mrr@10']:.3f} | {r['hit@1']:.3f} | "
                         f"{ci('recall@10 vs same_file')} | {ci('mrr@10 vs same_file')} |")
    return "\n".join(lines)
