"""Call-graph accuracy against PyCG's micro-benchmark (external, hand-written ground truth).

PyCG (Salis et al., ICSE 2021) ships ~120 small Python programs, each with a ``callgraph.json``
written by its authors: ``{caller: [callees]}`` in PyCG's naming (``main.func``, ``main.Cls.method``,
``to_import.func``, ``<builtin>.len``; module-level code is the module node ``main``; calls into code
that is not in the tree keep their import path, ``ext.Cls.fun``). We index every case with lore,
translate lore's call edges into that naming and count edge-level precision and recall, per
category (micro-averaged over the category's edges) and per case (macro average).

The benchmark is not vendored: the pinned PyPI sdist of pycg is downloaded once into a cache
directory (``$LORE_BENCH_CACHE`` or ``~/.cache/lore-bench``) with ``pip download`` and checked
against a pinned sha256 before anything is extracted.

Translation rules (lore -> PyCG), chosen to follow PyCG's conventions, not to flatter lore:

* ``builtins.X`` -> ``<builtin>.X``;
* a call of a class defined in the tree -> ``Cls.__init__`` when the class (or a base in the tree)
  defines one, otherwise no edge (PyCG records no node for ``object.__init__``); a call of an
  external class keeps the class name (``ext.Cls``), as PyCG does;
* ``builtins.str.join`` -> ``<**PyStr**>.join`` (likewise dict, list, set, tuple), PyCG's names;
* a call of a class in the tree that has no ``__init__`` but an external base -> ``ext.Base.__init__``;
* ``@staticmethod`` is a marker for PyCG, not a call: that decorator edge is dropped;
* a call made in a class body counts for the enclosing module (PyCG has no class-body nodes);
* when the case directory is itself a package (it holds ``__init__.py``), lore prefixes module names
  with the directory name; that prefix is removed (PyCG runs ``main.py`` as a script).

* a lambda is named as PyCG names it: ``<lambdaN>`` numbered from 1 per enclosing scope in source order.

Two scores are reported: **all edges**, and **resolved only** (bound by a rule), which drops the edges
lore bound with name heuristics (resolution ``same_file_name``, ``unique_name``, ``ambiguous_name``): the
first is what the related-symbol ranking sees (weighted by confidence), the second is what lore claims to
know. Expected edges that no static resolver can produce are listed in :data:`UNREACHABLE`, each with its
reason; they stay in every score, and ``reachable`` repeats the overall score without them.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import EmptyGroundTruthError
from ..store.schema import NAME_GUESSES
from ._data import symbol_table
from ._sdist import BenchmarkDataError, Sdist, cache_dir, fetch_sdist, sha256_of  # noqa: F401 (re-exported)
from .metrics import f1, ratio

PYCG_VERSION = "0.0.8"
PYCG_SDIST = f"pycg-{PYCG_VERSION}.tar.gz"
PYCG_SHA256 = "644b4df4346b393ca29450223da12598a6e6ad51fcfb1c218330b774f643a6c1"
HEURISTIC_RESOLUTIONS = NAME_GUESSES
MODES = ("all", "resolved")
# PyCG names methods of builtin types by an internal class name
BUILTIN_TYPES = {"str": "<**PyStr**>", "dict": "<**PyDict**>", "list": "<**PyList**>", "set": "<**PySet**>",
                 "tuple": "<**PyTuple**>"}
# decorators PyCG treats as markers, not calls (pycg/machinery: STATIC_METHOD)
MARKER_DECORATORS = frozenset({"builtins.staticmethod"})
# Expected edges no static resolver can produce, decided by reading every case (not by what lore misses):
# only the ``dynamic`` category has one. Every other case names its callees in code a static resolver
# sees (values through parameters, containers, returns, decorators, literal keys and indexes imported
# from another module included).
UNREACHABLE: dict[str, dict[str, str]] = {
    "dynamic/eval": {
        "main -> main.func": "the call exists only inside the string given to eval(): seeing it means "
                             "evaluating a string as code",
        "main.func -> <builtin>.eval": "an error in PyCG's ground truth: func's body is `pass`; the module calls "
                                       "eval (so lore's main -> <builtin>.eval counts as a false positive)",
    },
}


PYCG = Sdist("pycg", PYCG_VERSION, PYCG_SDIST, PYCG_SHA256)


def fetch_pycg(cache: Path | None = None) -> Path:
    """The ``snippets`` directory of PyCG's micro-benchmark, downloaded and verified on first use."""
    return fetch_sdist(PYCG, cache, prefix="micro-benchmark/") / "micro-benchmark" / "snippets"


@dataclass
class Case:
    category: str
    name: str
    path: Path

    @property
    def key(self) -> str:
        return f"{self.category}/{self.name}"


def discover_cases(snippets: Path, categories: list[str] | None = None) -> list[Case]:
    """Every ``<category>/<case>`` directory holding a ``callgraph.json``, sorted."""
    out = []
    for cg in sorted(Path(snippets).glob("*/*/callgraph.json")):
        cat = cg.parent.parent.name
        if categories and cat not in categories:
            continue
        out.append(Case(cat, cg.parent.name, cg.parent))
    return out


def expected_edges(case_dir: Path) -> set[tuple[str, str]]:
    """PyCG's ground-truth edges of one case as (caller, callee) pairs."""
    data = json.loads((Path(case_dir) / "callgraph.json").read_text())
    return {(caller, callee) for caller, callees in data.items() for callee in callees}


def _strip(name: str, prefix: str) -> str:
    if prefix and (name == prefix[:-1]):
        return name
    return name[len(prefix):] if prefix and name.startswith(prefix) else name


def lore_edges(case_dir: Path, db: Path) -> dict[str, set[tuple[str, str]]]:
    """lore's call edges of one case in PyCG naming: ``{"all": {...}, "resolved": {...}}``.

    The case directory is indexed into ``db`` (nothing is written inside the case directory).
    """
    from ..api import open_index
    from ..index import index_repo

    index_repo(case_dir, db=db, workers=1, rebuild=True)
    prefix = f"{Path(case_dir).name}." if (Path(case_dir) / "__init__.py").exists() else ""
    with open_index(db, readonly=True) as idx:
        table = symbol_table(idx)
        sym = {sid: (r[0], r[2], r[3], r[11], r[1]) for sid, r in table.items()}  # id, qname, kind, parent, name
        line_of = {sid: r[5] for sid, r in table.items()}
        children: dict[int, dict[str, int]] = {}
        children_all: dict[int, list[int]] = {}
        for r in sym.values():
            if r[3] is not None:
                children.setdefault(r[3], {})[r[4]] = r[0]
                children_all.setdefault(r[3], []).append(r[0])
        bases: dict[int, list[int]] = {}
        for e in idx.edges("symbol_relationships"):
            if e["kind"] == "extends" and e["target_id"] is not None:
                bases.setdefault(e["source_id"], []).append(e["target_id"])
        refs = idx.edges("symbol_refs")

    def init_of(cls: int, seen: set[int]) -> int | None:
        if cls in seen:
            return None
        seen.add(cls)
        got = children.get(cls, {}).get("__init__")
        if got is not None:
            return got
        for b in bases.get(cls, []):
            if sym.get(b) and sym[b][2] == "class":
                got = init_of(b, seen)
                if got is not None:
                    return got
        return None

    lambda_rank: dict[int, int] = {}  # PyCG numbers lambdas per enclosing scope: <lambda1>, <lambda2>, ...
    for kids in children_all.values():
        lams = sorted((line_of.get(k) or 0, k) for k in kids if sym[k][4].startswith("<lambda"))
        for k, (_line, lid) in enumerate(lams, start=1):
            lambda_rank[lid] = k

    def pycg_qname(sid: int) -> str:
        r = sym[sid]
        if sid in lambda_rank or (r[3] is not None and in_lambda(r[3])):
            own = f"<lambda{lambda_rank[sid]}>" if sid in lambda_rank else r[4]
            return f"{pycg_qname(r[3])}.{own}" if r[3] is not None else own
        return _strip(r[1], prefix)

    def in_lambda(sid: int | None) -> bool:
        while sid is not None:
            if sid in lambda_rank:
                return True
            sid = sym[sid][3] if sid in sym else None
        return False

    def caller_name(sid: int) -> str:
        r = sym[sid]
        while r[2] == "class" and r[3] is not None:  # class-body code runs in the module
            r = sym[r[3]]
        return pycg_qname(r[0])

    def external_base(cls: int, seen: set[int]) -> str | None:
        if cls in seen:
            return None
        seen.add(cls)
        for b in bases.get(cls, []):
            r = sym.get(b)
            if r is None:
                continue
            if r[2] == "external" and not r[1].startswith("builtins."):
                return r[1]
            if r[2] == "class":
                got = external_base(b, seen)
                if got:
                    return got
        return None

    def callee_name(sid: int) -> str | None:
        r = sym[sid]
        if r[2] == "class":
            init = init_of(sid, set())
            if init is None:
                ext = external_base(sid, set())  # PyCG: the constructor inherited from outside the tree
                return f"{ext}.__init__" if ext else None
            r = sym[init]
        qn = r[1]
        if r[2] == "external":
            if qn.startswith("builtins."):
                head, _, rest = qn[len("builtins."):].partition(".")
                if rest and head in BUILTIN_TYPES:
                    return f"{BUILTIN_TYPES[head]}.{rest}"
                return "<builtin>." + qn[len("builtins."):]
            return qn
        return pycg_qname(r[0])

    out: dict[str, set[tuple[str, str]]] = {"all": set(), "resolved": set()}
    for e in refs:
        if e["callee_id"] is None or e["callee_id"] not in sym or e["caller_id"] not in sym:
            continue
        if e["kind"] == "decorator" and sym[e["callee_id"]][1] in MARKER_DECORATORS:
            continue
        callee = callee_name(e["callee_id"])
        if callee is None:
            continue
        edge = (caller_name(e["caller_id"]), callee)
        out["all"].add(edge)
        if e["resolution"] not in HEURISTIC_RESOLUTIONS:
            out["resolved"].add(edge)
    return out


@dataclass
class Counts:
    tp: int = 0
    found: int = 0
    expected: int = 0

    def add(self, tp: int, found: int, expected: int) -> None:
        self.tp += tp
        self.found += found
        self.expected += expected

    def as_dict(self) -> dict:
        p, r = ratio(self.tp, self.found), ratio(self.tp, self.expected)
        return {"tp": self.tp, "found": self.found, "expected": self.expected, "precision": p, "recall": r,
                "f1": f1(p, r)}


@dataclass
class CaseResult:
    key: str
    category: str
    expected: list[tuple[str, str]]
    found: dict[str, list[tuple[str, str]]]
    error: str | None = None
    counts: dict[str, dict] = field(default_factory=dict)


def score_case(case: Case, expected: set[tuple[str, str]], found: dict[str, set[tuple[str, str]]]) -> CaseResult:
    res = CaseResult(case.key, case.category, sorted(expected), {m: sorted(found[m]) for m in MODES})
    for m in MODES:
        c = Counts()
        c.add(len(found[m] & expected), len(found[m]), len(expected))
        res.counts[m] = c.as_dict()
    return res


def run_callgraph(snippets: Path | None = None, *, categories: list[str] | None = None,
                  cache: Path | None = None) -> dict:
    """Score lore's call graph on every PyCG micro-benchmark case.

    Returns a JSON-ready dict: ``overall`` and ``by_category`` (micro-averaged precision / recall /
    F1 per mode), ``macro`` (mean of per-case precision and recall, cases where it is defined),
    ``cases`` (per case: expected edges, lore's edges, missing and extra edges) and ``seconds``.
    """
    import time

    t0 = time.perf_counter()
    snippets = Path(snippets) if snippets else fetch_pycg(cache)
    cases = discover_cases(snippets, categories)
    if not cases:
        raise EmptyGroundTruthError(f"no PyCG cases (callgraph.json) under {snippets}")
    work = Path(tempfile.mkdtemp(prefix="lore-pycg-"))
    results: list[CaseResult] = []
    try:
        for i, case in enumerate(cases):
            exp = expected_edges(case.path)
            try:
                found = lore_edges(case.path, work / f"{i}.db")
            except Exception as exc:  # one broken case must not hide the others; it scores as nothing found
                found = {m: set() for m in MODES}
                r = score_case(case, exp, found)
                r.error = f"{type(exc).__name__}: {exc}"
                results.append(r)
                continue
            results.append(score_case(case, exp, found))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summarize(results, time.perf_counter() - t0)


def summarize(results: list[CaseResult], seconds: float = 0.0) -> dict:
    overall = {m: Counts() for m in MODES}
    reachable = {m: Counts() for m in MODES}
    unreachable = []
    by_cat: dict[str, dict[str, Counts]] = {}
    n_cases: dict[str, int] = {}
    macro: dict[str, dict[str, list[float]]] = {m: {"precision": [], "recall": []} for m in MODES}
    cases_out = []
    for r in results:
        n_cases[r.category] = n_cases.get(r.category, 0) + 1
        cat = by_cat.setdefault(r.category, {m: Counts() for m in MODES})
        for m in MODES:
            c = r.counts[m]
            overall[m].add(c["tp"], c["found"], c["expected"])
            cat[m].add(c["tp"], c["found"], c["expected"])
            for q in ("precision", "recall"):
                if c[q] is not None:
                    macro[m][q].append(c[q])
        exp = set(map(tuple, r.expected))
        got = set(map(tuple, r.found["all"]))
        gone = {tuple(e.split(" -> ")) for e in UNREACHABLE.get(r.key, {})} & exp
        for m in MODES:
            found_m = set(map(tuple, r.found[m]))
            reachable[m].add(len(found_m & (exp - gone)), len(found_m), len(exp - gone))
        for edge, reason in sorted(UNREACHABLE.get(r.key, {}).items()):
            if tuple(edge.split(" -> ")) in exp:
                unreachable.append({"case": r.key, "edge": edge, "reason": reason,
                                    "found": tuple(edge.split(" -> ")) in got})
        cases_out.append({
            "case": r.key, "error": r.error,
            "counts": r.counts,
            "missing": sorted(f"{a} -> {b}" for a, b in exp - got),
            "extra": sorted(f"{a} -> {b}" for a, b in got - exp),
            "heuristic_only": sorted(f"{a} -> {b}" for a, b in got - set(map(tuple, r.found["resolved"]))),
        })
    return {
        "benchmark": f"PyCG micro-benchmark (pycg=={PYCG_VERSION} sdist, sha256 {PYCG_SHA256[:12]}...)",
        "cases": len(results),
        "overall": {m: overall[m].as_dict() for m in MODES},
        "macro": {m: {q: (sum(v) / len(v) if v else None) for q, v in macro[m].items()} for m in MODES},
        "reachable": {m: reachable[m].as_dict() for m in MODES},
        "unreachable": unreachable,
        "by_category": {
            cat: {"cases": n_cases[cat], **{m: by_cat[cat][m].as_dict() for m in MODES}} for cat in sorted(by_cat)
        },
        "case_details": cases_out,
        "seconds": round(seconds, 2),
    }


def flat_metrics(report: dict) -> dict[str, float]:
    """``{"overall.all.recall": 0.6, "category.classes.all.precision": 0.95, ...}`` for the thresholds gate."""
    out: dict[str, float] = {}
    for mode in MODES:
        for q in ("precision", "recall"):
            for section in ("overall", "macro", "reachable"):
                v = report[section][mode][q]
                if v is not None:
                    out[f"{section}.{mode}.{q}"] = round(v, 4)
    for cat, v in report["by_category"].items():
        for q in ("precision", "recall"):
            for mode in MODES:
                if v[mode][q] is not None:
                    out[f"category.{cat}.{mode}.{q}"] = round(v[mode][q], 4)
    return out


def unreachable_lines(report: dict) -> list[str]:
    """The overall score without the unreachable edges, and those edges with their reasons (plain text)."""
    r = report.get("reachable")
    if not r:
        return []

    def fmt(v: float | None) -> str:
        return "-" if v is None else f"{v:.3f}"

    lines = [f"reachable edges only ({r['all']['expected']} of {report['overall']['all']['expected']}): "
             f"P all {fmt(r['all']['precision'])} R all {fmt(r['all']['recall'])}, "
             f"P rule {fmt(r['resolved']['precision'])} R rule {fmt(r['resolved']['recall'])}"]
    for u in report.get("unreachable", []):
        lines.append(f"unreachable statically: {u['case']}: {u['edge']}: {u['reason']}")
    return lines
