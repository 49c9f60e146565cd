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

Two questions, two fits. ``hybrid`` ("what plays a role like this") is fit on the See-Also corpora
alone, ``changes`` ("what will I have to change with this") on the co-change corpora alone, each
leaving the held-out corpus out; both are scored on every corpus. Besides each, the same weights with
the history signals at 0 (``... (history off)``: what the same code answers without ``.git``, the
history being the only thing a checkout adds to an index). Co-change corpora are judged on every pair
changed together at least once after the cut (``min_count=1``), and again on the pairs among them that
never changed together before it (``<name>:new``: the history signal cannot know them; it may only not
get in the way). The ``changes`` fit may not buy all-pair recall with them: its history weights are
ascended again against each training corpus's new-pair shortfall (:data:`lore.bench.fit.NEW_PAIR_PENALTY`).

Finally each family's weights are fit on all of its corpora: those are the shipped defaults
(``lore/graphs/_hybrid_weights.py``, written with ``--write-defaults``).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..algorithms import _ltr as ltr
from ..graphs import hybrid as hy
from ..index.history import refresh_history
from . import fit as ft
from . import structural as st
from .corpora import COCHANGE, SEEALSO, cochange_repo, seealso_checkout, seealso_root

ALGORITHMS = ("overlap:idf_cosine", "fusion", "pagerank", "pagerank_push", "cluster")
BASELINES = ("same_file", "same_dir_random", "random")
# the family each shipped weight set is fit on, and the signals its fit holds at 0
FAMILY = {"hybrid": "seealso", "changes": "cochange"}
HISTORY = hy.HISTORY_SIGNALS
HOLD = ft.HOLD_ZERO  # hybrid holds every history signal; measured in docs/ranking.md
PLAIN = "changes (no new-pair penalty)"


@dataclass
class Corpus:
    name: str
    kind: str  # seealso | cochange
    label: str
    suite: st.Suite
    blocks: ltr.Blocks
    index_seconds: float
    new: tuple[st.Suite, ltr.Blocks] | None = None  # co-change: the pairs that never changed together before the cut


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
        # the judgements: pairs changed together at least once in the commits at or after the cut
        pairs = cochange_pairs(idx, repo, since=spec.cut, min_count=1)
        leak_check = check_no_leak(repo, history, spec.cut)
        suite = st.build_suite(idx, pairs, {"corpus": f"{name} @ {spec.commit[:12]}, split {spec.cut}"})
        label, kind = suite.info["corpus"], "cochange"
        suite.info["history"] = {k: history.get(k) for k in ("until", "commits_read", "commits_used", "newest")}
        suite.info["leak_check"] = leak_check
    blocks = ft.suite_blocks(suite)
    new = new_pairs(suite, blocks) if kind == "cochange" else None
    return Corpus(name, kind, label, suite, blocks, secs, new)


def new_pairs(suite: st.Suite, blocks: ltr.Blocks) -> tuple[st.Suite, ltr.Blocks] | None:
    """The suite and blocks restricted to the judged pairs the index's history never saw together
    (queries left with none dropped); None when no pair is new."""
    f = ft.features(suite)
    keep, relevant, shared = [], [], []
    for q, src in enumerate(suite.sources):
        rel_q = np.asarray(suite.relevant[q])
        seen = np.zeros(rel_q.size, bool)
        if f.co_change is not None and rel_q.size:
            lo, hi = f.co_change.indptr[src], f.co_change.indptr[src + 1]
            seen = np.isin(rel_q, f.co_change.indices[lo:hi][f.co_change.data[lo:hi] > 0])
        if (~seen).any():
            keep.append(q)
            relevant.append(rel_q[~seen])
            shared.append(np.asarray(suite.shared[q])[~seen])
    if not keep:
        return None
    parts = []
    for q, r in zip(keep, relevant, strict=True):
        sel = blocks.query == q
        parts.append((blocks.rows[sel], blocks.x[sel], np.isin(blocks.rows[sel], r), len(r)))
    sub = replace(suite, sources=[suite.sources[q] for q in keep], relevant=relevant, shared=shared, _masks={},
                  info={**suite.info, "corpus": suite.info.get("corpus", "") + ", pairs new after the cut"})
    return sub, ltr.Blocks.stack(parts)


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


def fit_family(corpora: dict[str, Corpus], algorithm: str, *, leave_out: str | None = None,
               penalty: bool = True) -> ft.Fit:
    """``algorithm``'s weights (``hybrid`` or ``changes``) fit on its own family's corpora but ``leave_out``.

    A family with no corpus left (a subset run) falls back to every corpus of the other family, and says
    so in the fit's ``queries`` only: the table is then not leave-one-corpus-out for that algorithm.
    ``penalty=False`` fits without the new-pair penalty (the table's comparison row).
    """
    family = FAMILY[algorithm]
    train = [c for n, c in corpora.items() if n != leave_out and c.kind == family]
    if not train:
        train = [c for n, c in corpora.items() if n != leave_out] or list(corpora.values())
    # changes is fit on every pair changed after the cut (see fit.HOLD_ZERO); the new pairs only bound what its
    # history weights may cost them on the training corpora (fit.NEW_PAIR_PENALTY)
    new = [c.new[1] for c in train if c.new is not None]
    return ft.fit_weights([c.blocks for c in train], groups=[c.kind for c in train], hold_zero=HOLD[algorithm],
                          new_pairs=new, new_pair_penalty=ft.NEW_PAIR_PENALTY[algorithm] if penalty else 0.0)


def _ranker_rows(suite: st.Suite, blocks: ltr.Blocks, fits: dict[str, ft.Fit], algorithms: tuple[str, ...],
                 *, seed: int, plain: ft.Fit | None = None) -> dict[str, dict]:
    feats = ft.features(suite)
    base_rankers = ft.baseline_rankers(suite, feats, seed=seed)
    same_file = ft.per_query(suite, base_rankers["same_file"])
    rows: dict[str, dict] = {}
    off = ft.without_history(blocks)
    for a, fit in fits.items():
        rows[a] = _summary(ft.block_metrics(blocks, fit.weights), same_file, seed=seed)
        rows[f"{a} (history off)"] = _summary(ft.block_metrics(off, fit.weights), same_file, seed=seed)
    if plain is not None:  # what the new-pair penalty changes, in the same run: changes fit without it
        mine, theirs = ft.block_metrics(blocks, fits["changes"].weights), ft.block_metrics(blocks, plain.weights)
        rows[PLAIN] = _summary(theirs, same_file, seed=seed)
        d, lo, hi = ft.paired_bootstrap(mine["recall@10"], theirs["recall@10"], seed=seed)
        rows["changes"]["recall@10 vs no penalty"] = [round(d, 4), round(lo, 4), round(hi, 4)]
    for a in algorithms:
        ranker = st.cluster_ranker(suite) if a == "cluster" else st.lore_ranker(suite, st.params_for(a))
        rows[a.split(":")[0]] = _summary(ft.per_query(suite, ranker), same_file, seed=seed)
    for b in BASELINES:
        per = same_file if b == "same_file" else ft.per_query(suite, base_rankers[b])
        rows[f"baseline: {b}"] = _summary(per, None if b == "same_file" else same_file, seed=seed)
    return rows


def targets(report: dict) -> dict:
    """The bar of issue 36, per held-out corpus (True = met).

    See-Also corpora with a history: hybrid within 0.01 Recall@10 of hybrid with the history off, and
    the lower end of its 95% interval over same-file at least +20% of same-file's Recall@10. Co-change
    corpora: changes at least +20% Recall@10 over same-file on all pairs changed together after the cut,
    and on the pairs new after it not below changes with the history off.
    """
    out: dict = {}
    for name, c in report["corpora"].items():
        m = c["methods"]
        base = m["baseline: same_file"]["recall@10"]
        if c["kind"] == "seealso":
            lo = m["hybrid"]["recall@10 vs same_file"][1]
            t = {"hybrid lower CI >= +20% R@10": base > 0 and lo / base >= 0.2}
            if c.get("with_history"):
                t["hybrid within 0.01 R@10 of history off"] = (
                    m["hybrid"]["recall@10"] >= m["hybrid (history off)"]["recall@10"] - 0.01)
        elif c["kind"] == "cochange":
            t = {"changes >= +20% R@10 over same-file": (m["changes"]["recall@10 relative"] or 0) >= 0.2}
        else:  # the new pairs of a co-change corpus
            t = {"changes >= history off R@10 (new pairs)": m["changes"]["recall@10"] >= m["changes (history off)"]["recall@10"]}
        out[name] = t
    return out


def run_loo(names: tuple[str, ...] | None = None, *, workdir: Path | None = None, repos: dict[str, str] | None = None,
            seed: int = 0, algorithms: tuple[str, ...] = ALGORITHMS, log=print) -> dict:
    """The leave-one-corpus-out report (JSON-ready), plus each algorithm's weights fit on its whole family."""
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
        report: dict = {"suite": "leave-one-corpus-out", "corpora": {}, "seed": seed,
                        "hold_zero": {a: list(h) for a, h in HOLD.items()},
                        "new_pair_penalty": {a: ft.NEW_PAIR_PENALTY[a] for a in FAMILY}}
        for held, c in corpora.items():
            fits = {a: fit_family(corpora, a, leave_out=held) for a in FAMILY}
            plain = (fit_family(corpora, "changes", leave_out=held, penalty=False)
                     if c.kind == "cochange" and ft.NEW_PAIR_PENALTY["changes"] > 0 else None)
            rows = _ranker_rows(c.suite, c.blocks, fits, algorithms, seed=seed, plain=plain)
            history = c.suite.info.get("history")
            report["corpora"][held] = {"kind": c.kind, "label": c.label, "queries": len(c.suite.sources),
                                       "pairs": c.suite.info.get("pairs"),
                                       "trained_on": {a: [n for n, o in corpora.items() if n != held and o.kind == FAMILY[a]]
                                                      for a in FAMILY},
                                       "weights": {a: f.weights for a, f in fits.items()}, "history": history,
                                       "with_history": bool(c.blocks.x[:, [hy.SIGNALS.index(h) for h in HISTORY]].any()),
                                       "leak_check": c.suite.info.get("leak_check"),
                                       "dropped_pairs": c.suite.info.get("dropped_pairs", {}),
                                       "dropped_queries": c.suite.info.get("dropped_queries", 0), "methods": rows}
            if c.new is not None:
                sub, blocks = c.new
                report["corpora"][f"{held}:new"] = {"kind": "cochange-new", "label": sub.info["corpus"],
                                                    "queries": len(sub.sources), "with_history": True,
                                                    "methods": _ranker_rows(sub, blocks, fits, (), seed=seed, plain=plain)}
            for key in (held, f"{held}:new"):
                r = report["corpora"].get(key)
                if r is None:
                    continue
                m = r["methods"]
                log(f"{key}: " + "; ".join(f"{a} {m[a]['recall@10']} / {m[a]['mrr@10']}" for a in
                                           ("hybrid", "hybrid (history off)", "changes", "changes (history off)",
                                            PLAIN, "baseline: same_file") if a in m))
        report["all_corpora_fit"] = {a: fit_family(corpora, a).as_dict() for a in FAMILY}
        report["trained_on"] = {a: sorted(n for n, c in corpora.items() if c.kind == FAMILY[a]) for a in FAMILY}
        report["targets"] = targets(report)
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
