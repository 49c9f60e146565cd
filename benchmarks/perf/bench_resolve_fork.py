"""What resolving in two processes costs beside resolving in one, chunk by chunk (issue 33).

Indexes TREE fresh (``run_index``, no upkeep steps, ``--history off``, 2 parse workers) and resolves the
files in one of three ways, with the chunks :func:`lore.index.resolve_pool.resolve_parallel` would cut:

* ``fork``: as ``lore index`` does (chunk 0 here, chunk 1 in a forked process); prints this process's CPU,
  the child's (user + system) and its minor page faults;
* ``one``: both chunks here, chunk 0 first (chunk 1 after chunk 0's memoized lookups);
* ``rev``: both chunks here, chunk 1 first (chunk 1 cold, as the forked process sees it).

``resolve_all`` is the CPU of the indexer's whole resolve phase over every process. With ``--profile`` the
``one`` / ``rev`` chunks are also written as ``cProfile`` files (``MODE_cK.prof`` in ``--out``): compare chunk
1's call counts in ``one`` and ``rev`` to see what a cold process computes again.

Usage::

    python benchmarks/perf/bench_resolve_fork.py TREE {fork,one,rev} [--profile --out DIR]

The edge rows of ``one`` and ``rev`` go to the index in another order: this measures, it checks no answer.
"""

from __future__ import annotations

import argparse
import cProfile
import resource
import shutil
import tempfile
import time
from pathlib import Path


def _children() -> tuple[float, int]:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("mode", choices=("fork", "one", "rev"))
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--out", type=Path, default=Path("."))
    args = ap.parse_args()

    from lore.index import indexer
    from lore.index import resolve_pool as rp
    from lore.index.pipeline import run_index

    out: dict[str, object] = {}
    original, finish = rp.resolve_parallel, indexer._resolve_and_finish

    def patched(world, file_ids, db_path, workers, progress=None, *, sink):
        world.solve_flow()
        chunks = rp._chunks(file_ids, 2, world)
        out["files per chunk"] = [len(c) for c in chunks]
        if args.mode == "fork":
            (c0, f0), t = _children(), time.process_time()
            got = original(world, file_ids, db_path, 2, progress, sink=sink)
            (c1, f1) = _children()
            out.update(parent=time.process_time() - t, child=c1 - c0, child_minor_faults=f1 - f0)
            return got
        for k in ([0, 1] if args.mode == "one" else [1, 0]):
            prof = cProfile.Profile() if args.profile else None
            t = time.process_time()
            if prof:
                prof.enable()
            for i in range(0, len(chunks[k]), rp.SINK_EVERY):
                sink(rp.resolve_files(world, chunks[k][i : i + rp.SINK_EVERY]))
            if prof:
                prof.disable()
                prof.dump_stats(str(args.out / f"{args.mode}_c{k}.prof"))
            out[f"chunk {k}"] = time.process_time() - t
        return [], 0

    def timed_finish(*a, **k):
        (c0, _f), t = _children(), time.process_time()
        try:
            return finish(*a, **k)
        finally:
            out["resolve_all"] = time.process_time() - t + _children()[0] - c0

    indexer.resolve_parallel, indexer._resolve_and_finish = patched, timed_finish
    tmp = Path(tempfile.mkdtemp(prefix="lore-resolve-fork-"))
    try:
        run_index(args.tree, steps=(), db=tmp / "index.db", rebuild=True, history="off", workers=2)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(args.tree, args.mode, ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
