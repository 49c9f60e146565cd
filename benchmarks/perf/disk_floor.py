"""Where a lore index's bytes go, and the least bytes that could hold the same answers (issue 33, the disk bar).

For every table and index of the SQLite file (``dbstat``): its pages, the payload in them, and two bounds
on what holding the same B-tree could cost, each compressing the very pages it occupies:

* ``zlib6``: every page of the B-tree, in page order, through one zlib stream at level 6;
* ``lzma6~``: lzma preset 6 on every eighth page (up to 24 MB), the ratio applied to the whole.

Neither bound is a layout SQLite could read (a query needs a page at a time, uncompressed); they say how
much of a B-tree is redundancy a different encoding could remove, and how much is information. Beside
them each B-tree names what reads it, so that a saving can be weighed against what it would cost. The
side files (saved graph, features, word rows, fold) are listed with their own zlib-6 size (a file
hard-linked twice counted once).

Usage::

    python benchmarks/perf/disk_floor.py INDEX.db [--scale 6.95]

``--scale`` adds a column that multiplies each row (an estimate for a larger tree from a subsystem:
the kernel's SQLite file over the subsystem's, 2,428 / 349.5 MB, is 6.95).
"""

from __future__ import annotations

import argparse
import lzma
import os
import sqlite3
import zlib
from pathlib import Path

# what reads each B-tree (the command or query it serves); a name not listed is a small table
SERVES = {
    "symbols_fts_data": "lore search (BM25 over name, qualified name, signature, docstring, path, body)",
    "symbols_fts_docsize": "lore search (BM25 column lengths)",
    "symbols_fts_text": "deletes of symbols_fts rows on a refresh (contentless FTS5); code vectors",
    "files_fts_data": "lore search --files (BM25 over path, exports, imports, whole text)",
    "files_fts_text": "deletes of files_fts rows on a refresh (contentless FTS5); code vectors",
    "fts_text": "deletes of both search tables' rows on a refresh (contentless FTS5); code vectors",
    "symbols": "every answer (names, kinds, lines, signatures, docstrings)",
    "file_records": "refresh: re-resolving unchanged files without parsing them (records, ids, names)",
    "symbol_refs": "graph callers / callees / related (call edges)",
    "type_refs": "graph related (type references)",
    "symbol_relationships": "graph related, clusters (contains / extends / overrides)",
    "file_imports": "import edges, re-exports",
    "symbols_name": "naming a symbol by short name or suffix (lore.queries._names, the resolver's world)",
    "symbols_qname": "naming a symbol by qualified name (every graph command, the resolver's world)",
    "symbols_name_tail": "suggestions for an unknown name (last three characters)",
    "symbols_name_lower": "suggestions for an unknown name (case-folded prefix range)",
    "symbols_parent": "the resolver's world read by key (members of a class)",
    "symbols_file": "a file's symbols (refresh, deletes)",
    "refs_caller": "callees of a symbol; deletes of a file's edges",
    "refs_callee": "callers of a symbol",
    "refs_unresolved": "the count of unresolved call sites beside callers",
    "type_refs_symbol": "types a symbol uses; deletes of a file's edges",
    "type_refs_type": "users of a type",
    "rel_source": "a symbol's relationships; deletes of a file's edges",
    "rel_target": "subclasses / overriders of a symbol",
    "derived_state": "the C macro tally carried across refreshes",
    "cluster_runs": "graph clusters / cluster",
}
SIDE = (".graph", ".features", ".featrows", ".fold")


def btrees(db: Path) -> list[tuple[str, int, int, int, float]]:
    """(name, page bytes, payload bytes, zlib-6 bytes, lzma-6 estimate) of every B-tree, largest first."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    pages: dict[str, list[int]] = {}
    stat: dict[str, tuple[int, int]] = {}
    for name, pageno, size, payload in conn.execute("SELECT name, pageno, pgsize, payload FROM dbstat"):
        pages.setdefault(name, []).append(pageno)
        s, p = stat.get(name, (0, 0))
        stat[name] = (s + size, p + payload)
    out = []
    with open(db, "rb") as fh:
        for name, (size, payload) in stat.items():
            z = zlib.compressobj(6)
            packed, sample = 0, bytearray()
            for k, pg in enumerate(sorted(pages[name])):
                fh.seek((pg - 1) * page)
                b = fh.read(page)
                packed += len(z.compress(b))
                if k % 8 == 0 and len(sample) < 24 << 20:
                    sample += b
            packed += len(z.flush())
            ratio = len(lzma.compress(bytes(sample), preset=6)) / len(sample) if sample else 1.0
            out.append((name, size, payload, packed, ratio * size))
    return sorted(out, key=lambda r: (-r[1], r[0]))


def side_files(db: Path) -> list[tuple[str, int, int]]:
    """(suffix, bytes on disk, zlib-6 bytes) of each side directory; a hard-linked file is counted once."""
    seen: set[tuple[int, int]] = set()
    out = []
    for suffix in SIDE:
        d = db.with_name(db.name + suffix)
        disk = packed = 0
        for root, _, files in os.walk(d):
            for f in sorted(files):
                p = os.path.join(root, f)
                st = os.lstat(p)
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                disk += st.st_blocks * 512
                packed += len(zlib.compress(Path(p).read_bytes(), 6))
        if disk:
            out.append((suffix, disk, packed))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("--scale", type=float, default=0.0, help="multiply each row by this (an estimate)")
    ap.add_argument("--min-mb", type=float, default=0.3, help="list B-trees of at least this size")
    a = ap.parse_args()
    mb = 1e6
    extra = f" {'x' + format(a.scale, 'g'):>8s}" if a.scale else ""
    print(f"{'B-tree':28s} {'MB':>7s} {'payload':>7s} {'zlib6':>7s} {'lzma6~':>7s}{extra}  serves")
    tot = [0.0] * 4
    for name, size, payload, packed, lz in btrees(a.db):
        tot = [t + v for t, v in zip(tot, (size, payload, packed, lz), strict=True)]
        if size >= a.min_mb * mb:
            sc = f" {size * a.scale / mb:8.0f}" if a.scale else ""
            print(f"{name:28s} {size / mb:7.1f} {payload / mb:7.1f} {packed / mb:7.1f} {lz / mb:7.1f}{sc}  "
                  f"{SERVES.get(name, '')}")
    sc = f" {tot[0] * a.scale / mb:8.0f}" if a.scale else ""
    print(f"{'SQLite (all B-trees)':28s} {tot[0] / mb:7.1f} {tot[1] / mb:7.1f} {tot[2] / mb:7.1f} {tot[3] / mb:7.1f}{sc}")
    side = side_files(a.db)
    for suffix, disk, packed in side:
        sc = f" {disk * a.scale / mb:8.0f}" if a.scale else ""
        print(f"{'side ' + suffix:28s} {disk / mb:7.1f} {'':7s} {packed / mb:7.1f} {'':7s}{sc}")
    total = tot[0] + sum(s[1] for s in side)
    bound = tot[2] + sum(s[2] for s in side)
    sc = f" {total * a.scale / mb:8.0f}" if a.scale else ""
    print(f"{'index (SQLite + side)':28s} {total / mb:7.1f} {'':7s} {bound / mb:7.1f} {'':7s}{sc}")


if __name__ == "__main__":
    main()
