"""End-to-end edges of the non-Python languages on small fixture projects, with precision and recall.

Each ``tests/fixtures/<lang>/`` holds a multi-file project and ``expected.json``: the symbols (qualified
name -> kind) and the edges a careful reader expects, as ``caller -> callee`` (calls resolved by a
rule, not a name heuristic), ``owner -> type (kind)`` (type references), ``file -> target`` (imports
resolved inside the repository), ``source -kind-> target`` (extends / implements / embeds) and the
calls left to the ``ambiguous_name`` heuristic (1/k each). ``known_missing`` lists edges a reader
expects that lore does not find yet: they count against recall, and the test says when one appears.
The project is copied to a temporary directory, indexed, and compared.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from lore import index_repo

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
LANGS = ["javascript", "typescript", "go", "java", "rust", "c", "cpp"]
HEURISTIC = {"same_file_name", "unique_name", "ambiguous_name"}


def actual_edges(root: Path) -> dict[str, set[str]]:
    """The edges of an indexed fixture, in the notation of ``expected.json``."""
    index_repo(root, workers=1)
    conn = sqlite3.connect(root / ".lore" / "index.db")
    try:
        out: dict[str, set[str]] = {}
        out["symbols"] = {f"{q} ({k})" for q, k in conn.execute(
            "SELECT qualified_name, kind FROM symbols WHERE file_id IS NOT NULL")}
        out["calls"] = {f"{a} -> {b}" for a, b, res in conn.execute(
            """SELECT a.qualified_name, b.qualified_name, r.resolution FROM symbol_refs r
               JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id
               WHERE b.file_id IS NOT NULL""") if res not in HEURISTIC}
        out["types"] = {f"{a} -> {b} ({k})" for a, b, k, res in conn.execute(
            """SELECT a.qualified_name, b.qualified_name, r.kind, r.resolution FROM type_refs r
               JOIN symbols a ON a.id = r.symbol_id JOIN symbols b ON b.id = r.type_id
               WHERE b.file_id IS NOT NULL""") if res not in HEURISTIC}
        out["imports"] = {f"{p} -> {q}" for p, q in conn.execute(
            """SELECT f.path, s.qualified_name FROM file_imports i JOIN files f ON f.id = i.file_id
               JOIN symbols s ON s.id = i.target_id WHERE s.file_id IS NOT NULL""")}
        out["relations"] = {f"{a} -{k}-> {b}" for a, k, b in conn.execute(
            """SELECT a.qualified_name, r.kind, b.qualified_name FROM symbol_relationships r
               JOIN symbols a ON a.id = r.source_id JOIN symbols b ON b.id = r.target_id
               WHERE r.kind IN ('extends', 'implements', 'embeds')""")}
        out["ambiguous"] = {f"{a} -> {b}" for a, b in conn.execute(
            """SELECT a.qualified_name, b.qualified_name FROM symbol_refs r
               JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id
               WHERE r.resolution = 'ambiguous_name'""")}
        return out
    finally:
        conn.close()


def precision_recall(expected: set[str], actual: set[str]) -> tuple[float, float]:
    hit = len(expected & actual)
    return (hit / len(actual) if actual else 1.0), (hit / len(expected) if expected else 1.0)


def available() -> list[str]:
    return [lang for lang in LANGS if (FIXTURES / lang / "expected.json").exists()]


@pytest.mark.parametrize("lang", available())
def test_fixture_edges(tmp_path, lang):
    root = tmp_path / lang
    shutil.copytree(FIXTURES / lang, root, ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / lang / "expected.json").read_text(encoding="utf-8"))
    actual = actual_edges(root)
    report = []
    problems = []
    for table in ("symbols", "calls", "types", "imports", "relations", "ambiguous"):
        if table not in expected:
            continue
        want = set(expected[table])
        missing_known = set(expected.get("known_missing", {}).get(table, ()))
        got = actual[table]
        p, r = precision_recall(want | missing_known, got)
        report.append(f"{lang} {table}: precision {p:.2f} recall {r:.2f} ({len(want | missing_known)} expected)")
        if want != got:
            problems.append(f"{table}: missing {sorted(want - got)}; unexpected {sorted(got - want)}")
        if missing_known & got:
            problems.append(f"{table}: now found, move out of known_missing: {sorted(missing_known & got)}")
    print("\n".join(report))
    assert not problems, "\n".join(problems)


PY_SAMPLE = {
    "py/pkg/__init__.py": "from .a import helper\n",
    "py/pkg/a.py": "import os\n\n\ndef helper(x):\n    return os.path.join(x, 'y')\n\n\n"
                   "class Base:\n    def run(self):\n        self.step()\n\n    def step(self):\n        pass\n",
    "py/main.py": "from pkg import helper\n\n\ndef main():\n    helper('a')\n",
}


def test_mixed_language_repository(tmp_path):
    """All fixtures side by side (each under its own directory) plus Python: every language keeps its edges."""
    root = tmp_path / "mixed"
    langs = available()
    for lang in langs:
        shutil.copytree(FIXTURES / lang, root / lang, ignore=shutil.ignore_patterns("expected.json"))
    for rel, text in PY_SAMPLE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    actual = actual_edges(root)
    for lang in langs:
        expected = json.loads((FIXTURES / lang / "expected.json").read_text(encoding="utf-8"))
        for table in ("calls", "types", "relations"):
            want = {" ".join(f"{lang}.{w}" if "." in w and not w.startswith("(") else w for w in e.split(" "))
                    for e in expected[table]}
            got = {e for e in actual[table] if e.startswith(f"{lang}.")}
            assert want == got, f"{lang} {table}: missing {sorted(want - got)}; unexpected {sorted(got - want)}"
    assert "py.main.main -> pkg.a.helper" in actual["calls"]
    assert "pkg.a.Base.run -> pkg.a.Base.step" in actual["calls"]
    from lore.store import read

    conn = sqlite3.connect(root / ".lore" / "index.db")
    try:
        stats = read.stats(conn)
    finally:
        conn.close()
    assert {"python", "javascript", "typescript", "tsx", "go", "java", "rust", "c", "cpp"} <= set(
        stats["files_by_language"])
    assert all(stats["calls_by_language"][lang]["resolved"] > 0 for lang in ("go", "java", "rust", "c", "cpp"))
