"""Index real code that no one here wrote, one corpus per language, and report speed and resolution.

Corpora (fetched with the ordinary package clients by ``--fetch`` into ``--cache``):

* TypeScript: the ``rxjs`` package from npm (``npm pack``), its ``src/`` TypeScript sources;
* Go: Debian ``golang-github-spf13-cobra-dev`` and ``golang-github-gorilla-mux-dev`` (``apt-get download``);
* Rust: Debian ``librust-serde-json-dev`` and ``librust-regex-syntax-dev``;
* Java: ``java.util`` and ``java.io`` from Debian's ``openjdk-17-source`` ``src.zip``;
* C: the ``zstandard`` sdist from PyPI (bundled zstd sources);
* C++: Debian ``googletest`` (its ``/usr/src/googletest`` sources; ``.h`` headers read as C++ by content).

Each corpus is indexed from scratch in one process (``workers=1``: no pool start-up in the timing) and
the row reports files/s, MB/s, symbols, edges, the share of call edges bound to a target (and the
share bound by a rule rather than a name heuristic), files with syntax errors and files the parser
failed on (must be 0: no crash on any file).

Usage::

    python benchmarks/perf/bench_index_langs.py --fetch            # download corpora, then run all
    python benchmarks/perf/bench_index_langs.py --lang go --lang rust
    python benchmarks/perf/bench_index_langs.py --corpus java=/path/to/src
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from lore.index import index_repo
from lore.parsers import language_for

HEURISTIC = ("same_file_name", "unique_name", "ambiguous_name")
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "lore-bench-corpora"

DEBS = {
    "go": ["golang-github-spf13-cobra-dev", "golang-github-gorilla-mux-dev"],
    "rust": ["librust-serde-json-dev", "librust-regex-syntax-dev"],
    "java": ["openjdk-17-source"],
    "cpp": ["googletest"],
}


def _run(cmd: list[str], cwd: Path) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=900)


def fetch(cache: Path, langs: list[str]) -> None:
    """Download and unpack the corpora of ``langs`` into ``cache/<lang>`` (skips those already there)."""
    dl = cache / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        dest = cache / lang
        if dest.exists():
            continue
        tmp = cache / f"{lang}.partial"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        if lang == "typescript":
            _run(["npm", "pack", "rxjs@7.8.2"], dl)
            with tarfile.open(next(dl.glob("rxjs-*.tgz"))) as tf:
                tf.extractall(tmp, filter="data")
        elif lang == "c":
            _run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "zstandard==0.25.0",
                  "-d", str(dl)], dl)
            with tarfile.open(next(dl.glob("zstandard-*.tar.gz"))) as tf:
                tf.extractall(tmp, filter="data")
        elif lang in DEBS:
            _run(["apt-get", "download", *DEBS[lang]], dl)
            for pkg in DEBS[lang]:
                deb = next(dl.glob(f"{pkg}_*.deb"))
                _run(["dpkg", "-x", str(deb), str(tmp / "deb")], dl)
            if lang == "java":
                src = next((tmp / "deb").rglob("src.zip"))
                with zipfile.ZipFile(src) as zf:
                    names = [n for n in zf.namelist()
                             if n.startswith(("java.base/java/util/", "java.base/java/io/")) and n.endswith(".java")]
                    zf.extractall(tmp / "src", names)
                shutil.rmtree(tmp / "deb")
            elif lang == "cpp":
                shutil.move(str(next((tmp / "deb").rglob("src/googletest"))), str(tmp / "src"))
                shutil.rmtree(tmp / "deb")
        tmp.rename(dest)


def corpus_stats(root: Path, lang: str) -> dict:
    files = [p for p in root.rglob("*") if p.is_file() and ".lore" not in p.parts and language_for(p.name)]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files)}


def bench_one(lang: str, src: Path) -> dict:
    """Index a fresh copy of ``src`` and collect the row of the table."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / lang
        shutil.copytree(src, root, ignore=shutil.ignore_patterns(".lore", ".git", "node_modules"))
        size = corpus_stats(root, lang)
        t = time.perf_counter()
        report = index_repo(root, workers=1)
        secs = time.perf_counter() - t
        conn = sqlite3.connect(root / ".lore" / "index.db")
        try:
            total, bound, strict = conn.execute(
                f"""SELECT COUNT(*), SUM(callee_id IS NOT NULL),
                           SUM(callee_id IS NOT NULL AND resolution NOT IN {HEURISTIC})
                    FROM symbol_refs""").fetchone()
            symbols = conn.execute("SELECT COUNT(*) FROM symbols WHERE file_id IS NOT NULL").fetchone()[0]
            by_lang = dict(conn.execute("SELECT language, COUNT(*) FROM files GROUP BY language"))
        finally:
            conn.close()
    failed = sum(n for k, n in report.skipped.items() if k == "unreadable")
    edges = sum(report.edges.values())
    return {
        "lang": lang, "files": size["files"], "mb": size["bytes"] / 1e6, "seconds": secs,
        "files_s": size["files"] / secs if secs else 0.0, "mb_s": size["bytes"] / 1e6 / secs if secs else 0.0,
        "symbols": symbols, "edges": edges, "calls": total or 0,
        "resolved": (bound or 0) / total if total else 0.0, "rule": (strict or 0) / total if total else 0.0,
        "syntax_error_files": len(report.syntax_error_files), "failed": failed, "languages": by_lang,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", choices=["typescript", "go", "java", "rust", "c", "cpp"])
    ap.add_argument("--corpus", action="append", default=[], metavar="LANG=PATH", help="use this tree for LANG")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--fetch", action="store_true", help="download missing corpora first")
    args = ap.parse_args(argv)
    langs = args.lang or ["typescript", "go", "java", "rust", "c", "cpp"]
    given = dict(c.split("=", 1) for c in args.corpus)
    if args.fetch:
        fetch(args.cache, [lang for lang in langs if lang not in given])
    rows = []
    for lang in langs:
        src = Path(given[lang]) if lang in given else args.cache / lang
        if not src.exists():
            print(f"{lang}: no corpus at {src} (run with --fetch or --corpus {lang}=PATH)", file=sys.stderr)
            continue
        rows.append(bench_one(lang, src))
    head = f"{'language':<11}{'files':>7}{'MB':>7}{'s':>7}{'files/s':>9}{'MB/s':>7}{'symbols':>9}{'edges':>9}" \
           f"{'calls':>8}{'bound':>7}{'by rule':>8}{'syntax':>7}{'failed':>7}"
    print(head)
    for r in rows:
        print(f"{r['lang']:<11}{r['files']:>7}{r['mb']:>7.1f}{r['seconds']:>7.1f}{r['files_s']:>9.0f}{r['mb_s']:>7.2f}"
              f"{r['symbols']:>9}{r['edges']:>9}{r['calls']:>8}{r['resolved']:>7.0%}{r['rule']:>8.0%}"
              f"{r['syntax_error_files']:>7}{r['failed']:>7}")
    return 1 if any(r["failed"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
