"""The indexer's main process, phase by phase: the peak resident memory (RSS) of each step of a fresh ``lore index``.

``/usr/bin/time -v`` gives one number, the largest process's peak over the whole run; issue 33's bar
(3 GB on the Linux kernel) is on that number, and the main process's derived steps after resolution
(the graph, the clusters, the fold, the features) set it. This script runs ``lore.api.index_repo``
(the same steps as ``lore index``) in this process and marks each phase's start and end: the
indexer's own phases by its progress calls (walk, parse, resolve, then the commit), and the derived
steps by wrapping their functions (the graph built and saved, label propagation, the clusters'
summary, the fold, the features). At every mark the kernel's high-water mark of this process
(``VmHWM`` in ``/proc/self/status``) is read and reset (``/proc/self/clear_refs``, Linux only), so each
phase gets its own peak; an enclosing phase's peak is the largest of its parts. ``--trace`` also runs
``tracemalloc`` over the derived steps and prints, per phase, the traced peak (Python objects and numpy
arrays) and its largest allocation sites.

Usage::

    python benchmarks/perf/bench_rss_phases.py TREE [--memory 3G] [--workers 2] [--trace] [--keep DIR]

Prints one line per phase (peak MB, RSS at its end, wall s) in the order the phases ended, then the
resolving processes' peak (``RUSAGE_CHILDREN``; the largest child, not their sum) and the whole run's
peak. Run one at a time on a shared machine; RSS does not depend on the load, wall times do.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

# (module, function) pairs marked as phases of the derived steps; wrapped where they are looked up
WRAPPED = [
    ("lore.queries.clusters", "clusters_step", "clusters step"),
    ("lore.queries._precompute", "ranker_step", "ranker step"),
    ("lore.graphs.build", "build_graph", "graph: build"),
    ("lore.graphs.build", "save_graph", "graph: save"),
    ("lore.graphs.related", "compute_clusters", "clusters: compute"),
    ("lore.queries.clusters", "_summary", "clusters: summary"),
    ("lore.graphs._fold", "fold_for", "fold"),
    ("lore.graphs._features", "load_features", "features"),
]


def status(field: str) -> int:
    """A ``kB`` field of ``/proc/self/status`` in MB."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    return -1


class Phases:
    """Peak RSS per phase: open phases nest; every mark reads the high-water mark, credits it to every
    open phase, and resets it."""

    def __init__(self, trace: bool) -> None:
        self.open: list[tuple[str, float]] = [("indexer: start", time.perf_counter())]
        self.peak: dict[str, int] = {}
        self.traced: dict[str, int] = {}
        self.rows: list[tuple[str, int, int, float, int, list[str]]] = []
        self.trace = trace

    def mark(self) -> None:
        hwm = status("VmHWM")
        traced = tracemalloc.get_traced_memory()[1] >> 20 if tracemalloc.is_tracing() else 0
        for name, _ in self.open:
            self.peak[name] = max(self.peak.get(name, 0), hwm)
            self.traced[name] = max(self.traced.get(name, 0), traced)
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        if tracemalloc.is_tracing():
            tracemalloc.reset_peak()

    def start(self, name: str) -> None:
        top = self.open[-1][0]
        if not name.startswith("indexer") and top.startswith("indexer") and top != "indexer: start":
            self.end(top)  # the indexer's last phase (resolution and the commit) ends where the steps begin
        self.mark()
        if self.trace and not tracemalloc.is_tracing() and not name.startswith("indexer"):
            tracemalloc.start(1)
        self.open.append((name, time.perf_counter()))

    def end(self, name: str) -> None:
        self.mark()
        at = next(i for i in range(len(self.open) - 1, -1, -1) if self.open[i][0] == name)
        _, t0 = self.open.pop(at)
        top: list[str] = []
        if tracemalloc.is_tracing():
            stats = tracemalloc.take_snapshot().statistics("lineno")[:4]
            top = [f"{s.size >> 20} MB live at end: {s.traceback[0].filename.rsplit('/lore/', 1)[-1]}:"
                   f"{s.traceback[0].lineno}" for s in stats if s.size >= 4 << 20]
        self.rows.append((name, self.peak.get(name, 0), status("VmRSS"), time.perf_counter() - t0,
                          self.traced.get(name, 0), top))

    def progress(self, phase: str, done: int, total: int) -> None:
        name = f"indexer: {phase}"
        if self.open[-1][0] != name and self.open[-1][0].startswith("indexer"):
            self.end(self.open[-1][0])
            self.start(name)


def wrap(phases: Phases, fn, name: str):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        phases.start(name)
        try:
            return fn(*args, **kwargs)
        finally:
            phases.end(name)
    return run


def wrap_step(phases: Phases, make, name: str):
    """A pipeline step: ``step(db)`` returns ``after(report)``; the phase is the ``after`` call."""
    @functools.wraps(make)
    def step(db):
        after = make(db)
        return wrap(phases, after, name)
    return step


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree")
    ap.add_argument("--memory", default=None)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--trace", action="store_true", help="tracemalloc over the derived steps (slower)")
    ap.add_argument("--keep", default=None, help="index into this folder and keep it (default: a temporary one)")
    a = ap.parse_args(argv)
    phases = Phases(a.trace)
    for mod, attr, name in WRAPPED:
        m = importlib.import_module(mod)
        fn = getattr(m, attr)
        setattr(m, attr, (wrap_step if attr.endswith("_step") else wrap)(phases, fn, name))
    # every wrapped function is looked up on its module when called, so the wrappers are seen
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="rssph-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "index.db"
    import lore.api as api

    t0 = time.perf_counter()
    phases.start("indexer: walk")
    opts = {"memory": a.memory} if a.memory else {}
    if a.workers:
        opts["workers"] = a.workers
    api.index_repo(a.tree, db=db, history="off", gitignore=False, progress=phases.progress, rebuild=True, **opts)
    for name, _ in reversed(phases.open[1:]):
        phases.end(name)
    phases.end("indexer: start")
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10
    print(f"{'phase':34s} {'peak MB':>8s} {'RSS end':>8s} {'wall s':>7s}" + ("  traced peak MB" if a.trace else ""))
    for name, peak, end, secs, traced, top in phases.rows:
        if name == "indexer: start":
            name = "whole run (main process)"
        print(f"{name:34s} {peak:8d} {end:8d} {secs:7.1f}" + (f"  {traced:8d}" if a.trace and traced else ""))
        for line in top:
            print(f"{'':36s}{line}")
    print(f"resolving/parsing processes: largest peak {kids} MB; wall {wall:.0f} s")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
