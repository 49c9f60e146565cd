"""CPU per line of indexing each language, beside Java's, in one run (issue 35's cost bar).

    python benchmarks/perf/bench_lang_cpu.py                       # every language with a default corpus
    python benchmarks/perf/bench_lang_cpu.py csharp kotlin --rounds 5
    python benchmarks/perf/bench_lang_cpu.py swift=/work/scratch/x,/work/scratch/y
    python benchmarks/perf/bench_lang_cpu.py --tree /tmp/lore-base --tree . csharp kotlin   # before and after

Each language's corpus is made of real projects (the defaults below, already cloned under
``/work/scratch``; ``NAME=PATH[,PATH...]`` names others), copied into a temporary folder keeping only
the files of that language (by extension, as lore's registry decides; no ``.git``, no ``.lore``, so no
stale index turns a run into a refresh). Java (gson) is always measured: it is the anchor.

Each run is a fresh process that indexes one corpus from scratch (code only: no history, no
clusters, ``workers=1``, a new database outside the corpus) and reports its CPU seconds (user +
system, its own and its children's). Every lore tree runs with its bytecode cached (a private
``PYTHONPYCACHEPREFIX`` and one warm-up run), as an installed lore does, never with
``PYTHONDONTWRITEBYTECODE``. Rounds alternate over trees and languages, so load from other work on
the machine falls on all of them alike; medians are reported. The fixed cost (interpreter start-up,
imports, an index of one tiny file) is measured the same way and subtracted before dividing by the
corpus's lines; a grammar's loading stays in its language's cost.

The exit code is 1 when a language costs more per line than Java with the last ``--tree``, so the
script can serve as a check.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LORE_ROOT = HERE.parent.parent
SCRATCH = Path("/work/scratch")

# language -> the projects of its corpus (names under /work/scratch)
DEFAULT_CORPORA: dict[str, tuple[str, ...]] = {
    "java": ("gson",),
    "csharp": ("lang-dapper", "lang-mediatr", "lang-fluentvalidation"),
    "ruby": ("lang-rack", "lang-httparty"),
    "php": ("lang-monolog", "lang-psr7", "lang-phpdotenv"),
    "kotlin": ("lang-clikt", "lang-turbine", "lang-kresult"),
    "lua": ("lb-luarocks", "lb-busted"),
    "bash": ("lb-nvm", "lb-bats", "lb-bashcomp"),
    "swift": (),
    "scala": (),
}

CHILD = r"""
import pathlib, resource, sys, tempfile
from lore.index.pipeline import run_index

db = pathlib.Path(tempfile.mkdtemp()) / 'i.db'
run_index(pathlib.Path(sys.argv[1]), steps=(), db=db, rebuild=True, history='off', workers=1)
a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime)
"""


def language_names(lang: str) -> tuple[str, ...]:
    """The registry's names whose files make up the corpus of ``lang`` (TypeScript's includes tsx)."""
    return {"typescript": ("typescript", "tsx"), "cpp": ("cpp", "c")}.get(lang, (lang,))


def build_corpus(lang: str, projects: list[Path], where: Path) -> tuple[Path, int, int]:
    """Copy the files of ``lang`` from ``projects`` under ``where/lang``; (folder, files, lines)."""
    from lore.languages import language_for

    names = language_names(lang)
    target = where / lang
    files = lines = 0
    for project in projects:
        for dirpath, dirnames, filenames in os.walk(project):
            dirnames[:] = sorted(d for d in dirnames if d not in (".git", ".lore"))
            rel_dir = Path(dirpath).relative_to(project)
            for fn in sorted(filenames):
                src = Path(dirpath) / fn
                found = language_for(str(rel_dir / fn))
                if found is None or found.name not in names or src.is_symlink() or not src.is_file():
                    continue
                dst = target / project.name / rel_dir / fn
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
                files += 1
                lines += src.read_bytes().count(b"\n")
    if not files:
        raise SystemExit(f"{lang}: no {'/'.join(names)} files in {', '.join(map(str, projects))}")
    return target, files, lines


def cpu_seconds(tree: Path, corpus: Path, pyc: Path) -> float:
    """CPU seconds of one fresh process indexing ``corpus`` from scratch with the lore in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(pyc))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, "-c", CHILD, str(corpus)], env=env, capture_output=True, text=True,
                         cwd=pyc.parent, timeout=3600, check=False)
    if out.returncode:
        raise SystemExit(f"{tree} on {corpus}: {out.stderr.strip()[-600:]}")
    if (corpus / ".lore").exists():
        raise SystemExit(f"{corpus}: the run wrote .lore into the corpus; the next run would be a refresh")
    return float(out.stdout.strip().splitlines()[-1])


def parse_languages(specs: list[str]) -> dict[str, list[Path]]:
    """``NAME`` or ``NAME=PATH[,PATH...]`` -> projects; Java's default corpus is always added."""
    chosen: dict[str, list[Path]] = {}
    for spec in specs or [k for k, v in DEFAULT_CORPORA.items() if v and k != "java"]:
        name, _, paths = spec.partition("=")
        if paths:
            chosen[name] = [Path(p).resolve() for p in paths.split(",") if p]
        elif DEFAULT_CORPORA.get(name):
            chosen[name] = [SCRATCH / p for p in DEFAULT_CORPORA[name]]
        else:
            raise SystemExit(f"{name}: no default corpus; name its projects: {name}=PATH[,PATH...]")
    chosen.setdefault("java", [SCRATCH / p for p in DEFAULT_CORPORA["java"]])
    missing = [str(p) for ps in chosen.values() for p in ps if not p.is_dir()]
    if missing:
        raise SystemExit(f"missing project folders: {', '.join(missing)}")
    return {"java": chosen.pop("java"), **chosen}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("languages", nargs="*", help="NAME or NAME=PATH[,PATH...] (default: every default corpus)")
    ap.add_argument("--tree", type=Path, action="append", help="a lore source tree (repeatable; default: this one)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    chosen = parse_languages(args.languages)
    trees = [t.resolve() for t in (args.tree or [LORE_ROOT])]
    with tempfile.TemporaryDirectory(prefix="lore-langcpu-") as d:
        work = Path(d)
        corpora: dict[str, tuple[Path, int, int]] = {}
        for lang, projects in chosen.items():
            corpora[lang] = build_corpus(lang, projects, work / "corpora")
            print(f"{lang}: {corpora[lang][1]} files, {corpora[lang][2]:,} lines from "
                  f"{', '.join(p.name for p in projects)}", flush=True)
        empty = work / "corpora" / "_empty"
        empty.mkdir(parents=True)
        (empty / "a.py").write_text("x = 1\n")
        runs: dict[tuple[Path, str], list[float]] = {}
        for i, tree in enumerate(trees):
            pyc = work / f"pyc{i}"
            pyc.mkdir()
            cpu_seconds(tree, empty, pyc)  # warm-up: compiles the tree's bytecode once
        for r in range(args.rounds):
            for i, tree in enumerate(trees):
                for lang, (corpus, _, _) in [("_empty", (empty, 0, 0)), *corpora.items()]:
                    runs.setdefault((tree, lang), []).append(cpu_seconds(tree, corpus, work / f"pyc{i}"))
            print(f"round {r + 1}/{args.rounds} done, load average {os.getloadavg()[0]:.1f}", flush=True)
        over: list[str] = []
        for tree in trees:
            fixed = statistics.median(runs[(tree, "_empty")])
            per_line = {lang: (statistics.median(runs[(tree, lang)]) - fixed) / lines * 1e6
                        for lang, (_, _, lines) in corpora.items()}
            java = per_line["java"]
            print(f"\n{tree} (median of {args.rounds} rounds; fixed cost {fixed:.2f} s subtracted)")
            print("| language | files | lines | CPU s (median) | runs | µs / line | / Java |")
            print("|---|---|---|---|---|---|---|")
            for lang, (_, files, lines) in corpora.items():
                got = runs[(tree, lang)]
                print(f"| {lang} | {files} | {lines:,} | {statistics.median(got):.2f} | "
                      f"{' '.join(f'{x:.2f}' for x in got)} | {per_line[lang]:.1f} | {per_line[lang] / java:.2f}x |")
            over = [lang for lang in corpora if per_line[lang] > java]
        if over:
            print(f"\nover Java's cost per line (last tree): {', '.join(over)}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
