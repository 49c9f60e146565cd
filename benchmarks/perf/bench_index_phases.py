"""Where a fresh ``lore index`` spends its CPU, phase by phase, beside a raw tree-sitter parse of the same files.

For each corpus (copied to a temporary directory without its ``.lore`` and ``.git``: a stale index
left in the source would make the run a no-op refresh, and history mining is measured by
``bench_history.py``), one fresh process per run indexes it and reports the CPU seconds (user +
system, its own and its finished workers') of each phase:

* ``interpreter``: Python's start-up, before lore is imported;
* ``import``: ``lore.api`` and the indexer with every language's rules;
* ``index``: walk, parse (in the worker processes), store, resolve, commit (``--history off``,
  ``clusters=False``), the report's own ``seconds["cpu"]`` beside it;
* ``clusters``: the step ``lore index`` runs after the commit (so that the first cluster query costs
  what the tenth does), split into importing numpy and scipy, building (and saving) the graph, and
  label propagation with its stored run.

The anchor, in the same run: tree-sitter parsing the same files in this process (one core, no
extraction). ``--tree`` runs the phases with another lore source tree (``PYTHONPATH``), for a
before/after table in one run, e.g. against a detached worktree of an older commit::

    git worktree add --detach /tmp/lore-old 3dc0567
    python benchmarks/perf/bench_index_phases.py --corpus ../cobra --corpus ../jsoup --tree /tmp/lore-old --tree .

Every tree's lore runs with its bytecode cached (a private ``PYTHONPYCACHEPREFIX``, one warm-up run
first), as an installed lore does: with ``PYTHONDONTWRITEBYTECODE=1`` every run compiles lore's
sources again (0.25-0.35 s of CPU, more for a larger lore), which is not indexing. Medians of
``--repeat`` runs; on a shared machine read CPU, not wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LORE_ROOT = HERE.parent.parent

# the child: one fresh index, CPU per phase (self + finished children: the parse workers are joined
# before index_repo returns)
CHILD = r"""
import json, resource, sys
from pathlib import Path


def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


out = {"interpreter": cpu()}
c = cpu()
import lore.api as api
from lore.index import pipeline  # noqa: F401 - the indexer and every language's rules
out["import"] = cpu() - c
c = cpu()
try:
    rep = api.index_repo(sys.argv[1], clusters=False, history="off")
except TypeError:  # a lore before --history
    rep = api.index_repo(sys.argv[1], clusters=False)
out["index"] = cpu() - c
out["index_report"] = rep.seconds.get("cpu", float("nan"))
c = cpu()
import numpy, scipy.sparse  # noqa: F401,E401 - what the step needs (a lore before 74c1eb9 also loaded csgraph later)
out["clusters_import"] = cpu() - c
c = cpu()
from lore.queries import clusters
from lore.queries._index import OpenIndex

with OpenIndex(Path(rep.db)) as idx:
    idx.graph()
    out["clusters_graph"] = cpu() - c
    c = cpu()
    clusters.cluster_run(idx)
out["clusters_lpa"] = cpu() - c
out["total"] = cpu()
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["symbols"] = rep.symbols
sys.stdout.write("\n" + json.dumps(out))
"""

ROWS = [("interpreter", "interpreter start-up"), ("import", "import lore + indexer"),
        ("index", "index: walk, parse, store, resolve, commit"), ("index_report", "  (the report's seconds.cpu)"),
        ("clusters_import", "clusters: numpy + scipy import"), ("clusters_graph", "clusters: graph build + save"),
        ("clusters_lpa", "clusters: label propagation + store"), ("total", "total CPU s"), ("peak_mb", "peak RSS MB (main)")]


def child_env(tree: Path, pyc: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pyc)
    env["PYTHONPATH"] = str(tree)
    return env


def fresh_copy(source: Path, where: Path) -> Path:
    target = where / source.name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".git", ".lore"))
    return target


def run_phases(corpus: Path, tree: Path, pyc: Path, work: Path) -> dict:
    root = fresh_copy(corpus, work)
    res = subprocess.run([sys.executable, "-c", CHILD, str(root)], capture_output=True, text=True, timeout=3600,
                         env=child_env(tree, pyc), cwd=work)
    if res.returncode:
        raise SystemExit(f"{tree}: {res.stderr.strip().splitlines()[-1] if res.stderr.strip() else res.returncode}")
    return json.loads(res.stdout.rstrip().rsplit("\n", 1)[-1])


def tree_sitter_cpu(corpus: Path, repeat: int) -> tuple[float, int, float]:
    """(median CPU s of a raw tree-sitter parse of the files lore indexes, files, MB), in this process."""
    sys.path.insert(0, str(HERE))
    from bench_index import bench_tree_sitter, indexed_files

    files = indexed_files(corpus)
    mb = sum(p.stat().st_size for p, _ in files) / 1e6
    return statistics.median(bench_tree_sitter(files)[1] for _ in range(repeat)), len(files), mb


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, action="append", required=True, help="a directory to index (repeatable)")
    ap.add_argument("--tree", type=Path, action="append", help="a lore source tree to run (repeatable; default: this one)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    trees = [t.resolve() for t in (args.tree or [LORE_ROOT])]
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for corpus in args.corpus:
            corpus = corpus.resolve()
            copy = fresh_copy(corpus, work)
            ts, n_files, mb = tree_sitter_cpu(copy, args.repeat)
            runs: dict[Path, list[dict]] = {}
            for i, tree in enumerate(trees):
                pyc = work / f"pyc{i}"
                run_phases(corpus, tree, pyc, work)  # warm-up: compiles the tree's bytecode once
                runs[tree] = [run_phases(corpus, tree, pyc, work) for _ in range(args.repeat)]
            print(f"\n{corpus.name}: {n_files} files, {mb:.1f} MB, median of {args.repeat} fresh runs, "
                  f"load average {os.getloadavg()[0]:.1f}")
            head = " | ".join(f"{t.name[:18]:>18}" for t in trees)
            print(f"| {'phase (CPU s)':<44} | {head} |")
            print(f"|{'-' * 46}|" + "|".join("-" * 20 for _ in trees) + "|")
            for key, label in ROWS:
                cells = " | ".join(f"{statistics.median(r[key] for r in runs[t]):18.3f}" for t in trees)
                print(f"| {label:<44} | {cells} |")
            ratio = " | ".join(f"{statistics.median(r['index'] for r in runs[t]) / ts:17.1f}x" for t in trees)
            print(f"| {'index / raw tree-sitter parse':<44} | {ratio} |")
            print(f"anchor in the same run: raw tree-sitter parse of the same files {ts:.3f} s CPU (one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
