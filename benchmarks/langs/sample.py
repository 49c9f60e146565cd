"""The languages benchmark: lore's call edges against hand-checked samples of call sites, per language.

    python benchmarks/langs/sample.py csharp MediatR=PATH FluentValidation=PATH
    python benchmarks/langs/sample.py csharp --draw MediatR=PATH FluentValidation=PATH   # once, then judge by hand

Each language added without an oracle that installs here keeps its truth in ``<lang>_sample.jsonl``
(one call site per line, as :mod:`rust_sample` does for Rust): drawn once with :func:`harness.sample_sites`
(seed 0, 100 sites per project, test files left out) from lore's index as it was BEFORE any rule was
tuned, then each site's target read by hand in the code and written as ``truth`` (a list of
``path:line`` of the definition it calls, or ``"outside the project"`` for a library or framework
call; ``path:line#name`` when several definitions start on that line) with a ``reason``. A site that cannot be told is ``"unsure"``: counted, not scored.

Every run re-indexes the projects and scores a fresh index against the recorded truth:

* **precision**: of the judged sites lore binds inside the project, the share bound exactly to the truth
  (a bind where the truth is outside the project is wrong);
* **recall**: of the judged sites whose truth is inside the project, the share where one of lore's
  bindings is the truth;
* **unresolved**: the share of judged sites lore leaves unbound; the misses and wrong binds are printed
  by lore's resolution with their recorded reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402

from harness import Site, index_project, innermost, sample_sites, work_folder  # noqa: E402

from lore.store import callsites  # noqa: E402

HERE = Path(__file__).resolve().parent
OUTSIDE = "outside the project"
UNSURE = "unsure"


def _places(db: Path, ids: tuple[int, ...]) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        out = []
        for i in ids:
            row = conn.execute("SELECT f.path, s.start_line FROM symbols s JOIN files f ON f.id = s.file_id "
                               "WHERE s.id = ?", (i,)).fetchone()
            if row:
                out.append(f"{row[0]}:{row[1]}")
        return out
    finally:
        conn.close()


def draw(language: str, projects: dict[str, Path], *, n: int, seed: int, work: Path,
         exclude: set[tuple] = frozenset()) -> list[dict]:
    """Sample ``n`` sites per project (non-test files) from a fresh lore index, truth left to be judged;
    sites of ``exclude`` ((project, path, line, callee)) are never drawn again (a held-out sample)."""
    rows = []
    for name, root in projects.items():
        root = root.resolve()
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
        db = index_project(root, work / f"{name}.db", rebuild=True)
        if exclude:
            pool = [s for s in sample_sites(db, (language,), n=1 << 30, seed=seed)
                    if (name, s.path, s.line, s.callee.rsplit(".", 1)[-1]) not in exclude]
            chosen = sorted(random.Random(seed).sample(pool, min(n, len(pool))), key=lambda s: (s.path, s.line, s.col))
        else:
            chosen = sample_sites(db, (language,), n=n, seed=seed)
        for site in chosen:
            rows.append({"project": name, "commit": commit, "path": site.path, "line": site.line, "col": site.col,
                         "callee": site.callee, "lore": list(site.target_names), "lore_at": _places(db, site.targets),
                         "resolution": site.resolution, "truth": None, "reason": ""})
    return rows


def verdict(lore: set[int], truth: set[int] | None) -> str:
    """correct / wrong / missed / extra-candidates; ``truth`` None means the callee is outside the project."""
    if truth is None:
        return "wrong" if lore else "correct"
    if not lore:
        return "missed"
    if lore == truth:
        return "correct"
    return "extra-candidates" if lore & truth else "wrong"


def _moved(candidates: list[Site], row: dict, by_column: bool = True) -> Site | None:
    """The site a recorded one is now when a rule change respelled it: the call of the same last name on its
    line starting nearest at or before the recorded column, else the one call starting there."""
    word = row["callee"].rsplit(".", 1)[-1]
    named = [s for s in candidates if s.callee.rsplit(".", 1)[-1] == word and s.col <= row["col"]]
    if named:
        return max(named, key=lambda s: s.col)
    there = [s for s in candidates if s.col == row["col"]] if by_column else []
    return there[0] if len(there) == 1 else None


def score(language: str, rows: list[dict], projects: dict[str, Path], work: Path):
    """Re-index each project, find each recorded site in it, and count against the recorded truth."""
    counts: Counter = Counter()
    seconds: dict[str, float] = {}
    results = []
    by_project: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_project[row["project"]].append(row)
    for name, prows in sorted(by_project.items()):
        if name not in projects:
            raise SystemExit(f"no checkout given for {name}: pass {name}=PATH")
        root = projects[name].resolve()
        t0 = time.perf_counter()
        db = index_project(root, work / f"{name}.db", rebuild=True)
        seconds[name] = round(time.perf_counter() - t0, 2)
        every = sample_sites(db, (language,), n=1 << 30, seed=0)
        exact = {(s.path, s.line, s.col, s.callee): s for s in every}
        by_line: dict[tuple[str, int], list[Site]] = defaultdict(list)
        for s in every:
            by_line[(s.path, s.line)].append(s)
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        spans: dict[str, list[callsites.Span]] = {}
        # a place two recorded sites share (``self.class.get``: the inner and the outer call) is never matched
        # by its column alone
        shared = Counter((r["path"], r["line"], r["col"]) for r in prows)
        try:
            for row in prows:
                if row["truth"] in (UNSURE, None):
                    counts["unsure"] += 1
                    continue
                site = exact.get((row["path"], row["line"], row["col"], row["callee"])) or _moved(
                    by_line[(row["path"], row["line"])], row, by_column=shared[(row["path"], row["line"], row["col"])] == 1)
                lore = set(site.targets) if site is not None else set()
                truth: set[int] | None = None
                if row["truth"] != OUTSIDE:
                    truth = set()
                    for place in row["truth"]:
                        place, _, wanted = place.partition("#")  # path:line#name: the definition of that name there
                        path, line = place.rsplit(":", 1)
                        if path not in spans:
                            spans[path] = callsites.definition_spans(conn, path)
                        named = [x for x in spans[path] if wanted and x.start_line == int(line)
                                 and x.qualified_name.rsplit(".", 1)[-1] == wanted]
                        sp = named[0] if named else innermost(spans[path], int(line))
                        if sp is not None:
                            truth.add(sp.id)
                v = verdict(lore, truth)
                for key in ("", f"{name}:"):
                    counts[key + "judged"] += 1
                    counts[key + "bound"] += bool(lore)
                    counts[key + "bound_correct"] += bool(lore) and v == "correct"
                    counts[key + "inside"] += truth is not None
                    counts[key + "inside_hit"] += truth is not None and bool(lore & truth)
                    counts[key + "unresolved"] += not lore
                results.append({**row, "now": list(site.target_names) if site else [],
                                "now_resolution": site.resolution if site else "no site", "now_verdict": v})
        finally:
            conn.close()

    def r(a: str, b: str) -> float | None:
        return round(counts[a] / counts[b], 3) if counts[b] else None

    def figures_of(k: str) -> dict:
        return {"judged": counts[k + "judged"], "precision": r(k + "bound_correct", k + "bound"),
                "recall": r(k + "inside_hit", k + "inside"), "unresolved": r(k + "unresolved", k + "judged"),
                "bound": counts[k + "bound"], "truth_inside": counts[k + "inside"]}

    figures = {"language": language, **figures_of(""), "unsure": counts["unsure"],
               "projects": {p: figures_of(f"{p}:") for p in sorted(by_project)}}
    return figures, results, seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", help="the language's name in lore (csharp ...)")
    parser.add_argument("projects", nargs="+", help="NAME=PATH: a checkout of each report project")
    parser.add_argument("--sample", type=Path, default=None, help="default: benchmarks/langs/<language>_sample.jsonl")
    parser.add_argument("--work", type=Path, default=None, help="where the indexes go (default: a temp folder)")
    parser.add_argument("--draw", action="store_true", help="draw a new sample (overwrites; the truth is judged by hand)")
    parser.add_argument("--sites", type=int, default=100, help="sites per project when drawing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exclude", type=Path, action="append", default=[],
                        help="with --draw: a sample whose sites are never drawn again (for a held-out sample)")
    parser.add_argument("--examples", type=int, default=4, help="examples printed per cause")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    projects = {}
    for item in args.projects:
        name, sep, path = item.partition("=")
        if not sep:
            raise SystemExit(f"expected NAME=PATH, got {item!r}")
        projects[name] = Path(path)
    sample = args.sample or HERE / f"{args.language}_sample.jsonl"
    work = work_folder(args.work, f"lore-{args.language}-")
    if args.draw:
        seen = {(r["project"], r["path"], r["line"], r["callee"].rsplit(".", 1)[-1])
                for f in args.exclude for r in map(json.loads, f.read_text(encoding="utf-8").splitlines()) if r}
        rows = draw(args.language, projects, n=args.sites, seed=args.seed, work=work, exclude=seen)
        sample.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} sites -> {sample}")
        return
    rows = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines() if line.strip()]
    figures, results, seconds = score(args.language, rows, projects, work)
    print(json.dumps({**figures, "index_seconds": seconds}))
    if not args.json:
        print_causes(results, args.examples)


def print_causes(results: list[dict], examples: int) -> None:
    """The disagreements of a scored sample by verdict and lore's resolution, ``examples`` of each with
    its recorded reason."""
    causes: Counter = Counter()
    shown: dict[str, list[str]] = defaultdict(list)
    for res in results:
        if res["now_verdict"] == "correct":
            continue
        key = f"{res['now_verdict']} ({res['now_resolution']})"
        causes[key] += 1
        shown[key].append(f"{res['path']}:{res['line']} {res['callee']} -> lore {res['now'][:3]}; "
                          f"truth {res['truth'] if res['truth'] == OUTSIDE else res['truth'][:2]}: {res['reason']}")
    for key, count in causes.most_common():
        print(f"  {count:4d}  {key}")
        for ex in shown[key][:examples]:
            print(f"          {ex}")


if __name__ == "__main__":
    main()
