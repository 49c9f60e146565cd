"""Leave-one-corpus-out table of every related ranker against the baselines (lore.bench.loo).

    python benchmarks/structural/loo.py --json loo.json --markdown loo.md
    python benchmarks/structural/loo.py --corpora networkx,scipy          # a subset
    python benchmarks/structural/loo.py --write-defaults                 # refit the shipped hybrid weights
    python benchmarks/structural/loo.py --from-json loo.json --write-defaults   # ... from a saved report

See-Also corpora: networkx, scipy, numpy (installed), xarray, geopandas (pinned sdists, downloaded once
into $LORE_BENCH_CACHE or ~/.cache/lore-bench, sha256-checked). Co-change corpora: requests, httpx,
flask, as git checkouts at the commits pinned in lore/bench/corpora.py (default <cache>/repos/<name>,
or --repo name=PATH). networkx may also come from its git checkout at the pinned tag
(--repo networkx=PATH): the See-Also corpus then has a git history, as a user's checkout has, and the
table shows the default list with and without it.

Two weight sets, each fit on its own family (lore.bench.loo): ``hybrid`` ("what plays a role like
this") on the See-Also corpora, ``changes`` ("what will I have to change with this") on the co-change
corpora; each held-out corpus is scored by weights that never saw it. Not part of CI (about 10
minutes on 2 cores); the CI gate is run.py.

    python benchmarks/structural/loo.py --corpora networkx,geopandas,xarray,requests,httpx,flask \
        --repo networkx=PATH --repo requests=PATH --repo httpx=PATH --repo flask=PATH --algorithms cluster
"""

from __future__ import annotations

import argparse
import json
import pprint
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from lore.bench.loo import ALGORITHMS, markdown, run_loo  # noqa: E402

DEFAULTS = HERE.parents[1] / "lore" / "graphs" / "_hybrid_weights.py"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", help="comma-separated subset (default: all eight)")
    ap.add_argument("--repo", action="append", default=[], help="name=PATH of a co-change checkout, or of networkx's git checkout at its pinned tag")
    ap.add_argument("--workdir", type=Path, help="keep the indexes here (refreshed on the next run)")
    ap.add_argument("--algorithms", help="comma-separated other algorithms to score beside hybrid and changes "
                                         "(default: overlap:idf_cosine,fusion,pagerank,pagerank_push,cluster; '' for none)")
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
        algorithms = ALGORITHMS if args.algorithms is None else tuple(a for a in args.algorithms.split(",") if a)
        report = run_loo(names, workdir=args.workdir, repos=repos, algorithms=algorithms)
        report["command"] = "python benchmarks/structural/loo.py " + " ".join(sys.argv[1:] if argv is None else argv)
    table = markdown(report)
    print(table)
    print("targets (issue 36's bar, held out):", json.dumps(report["targets"]))
    for a, fit in report["all_corpora_fit"].items():
        print(f"{a} weights fit on {', '.join(report['trained_on'][a])}:", json.dumps(fit["weights"]))
    print(f"{report['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(table + "\n")
    if args.write_defaults:
        # the provenance names the run that produced the report (also when written --from-json)
        DEFAULTS.write_text(defaults_module(report, command=report.get("command", "python benchmarks/structural/loo.py")))
        print(f"wrote {DEFAULTS}")
    return 0


def defaults_module(report: dict, *, command: str = "python benchmarks/structural/loo.py --write-defaults") -> str:
    """The text of lore/graphs/_hybrid_weights.py: each algorithm's weights fit on all of its family's corpora.

    An algorithm whose family has no corpus in the report (``--corpora requests,httpx,flask`` refits
    ``changes`` alone) keeps its shipped weights and provenance: a fit on the other family's corpora is
    what the held-out table falls back to, never what ships.
    """
    from lore.graphs import _hybrid_weights as shipped

    objective = {"hybrid": "mean of MRR@10 and Recall@10 on See-Also judgements",
                 "changes": "mean of MRR@10 and Recall@10 on co-change judgements (pairs changed together at least "
                            "once after each corpus's cut; history from the commits before it)"}
    parts = []
    for a, (w_name, p_name) in {"hybrid": ("DEFAULT_WEIGHTS", "PROVENANCE"),
                                "changes": ("CHANGES_WEIGHTS", "CHANGES_PROVENANCE")}.items():
        if not report["trained_on"][a]:
            parts.append(f"{w_name} = {pprint.pformat(getattr(shipped, w_name), sort_dicts=False, width=100)}\n\n"
                         f"{p_name} = {pprint.pformat(getattr(shipped, p_name), sort_dicts=False, width=100)}\n")
            continue
        fit = report["all_corpora_fit"][a]
        prov = {"corpora": report["trained_on"][a], "objective": objective[a],
                "method": "coordinate ascent, structure fixed at 1.0", "held_at_zero": report["hold_zero"][a],
                **({"new_pair_penalty": f"history weights re-ascended on the objective minus {penalty:g} x each "
                                        "corpus's Recall@10 shortfall on its pairs new after the cut against its "
                                        "history-off list"}
                   if (penalty := report.get("new_pair_penalty", {}).get(a)) else {}),
                "objective_value": fit["objective"], "queries": fit["queries"],
                "command": command}
        parts.append(f"{w_name} = {pprint.pformat(fit['weights'], sort_dicts=False, width=100)}\n\n"
                     f"{p_name} = {pprint.pformat(prov, sort_dicts=False, width=100)}\n")
    return ('"""The related rankers\' shipped default weights, written by ``benchmarks/structural/loo.py '
            '--write-defaults``.\n\n``DEFAULT_WEIGHTS``: ``hybrid`` ("what plays a role like this"), fit on See-Also '
            'judgements.\n``CHANGES_WEIGHTS``: ``changes`` ("what will I have to change with this"), fit on co-change '
            'judgements.\n\nDo not edit by hand: refit so that the numbers stay traceable to the corpora and objective\n'
            'recorded in each ``PROVENANCE``.\n"""\n\n' + "\n\n".join(parts))


if __name__ == "__main__":
    sys.exit(main())
