"""Edge precision / recall per language on the fixture projects (``tests/fixtures/<lang>/``).

Each fixture is a small multi-file project in one language with an ``expected.json`` written by hand:
the symbols (``qualified.name (kind)``) and the edges a careful reader expects, in one notation:

* ``calls``: ``caller -> callee`` between symbols of the project, bound by a rule (not a name heuristic);
* ``types``: ``owner -> type (kind)`` type references (param, return, field, annotation, generic,
  instantiation) bound by a rule;
* ``imports``: ``path/of/file -> imported.symbol`` resolved inside the project;
* ``relations``: ``source -extends-> target`` (also ``implements``, ``embeds``), external targets included;
* ``ambiguous``: the calls left to the ``ambiguous_name`` heuristic (each of k candidates at 1/k);
* ``known_missing``: edges a reader expects that lore does not find yet (they count against recall).

:func:`fixture_edges` reads the same notation out of an index; :func:`run_languages` indexes every
fixture and scores each table: precision is the share of lore's edges that are expected, recall the
share of expected edges (``known_missing`` included) that lore finds. ``tests/index/test_langs_resolution.py``
asserts the tables equal; this module measures them for ``lore bench callgraph``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from ..errors import EmptyGroundTruthError
from ..store.schema import NAME_GUESSES
from ._data import symbol_table
from .metrics import f1, ratio

HEURISTIC = NAME_GUESSES
TABLES = ("symbols", "calls", "types", "imports", "relations", "ambiguous")
SCORED = ("calls", "types", "imports", "relations")  # the edges; symbols and ambiguous are checked by the tests
RELATION_KINDS = frozenset({"extends", "implements", "embeds"})
LANGUAGE_ORDER = ("javascript", "typescript", "go", "java", "rust", "c", "cpp")


def default_fixtures() -> Path | None:
    """``tests/fixtures`` of the source checkout lore runs from, if there is one."""
    here = Path(__file__).resolve().parents[2] / "tests" / "fixtures"
    return here if here.is_dir() else None


def fixture_edges(db: str | Path) -> dict[str, set[str]]:
    """The symbols and edges of an index in the notation of ``expected.json`` (see the module docstring)."""
    from ..api import open_index
    from ..store import read

    with open_index(db, readonly=True) as idx:
        table = symbol_table(idx)
        paths = {fid: path for fid, path, _lang, _mod, _msid in read.file_rows(idx.conn)}
        refs = idx.edges("symbol_refs")
        types = idx.edges("type_refs")
        imports = idx.edges("file_imports")
        rels = idx.edges("symbol_relationships")

    def qname(sid: int | None) -> str | None:
        r = table.get(sid) if sid is not None else None
        return r[2] if r is not None else None

    def in_repo(sid: int | None) -> bool:
        r = table.get(sid) if sid is not None else None
        return r is not None and r[10] is not None

    out: dict[str, set[str]] = {t: set() for t in TABLES}
    out["symbols"] = {f"{r[2]} ({r[3]})" for r in table.values() if r[10] is not None}
    for e in refs:
        if not in_repo(e["callee_id"]) or e["caller_id"] not in table:
            continue
        edge = f"{qname(e['caller_id'])} -> {qname(e['callee_id'])}"
        if e["resolution"] not in HEURISTIC:
            out["calls"].add(edge)
        elif e["resolution"] == "ambiguous_name":
            out["ambiguous"].add(edge)
    for e in types:
        if in_repo(e["type_id"]) and e["symbol_id"] in table and e["resolution"] not in HEURISTIC:
            out["types"].add(f"{qname(e['symbol_id'])} -> {qname(e['type_id'])} ({e['kind']})")
    for e in imports:
        if in_repo(e["target_id"]) and e["file_id"] in paths:
            out["imports"].add(f"{paths[e['file_id']]} -> {qname(e['target_id'])}")
    for e in rels:
        if e["kind"] in RELATION_KINDS and e["target_id"] in table and e["source_id"] in table:
            out["relations"].add(f"{qname(e['source_id'])} -{e['kind']}-> {qname(e['target_id'])}")
    return out


def load_expected(fixture: Path) -> dict:
    return json.loads((Path(fixture) / "expected.json").read_text(encoding="utf-8"))


def index_fixture(fixture: Path, work: Path) -> dict[str, set[str]]:
    """Copy ``fixture`` into ``work`` (without its ``expected.json``), index it, read its edges."""
    from ..index import index_repo

    root = Path(work) / Path(fixture).name
    shutil.copytree(fixture, root, ignore=shutil.ignore_patterns("expected.json", ".lore"))
    index_repo(root, workers=1)
    return fixture_edges(root / ".lore" / "index.db")


def score(expected: dict, actual: dict[str, set[str]]) -> dict:
    """Per table: tp, found, expected, precision, recall, f1, and the missing / extra edges."""
    out = {}
    for t in (*SCORED, "symbols"):
        want = set(expected.get(t, ())) | set(expected.get("known_missing", {}).get(t, ()))
        got = actual[t]
        tp = len(want & got)
        p, r = ratio(tp, len(got)), ratio(tp, len(want))
        out[t] = {"tp": tp, "found": len(got), "expected": len(want), "precision": p, "recall": r, "f1": f1(p, r),
                  "missing": sorted(want - got), "extra": sorted(got - want)}
    return out


def run_languages(fixtures: str | Path | None = None, *, languages: list[str] | None = None) -> dict:
    """Score every fixture project under ``fixtures`` (default: the checkout's ``tests/fixtures``).

    Returns ``{"fixtures": path, "languages": {lang: {table: counts}}, "overall": {table: counts}}``
    where ``overall`` sums the counts of every language (micro average) and ``edges`` sums the scored
    tables (calls, types, imports, relations).
    """
    import time

    t0 = time.perf_counter()
    root = Path(fixtures) if fixtures is not None else default_fixtures()
    found = sorted(p.parent.name for p in root.glob("*/expected.json")) if root is not None else []
    order = [lang for lang in LANGUAGE_ORDER if lang in found] + [lang for lang in found if lang not in LANGUAGE_ORDER]
    if languages:
        order = [lang for lang in order if lang in languages]
    if not order:
        raise EmptyGroundTruthError(f"no fixture projects (<lang>/expected.json) under {root}")
    work = Path(tempfile.mkdtemp(prefix="lore-langs-"))
    per: dict[str, dict] = {}
    try:
        for lang in order:
            scored = score(load_expected(root / lang), index_fixture(root / lang, work))
            scored["edges"] = _sum([scored[t] for t in SCORED])
            per[lang] = scored
    finally:
        shutil.rmtree(work, ignore_errors=True)
    overall = {t: _sum([per[lang][t] for lang in order]) for t in (*SCORED, "edges")}
    return {"fixtures": str(root), "languages": per, "overall": overall, "seconds": round(time.perf_counter() - t0, 2)}


def _sum(rows: list[dict]) -> dict:
    tp, found, expected = (sum(r[k] for r in rows) for k in ("tp", "found", "expected"))
    p, r = ratio(tp, found), ratio(tp, expected)
    return {"tp": tp, "found": found, "expected": expected, "precision": p, "recall": r, "f1": f1(p, r)}


def flat_metrics(report: dict) -> dict[str, float]:
    """``{"lang.go.calls.recall": 1.0, "lang.overall.edges.precision": 0.98, ...}`` for the thresholds gate."""
    out: dict[str, float] = {}
    for lang, tables in [*report["languages"].items(), ("overall", report["overall"])]:
        for t in (*SCORED, "edges"):
            for q in ("precision", "recall"):
                v = tables[t][q]
                if v is not None:
                    out[f"lang.{lang}.{t}.{q}"] = round(v, 4)
    return out
