"""Leave-one-corpus-out table of every related ranker against the baselines (lore.bench.loo).

    python benchmarks/structural/loo.py --json loo.json --markdown loo.md
    python benchmarks/structural/loo.py --corpora networkx,scipy          # a subset
    python benchmarks/structural/loo.py --write-defaults                 # refit the shipped hybrid weights
    python benchmarks/structural/loo.py --from-json loo.json --write-defaults   # ... from a saved report

See-Also corpora: networkx, scipy, numpy (installed), xarray, geopandas (pinned sdists, downloaded once
into $LORE_BENCH_CACHE or ~/.cache/lore-bench, sha256-checked). Co-change corpora: requests, httpx,
flask, as git checkouts at the commits pinned in lore/bench/corpora.py (default <cache>/repos/<name>,
or --repo name=PATH). networkx may also come from its git checkout at the pinned tag
(--repo networkx=PATH): the See-Also corpus then has a git history, so the fit weighs what the
history signal does to See-Also questions too (the shipped weights are fit that way). Not part of CI
(about 10 minutes on 2 cores); the CI gate is run.py.
"""

from __future__ import annotations

import argparse
import json
import pprint
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from lore.bench.loo import markdown, run_loo  # noqa: E402

DEFAULTS = HERE.parents[1] / "lore" / "graphs" / "_hybrid_weights.py"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", help="comma-separated subset (default: all eight)")
    ap.add_argument("--repo", action="append", default=[], help="name=PATH of a co-change checkout, or of networkx's git checkout at its pinned tag")
    ap.add_argument("--workdir", type=Path, help="keep the indexes here (refreshed on the next run)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--write-defaults", action="store_true", help="write the all-corpora fit as the shipped weights")
    ap.add_argument("--from-json", type=Path, help="print (and --write-defaults from) a saved report instead of running")
    args = ap.parse_args(argv)
    names = tuple(n.strip() for n in args.corpora.split(",")) if args.corpora else None
    repos = dict(r.split("=", 1) for r in args.repo)
    if args.from_json:
        report = json.loads(args.from_json.read_text(encoding="utf-8"))
    else:
        report = run_loo(names, workdir=args.workdir, repos=repos)
    table = markdown(report)
    print(table)
    print("targets (held-out hybrid >= +20% relative vs same-file):", json.dumps(report["targets"]))
    print("weights fit on all corpora:", json.dumps(report["all_corpora_fit"]["weights"]))
    print(f"{report['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(table + "\n")
    if args.write_defaults:
        fit = report["all_corpora_fit"]
        prov = {"corpora": sorted(report["corpora"]),
                "objective": "mean of MRR@10 and Recall@10; See-Also and co-change weigh the same in total",
                "method": "coordinate ascent, structure fixed at 1.0", "objective_value": fit["objective"],
                "queries": fit["queries"], "command": "python benchmarks/structural/loo.py --write-defaults"}
        DEFAULTS.write_text(
            '"""The hybrid ranker\'s shipped default weights, written by ``benchmarks/structural/loo.py '
            '--write-defaults``.\n\nDo not edit by hand: refit so that the numbers stay traceable to the corpora '
            'and objective\nrecorded in ``PROVENANCE``.\n"""\n\n'
            f"DEFAULT_WEIGHTS = {pprint.pformat(fit['weights'], sort_dicts=False, width=100)}\n\n"
            f"PROVENANCE = {pprint.pformat(prov, sort_dicts=False, width=100)}\n")
        print(f"wrote {DEFAULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
