"""How much of a call graph lore knows by a rule: call sites grouped by the strength of their binding.

A call site is one call expression (caller, line, column, callee text). Its rows in ``symbol_refs``
(one, or k for an ``ambiguous_name`` guess) are folded into one **strength**, the strongest of its rows:

* ``rule`` -- bound to a symbol of the project by a resolution rule (scope, import, self/cls, types,
  value flow: any resolution not listed below, so rules added later count without a change here);
* ``heuristic`` -- bound by a name heuristic (``same_file_name``, ``unique_name``);
* ``ambiguous`` -- one of k candidates by name (``ambiguous_name``);
* ``external`` -- bound to an ``external`` symbol (third-party or stdlib, named by import path);
* ``builtin`` -- a language builtin (``builtins.len``);
* ``unresolved`` -- nothing bound (the raw name is kept).

An edge whose target is an ``external`` symbol counts as ``external`` (or ``builtin``) whatever rule
produced it: the share of *rule* sites is the share of calls lore binds to the project's own code and can
defend.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ._sdist import Sdist

DJANGO = Sdist("django", "5.1.4", "Django-5.1.4.tar.gz", "de450c09e91879fa5a307f696e57c851955c910a438a35e6b4c895e86bedc82a")
HEURISTIC = frozenset({"same_file_name", "unique_name"})
AMBIGUOUS = frozenset({"ambiguous_name"})
NAME_GUESSES = HEURISTIC | AMBIGUOUS  # what callgraph.HEURISTIC_RESOLUTIONS leaves out of "resolved"
STRENGTHS = ("rule", "heuristic", "ambiguous", "external", "builtin", "unresolved")
CALL_KINDS = frozenset({"call", "new"})  # decorators, raise and implicit protocol calls are not call sites
_LAST_NAME = re.compile(r"(\w+)\W*$")


class Sym(NamedTuple):
    """A symbol row read by name (the store's column order; plain tuples from older stores fit too)."""

    id: int
    name: str
    qualified_name: str
    kind: str
    path: str
    line: int | None
    end_line: int | None
    signature: str | None
    docstring: str | None
    is_test: int
    file_id: int | None
    parent_id: int | None


@dataclass
class LoreSite:
    """One call site as lore recorded it: every row of ``symbol_refs`` at that place, folded."""

    path: str
    line: int
    col: int
    callee_name: str
    caller_id: int
    kind: str
    targets: list[tuple[int | None, str]]  # (callee_id, resolution) per row, sorted
    strength: str = "unresolved"
    resolution: str = "unresolved"  # the strongest row's resolution

    @property
    def last_name(self) -> str:
        """The called name: ``get`` for ``self.client.get``, ``m`` for ``super().m``."""
        return last_name(self.callee_name)


def last_name(callee: str) -> str:
    """The last identifier of a raw callee text (``''`` when there is none)."""
    m = _LAST_NAME.search(callee)
    return m.group(1) if m else ""


def strength_of(resolution: str, callee_kind: str | None) -> str:
    """The strength of one ``symbol_refs`` row (see the module docstring).

    >>> strength_of("import", "function"), strength_of("import", "external"), strength_of("ambiguous_name", "method")
    ('rule', 'external', 'ambiguous')
    """
    if resolution == "unresolved" or callee_kind is None:
        return "unresolved"
    if resolution == "builtin":
        return "builtin"
    if resolution == "external" or callee_kind == "external":
        return "external"
    if resolution in AMBIGUOUS:
        return "ambiguous"
    if resolution in HEURISTIC:
        return "heuristic"
    return "rule"


def symbol_rows(idx) -> dict[int, Sym]:
    """Every symbol of an open index (externals included), by id, as :class:`Sym`."""
    from ._data import symbol_table

    return {sid: Sym._make(row) for sid, row in symbol_table(idx).items()}


def lore_sites(idx, symbols: dict[int, Sym] | None = None, *, kinds: frozenset[str] = CALL_KINDS) -> list[LoreSite]:
    """The call sites of an open index, each with its rows folded into one strength.

    Rows are grouped by (caller, line, column, callee text, kind); sites come sorted by path, line, column.
    """
    symbols = symbols if symbols is not None else symbol_rows(idx)
    groups: dict[tuple, LoreSite] = {}
    for e in idx.edges("symbol_refs"):
        if e["kind"] not in kinds:
            continue
        caller = symbols.get(e["caller_id"])
        key = (e["caller_id"], e["line"], e.get("col", 0), e["callee_name"], e["kind"])
        site = groups.get(key)
        if site is None:
            site = groups[key] = LoreSite(caller.path if caller else "", e["line"], e.get("col", 0),
                                          e["callee_name"], e["caller_id"], e["kind"], [])
        site.targets.append((e["callee_id"], e["resolution"]))
    order = {s: i for i, s in enumerate(STRENGTHS)}
    for site in groups.values():
        site.targets.sort(key=lambda t: (t[0] is None, t[0] or 0, t[1]))
        best = None
        for cid, res in site.targets:
            callee = symbols.get(cid) if cid is not None else None
            st = strength_of(res, callee.kind if callee else None)
            if best is None or order[st] < order[best[0]]:
                best = (st, res)
        site.strength, site.resolution = best if best else ("unresolved", "unresolved")
    return sorted(groups.values(), key=lambda s: (s.path, s.line, s.col, s.callee_name, s.kind, s.caller_id))


def share_table(sites: list[LoreSite], *, name: str | None = None) -> dict:
    """Counts and shares of call sites by strength and by resolution.

    Parameters
    ----------
    sites : list of LoreSite
        From :func:`lore_sites`.
    name : str, optional
        Also count the sites calling this name (``filter``) and how many of them stayed unresolved.

    Returns
    -------
    dict
        ``{"sites": n, "by_strength": {strength: {"count", "share"}}, "by_resolution": {...},
        "rule_share": float | None, "name": {...}}``.

    Examples
    --------
    >>> s = [LoreSite("a.py", 1, 0, "f", 1, "call", [(2, "import")], "rule", "import"),
    ...      LoreSite("a.py", 2, 0, "g", 1, "call", [(None, "unresolved")])]
    >>> share_table(s)["rule_share"]
    0.5
    """
    n = len(sites)
    by_strength = Counter(s.strength for s in sites)
    by_resolution = Counter(s.resolution for s in sites)

    def cell(c: int) -> dict:
        return {"count": c, "share": (c / n) if n else None}

    out = {
        "sites": n,
        "by_strength": {st: cell(by_strength.get(st, 0)) for st in STRENGTHS},
        "by_resolution": {r: cell(c) for r, c in sorted(by_resolution.items(), key=lambda kv: (-kv[1], kv[0]))},
        "rule_share": (by_strength.get("rule", 0) / n) if n else None,
    }
    if name is not None:
        named = [s for s in sites if s.last_name == name]
        out["name"] = {"name": name, "sites": len(named),
                       "unresolved": sum(1 for s in named if s.strength == "unresolved"),
                       "by_strength": {st: sum(1 for s in named if s.strength == st) for st in STRENGTHS}}
    return out


def run_rule_share(root: Path, db: Path, *, name: str | None = "filter", workers: int | None = None,
                   reuse: bool = False) -> dict:
    """Index ``root`` into ``db`` (a fresh build unless ``reuse``) and measure its call sites' strengths.

    The index is rebuilt by default: a resolver change does not change file hashes, so a refresh
    would keep the old edges.
    """
    import time

    from ..api import index_repo, open_index

    t0 = time.perf_counter()
    report = None
    if not (reuse and Path(db).exists()):
        report = index_repo(root, db=db, workers=workers, rebuild=True)
    with open_index(db, readonly=True) as idx:
        table = share_table(lore_sites(idx), name=name)
    table["root"] = str(root)
    table["index_seconds"] = report.seconds if report is not None else None
    table["seconds"] = round(time.perf_counter() - t0, 2)
    return table


def format_share(table: dict, *, title: str) -> list[str]:
    """The share table as plain text lines (for the benchmark scripts)."""
    lines = [title, f"{'strength':<12} {'sites':>9} {'share':>7}"]
    for st, v in table["by_strength"].items():
        share = f"{100 * v['share']:.1f}%" if v["share"] is not None else "-"
        lines.append(f"{st:<12} {v['count']:>9} {share:>7}")
    lines.append(f"{'all':<12} {table['sites']:>9}")
    lines.append("by resolution: " + ", ".join(f"{r} {v['count']}" for r, v in table["by_resolution"].items()))
    if "name" in table:
        nm = table["name"]
        lines.append(f"call sites named `{nm['name']}`: {nm['sites']}, unresolved {nm['unresolved']}")
    return lines
