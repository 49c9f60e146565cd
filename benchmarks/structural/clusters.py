"""Cluster quality of lore against module structure and co-change, beside baselines and Louvain (lore.bench.cluster_suite).

    python benchmarks/structural/clusters.py                               # networkx, scipy, requests, httpx, flask
    python benchmarks/structural/clusters.py --corpora requests,flask --no-lfr
    python benchmarks/structural/clusters.py --workdir /tmp/lore-clusters --json clusters.json --markdown clusters.md

The same run as ``lore bench clusters --markdown``. Per corpus and clustering (lore's label
propagation, networkx's Louvain on the same weighted graph, directories and files as clusters):
NMI / ARI against the modules (files) and directories, and on the co-change corpora pairwise
precision / recall / F1 of "same cluster" against the pairs that changed together in 2+ commits and
the modularity Q of the clustering on the co-change graph. Then LFR graphs with planted communities.
See-Also corpora come from the installed packages (networkx, scipy, numpy) or pinned sdists (xarray,
geopandas); co-change corpora are git checkouts at the commits pinned in lore/bench/corpora.py
(default <cache>/repos/<name>, or --repo name=PATH). Not part of CI (a few minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from lore.bench.cluster_suite import markdown, run_clusters  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", help="comma-separated (default: networkx,scipy,requests,httpx,flask)")
    ap.add_argument("--repo", action="append", default=[], help="name=PATH of a co-change checkout")
    ap.add_argument("--workdir", type=Path, help="keep the indexes here (refreshed on the next run)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-lfr", action="store_true", help="skip the LFR graphs")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args(argv)
    names = tuple(n.strip() for n in args.corpora.split(",") if n.strip()) if args.corpora else None
    repos = dict(r.split("=", 1) for r in args.repo)
    report = run_clusters(names, workdir=args.workdir, repos=repos, seed=args.seed, lfr=not args.no_lfr,
                          log=lambda line: print(line, file=sys.stderr))
    table = markdown(report)
    print(table)
    print(f"{report['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
