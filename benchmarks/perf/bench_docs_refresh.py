"""``lore docs add`` refresh after editing one file, beside a fresh ``lore docs add`` of the same tree.

Default corpus: the documentation of the Django 5.1.4 sdist (610 files, 7,300 chunks; reST in
``.txt`` files), copied to a temporary project first. With ``--code`` (the default) the sdist's code
is indexed into the same index first, as in a repository that has both, so symbol mentions are
matched against Django's 45,000 symbols. Measured in one run:

* anchor: a fresh ``lore docs add docs`` (a new process, interpreter start-up included)
* a refresh after one file changed (a paragraph appended to a different file each time), as a
  user runs it, and the same call in this process (``lore.docs.add_documents``: no start-up)
* a refresh with nothing changed
* anchor: ``python -c "import lore.cli"`` (the start-up every command pays)

After every refresh the script checks that the code index's generation and stamp did not move
(a docs-only change never invalidates the code graph, the hybrid features or the clusters) and that
exactly one document was re-chunked.

Usage::

    python benchmarks/perf/bench_docs_refresh.py                     # Django docs, hashing vectors
    python benchmarks/perf/bench_docs_refresh.py --repeat 5 --no-code
    python benchmarks/perf/bench_docs_refresh.py --docs PATH --embedder minilm   # any tree (MiniLM: a small one)

Prints medians of wall-clock and CPU seconds (user + system of this process or of the measured child).
On a shared machine read the CPU column and the ratios between rows measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_index import fetch_django  # noqa: E402


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cli(args: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall s, CPU s of the child, stdout) of ``python -m lore ARGS``."""
    t, c = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "-m", "lore", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return time.perf_counter() - t, _children_cpu() - c, done.stdout


def code_state(db: Path) -> tuple[str, int]:
    from lore.store.db import connect, generation, index_stamp

    conn = connect(db)
    try:
        return index_stamp(conn), generation(conn)
    finally:
        conn.close()


def edit(path: Path, n: int) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(f"\n\nA paragraph added by the refresh benchmark, number {n}, about middleware ordering.\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=Path, help="a documentation tree (default: the Django 5.1.4 sdist's docs/)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "lore-bench")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--embedder", default="hashing", choices=("hashing", "minilm"))
    ap.add_argument("--code", action=argparse.BooleanOptionalAction, default=True,
                    help="index the sdist's code into the same index first (default on; Django only)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = ap.parse_args()
    sdist = None if args.docs else fetch_django(args.cache)
    docs = args.docs or sdist / "docs"  # type: ignore[operator]

    with tempfile.TemporaryDirectory(prefix="lore-docs-bench-") as tmp:
        root = Path(tmp) / "proj"
        if sdist is not None and args.code:
            shutil.copytree(sdist, root)
        else:
            shutil.copytree(docs, root / "docs")
        db = root / ".lore" / "index.db"
        rows: dict[str, dict[str, float]] = {}
        if sdist is not None and args.code:
            wall, cpu, _ = run_cli(["index", ".", "--json"], root)
            print(f"code index (setup): {wall:.1f} s wall, {cpu:.1f} s CPU", file=sys.stderr)
        wall, cpu, out = run_cli(["docs", "add", "docs", "--embedder", args.embedder, "--json"], root)
        fresh = json.loads(out)
        rows["fresh `lore docs add docs` (anchor)"] = {"wall": wall, "cpu": cpu}
        print(f"fresh add: {fresh['added']} documents, {fresh['chunks']} chunks, {wall:.2f} s wall, {cpu:.2f} s CPU",
              file=sys.stderr)

        files = sorted(p for p in (root / "docs").rglob("*") if p.suffix in (".txt", ".rst", ".md"))
        picks = random.Random(args.seed).sample(files, min(len(files), 2 * args.repeat))
        state = code_state(db)
        cli_wall, cli_cpu, api_cpu, api_wall, nothing_wall, nothing_cpu = [], [], [], [], [], []
        from lore.docs import add_documents

        for k in range(args.repeat):
            edit(picks[2 * k], 2 * k)
            wall, cpu, out = run_cli(["docs", "add", "docs", "--json"], root)
            report = json.loads(out)
            assert report["updated"] == 1 and report["added"] == 0, report
            cli_wall.append(wall)
            cli_cpu.append(cpu)
            edit(picks[2 * k + 1], 2 * k + 1)
            t, c = time.perf_counter(), time.process_time()
            report = add_documents(db, [root / "docs"], progress=False)
            api_cpu.append(time.process_time() - c)
            api_wall.append(time.perf_counter() - t)
            assert report["updated"] == 1, report
            wall, cpu, _ = run_cli(["docs", "add", "docs", "--json"], root)
            nothing_wall.append(wall)
            nothing_cpu.append(cpu)
            assert code_state(db) == state, "a docs-only change moved the code index's generation"
        rows["refresh after one changed file, `lore docs add docs`"] = {
            "wall": statistics.median(cli_wall), "cpu": statistics.median(cli_cpu)}
        rows["the same refresh in process (`add_documents`)"] = {
            "wall": statistics.median(api_wall), "cpu": statistics.median(api_cpu)}
        rows["nothing changed, `lore docs add docs`"] = {
            "wall": statistics.median(nothing_wall), "cpu": statistics.median(nothing_cpu)}
        start_wall, start_cpu = [], []
        for _ in range(args.repeat):
            t, c = time.perf_counter(), _children_cpu()
            subprocess.run([sys.executable, "-c", "import lore.cli"], check=True)
            start_wall.append(time.perf_counter() - t)
            start_cpu.append(_children_cpu() - c)
        rows['`python -c "import lore.cli"` (anchor)'] = {
            "wall": statistics.median(start_wall), "cpu": statistics.median(start_cpu)}

    anchor = rows["fresh `lore docs add docs` (anchor)"]["cpu"]
    if args.json:
        print(json.dumps({"embedder": args.embedder, "documents": fresh["added"], "chunks": fresh["chunks"],
                          "code": bool(sdist is not None and args.code), "rows": rows}, indent=2))
        return
    print(f"\n{fresh['added']} documents, {fresh['chunks']} chunks, embedder {args.embedder}, "
          f"code index {'yes' if sdist is not None and args.code else 'no'}; medians of {args.repeat}\n")
    print("| run | wall s | CPU s | CPU vs fresh add |")
    print("|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {r['wall']:.3f} | {r['cpu']:.3f} | {r['cpu'] / anchor:.3f} |")
    print("\ncode index generation and stamp unchanged by every docs write: yes")


if __name__ == "__main__":
    main()
