"""The basic tier: a grammar wheel's tags.scm gives definitions and call references, every edge name_only."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

from lore import index_repo
from lore.languages import basic, get, language_for
from lore.languages.basic._parser import make_parser
from lore.store.schema import CONFIDENCE, strength


def test_installed_wheels_with_a_tags_query_are_languages():
    names = {lang.name for lang in basic.languages()}
    assert {"elixir", "dart", "ocaml"} <= names  # dependencies whose wheels ship queries/tags.scm
    assert language_for("lib/a.ex").name == "elixir" and language_for("src/a.ml").name == "ocaml"
    for full in ("lua", "scala", "swift"):  # full languages now: one home only
        assert full not in names


def _basic_scala():
    """The basic tier's reading of a wheel it no longer serves (Scala has its own folder): the tags query alone."""
    tags = basic._tags_file("tree_sitter_scala")
    assert tags is not None
    return make_parser("scala", "tree_sitter_scala:language", tags)


def test_definitions_nest_and_calls_keep_their_name():
    pf = _basic_scala()("A.scala", b"package x\nclass A extends B {\n  def run(x: Int): Int = helper(x)\n}\n"
                                       b"object O { def helper(i: Int) = i }\n", "A")
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("A", "module"), ("A.A", "class"), ("A.A.run", "function"), ("A.O", "class"), ("A.O.helper", "function")]
    assert [(pf.symbols[c.caller].name, c.callee) for c in pf.calls] == [("run", "helper")]
    bad = get("scala").parse("X.scala", b"class (( { def", "X")
    assert bad.symbols[0].kind == "module" and bad.syntax_errors > 0


def test_every_edge_is_name_only(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.ex").write_text("defmodule A do\n  def greet(n) do\n    helper(n)\n  end\nend\n")
    (tmp_path / "src" / "b.ex").write_text("defmodule B do\n  def helper(x), do: x\n  def other(), do: helper(1)\nend\n")
    (tmp_path / "src" / "c.ml").write_text("let helper x = x\n")  # another language: never guessed into
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "c.ex").write_text("defmodule C do\n  def helper(x), do: x\nend\n")  # another tree: never
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
    (tmp_path / "src" / "a.ex").write_text("defmodule A do\n  def greet(n) do\n    helper(n)\n  end\nend\n")
    (tmp_path / "src" / "b.ex").write_text("defmodule B do\n  def helper(x), do: x\nend\n")
    index_repo(tmp_path, workers=1)
    out = subprocess.run([sys.executable, "-m", "lore", "graph", "related", "helper", "--json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = {r["qualified_name"]: r["why"]["summary"] for r in json.loads(out.stdout)["results"]}
    assert "calls it or is called by it (name_only)" in rows["src.a.greet"]


def test_python_only_index_never_loads_a_basic_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.ex").write_text("defmodule B do\n  def b(), do: 1\nend\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_elixir" in sys.modules or "tree_sitter_dart" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_elixir" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]


def test_a_definitions_own_head_is_not_a_call_and_a_signatures_body_is_its_own():
    # Elixir's `def price(item)` is a call node the tags query also tags as a reference: no self-edge from it;
    # Dart's tags name a method by its signature alone: the calls in the body that follows still belong to it
    ex = get("elixir").parse("lib/shop.ex", b"defmodule Shop do\n  def price(item), do: base(item)\n"
                                            b"  def base(i), do: i\nend\n", "lib.shop")
    assert [(ex.symbols[c.caller].name, c.callee) for c in ex.calls if c.callee in ("price", "base")] == [
        ("price", "base")]
    dart = get("dart").parse("lib/cart.dart", b"class Cart {\n  int total(List<int> xs) {\n    return sum(xs);\n"
                                              b"  }\n  int sum(List<int> xs) => 0;\n}\n", "lib.cart")
    assert [(s.qualified_name, s.start_line, s.end_line) for s in dart.symbols[1:]] == [
        ("lib.cart.Cart", 1, 6), ("lib.cart.Cart.total", 2, 4), ("lib.cart.Cart.sum", 5, 5)]
    assert [(dart.symbols[c.caller].name, c.callee) for c in dart.calls if c.callee == "sum"] == [("total", "sum")]
