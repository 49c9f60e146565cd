"""Issue 32, 1 and 5: a file over its time budget, or nested too deep, is skipped with its reason in every
language, retried by the next run, and named by ``lore_status``; never stored as a syntax error."""

from __future__ import annotations

import json
from pathlib import Path

from lore import open_index

from .conftest import run_lore

BIG = {  # ~2 MB each: far more than 0.2 s of parsing and extraction in every language
    "big.py": "def f{i}(x):\n    return g{i}(x) + 1\n",
    "big.go": "func F{i}(x int) int {{\n\treturn G{i}(x) + 1\n}}\n",
    "big.js": "function f{i}(x) {{\n  return g{i}(x) + 1;\n}}\n",
    "big.rs": "fn f{i}(x: i32) -> i32 {{\n    g{i}(x) + 1\n}}\n",
}


def test_a_file_over_its_budget_is_skipped_in_every_language(tmp_path: Path, tally) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    for name, line in BIG.items():
        head = "package p\n" if name.endswith(".go") else ""
        (root / name).write_text(head + "".join(line.format(i=i) for i in range(40_000)))
    (root / "small.py").write_text("def ok():\n    pass\n")
    runs = []
    # over the time budget; then (the next run tries the skipped files again) over the memory budget
    for args, env, reason in ((("--rebuild",), {"LORE_FILE_SECONDS": "0.2"}, "too slow"),
                              ((), {"LORE_FILE_MEMORY_MB": "5"}, "too big to parse")):
        proc = run_lore("index", str(root), *args, "--json", env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        runs.append((reason, json.loads(proc.stdout)))
    with open_index(root, readonly=True) as idx:
        status = idx.status()
    ok = 0
    for reason, report in runs:
        ok += (report["skipped"] == {reason: 4} and report["syntax_error_files"] == []
               and report["symbols"] == 2)  # small.py's module and ok(): nothing of the big files
    ok += (status.get("skipped") == {"too big to parse": 4}
           and sorted(status.get("skipped_files", {}).get("too big to parse", [])) == sorted(BIG))
    tally("file over its time or memory budget (4 languages)", tried=3, survived=ok, lost=3 - ok)
    assert ok == 3, (runs, status)


def test_nesting_too_deep_for_tree_sitter_queries_is_skipped_in_every_language(tmp_path: Path, tally) -> None:
    """40,000 levels: tree-sitter's queries drop captures past 65,535 tree levels (and take minutes at
    100,000); such a file is skipped as ``too deep`` before a query runs, within the subprocess's timeout."""
    from .make_corpus import DEEP

    root = tmp_path / "repo"
    root.mkdir()
    depth = 40_000
    families = (".py", ".js", ".ts", ".go", ".java", ".rs", ".c")  # one file per grammar family
    for ext in families:
        head, open_, mid, close, tail = DEEP[ext]
        (root / f"deep{ext}").write_text(head + open_ * depth + mid + close * depth + tail)
    (root / "ok.py").write_text("def ok():\n    pass\n")
    proc = run_lore("index", str(root), "--json", "--no-clusters", timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    deep = sum(n for reason, n in report["skipped"].items() if reason in ("too deep", "too slow"))
    ok = deep == len(families) and report["added"] == ["ok.py"] and report["syntax_error_files"] == []
    tally("bad input: deep nesting (40,000 levels)", tried=len(families), survived=deep, lost=len(families) - deep)
    assert ok, report
