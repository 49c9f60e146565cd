"""The Linux kernel on one machine (issue 33): every bar of the issue, measured in one run beside a raw parse.

One run prints, each beside its bar:

* the raw tree-sitter parse of the same ``.c``/``.h`` files (the anchor: CPU s, one process);
* a fresh ``lore index`` (``--no-gitignore --history off``, a fresh process under ``/usr/bin/time -v``):
  CPU s (user + system, its workers included), the ratio to the raw parse, wall time, peak RSS;
* the index's size on disk (the SQLite file and the saved graph, fold and features beside it);
* the first ``lore graph related`` of a new process, then the warm p50 of further seeds in one process
  (:func:`lore.api.lore_graph`, the index kept open, as the MCP server does);
* an unknown (misspelt) name answered with suggestions, in a new process;
* one changed ``.c`` re-indexed: the tree is indexed as a hard-linked copy (``cp -al``: no data
  copied, the source never written), one file of the copy is replaced by a changed one, and the index
  is refreshed with ``lore index``'s steps (wall and CPU of the whole run, and the CPU of the indexer,
  the clusters step and the ranker step each); ``--refreshes N`` does that N times in a row (the first
  refresh of an index an older lore wrote also counts what later ones carry over, such as the C macro tally).

Usage (the kernel takes 15-25 min of wall time on a shared 2-core machine; ``--reuse`` skips the fresh
index when the work folder already holds one, and ``--no-raw`` the anchor)::

    python benchmarks/perf/bench_kernel.py --tree /path/linux-6.1 --work /tmp/kbench
    python benchmarks/perf/bench_kernel.py --tree /path/linux-6.1 --work /tmp/kbench --reuse --no-raw

``--tree`` may be any C tree (a subsystem copy to iterate on); ``--seed``, ``--unknown`` and
``--changed`` name the symbol, the misspelt name and the file to change (the defaults are the kernel's).
Read CPU seconds and ratios on a shared machine; wall times are upper bounds (the load average is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LORE_ROOT = HERE.parent.parent

RAW = r"""
import pathlib, resource, sys, tree_sitter
from lore.parsers import _ts
P = tree_sitter.Parser(_ts.get_language("c"))
files = [p for p in pathlib.Path(sys.argv[1]).rglob("*") if p.suffix in (".c", ".h") and p.is_file()
         and not p.is_symlink() and p.stat().st_size <= 2_000_000]
for p in files:
    P.parse(p.read_bytes())
u = resource.getrusage(resource.RUSAGE_SELF)
print(len(files), u.ru_utime + u.ru_stime)
"""

WARM = r"""
import json, statistics, sys, time
from lore.api import lore_graph, open_index
db, seeds = sys.argv[1], sys.argv[2:]
out = []
with open_index(db) as idx:
    lore_graph(idx, kind="related", source_id=seeds[0])  # the first: maps the saved state
    for s in seeds[1:] + seeds[1:]:
        t = time.perf_counter()
        try:
            lore_graph(idx, kind="related", source_id=s)
        except Exception:
            continue
        out.append(time.perf_counter() - t)
print(json.dumps(out))
"""

REFRESH = r"""
import json, resource, sys, time
import lore.api as api
from lore.queries import _precompute, clusters


def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


steps = {}


def timed_step(name, make):
    def step(db):
        after = make(db)

        def run(report):
            c = cpu()
            after(report)
            steps[name] = round(cpu() - c, 2)
        return run
    return step


clusters.clusters_step = timed_step("clusters", clusters.clusters_step)
_precompute.ranker_step = timed_step("ranker", _precompute.ranker_step)
c0 = cpu()
r = api.index_repo(sys.argv[1], db=sys.argv[2], history="off", gitignore=False,
                   **({"memory": sys.argv[3]} if len(sys.argv) > 3 else {}))
total = cpu() - c0
print(json.dumps({"indexer": round(total - sum(steps.values()), 2), **steps, "reresolved": r.reresolved_files,
                  "rehashed": r.rehashed, "changed": r.changed, "seconds": r.seconds}))
"""

SEEDS = ["mm.slab_common.kfree", "mm.slab_common.kmalloc_trace", "kernel.fork.copy_process", "mm.memory.handle_mm_fault",
         "fs.namei.path_lookupat", "kernel.sched.core.schedule", "mm.page_alloc.__alloc_pages", "fs.read_write.vfs_read",
         "kernel.workqueue.queue_work_on", "mm.vmscan.shrink_node", "fs.dcache.d_alloc"]


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(LORE_ROOT)
    return e


def timed(cmd: list[str], cwd: Path | None = None) -> dict:
    """Run ``cmd`` under ``/usr/bin/time -v``: wall, CPU (user + system, children included), peak RSS MB."""
    t = time.perf_counter()
    res = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env(), cwd=cwd)
    wall = time.perf_counter() - t

    def field(name: str) -> float:
        m = re.search(rf"{re.escape(name)}: ([\d.]+)", res.stderr)
        return float(m.group(1)) if m else float("nan")

    return {"wall": wall, "cpu": field("User time (seconds)") + field("System time (seconds)"),
            "rss_mb": field("Maximum resident set size (kbytes)") / 1024, "rc": res.returncode,
            "out": res.stdout, "err": res.stderr}


def lore(*args: str) -> list[str]:
    return [sys.executable, "-m", "lore", *args]


def size_mb(db: Path) -> dict[str, float]:
    """MB of the SQLite file and of each folder of saved arrays beside it; a file hard-linked into two folders
    (the word rows share the features' word columns) is counted once, in the first."""
    out = {"sqlite": db.stat().st_size / 1e6}
    seen: set[tuple[int, int]] = set()
    for suffix in (".graph", ".features", ".featrows", ".fold"):
        d = db.with_name(db.name + suffix)
        total = 0
        for p in sorted(d.rglob("*")) if d.is_dir() else ():
            st = p.stat()
            if p.is_file() and (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
        out[suffix[1:]] = total / 1e6
    return out


def largest_tables(db: Path, top: int = 8) -> str:
    """The ``top`` largest tables and indexes of the SQLite file (MB, from the ``dbstat`` table), largest first."""
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY 1 ORDER BY 2 DESC LIMIT ?", (top,)).fetchall()
    except sqlite3.Error as exc:  # an SQLite built without dbstat
        return f"(no dbstat: {exc})"
    finally:
        conn.close()
    return ", ".join(f"{name} {size / 1e6:.0f}" for name, size in rows)


def line(what: str, got: str, bar: str, ok: bool | None) -> None:
    mark = "" if ok is None else ("met" if ok else "NOT met")
    print(f"| {what} | {got} | {bar} | {mark} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, required=True, help="the kernel (or another C tree)")
    ap.add_argument("--work", type=Path, required=True, help="a folder for the linked copy and the index")
    ap.add_argument("--reuse", action="store_true", help="keep an index already in --work (no fresh index)")
    ap.add_argument("--no-raw", action="store_true", help="skip the raw-parse anchor")
    ap.add_argument("--seed", action="append", help="symbols for related (default: kernel symbols)")
    ap.add_argument("--unknown", default="kmaloc", help="a misspelt name")
    ap.add_argument("--changed", default="mm/slab_common.c", help="the .c to change (relative to --tree)")
    ap.add_argument("--refreshes", type=int, default=1, help="one-file refreshes in a row (the first after an index "
                    "an older lore wrote also counts what later ones carry over)")
    ap.add_argument("--memory", help="lore index --memory for both index runs (e.g. 3G; default: lore's own)")
    args = ap.parse_args(argv)
    seeds = args.seed or SEEDS
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    copy, db = work / "tree", work / "index.db"
    print(f"load average at start: {os.getloadavg()}", flush=True)
    print("| measure | lore | bar | |\n|---|---|---|---|", flush=True)
    raw = None
    if not args.no_raw:
        r = subprocess.run([sys.executable, "-c", RAW, str(args.tree)], capture_output=True, text=True, env=env())
        files, raw = r.stdout.split()
        raw = float(raw)
        line("raw tree-sitter parse (anchor)", f"{raw:.1f} CPU s, {files} files", "", None)
    if not (args.reuse and db.exists()):
        if copy.exists():
            shutil.rmtree(copy)
        subprocess.run(["cp", "-al", str(args.tree.resolve()), str(copy)], check=True)
        for p in (db, *(db.with_name(db.name + s) for s in (".graph", ".features", ".featrows", ".fold", ".lock"))):
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
        budget = ["--memory", args.memory] if args.memory else []
        got = timed(lore("index", str(copy), "--no-gitignore", "--history", "off", "--db", str(db), *budget))
        if got["rc"]:
            print(got["err"][-2000:])
            return 1
        ratio = got["cpu"] / raw if raw else float("nan")
        line("fresh index CPU", f"{got['cpu']:.0f} CPU s ({ratio:.2f}x raw)", "<= 4x raw parse", ratio <= 4 if raw else None)
        line("fresh index wall", f"{got['wall'] / 60:.1f} min", "<= 10 min (idle machine)", got["wall"] <= 600)
        line("fresh index peak RSS", f"{got['rss_mb'] / 1024:.2f} GB"
             + (f" (--memory {args.memory})" if args.memory else ""), "<= 3 GB", got["rss_mb"] <= 3 * 1024)
        print("  " + "\n  ".join(got["out"].strip().splitlines()[:2]), flush=True)
    sizes = size_mb(db)
    total = sum(sizes.values()) / 1e3
    line("index on disk", f"{total:.2f} GB ({', '.join(f'{k} {v:.0f} MB' for k, v in sizes.items())})", "<= 2 GB",
         total <= 2)
    print(f"  largest in the SQLite file (MB): {largest_tables(db)}", flush=True)
    first = timed(lore("graph", "related", seeds[0], "--db", str(db), "--json"))
    line("first `graph related` (new process)", f"{first['wall']:.2f} s wall, {first['cpu']:.2f} CPU s, "
         f"{first['rss_mb']:.0f} MB", "<= 2 s", first["wall"] <= 2)
    again = timed(lore("graph", "related", seeds[0], "--db", str(db), "--json"))
    line("second `graph related` (new process)", f"{again['wall']:.2f} s wall, {again['cpu']:.2f} CPU s", "", None)
    warm = subprocess.run([sys.executable, "-c", WARM, str(db), *seeds], capture_output=True, text=True, env=env())
    times = json.loads(warm.stdout.strip().splitlines()[-1]) if warm.returncode == 0 else []
    p50 = statistics.median(times) * 1000 if times else float("nan")
    line("warm `graph related` p50 (one process)", f"{p50:.0f} ms over {len(times)} queries", "<= 50 ms", p50 <= 50)
    unknown = timed(lore("graph", "related", args.unknown, "--db", str(db)))
    line("unknown name (new process)", f"{unknown['wall']:.2f} s wall, {unknown['cpu']:.2f} CPU s", "<= 0.3 s",
         unknown["wall"] <= 0.3)
    target = copy / args.changed
    for i in range(args.refreshes if target.exists() else 0):
        # a new function that calls nothing: the change other files cannot see (a new call of ``kfree``
        # would re-resolve every caller of it, by design: the values passed into it changed)
        text = target.read_bytes() + f"\nstatic int lore_bench_probe{i or ''}(int a)\n{{\n\treturn a + 1;\n}}\n".encode()
        target.unlink()  # a hard link to the source tree: replace, never write through
        target.write_bytes(text)
        # what `lore index` runs (the same steps), in one process that times each step's CPU (workers included)
        inc = timed([sys.executable, "-c", REFRESH, str(copy), str(db), *([args.memory] if args.memory else [])])
        nth = f" (refresh {i + 1} of {args.refreshes})" if args.refreshes > 1 else ""
        line(f"one changed .c ({args.changed}) re-indexed{nth}", f"{inc['wall']:.1f} s wall, {inc['cpu']:.1f} CPU s, "
             f"{inc['rss_mb']:.0f} MB", "<= 5 s", inc["wall"] <= 5)
        try:
            got = json.loads(inc["out"].strip().splitlines()[-1])
            steps = ", ".join(f"{k} {got[k]:.1f}" for k in ("indexer", "clusters", "ranker") if k in got)
            print(f"  CPU s by step: {steps}; files re-resolved: {got['reresolved']}; "
                  f"files hashed again (inode changed): {got.get('rehashed', '?')}; wall s by phase: "
                  f"{got['seconds']}", flush=True)
        except (ValueError, IndexError, KeyError):
            print("  " + "\n  ".join((inc["out"] + inc["err"]).strip().splitlines()[-3:]), flush=True)
    print(f"load average at end: {os.getloadavg()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
