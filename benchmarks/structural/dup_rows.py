"""Do related lists show one definition twice? Count, over a seeded sample of seeds, the lists that repeat a name.

A ``.pyi`` stub and the ``@overload`` signatures of a function are indexed beside its implementation under
the same qualified name; a related list should show that definition once (``lore.graphs._fold``), and
never the seed's own copies. This script samples seeds from an index: ``--copies`` symbols whose
qualified name several symbols share (stubs, overloads, their implementations) and ``--random`` other
functions and methods (seeded), asks every algorithm for each seed's related list (``--limit`` rows),
and counts the lists that repeat a qualified name and the lists that hold the seed's own name.

    PYTHONPATH=. python benchmarks/structural/dup_rows.py /path/to/.lore/index.db
    PYTHONPATH=. python benchmarks/structural/dup_rows.py idx.db --algorithms hybrid,overlap --json out.json

It runs against whichever ``lore`` is importable (set PYTHONPATH to a checkout to measure that one),
and exits 1 when some list repeats a name.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from lore.api import lore_graph, open_index

ALGORITHMS = ("hybrid", "overlap", "pagerank", "cluster")
SEED_KINDS = ("function", "method", "class")


def sample_seeds(symbols: list[dict], *, copies: int, others: int, seed: int) -> tuple[list[int], list[int]]:
    """(ids whose qualified name another symbol shares, other function / method ids), each sampled with ``seed``."""
    rows = [s for s in symbols if s["kind"] in SEED_KINDS and s.get("path") and "/tests/" not in f"/{s['path']}"]
    count = Counter(s["qualified_name"] for s in rows)
    shared = sorted(s["id"] for s in rows if count[s["qualified_name"]] > 1)
    single = sorted(s["id"] for s in rows if count[s["qualified_name"]] == 1 and s["kind"] != "class")
    rng = random.Random(seed)
    return (sorted(rng.sample(shared, min(copies, len(shared)))),
            sorted(rng.sample(single, min(others, len(single)))))


def check(db: Path, *, algorithms: tuple[str, ...], copies: int, others: int, limit: int, seed: int) -> dict:
    """Per algorithm and sample: lists asked, lists that repeat a qualified name, lists holding the seed's name."""
    idx = open_index(db, readonly=True)
    symbols = idx.symbols()
    qname = {s["id"]: s["qualified_name"] for s in symbols}
    with_copies, plain = sample_seeds(symbols, copies=copies, others=others, seed=seed)
    out: dict = {"db": str(db), "symbols": len(symbols), "limit": limit, "seed": seed,
                 "samples": {"copies": len(with_copies), "random": len(plain)}, "results": {}}
    for algo in algorithms:
        t0 = time.perf_counter()
        for label, seeds in (("copies", with_copies), ("random", plain)):
            lists = repeat = own = rows = 0
            examples: list[str] = []
            for sid in seeds:
                got = lore_graph(idx, kind="related", source_id=sid, algorithm=algo, limit=limit)["results"]
                names = [r["qualified_name"] for r in got]
                lists += 1
                rows += len(names)
                twice = [n for n, c in Counter(names).items() if c > 1]
                if twice:
                    repeat += 1
                    if len(examples) < 3:
                        examples.append(f"{qname[sid]}: {twice[0]} x{names.count(twice[0])}")
                if qname[sid] in names:
                    own += 1
            out["results"][f"{algo}/{label}"] = {"lists": lists, "rows": rows, "repeat_a_name": repeat,
                                                 "hold_seed_name": own, "examples": examples}
        out["results"][f"{algo}/seconds"] = round(time.perf_counter() - t0, 1)
    idx.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path, help="an index file (.lore/index.db)")
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS))
    ap.add_argument("--copies", type=int, default=150, help="seeds whose qualified name several symbols share")
    ap.add_argument("--random", type=int, default=150, help="other functions and methods")
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write the counts here")
    args = ap.parse_args(argv)
    report = check(args.db, algorithms=tuple(a for a in args.algorithms.split(",") if a), copies=args.copies,
                   others=args.random, limit=args.limit, seed=args.seed)
    print(f"{report['db']}: {report['symbols']} symbols; seeds {report['samples']}; top {report['limit']}")
    print(f"{'algorithm/sample':<20} {'lists':>6} {'rows':>6} {'repeat a name':>14} {'hold seed name':>15}")
    bad = 0
    for key, r in report["results"].items():
        if key.endswith("/seconds"):
            continue
        bad += r["repeat_a_name"]
        print(f"{key:<20} {r['lists']:>6} {r['rows']:>6} {r['repeat_a_name']:>14} {r['hold_seed_name']:>15}"
              + (f"   e.g. {'; '.join(r['examples'])}" if r["examples"] else ""))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
