"""Speed of naming a symbol on a synthetic index of a million symbols, beside the method it replaced.

A seeded generator writes an index the way lore's store holds one (``lore.store.write``): Python
packages of modules, each module a few classes of methods and some functions, identifiers drawn from
a word pool by a power law (so ``get``, ``run`` and ``__init__`` are everywhere and most names are
rare), and each package's ``__init__`` re-exporting some of its classes. Then, per query kind, the
median and slowest time over seeded queries (a warm connection, as the MCP server holds one):

* qualified name, public re-export (``pkg.Class``), unique suffix (``Class.method``), ``path:line``
  and an ambiguous bare name (``run``: the error that lists the candidates) through
  :func:`lore.queries._naming.resolve_symbol`;
* the unknown-name suggestion (did you mean) for a one-typo name, short and long, through
  :func:`lore.queries._names.closest_symbols`;
* beside each, today's method in the same run: ``resolve_ref`` before names (the lowest id of an
  exact qualified name, else an unknown-symbol error whose suggestion scanned every symbol), here
  re-implemented as it was (:func:`old_resolve`, :func:`old_closest`); the old method is run on
  fewer queries (``--old-queries``), it takes seconds each.

Also the cost of the indexes names add to the store (time to build, size on disk); the one they
widen (``symbols_name`` now holds the qualified name beside the name) is counted with the others.

Usage::

    python benchmarks/perf/bench_names.py                       # 1M symbols, seed 0
    python benchmarks/perf/bench_names.py --symbols 100000 --seed 3 --queries 50

Wall-clock numbers depend on the machine and its load; ratios within one run are the point.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lore.errors import UnknownSymbolError  # noqa: E402
from lore.queries._names import closest_symbols, edit_distance  # noqa: E402
from lore.queries._naming import resolve_symbol  # noqa: E402
from lore.store import db as store_db  # noqa: E402
from lore.store import names as store_names  # noqa: E402
from lore.store import read, write  # noqa: E402

NEW_INDEXES = ("symbols_name_lower", "symbols_name_tail", "files_module", "files_language")
SYMBOLS_PER_MODULE = 20  # 1 module, 3 classes of 4 methods, 4 functions
WORDS = 3000


def word_pool(rng: random.Random) -> list[str]:
    """Pronounceable words, most common first (the power law picks from the front)."""
    common = ["get", "set", "run", "init", "name", "value", "data", "item", "key", "read", "write", "load", "save",
              "update", "create", "delete", "parse", "build", "make", "check", "handle", "process", "open", "close"]
    cons, vows = "bcdfghjklmnprstvwz", "aeiou"
    out = list(common)
    seen = set(out)
    while len(out) < WORDS:
        w = "".join(rng.choice(cons) + rng.choice(vows) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def pick(rng: random.Random, words: list[str]) -> str:
    return words[min(len(words) - 1, int(rng.paretovariate(1.1)) - 1)]


def ident(rng: random.Random, words: list[str], *, camel: bool) -> str:
    parts = [pick(rng, words) if k == 0 else rng.choice(words) for k in range(rng.choice((1, 2, 2, 3)))]
    if rng.random() < 0.1:
        parts = [pick(rng, words)]  # a bare common name: get, run, name...
    return "".join(p.capitalize() for p in parts) if camel else "_".join(parts)


def build(path: Path, n_symbols: int, seed: int) -> dict:
    """Write the synthetic index at ``path``; returns the queries' material and the build times."""
    rng = random.Random(seed)
    words = word_pool(rng)
    conn = store_db.connect_writer(path)
    store_db.create_schema(conn, indexes=False)
    n_modules = max(1, n_symbols // SYMBOLS_PER_MODULE)
    per_pkg = 20
    files, symbols, imports = [], [], []
    sid = 0
    qualified: list[str] = []
    methods: list[tuple[str, str]] = []  # (qualified name, class.method)
    reexported: list[tuple[str, str]] = []  # (pkg.Class, its qualified name)
    lines: list[tuple[str, int, str]] = []  # (path, line, qualified name)
    for m in range(n_modules):
        pkg = f"p{m // (per_pkg * 40)}.s{(m // per_pkg) % 40}"
        mod = f"{pkg}.{ident(rng, words, camel=False)}_{m}"
        fid = len(files) + 1
        path_ = mod.replace(".", "/") + ".py"
        sid += 1
        mod_id = sid
        symbols.append((sid, fid, mod.rsplit(".", 1)[1], mod, "module", None, 1, 200, 0, 0, "", "", "", 1, 0))
        line = 2
        exported_class = None
        for _c in range(3):
            cname = ident(rng, words, camel=True) + str(rng.randrange(100))
            sid += 1
            cid = sid
            cq = f"{mod}.{cname}"
            symbols.append((sid, fid, cname, cq, "class", mod_id, line, line + 40, 0, 0, f"class {cname}", "", "", 1, 0))
            exported_class = exported_class or (cname, cq)
            for _k in range(4):
                meth = "__init__" if _k == 0 and rng.random() < 0.5 else ident(rng, words, camel=False)
                sid += 1
                mq = f"{cq}.{meth}"
                symbols.append((sid, fid, meth, mq, "method", cid, line + 1 + 8 * _k, line + 8 + 8 * _k, 0, 0,
                                f"def {meth}(self)", "", "", 1, 0))
                methods.append((mq, f"{cname}.{meth}"))
                lines.append((path_, line + 3 + 8 * _k, mq))
            line += 42
        for _f in range(SYMBOLS_PER_MODULE - 16):
            fname = ident(rng, words, camel=False)
            sid += 1
            fq = f"{mod}.{fname}"
            symbols.append((sid, fid, fname, fq, "function", mod_id, line, line + 5, 0, 0, f"def {fname}()", "", "", 1, 0))
            qualified.append(fq)
            line += 6
        files.append((fid, path_, "python", mod, "h", 1, 1, 200, 0, 0, 1))
        if exported_class and rng.random() < 0.5:
            reexported.append((f"{pkg}.{exported_class[0]}", exported_class[1], fid, pkg, exported_class[0]))
    # each package's __init__ re-exports some of its modules' classes
    init_of: dict[str, tuple[int, int]] = {}
    for pkg in sorted({r[3] for r in reexported}):
        fid = len(files) + 1
        sid += 1
        files.append((fid, pkg.replace(".", "/") + "/__init__.py", "python", pkg, "h", 1, 1, 50, 0, 0, 1))
        symbols.append((sid, fid, pkg.rsplit(".", 1)[1], pkg, "module", None, 1, 50, 0, 0, "", "", "", 1, 0))
        init_of[pkg] = (fid, sid)
    by_q = {s[3]: s[0] for s in symbols}
    for _public, q, target_fid, pkg, cname in reexported:
        fid, msid = init_of[pkg]
        imports.append((fid, msid, "." + q.split(".")[-2], cname, None, 1, 1, target_fid, by_q[q], "import", 1.0))
    t = time.perf_counter()
    with conn:
        write.insert_files(conn, files)
        write.insert_symbols(conn, symbols)
        write.insert_edges(conn, [], [], imports, [])
    load = time.perf_counter() - t
    t = time.perf_counter()
    with conn:
        for stmt in store_db._statements(store_db.CORE_INDEXES):  # the statements, one by one
            if not any(f" {name} " in stmt for name in NEW_INDEXES):
                conn.execute(stmt)
    old_indexes = time.perf_counter() - t
    size_before = path.stat().st_size
    t = time.perf_counter()
    with conn:
        store_db.ensure_indexes(conn)
    new_indexes = time.perf_counter() - t
    conn.execute("ANALYZE")
    conn.commit()
    conn.close()
    return {"symbols": len(symbols), "files": len(files), "qualified": qualified, "methods": methods,
            "reexported": [(r[0], r[1]) for r in reexported], "lines": lines, "words": words,
            "load_s": load, "old_indexes_s": old_indexes, "new_indexes_s": new_indexes,
            "size_before": size_before, "size_after": path.stat().st_size}


# --- today's method, as it was before names (lore.queries._index.resolve_ref and ._names.closest_symbols)

def old_closest(conn: sqlite3.Connection, name: str, limit: int = 5) -> tuple[list[dict], int]:
    query = name.strip().lower()
    parts = query.split(".")
    tail = parts[-1]
    budget = max(1, len(query) // 4)
    tail_budget = max(1, len(tail) // 4)
    short_cache: dict[str, int] = {}
    found: list[tuple[tuple, dict]] = []
    for row in read.iter_symbols(conn):
        qname = row.qualified_name.lower()
        short = row.name.lower()
        if qname == query or qname.endswith("." + query):
            tier: tuple = (0, 0)
        elif short == tail and len(parts) == 1:
            tier = (1, 0)
        elif short == tail:
            tier = (1, 1)
        else:
            if short not in short_cache:
                short_cache[short] = edit_distance(tail, short, tail_budget)
            if short_cache[short] > tail_budget:
                continue
            dist = short_cache[short]
            if len(parts) > 1:
                theirs = ".".join(qname.split(".")[-len(parts):])
                dist = min(dist + 1, edit_distance(query, theirs, budget))
            if dist > budget:
                continue
            tier = (2, dist)
        found.append(((*tier, len(row.qualified_name), row.id), {"id": row.id, "qualified_name": row.qualified_name}))
    found.sort(key=lambda item: item[0])
    return [c for _, c in found[:limit]], len(found)


def old_resolve(conn: sqlite3.Connection, name: str) -> int | None:
    ids = read.symbol_ids_by_qname(conn, name)
    if ids:
        return ids[0]
    old_closest(conn, name)  # the error's did-you-mean
    return None


def new_resolve(conn: sqlite3.Connection, name: str) -> int | None:
    try:
        return resolve_symbol(conn, name)
    except UnknownSymbolError:  # the ambiguity error included: it is timed, not returned
        return None


def typo(rng: random.Random, word: str) -> str:
    i = rng.randrange(len(word))
    op = rng.choice("sdi")
    c = rng.choice("abcdefghijklmnopqrstuvwxyz")
    if op == "s":
        return word[:i] + c + word[i + 1:]
    if op == "d" and len(word) > 2:
        return word[:i] + word[i + 1:]
    return word[:i] + c + word[i:]


def timed(fn, items) -> tuple[float, float, list]:
    times, out = [], []
    for item in items:
        t = time.perf_counter()
        out.append(fn(item))
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, max(times) * 1000, out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--symbols", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--queries", type=int, default=40, help="queries per kind (new method)")
    ap.add_argument("--old-queries", type=int, default=3, help="queries per kind (today's method: a scan each)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "index.db"
        t = time.perf_counter()
        got = build(path, args.symbols, args.seed)
        print(f"synthetic index: {got['symbols']:,} symbols in {got['files']:,} files, seed {args.seed}, "
              f"built in {time.perf_counter() - t:.1f}s (rows {got['load_s']:.1f}s, indexes {got['old_indexes_s']:.1f}s)")
        print(f"names' indexes ({', '.join(NEW_INDEXES)}): {got['new_indexes_s']:.1f}s to build, "
              f"+{(got['size_after'] - got['size_before']) / 2**20:.0f} MiB "
              f"({got['size_before'] / 2**20:.0f} -> {got['size_after'] / 2**20:.0f} MiB)")
        conn = store_db.connect(path, readonly=True)
        n, k = args.queries, args.old_queries
        q_exact = rng.sample(got["qualified"], n)
        q_reexp = rng.sample(got["reexported"], min(n, len(got["reexported"])))
        methods = [m for m in got["methods"] if "__init__" not in m[1]]
        counts: dict[str, int] = {}
        for _q, suffix in methods:
            counts[suffix] = counts.get(suffix, 0) + 1
        q_suffix = rng.sample([m for m in methods if counts[m[1]] == 1], n)
        q_lines = rng.sample(got["lines"], n)
        short = [w for w in got["words"][200:] if 4 <= len(w) <= 5]
        long_ = sorted({m[1].split(".")[1] for m in methods if len(m[1].split(".")[1]) >= 12})
        q_typo_short = [typo(rng, w) for w in rng.sample(short, n)]
        q_typo_long = [typo(rng, w) for w in rng.sample(long_, n)]
        rows = [
            ("qualified name", [q for q in q_exact], [q for q in q_exact], True),
            ("re-export pkg.Class", [p for p, _ in q_reexp], [p for p, _ in q_reexp], True),
            ("suffix Class.method", [s for _, s in q_suffix], [s for _, s in q_suffix], True),
            ("path:line", [f"{p}:{ln}" for p, ln, _ in q_lines], [f"{p}:{ln}" for p, ln, _ in q_lines], True),
            ("ambiguous 'run' (error)", ["run"] * n, ["run"] * n, False),
        ]
        print(f"\n{'query':<28}{'new p50 ms':>11}{'new max':>9}{'right':>8}  |{'today p50 ms':>13}{'today max':>11}{'right':>8}")
        expect = {"qualified name": q_exact, "re-export pkg.Class": [q for _, q in q_reexp],
                  "suffix Class.method": [q for q, _ in q_suffix], "path:line": [q for _, _, q in q_lines]}
        for label, new_q, old_q, resolves in rows:
            p50, mx, ids = timed(lambda r: new_resolve(conn, r), new_q)
            names = [store_names.name_row_by_id(conn, i).qualified_name if i else None for i in ids]
            ok = sum(a == b for a, b in zip(names, expect.get(label, [None] * n), strict=True))
            o50, omx, oids = timed(lambda r: old_resolve(conn, r), old_q[:k])
            onames = [store_names.name_row_by_id(conn, i).qualified_name if i else None for i in oids]
            ook = sum(a == b for a, b in zip(onames, expect.get(label, [None] * n)[:k], strict=True))
            print(f"{label:<28}{p50:>11.2f}{mx:>9.2f}{f'{ok}/{len(new_q)}':>8}  |{o50:>13.1f}{omx:>11.1f}"
                  f"{f'{ook}/{len(oids)}':>8}" + ("" if resolves else "  (right = an error, no id)"))
        print(f"\n{'did you mean':<28}{'new p50 ms':>11}{'new max':>9}{'same top':>9} |{'today p50 ms':>13}{'today max':>11}")
        for label, qs in (("one typo, 4-6 chars", q_typo_short), ("one typo, 11+ chars", q_typo_long)):
            p50, mx, new = timed(lambda r: closest_symbols(conn, r), qs)
            o50, omx, old = timed(lambda r: old_closest(conn, r), qs[:k])
            same = sum([c["id"] for c in a[0]] == [c["id"] for c in b[0]] for a, b in zip(new[:k], old, strict=True))
            print(f"{label:<28}{p50:>11.2f}{mx:>9.2f}{f'{same}/{len(old)}':>9} |{o50:>13.1f}{omx:>11.1f}")
        conn.close()
    print(f"\n(python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}, {os.cpu_count()} cpus)")


if __name__ == "__main__":
    main()
