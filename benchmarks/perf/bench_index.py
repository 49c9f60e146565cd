"""Indexing speed on a real corpus nobody here wrote, beside raw tree-sitter and Universal Ctags.

Default corpus: the Django 5.1.4 sdist from PyPI (2,788 .py and 111 .js files, 18.7 MB). It is
copied to a temporary directory first (the one-file-change rows edit a file). Measured in one run,
on the same files (the ones ``lore index`` indexes):

* raw tree-sitter parse of every file (one core, no extraction): the floor for any tree-sitter tool
* Universal Ctags over the same files (if installed: ``apt-get install universal-ctags``)
* ``lore index --history off`` end to end, as a user runs it (a fresh process: interpreter start-up included,
  lore's bytecode cached as an installed lore has it, one untimed warm-up run first): fresh index, no-change
  re-index, one-file change (a function body edited)

Usage::

    python benchmarks/perf/bench_index.py                 # downloads Django into ~/.cache/lore-bench
    python benchmarks/perf/bench_index.py --corpus PATH   # any directory
    python benchmarks/perf/bench_index.py --repeat 3
    python benchmarks/perf/bench_index.py --lang all      # JS, TS, Go, Rust, Java, C, C++ (bench_index_langs.py)

Prints medians of wall-clock and CPU seconds (user + system, this process or the measured child and
its workers). Wall-clock depends on the machine and its load; on a shared machine read the CPU
column, and the ratios between rows measured in the same run. ``bench_index_phases.py`` splits a fresh
index's CPU by phase (imports, index, the clusters step), for several lore trees in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

DJANGO = "Django==5.1.4"
CTAGS_LANGUAGES = {"python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "go": "Go",
                   "java": "Java", "rust": "Rust", "c": "C", "cpp": "C++"}


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


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def indexed_files(root: Path) -> list[tuple[Path, str]]:
    """(path, language) of every file ``lore index`` would index under ``root``."""
    from lore.index.walk import walk

    return [(Path(f.abspath), f.language) for f in walk(root).files]


def bench_tree_sitter(files: list[tuple[Path, str]]) -> tuple[float, float]:
    from lore.languages import get
    from lore.parsers import _ts

    data = [(get(lang).grammar, p.read_bytes()) for p, lang in files]
    t, c = time.perf_counter(), _self_cpu()
    for lang, src in data:
        _ts.parse(lang, src)
    return time.perf_counter() - t, _self_cpu() - c


def bench_ctags(root: Path, languages: set[str]) -> tuple[float, float] | None:
    exe = shutil.which("ctags")
    if exe is None:
        return None
    langs = ",".join(sorted(CTAGS_LANGUAGES[x] for x in languages if x in CTAGS_LANGUAGES))
    with tempfile.TemporaryDirectory() as d:
        t, c = time.perf_counter(), _children_cpu()
        subprocess.run([exe, "-R", f"--languages={langs}", "--exclude=.lore", "-f", str(Path(d) / "tags"), str(root)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t, _children_cpu() - c


def lore_env() -> dict[str, str]:
    """The measured process's environment: lore's bytecode cached (in a private folder), as an installed lore
    has it. Under ``PYTHONDONTWRITEBYTECODE=1`` every run would compile lore's sources again (a third of a
    second of CPU), which is not indexing; the first run of the benchmark fills the cache."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "lore-bench-pyc")
    return env


def run_lore_index(root: Path, db: Path, workers: int | None) -> tuple[float, float, dict]:
    """``lore index`` in a fresh process: (wall, CPU of it and its workers, its --json report).

    The report gains ``peak_mb``: the largest resident set of the process or any of its workers
    (what GNU time's ``%M`` prints), from the child's own rusage.
    """
    cmd = [sys.executable, "-m", "lore", "index", str(root), "--db", str(db), "--json", "--history", "off"]
    if workers:
        cmd += ["--workers", str(workers)]
    t = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, text=True, env=lore_env())
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t
        if proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, cmd)
        out.seek(0)
        report = json.load(out)
    report["peak_mb"] = usage.ru_maxrss / 1024
    return wall, usage.ru_utime + usage.ru_stime, report


def main() -> int:
    if any(a == "--lang" or a.startswith("--lang=") for a in sys.argv[1:]):  # other languages: bench_index_langs.py
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_index_langs import main as langs_main

        return langs_main(sys.argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, help="directory to index (default: the Django sdist)")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("LORE_BENCH_CACHE", Path.home() / ".cache/lore-bench")))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()

    source = args.corpus or fetch_django(args.cache)
    with tempfile.TemporaryDirectory() as d:
        corpus = Path(d) / source.name
        shutil.copytree(source, corpus, symlinks=True)  # the one-file rows edit a file: never the original
        files = indexed_files(corpus)
        languages = {lang for _, lang in files}
        mb = sum(p.stat().st_size for p, _ in files) / 1e6
        rows: list[tuple[str, float, float, str]] = []
        ts = [bench_tree_sitter(files) for _ in range(args.repeat)]
        w, c = statistics.median(x[0] for x in ts), statistics.median(x[1] for x in ts)
        rows.append(("tree-sitter parse only (1 core)", w, c, f"{mb / c:.1f} MB/s of CPU"))
        ct = [bench_ctags(corpus, languages) for _ in range(args.repeat)]
        if ct[0] is not None:
            w, c = statistics.median(x[0] for x in ct), statistics.median(x[1] for x in ct)  # type: ignore[index]
            rows.append(("universal-ctags -R (1 core, tags only)", w, c, f"{mb / c:.1f} MB/s of CPU"))
        else:
            rows.append(("universal-ctags", float("nan"), float("nan"), "not installed"))
        full, nochange, onefile = [], [], []
        peaks: list[float] = []
        report: dict = {}
        # the edited file: Django's QuerySet module (much of the tree depends on it), else a middle file
        preferred = corpus / "django" / "db" / "models" / "query.py"
        victim = preferred if preferred.exists() else files[len(files) // 2][0]
        original = victim.read_bytes()
        run_lore_index(corpus, Path(d) / "warm-up.db", args.workers)  # compiles lore's bytecode once, not timed
        for i in range(args.repeat):
            db = Path(d) / f"index{i}.db"
            w, c, report = run_lore_index(corpus, db, args.workers)
            full.append((w, c, report["seconds"].get("total", w)))
            peaks.append(report["peak_mb"])
            w, c, r0 = run_lore_index(corpus, db, args.workers)
            assert not (r0["added"] or r0["changed"] or r0["removed"]), "a no-change run changed something"
            nochange.append((w, c, r0["seconds"].get("total", w)))
            try:
                victim.write_bytes(original + b"\n# lore bench edit\n")
                w, c, r1 = run_lore_index(corpus, db, args.workers)
                assert r1["changed"], "the edit was not seen"
                onefile.append((w, c, r1["seconds"].get("total", w)))
            finally:
                victim.write_bytes(original)
                run_lore_index(corpus, db, args.workers)

        def med(xs: list[tuple[float, float, float]], k: int) -> float:
            return statistics.median(x[k] for x in xs)

        n_cores = os.cpu_count()
        rows.append((f"lore index, fresh ({n_cores} cores)", med(full, 0), med(full, 1),
                     f"{mb / med(full, 0):.1f} MB/s, peak {statistics.median(peaks):.0f} MB (< 400)"))
        rows.append(("lore index, no change", med(nochange, 0), med(nochange, 1),
                     f"in-process {med(nochange, 2):.3f} s"))
        rows.append(("lore index, one file changed", med(onefile, 0), med(onefile, 1),
                     f"in-process {med(onefile, 2):.3f} s"))
        counts = language_counts(files)
        print(f"corpus: {source} (copied) · {counts} · {mb:.1f} MB · median of {args.repeat} · "
              f"{n_cores} cores, load average {os.getloadavg()[0]:.1f} at the end")
        print(f"indexed: {report['symbols']} symbols, edges {report['edges']}")
        print(f"phases of the last fresh run (s): {report['seconds']}")
        print()
        print(f"| {'what':<42} | {'wall s':>7} | {'CPU s':>7} | {'note':<34} |")
        print(f"|{'-' * 44}|{'-' * 9}|{'-' * 9}|{'-' * 36}|")
        for name, sec, cpu, note in rows:
            print(f"| {name:<42} | {sec:7.3f} | {cpu:7.3f} | {note:<34} |")
    return 0


def language_counts(files: list[tuple[Path, str]]) -> str:
    from collections import Counter

    return ", ".join(f"{n} {lang}" for lang, n in Counter(lang for _, lang in files).most_common())


if __name__ == "__main__":
    sys.exit(main())
