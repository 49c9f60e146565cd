"""``lore bench clusters``: cluster quality on several corpora, beside baselines and the Louvain anchor.

For each corpus (:mod:`lore.bench.corpora`; by default networkx and scipy for module structure, and the
co-change corpora requests, httpx and flask, which add their git history) the code is indexed and
:func:`lore.bench.clusters.corpus_quality` scores lore's clusters, networkx's Louvain on the same graph,
and directories and files as clusters; then the LFR graphs (:func:`lore.bench.clusters.lfr_quality`).
What each number means is written in :mod:`lore.bench.clusters`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from ..errors import InvalidArgumentError
from .clusters import METHODS, corpus_quality, lfr_quality

CORPORA = ("networkx", "scipy", "requests", "httpx", "flask")


def run_clusters(names: tuple[str, ...] | None = None, *, workdir: Path | None = None,
                 repos: dict[str, str] | None = None, seed: int = 0, lfr: bool = True, log=print) -> dict:
    """Cluster quality on several corpora (:data:`CORPORA` by default) and on LFR graphs, JSON-ready.

    See-Also corpora (:data:`lore.bench.corpora.SEEALSO`) are scored against module structure; co-change
    corpora (:data:`lore.bench.corpora.COCHANGE`, git checkouts) also against their co-change pairs.
    ``workdir`` keeps the indexes (refreshed, not rebuilt, on the next run); a temporary one otherwise.
    """
    from ..api import open_index
    from ..index import index_repo
    from .corpora import COCHANGE, SEEALSO, cochange_repo, seealso_root

    t0 = time.perf_counter()
    names = tuple(names or CORPORA)
    for n in names:
        if n not in SEEALSO and n not in COCHANGE:
            raise InvalidArgumentError(f"unknown corpus {n!r}; choose from {', '.join((*SEEALSO, *COCHANGE))}")
    tmp = None
    if workdir is None:
        tmp = workdir = Path(tempfile.mkdtemp(prefix="lore-clusters-"))
    workdir.mkdir(parents=True, exist_ok=True)
    report: dict = {"suite": "clusters", "seed": seed, "methods": list(METHODS), "corpora": {}}
    try:
        for n in names:
            db = workdir / f"{n}.db"
            if n in SEEALSO:
                root, label = seealso_root(n)
            else:
                root = cochange_repo(n, (repos or {}).get(n))
                label = f"{n} @ {COCHANGE[n].commit[:12]}"
            index_repo(root, db=db, workers=2)
            with open_index(db) as idx:
                co = None
                if n in COCHANGE:
                    from .cochange import cochange_pairs

                    co = cochange_pairs(idx, root)
                res = corpus_quality(idx, cochange=co, seed=seed)
            res["label"] = label
            report["corpora"][n] = res
            lo = res["methods"]["lore"]
            log(f"{n}: {res['symbols']} symbols, lore {lo['clusters']} clusters, NMI/ARI vs modules "
                f"{lo['nmi_module']}/{lo['ari_module']} ({res['seconds']} s)")
        if lfr:
            report["lfr"] = lfr_quality(seed=seed)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    return report


def markdown(report: dict) -> str:
    """The README tables: structure and co-change per corpus and method, then LFR."""
    def f(v) -> str:
        return "-" if v is None else f"{v:.3f}"

    lines = ["| corpus | method | clusters | NMI / ARI vs modules | NMI / ARI vs directories | co-change P / R / F1 | "
             "co-change Q |", "|---|---|---|---|---|---|---|"]
    for name, c in report["corpora"].items():
        for method, r in c["methods"].items():
            co = r.get("cochange") or {}
            cp = "-" if not co else f"{f(co['precision'])} / {f(co['recall'])} / {f(co['f1'])}"
            lines.append(f"| {name} ({c['symbols']} symbols) | {method} | {r['clusters']} | "
                         f"{f(r['nmi_module'])} / {f(r['ari_module'])} | {f(r['nmi_package'])} / {f(r['ari_package'])} | "
                         f"{cp} | {f(co.get('modularity'))} |")
    if report.get("lfr"):
        lines += ["", "| LFR graph | method | planted | clusters | NMI | ARI |", "|---|---|---|---|---|---|"]
        for r in report["lfr"]:
            lines.append(f"| {r['graph']} | {r['method']} | {r['communities']} | {r['clusters']} | {f(r['nmi'])} | "
                         f"{f(r['ari'])} |")
    return "\n".join(lines)
