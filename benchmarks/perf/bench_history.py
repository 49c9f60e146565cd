"""What the git-history step adds to ``lore index``: the same tree with and without ``.git``, side by side.

For each checkout given (a path; nothing is fetched), two copies are made in a temporary folder: the
checkout with its ``.git`` and the same files without it. Each is indexed from scratch by the
``lore`` command (a subprocess, as a user runs it) into a fresh index, and the wall and CPU time of
the command are printed with their ratio to the copy without ``.git``:

* ``--history background`` (the CLI default): the command returns after the code index; the
  detached miner's own time until its run lands is printed beside it (``landed``), and its CPU
  (``miner cpu``: the whole miner process with its ``git`` children, as it stores it in the run's
  summary) is added to the command's: ``cpu x`` is what the index cost in all, against the copy
  without ``.git`` (issue 36's bar: at most 1.5x on a checkout of 2,000 commits or more);
* ``--history wait``: the command mines before it returns.

Each is run twice: **first** with an empty user cache of parsed file versions (``LORE_CACHE_DIR``
points at a fresh folder), **second** on a new copy of the checkout and a new index with that cache
warm (a second checkout, or a rebuild, of the same repository). ``--repeat`` takes the best of N.

Usage::

    python benchmarks/perf/bench_history.py /work/scratch/cobra /work/scratch/requests
    python benchmarks/perf/bench_history.py PATH --repeat 3 --json
    python benchmarks/perf/bench_history.py /work/scratch/requests --first-only   # the first index only
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _copy(src: Path, dst: Path, *, with_git: bool) -> Path:
    skip = {".lore"} if with_git else {".lore", ".git"}
    shutil.copytree(src, dst, symlinks=True, ignore=lambda _d, names: [n for n in names if n in skip])
    return dst


def _index(tree: Path, db: Path, mode: str, env: dict) -> dict:
    """One ``lore index`` from scratch; wall and CPU of the command (and when its background history landed)."""
    for p in db.parent.glob(db.name + "*"):
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "lore", "index", str(tree), "--db", str(db), "--history", mode,
                           "--json"], env=env, capture_output=True, text=True, check=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    report = json.loads(done.stdout)
    out = {"wall": wall, "cpu": cpu, "history": report.get("history", {})}
    if mode == "background" and report.get("history", {}).get("state") == "background":
        from lore.index import history_job

        deadline = time.monotonic() + 1800  # the miner is the lore command's child: watch the index for its run
        while time.monotonic() < deadline and (history_job.current_run(db, tree) is None or history_job.running(db)):
            time.sleep(0.05)
        out["landed"] = time.perf_counter() - t0
        run = history_job.current_run(db, tree) or {}
        out["history"] = {**out["history"], **run}
        out["miner_cpu"] = float(run.get("cpu") or 0.0)
    return out


def bench(src: Path, repeat: int, *, runs: tuple[str, ...] = ("first", "second")) -> list[dict]:
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="lore-bench-history-") as tmp_name:
        tmp = Path(tmp_name)
        env = {**os.environ, "LORE_CACHE_DIR": str(tmp / "cache")}
        plain = _copy(src, tmp / "plain" / src.name, with_git=False)
        for run in runs:
            best: dict[str, dict] = {}
            for _ in range(repeat):
                if run == "first":
                    shutil.rmtree(tmp / "cache", ignore_errors=True)
                for mode in ("background", "wait"):
                    if run == "first":
                        shutil.rmtree(tmp / "cache", ignore_errors=True)
                    tree = tmp / f"git-{run}-{mode}" / src.name
                    if not tree.exists():
                        _copy(src, tree, with_git=True)
                    got = _index(tree, tmp / "db" / f"{mode}.db", mode, env)
                    if mode not in best or got["wall"] < best[mode]["wall"]:
                        best[mode] = got
                got = _index(plain, tmp / "db" / "plain.db", "off", env)
                if "plain" not in best or got["wall"] < best["plain"]["wall"]:
                    best["plain"] = got
            base = best["plain"]
            for mode in ("plain", "background", "wait"):
                b = best[mode]
                h = b["history"]
                total = b["cpu"] + b.get("miner_cpu", 0.0)  # the command's and its detached miner's
                rows.append({"repo": src.name, "run": run, "mode": "no .git" if mode == "plain" else mode,
                             "wall": round(b["wall"], 2), "cpu": round(b["cpu"], 2),
                             "miner_cpu": round(b["miner_cpu"], 2) if "miner_cpu" in b else None,
                             "total_cpu": round(total, 2),
                             "wall_ratio": round(b["wall"] / base["wall"], 2), "cpu_ratio": round(total / base["cpu"], 2),
                             "landed": round(b["landed"], 2) if "landed" in b else None,
                             "commits": h.get("commits_read"), "hunks": h.get("hunks_mapped"),
                             "log_from": h.get("log_from")})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", type=Path, help="git checkouts to copy and index")
    ap.add_argument("--repeat", type=int, default=1, help="best of N per measurement")
    ap.add_argument("--json", action="store_true", help="print JSON rows")
    ap.add_argument("--first-only", action="store_true", help="only the first index (cold cache), not the second")
    args = ap.parse_args()
    runs = ("first",) if args.first_only else ("first", "second")
    rows = [r for p in args.paths for r in bench(p.resolve(), args.repeat, runs=runs)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    head = (f"{'repo':<10} {'run':<7} {'mode':<11} {'commits':>7} {'wall s':>7} {'cpu s':>7} {'miner cpu':>9} {'total cpu':>9} "
            f"{'wall x':>7} {'cpu x':>6} {'landed s':>9}  hunks (log from)")
    print(head)
    print("-" * len(head))
    for r in rows:
        landed = f"{r['landed']:.2f}" if r["landed"] is not None else "-"
        miner = f"{r['miner_cpu']:.2f}" if r["miner_cpu"] is not None else "-"
        extra = f"{r['hunks']} ({r['log_from']})" if r["mode"] != "no .git" else ""
        print(f"{r['repo']:<10} {r['run']:<7} {r['mode']:<11} {r['commits'] or '-':>7} {r['wall']:>7.2f} {r['cpu']:>7.2f} "
              f"{miner:>9} {r['total_cpu']:>9.2f} {r['wall_ratio']:>7.2f} {r['cpu_ratio']:>6.2f} {landed:>9}  {extra}")


if __name__ == "__main__":
    main()
