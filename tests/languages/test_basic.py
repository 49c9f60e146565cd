"""The basic tier: a grammar wheel's tags.scm gives definitions and call references, every edge name_only."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

from lore import index_repo
from lore.languages import basic, get, language_for
from lore.store.schema import CONFIDENCE, strength


def test_installed_wheels_with_a_tags_query_are_languages():
    names = {lang.name for lang in basic.languages()}
    assert "scala" in names  # a dependency whose wheel ships queries/tags.scm
    assert language_for("A.scala").name == "scala"
    assert "lua" not in names and language_for("src/a.lua").name == "lua"  # a full language now: one home only


def test_definitions_nest_and_calls_keep_their_name():
    pf = get("scala").parse("A.scala", b"package x\nclass A extends B {\n  def run(x: Int): Int = helper(x)\n}\n"
                                       b"object O { def helper(i: Int) = i }\n", "A")
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("A", "module"), ("A.A", "class"), ("A.A.run", "function"), ("A.O", "class"), ("A.O.helper", "function")]
    assert [(pf.symbols[c.caller].name, c.callee) for c in pf.calls] == [("run", "helper")]
    bad = get("scala").parse("X.scala", b"class (( { def", "X")
    assert bad.symbols[0].kind == "module" and bad.syntax_errors > 0


def test_every_edge_is_name_only(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "A.scala").write_text("object A {\n  def greet(n: Int): Int =\n    helper(n)\n}\n")
    (tmp_path / "src" / "B.scala").write_text("object B {\n  def helper(x: Int): Int = x\n  def other(): Int = helper(1)\n}\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "C.scala").write_text("object C { def greet(x: Int): Int = x }\n")  # another tree: never guessed into
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    rows = conn.execute("SELECT a.name, b.name, r.resolution, r.confidence FROM symbol_refs r JOIN symbols a ON "
                        "a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id ORDER BY 1").fetchall()
    conn.close()
    assert rows == [("greet", "helper", "name_only", CONFIDENCE["name_only"]),
                    ("other", "helper", "name_only", CONFIDENCE["name_only"])]
    assert strength("name_only") == "heuristic"
    out = subprocess.run([sys.executable, "-m", "lore", "stats", "--json"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "name_only" in out.stdout


def test_the_why_of_related_says_name_only(tmp_path):
    # a related row placed by a direct call says that call was bound by a name alone
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "A.scala").write_text("object A {\n  def greet(n: Int): Int =\n    helper(n)\n}\n")
    (tmp_path / "src" / "B.scala").write_text("object B {\n  def helper(x: Int): Int = x\n}\n")
    index_repo(tmp_path, workers=1)
    out = subprocess.run([sys.executable, "-m", "lore", "graph", "related", "helper", "--json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = {r["qualified_name"]: r["why"]["summary"] for r in json.loads(out.stdout)["results"]}
    assert "calls it or is called by it (name_only)" in rows["src.A.A.greet"]


def test_python_only_index_never_loads_a_basic_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "B.scala").write_text("object B { def b(): Int = 1 }\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_lua" in sys.modules or "tree_sitter_scala" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_scala" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]
