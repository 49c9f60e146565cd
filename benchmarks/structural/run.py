"""CI gate: PyCG call-graph accuracy and the See-Also structural suite, against thresholds.json.

The See-Also suite runs twice: on networkx (with the weight grids the defaults were chosen from)
and on scipy, which the tuning never saw, so that a default that only fits networkx shows up here.

    python benchmarks/structural/run.py                      # tables; exit 1 if a metric is below its floor
    python benchmarks/structural/run.py --json out.json      # also write both reports
    python benchmarks/structural/run.py --update-thresholds  # raise the floors to a little under today's values

With ``--networkx-git PATH`` (a networkx clone checked out at networkx-3.6.1, the installed version) the
default related list is also measured as users run it in a checkout: indexed from PATH with its git
history on, and gated against the floors of the same code without ``.git`` (the ``structural``
section's hybrid floors: history may not cost the "like this" list anything).

Needs network access once (pip downloads the pinned pycg sdist into $LORE_BENCH_CACHE or
~/.cache/lore-bench; its sha256 is checked). Everything else is local and seeded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # run from a checkout without installing

from lore.bench import gate  # noqa: E402
from lore.bench.callgraph import flat_metrics as callgraph_metrics  # noqa: E402
from lore.bench.callgraph import run_callgraph  # noqa: E402
from lore.bench.structural import flat_metrics as structural_metrics  # noqa: E402
from lore.bench.structural import gate_section, run_structural  # noqa: E402
from lore.cli.bench import out, print_callgraph, print_structural  # noqa: E402

THRESHOLDS = HERE / "thresholds.json"


GIT_SECTION = "structural:networkx-git"


def git_metrics(checkout: Path) -> dict[str, float]:
    """hybrid's See-Also metrics on networkx indexed from its git checkout, history on (as a user's checkout)."""
    import tempfile

    from lore.bench.corpora import seealso_checkout
    from lore.index import index_repo
    from lore.index.history import refresh_history

    root, _label = seealso_checkout("networkx", checkout)
    with tempfile.TemporaryDirectory(prefix="lore-gate-git-") as tmp:
        db = Path(tmp) / "index.db"
        index_repo(root, db=db, workers=2)
        history = refresh_history(db, root)
        if history.get("reason"):
            raise SystemExit(f"{checkout}: no git history to measure ({history['reason']})")
        report = run_structural(db, grid=False, clusters=False, algorithms=("hybrid",))
    print_structural(report)
    return {k: v for k, v in structural_metrics(report).items() if k.startswith("algorithms.hybrid.")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="write {callgraph, structural} reports to this file")
    ap.add_argument("--thresholds", type=Path, default=THRESHOLDS)
    ap.add_argument("--update-thresholds", action="store_true", help="raise the floors to this run's values (never lowers)")
    ap.add_argument("--reset-thresholds", action="store_true", help="rewrite every floor from this run (may lower)")
    ap.add_argument("--no-grid", action="store_true", help="skip the overlap weight grid")
    ap.add_argument("--networkx-git", type=Path, help="networkx checkout at networkx-3.6.1: gate hybrid with its history on")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    cg = run_callgraph()
    print_callgraph(cg)
    st = run_structural(grid=not args.no_grid)
    print_structural(st)
    held_out = run_structural(grid=False, clusters=False, corpus="scipy")
    print_structural(held_out)
    measured = {"callgraph": callgraph_metrics(cg), gate_section("networkx"): structural_metrics(st),
                gate_section("scipy"): structural_metrics(held_out)}
    if args.networkx_git:
        measured[GIT_SECTION] = git_metrics(args.networkx_git)
    if args.json:
        args.json.write_text(json.dumps({"callgraph": cg, "structural": st, "structural:scipy": held_out}, indent=1,
                                        default=str))
    if args.update_thresholds or args.reset_thresholds:
        keep_old = args.update_thresholds and not args.reset_thresholds and args.thresholds.exists()
        old = gate.load_thresholds(args.thresholds) if keep_old else {}
        new = {"_comment": "floors per metric, a little under the value measured when set; "
                           "raise them when a change improves the numbers (run.py --update-thresholds)"}
        for suite, values in measured.items():
            floors = gate.floors_from(values)
            # never lower an existing floor silently: keep the higher one
            for k, v in old.get(suite, {}).items():
                if k in floors and v > floors[k]:
                    floors[k] = v
            new[suite] = floors
        args.thresholds.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        out.print(f"wrote {args.thresholds}", markup=False)
        return 0
    thresholds = gate.load_thresholds(args.thresholds)
    # the checkout's floors are those of the same code without .git (never a section of its own to lower)
    thresholds[GIT_SECTION] = {k: v for k, v in thresholds.get(gate_section("networkx"), {}).items()
                               if k.startswith("algorithms.hybrid.")}
    failures = []
    for suite, values in measured.items():
        for f in gate.check(values, thresholds.get(suite, {})):
            failures.append(f)
            out.print(f"REGRESSION {suite} {f['metric']}: {f['measured']} < floor {f['floor']}", markup=False)
    out.print(f"total {time.perf_counter() - t0:.1f} s; {len(failures)} metric(s) below their floors", markup=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
