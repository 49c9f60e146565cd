"""Index time of two lore checkouts side by side, on the same projects, alternating.

    git archive <base commit> lore | tar -x -C /tmp/lore-base
    python benchmarks/langs/index_time_ab.py --base /tmp/lore-base --branch . --rounds 5 PROJECT [...]

Each run is a fresh process (``PYTHONPATH`` = the checkout) that indexes one project from scratch
(code only: no history, no clusters, ``workers=1``) and reports its CPU seconds (user + system, its
own and its children's, interpreter start-up included alike on both sides). Base and branch runs
alternate, project by project and round by round, so load from other work on the machine falls on
both; the medians and their ratio (branch / base) are printed, one JSON object per project.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = ("import sys, tempfile, pathlib, resource\n"
        "from lore.index.pipeline import run_index\n"
        "tmp = tempfile.TemporaryDirectory(prefix='lore-ab-')\n"
        "db = pathlib.Path(tmp.name) / 'i.db'\n"
        "run_index(pathlib.Path(sys.argv[1]), steps=(), db=db, rebuild=True, history='off', workers=1)\n"
        "r, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime)\n")


def cpu_seconds(checkout: Path, project: Path) -> float:
    """CPU seconds of one full index of ``project`` by the lore in ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout.resolve()))
    # `python -c` puts the working directory first on sys.path: run from a neutral one, or a run started
    # inside a checkout measures that checkout's lore on both sides
    out = subprocess.run([sys.executable, "-c", _RUN, str(project.resolve())], env=env, capture_output=True,
                         text=True, check=True, cwd=tempfile.gettempdir())
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="+", type=Path)
    parser.add_argument("--base", type=Path, required=True, help="a lore source tree (holding lore/)")
    parser.add_argument("--branch", type=Path, required=True, help="another lore source tree")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    runs: dict[Path, dict[str, list[float]]] = {p: {"base": [], "branch": []} for p in args.projects}
    for _ in range(args.rounds):
        for project in args.projects:
            runs[project]["base"].append(cpu_seconds(args.base.resolve(), project.resolve()))
            runs[project]["branch"].append(cpu_seconds(args.branch.resolve(), project.resolve()))
    rows = []
    for project, got in runs.items():
        b, a = statistics.median(got["base"]), statistics.median(got["branch"])
        rows.append({"project": project.resolve().name, "base_cpu_median": round(b, 2), "branch_cpu_median": round(a, 2),
                     "ratio": round(a / b, 3) if b else None, "base": [round(x, 2) for x in got["base"]],
                     "branch": [round(x, 2) for x in got["branch"]]})
        print(json.dumps(rows[-1]), flush=True)
    return rows


if __name__ == "__main__":
    main()
