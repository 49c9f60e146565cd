"""Where a fresh ``lore index`` spends its CPU, phase by phase, over every process, beside a raw tree-sitter parse.

One fresh index of TREE in this process (``lore.api.index_repo``: the clusters and ranker steps included, as
``lore index`` runs them; ``--history off``), with a sampler thread that reads the main thread's own CPU clock
every few milliseconds and gives the CPU spent since the last sample to the phase the main thread's stack is in
(the innermost phase function on it). The parse workers' CPU and the forked resolver's come from the
children's rusage (the workers are joined before resolution starts). The anchor is a raw tree-sitter parse of
the same files in this process, in the same run. Unlike ``bench_index_phases.py`` (CPU between phase
boundaries of a child process), this splits the main process inside the index: values that travel, edges,
FTS, indexes, upkeep steps.

Usage::

    python benchmarks/perf/bench_cpu_phases.py TREE [--db PATH] [--workers N]

Run it with each lore tree first on ``PYTHONPATH`` to compare two versions (alternate them: on a shared
machine read CPU seconds and the spread of repeated runs). A sample costs a few microseconds every 4 ms.
"""

from __future__ import annotations

import argparse
import collections
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

# (label, function name, file path ending): a sample goes to the innermost of these on the main thread's stack
PHASES = (
    ("walk", "walk", "index/walk.py"),
    ("parse: results received", "_run", "index/indexer.py"),
    ("store: files, symbols, records (ingest)", "add", "index/_ingest.py"),
    ("store: search text (FTS) and rows", "flush", "index/_ingest.py"),
    ("resolve: world rows, configuration", "_resolve_and_finish", "index/indexer.py"),
    ("resolve: values that travel (flow)", "flow_digests", "index/_flow.py"),
    ("resolve: edges (this process's chunk)", "resolve_parallel", "index/resolve_pool.py"),
    ("store: edge rows", "insert_edges", "store/write.py"),
    ("store: indexes after the bulk load", "ensure_indexes", "store/db.py"),
    ("store: statistics (ANALYZE)", "analyze", "store/db.py"),
    ("clusters step", "after", "queries/clusters.py"),
    ("ranker step (features, fold)", "after", "queries/_precompute.py"),
    ("imports", "_find_and_load", "<frozen importlib._bootstrap>"),
)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def raw_parse_cpu(root: Path) -> float:
    """CPU seconds of a plain tree-sitter parse of every file ``lore index`` indexes under ``root``."""
    from lore.index.walk import walk
    from lore.languages import get
    from lore.parsers import _ts

    data = [(get(f.language).grammar, Path(f.abspath).read_bytes()) for f in walk(root).files]
    c = time.process_time()
    for grammar, src in data:
        _ts.parse(grammar, src)
    return time.process_time() - c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("--db", type=Path, help="index file (default: a temporary one, removed after)")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()

    main_thread = threading.main_thread()
    clock = time.pthread_getcpuclockid(main_thread.ident)  # type: ignore[arg-type]
    spent: collections.Counter[str] = collections.Counter()
    stop = threading.Event()

    def sample() -> None:
        last = time.clock_gettime(clock)
        while not stop.wait(0.004):
            now = time.clock_gettime(clock)
            frame = sys._current_frames().get(main_thread.ident)  # type: ignore[arg-type]
            label = "other"
            stack = []
            while frame is not None:
                stack.append(frame.f_code)
                frame = frame.f_back
            for code in reversed(stack):  # outermost first: the innermost phase wins
                for name, func, path in PHASES:
                    if code.co_name == func and code.co_filename.endswith(path):
                        label = name
            spent[label] += now - last
            last = now

    tmp = None
    db = args.db
    if db is None:
        tmp = tempfile.mkdtemp(prefix="lore-cpu-phases-")
        db = Path(tmp) / "index.db"
    kids: dict[str, float] = {}
    sampler = threading.Thread(target=sample, daemon=True)
    t0, c0 = time.perf_counter(), time.process_time()
    sampler.start()
    try:
        from lore.index import indexer

        resolve_parallel = indexer.resolve_parallel

        def timed_resolve(*a, **k):  # the parse workers are joined by now; the forked resolver is not yet
            kids["parse"] = _children_cpu()
            try:
                return resolve_parallel(*a, **k)
            finally:
                kids["resolve"] = _children_cpu() - kids["parse"]

        indexer.resolve_parallel = timed_resolve
        import lore.api as api

        report = api.index_repo(args.tree, db=db, rebuild=True, history="off", workers=args.workers)
    finally:
        stop.set()
        sampler.join()
        main_cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    raw = raw_parse_cpu(args.tree)
    rows = [(label, "main", cpu) for label, cpu in spent.most_common()]
    rows += [("parse workers (read, parse, extract, search text, encode)", "workers", kids.get("parse", 0.0)),
             ("resolve: edges (the forked chunks)", "forked", kids.get("resolve", 0.0))]
    rows.sort(key=lambda r: -r[2])
    total = main_cpu + kids.get("parse", 0.0) + kids.get("resolve", 0.0)
    print(f"{args.tree}: {report.symbols} symbols · main process {main_cpu:.2f} CPU s (sampled {sum(spent.values()):.2f}), "
          f"all processes {total:.2f} CPU s, {wall:.1f} s wall · raw tree-sitter parse {raw:.2f} CPU s "
          f"({total / raw:.1f}x)")
    print()
    print(f"| {'phase':<58} | {'process':<7} | {'CPU s':>6} | {'share':>6} |")
    print(f"|{'-' * 60}|{'-' * 9}|{'-' * 8}|{'-' * 8}|")
    for label, proc, cpu in rows:
        print(f"| {label:<58} | {proc:<7} | {cpu:6.2f} | {100 * cpu / total:5.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
