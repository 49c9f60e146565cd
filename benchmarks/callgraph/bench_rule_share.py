"""Share of all call sites lore binds by a rule, on the Django 5.1.4 sdist (issue 13's "before / after").

Every call site (call expression) of a fresh index is put in one class, the strongest of its edges:
bound to project code by a rule, by a name heuristic, one of k candidates (ambiguous), external
(third-party / stdlib), builtin, or unresolved. Also counts the call sites named ``filter`` (Django's
``QuerySet.filter`` is the example of the issue) and how many of them stay unresolved.

The sdist is downloaded once with pip into ``$LORE_BENCH_CACHE`` or ``~/.cache/lore-bench`` and
checked against a pinned sha256; the index goes to ``<cache>/rule-share/django.db`` and is rebuilt on
every run (a resolver change leaves file hashes alone, so a refresh would keep old edges).

Usage::

    python benchmarks/callgraph/bench_rule_share.py            # Django 5.1.4
    python benchmarks/callgraph/bench_rule_share.py --corpus PATH --name get
    python benchmarks/callgraph/bench_rule_share.py --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lore.bench._rule_share import DJANGO, format_share, run_rule_share
from lore.bench._sdist import cache_dir, fetch_sdist


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, help="any directory (default: the Django 5.1.4 sdist)")
    ap.add_argument("--cache", type=Path, help="download cache (default $LORE_BENCH_CACHE or ~/.cache/lore-bench)")
    ap.add_argument("--name", default="filter", help="also count the call sites of this name (default: filter)")
    ap.add_argument("--workers", type=int, default=None, help="indexing processes (default: all cores)")
    ap.add_argument("--reuse", action="store_true", help="reuse the index from an earlier run (no rebuild)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = ap.parse_args(argv)
    cache = args.cache or cache_dir()
    root = args.corpus or fetch_sdist(DJANGO, cache)
    work = cache / "rule-share"
    work.mkdir(parents=True, exist_ok=True)
    db = work / f"{Path(root).name}.db"
    table = run_rule_share(Path(root), db, name=args.name, workers=args.workers, reuse=args.reuse)
    if args.json:
        json.dump(table, sys.stdout, indent=2)
        print()
        return 0
    label = "Django 5.1.4 sdist" if args.corpus is None else str(root)
    for line in format_share(table, title=f"call sites of {label} by binding strength (fresh index)"):
        print(line)
    secs = table["index_seconds"] or {}
    print(f"index {secs.get('total', '-')} s (cpu {secs.get('cpu', '-')} s), whole run {table['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
