"""Indexing speed on a real corpus nobody here wrote, beside raw tree-sitter and Universal Ctags.

Default corpus: the Django 5.1.4 sdist from PyPI (about 2,800 .py files). Measured in one run:

* raw tree-sitter parse of every file (one core, no extraction): the floor for any tree-sitter tool
* Universal Ctags over the same files (if installed: ``apt-get install universal-ctags``)
* ``lore index`` end to end (fresh), a no-change re-index, and a one-file change re-index

Usage::

    python benchmarks/perf/bench_index.py                 # downloads Django into ~/.cache/lore-bench
    python benchmarks/perf/bench_index.py --corpus PATH   # any directory
    python benchmarks/perf/bench_index.py --repeat 3

Prints a table of medians. Wall-clock numbers depend on the machine and its load; the ratios
between rows measured in the same run are the meaningful part.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

DJANGO = "Django==5.1.4"


def fetch_django(cache: Path) -> Path:
    target = cache / "Django-5.1.4"
    if target.exists():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", DJANGO,
                    "-d", str(cache)], check=True)
    with tarfile.open(next(cache.glob("Django-5.1.4.tar.gz"))) as tar:
        tar.extractall(cache, filter="data")
    return target


def py_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if ".lore" not in p.parts)


def bench_tree_sitter(files: list[Path]) -> float:
    from lore.parsers import _ts

    t = time.perf_counter()
    for p in files:
        _ts.parse("python", p.read_bytes())
    return time.perf_counter() - t


def bench_ctags(root: Path) -> float | None:
    exe = shutil.which("ctags")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        subprocess.run([exe, "-R", "--languages=Python", "-f", str(Path(d) / "tags"), str(root)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, help="directory to index (default: the Django sdist)")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("LORE_BENCH_CACHE", Path.home() / ".cache/lore-bench")))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    from lore import index_repo

    corpus = args.corpus or fetch_django(args.cache)
    files = py_files(corpus)
    mb = sum(p.stat().st_size for p in files) / 1e6
    rows: list[tuple[str, float, str]] = []
    ts = statistics.median(bench_tree_sitter(files) for _ in range(args.repeat))
    rows.append(("tree-sitter parse only (1 core)", ts, f"{mb / ts:.1f} MB/s"))
    ct = [bench_ctags(corpus) for _ in range(args.repeat)]
    if ct[0] is not None:
        c = statistics.median(ct)  # type: ignore[type-var]
        rows.append(("universal-ctags -R (1 core, tags only)", c, f"{mb / c:.1f} MB/s"))
    else:
        rows.append(("universal-ctags", float("nan"), "not installed"))
    full, nochange, onefile = [], [], []
    report = None
    with tempfile.TemporaryDirectory() as d:
        for i in range(args.repeat):
            db = Path(d) / f"index{i}.db"
            t = time.perf_counter()
            report = index_repo(corpus, db=db, workers=args.workers)
            full.append(time.perf_counter() - t)
            t = time.perf_counter()
            index_repo(corpus, db=db, workers=args.workers)
            nochange.append(time.perf_counter() - t)
            victim = files[len(files) // 2]
            original = victim.read_bytes()
            try:
                victim.write_bytes(original + b"\n# lore bench edit\n")
                t = time.perf_counter()
                r1 = index_repo(corpus, db=db, workers=args.workers)
                onefile.append(time.perf_counter() - t)
                assert r1.changed, "the edit was not seen"
            finally:
                victim.write_bytes(original)
                index_repo(corpus, db=db, workers=args.workers)
    assert report is not None
    f = statistics.median(full)
    rows.append((f"lore index, fresh ({os.cpu_count()} cores)", f, f"{mb / f:.1f} MB/s, {len(files) / f:.0f} files/s"))
    rows.append(("lore index, no change", statistics.median(nochange), ""))
    rows.append(("lore index, one file changed", statistics.median(onefile), ""))
    print(f"corpus: {corpus} · {len(files)} .py files · {mb:.1f} MB · median of {args.repeat}")
    print(f"indexed: {report.symbols} symbols, edges {report.edges}")
    print(f"phases of the last fresh run (s): {report.seconds}")
    print()
    print(f"| {'what':<42} | {'seconds':>8} | {'throughput':<28} |")
    print(f"|{'-' * 44}|{'-' * 10}|{'-' * 30}|")
    for name, sec, note in rows:
        print(f"| {name:<42} | {sec:8.3f} | {note:<28} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
