"""Resolution accuracy on small programs with hand-checked call graphs, per category.

``python -m tests.index.test_resolution`` prints precision and recall per category (strict edges:
the ones bound by a rule; name-heuristic edges are counted apart).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

import pytest

from lore import index_repo
from tests.conftest import write_tree

from .resolution_cases import CASES

HEURISTIC = {"same_file_name", "unique_name", "ambiguous_name"}


def edges_of(root, db=None) -> tuple[set[str], set[str]]:
    """(strict edges, heuristic edges) as 'caller -> callee' qualified names."""
    db = db or root / ".lore" / "index.db"
    index_repo(root, db=db, workers=1)
    conn = sqlite3.connect(db)
    rows = conn.execute(
        """SELECT a.qualified_name, b.qualified_name, r.resolution FROM symbol_refs r
           JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id"""
    ).fetchall()
    conn.close()
    strict = {f"{a} -> {b}" for a, b, res in rows if res not in HEURISTIC}
    heur = {f"{a} -> {b}" for a, b, res in rows if res in HEURISTIC}
    return strict, heur


def unpack(case) -> tuple[dict[str, str], set[str], set[str]]:
    files, expected, *rest = case
    return files, expected, (rest[0] if rest else set())


CASE_IDS = [(cat, i) for cat, cases in CASES.items() for i in range(len(cases))]


@pytest.mark.parametrize(("category", "number"), CASE_IDS, ids=[f"{c}-{i}" for c, i in CASE_IDS])
def test_case(tmp_path, category, number):
    files, expected, known_missing = unpack(CASES[category][number])
    assert known_missing <= expected
    root = write_tree(tmp_path / "case", files)
    strict, _heur = edges_of(root)
    missing = (expected - known_missing) - strict
    extra = strict - expected
    fixed = known_missing & strict
    assert not missing and not extra and not fixed, (
        f"missing edges: {sorted(missing)}; unexpected edges: {sorted(extra)}; "
        f"known misses now found (update the case): {sorted(fixed)}"
    )


def test_every_category_of_the_issue_is_covered():
    wanted = {"arguments", "assignments", "builtins", "classes", "decorators", "dicts", "direct_calls",
              "exceptions", "external", "functions", "generators", "imports", "kwargs", "lambdas", "lists",
              "mro", "returns", "context_managers", "control_flow"}
    assert wanted <= set(CASES)
    assert all(len(CASES[c]) >= 2 for c in wanted)


def score(work: Path) -> dict[str, dict[str, int]]:
    """Per category: true positives, strict edges found, expected edges and heuristic edges."""
    out: dict[str, dict[str, int]] = {}
    for cat, cases in CASES.items():
        c = out.setdefault(cat, {"cases": 0, "tp": 0, "found": 0, "expected": 0, "heuristic": 0})
        for i, case in enumerate(cases):
            files, expected, _known = unpack(case)
            root = write_tree(work / f"{cat}-{i}", files)
            strict, heur = edges_of(root)
            c["cases"] += 1
            c["tp"] += len(strict & expected)
            c["found"] += len(strict)
            c["expected"] += len(expected)
            c["heuristic"] += len(heur)
    return out


def report(scores: dict[str, dict[str, int]]) -> str:
    def ratio(a: int, b: int) -> str:
        return f"{a / b:.2f}" if b else "-"

    lines = ["| category | cases | expected edges | precision | recall | heuristic edges |", "|---|---|---|---|---|---|"]
    total = {"cases": 0, "tp": 0, "found": 0, "expected": 0, "heuristic": 0}
    for cat in sorted(scores):
        c = scores[cat]
        for k in total:
            total[k] += c[k]
        lines.append(f"| {cat} | {c['cases']} | {c['expected']} | {ratio(c['tp'], c['found'])} | "
                     f"{ratio(c['tp'], c['expected'])} | {c['heuristic']} |")
    t = total
    lines.append(f"| all (micro) | {t['cases']} | {t['expected']} | {ratio(t['tp'], t['found'])} | "
                 f"{ratio(t['tp'], t['expected'])} | {t['heuristic']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        sys.stdout.write(report(score(Path(d))) + "\n")


ORDER_CASE = {
    "pkg/__init__.py": "",
    "pkg/http/__init__.py": "from pkg.http.cookie import SimpleCookie\n",
    "pkg/http/cookie.py": "from http import cookies\n\nSimpleCookie = cookies.SimpleCookie\n",
    "pkg/test/__init__.py": "",
    "pkg/test/client.py": "from pkg.http import SimpleCookie\n\n\nclass RequestFactory:\n"
                          "    def __init__(self):\n        self.cookies = SimpleCookie()\n",
    "tests/t.py": "from pkg.test.client import RequestFactory\n\n\ndef test():\n"
                  "    f = RequestFactory()\n    f.cookies.load('x')\n",
}


def test_resolution_does_not_depend_on_file_order(tmp_path):
    """Lookups memoized half-way through a cycle or a depth cut-off once made the edges of a file
    depend on which files were resolved before it (and so on the worker that got it)."""
    from lore import languages
    from lore.index.resolve import FileRow, SymRow, World, resolve_files
    from lore.index.resolve_pool import RecordLoader
    from lore.store import read

    root = write_tree(tmp_path / "order", ORDER_CASE)
    index_repo(root, workers=1)
    conn = sqlite3.connect(root / ".lore" / "index.db")
    syms = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, p, lang, m, ms, languages.get(lang).is_package(p)) for fid, p, lang, m, ms in read.file_rows(conn)]
    names = {s.id: s.qualified_name for s in syms}

    def edges(order):
        world = World(syms, files, RecordLoader({}, conn), read.max_symbol_id(conn) + 1)
        out = resolve_files(world, order)
        qn = dict(names) | {sid: q for sid, _, q in world.new_externals}
        return sorted((qn[r[0]], qn.get(r[1], r[2]), r[6]) for r in out.refs)

    ids = [f.id for f in files]
    forward, backward = edges(ids), edges(ids[::-1])
    conn.close()
    assert forward == backward
    assert ("tests.t.test", "http.cookies.SimpleCookie.load", "external") in forward
