"""Where a parse worker's CPU goes, stage by stage, beside a raw tree-sitter parse of the same files (issue 33).

Runs the parse workers' job (:func:`lore.index._parse.parse_job`: read, hash, clean up, parse, extract, search
text, encode) over every file ``lore index`` would index under a tree, in this one process with garbage
collection off (as the workers run), and times each stage by wrapping its function: a stage's time excludes
the wrapped stages it calls. The anchor is a raw tree-sitter parse of the same files' bytes, in the same run.

Usage::

    python benchmarks/perf/bench_parse_stages.py TREE [TREE ...]

Compare two versions of lore by running it with each one first on ``PYTHONPATH``, alternating (CPU seconds
on a shared machine: read the ratios and the ranges of repeated runs).
"""

from __future__ import annotations

import argparse
import functools
import gc
import time
from collections import defaultdict
from pathlib import Path


def _instrument(acc: dict[str, float]) -> None:
    from lore.index import _parse
    from lore.languages.c import _extract
    from lore.languages.c import _parser as c_parser
    from lore.parsers import _ts

    stack: list[float] = []

    def wrap(owner: object, name: str, label: str) -> None:
        f = getattr(owner, name)

        @functools.wraps(f)
        def timed(*a, **k):
            t = time.process_time()
            stack.append(0.0)
            try:
                return f(*a, **k)
            finally:
                spent = time.process_time() - t
                acc[label] += spent - stack.pop()  # without the wrapped stages inside it
                if stack:
                    stack[-1] += spent

        setattr(owner, name, timed)

    for owner, name, label in (
        (c_parser, "blank_macro_noise", "C: macro blanking"), (c_parser, "c_statement_macros", "C: statement macros"),
        (c_parser, "looks_cpp", "C: looks_cpp"), (c_parser, "flatten_conditionals", "C: flatten_conditionals"),
        (_extract.CExtractor, "_branches_of", "C: preprocessor branches"),
        (_ts, "parse", "tree-sitter parse"), (_ts, "captures", "query captures"), (_ts, "count_errors", "count_errors"),
        (_parse, "body_text", "body text for search"), (_parse, "encode", "encode records"),
        (_parse, "cached_index_text", "name/signature tokens"), (_parse, "content_hash", "hash"),
        (_parse, "read_source", "read"), (_parse, "ref_names", "ref_names"),
        (_parse, "parse_source", "extraction (Python per node)"), (_parse, "_parsed_rows", "rows"),
    ):
        wrap(owner, name, label)


def _jobs(root: Path) -> list[tuple]:
    from lore.index.walk import walk
    from lore.languages import get

    files = walk(root, gitignore=False).files
    paths_of: dict[str, list[str]] = {}
    for f in files:
        paths_of.setdefault(f.language, []).append(f.path)
    namers = {lang: get(lang).module_namer(paths, root.name) for lang, paths in paths_of.items()}
    return [(f.path, f.abspath, f.language, namers[f.language](f.path), False, 2_000_000) for f in files]


def _raw_parse(jobs: list[tuple]) -> float:
    from lore.languages import get
    from lore.parsers import _ts

    data = [(get(j[2]).grammar, Path(j[1]).read_bytes()) for j in jobs]
    t = time.process_time()
    for grammar, src in data:
        _ts.parse(grammar, src)
    return time.process_time() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", type=Path, nargs="+")
    args = ap.parse_args()
    from lore.index import _parse

    acc: dict[str, float] = defaultdict(float)
    raws = {root: _raw_parse(_jobs(root)) for root in args.trees}  # before the wrappers: the anchor is bare
    _instrument(acc)
    for root in args.trees:
        jobs = _jobs(root)
        for job in jobs[:20]:
            _parse.parse_job(job)  # queries compiled, caches warm
        acc.clear()
        gc.disable()
        t = time.process_time()
        for job in jobs:
            _parse.parse_job(job)
        total = time.process_time() - t
        gc.enable()
        raw = raws[root]
        print(f"{root}: {len(jobs)} files; parse workers' job {total:.2f} CPU s, raw tree-sitter parse {raw:.2f} CPU s "
              f"({total / raw:.1f}x)")
        for label, spent in sorted(acc.items(), key=lambda kv: -kv[1]):
            print(f"  {label:32s} {spent:7.2f} s  {100 * spent / total:5.1f}%")
        print(f"  {'other':32s} {total - sum(acc.values()):7.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
