"""Ruby: constants named by nesting, reopened classes, mixins, super, requires, receivers made by ``new``,
test files by RSpec / minitest conventions, and a grammar loaded only when a Ruby file is seen."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

from lore import index_repo
from lore.index.walk import is_test_path
from lore.languages import language_for
from lore.languages.ruby import _parser as ruby

SRC = b"""require "json"
require_relative "support/base"

module Shop
  # A cart of items.
  class Cart < Base
    include Enumerable
    extend Helpers

    def initialize(owner)
      super
      @log = Audit::Log.new(owner)
      @items = []
    end

    def self.build(x)
      new(x)
    end

    def add(item, qty = 1)
      @log.record(item)
      price = Pricing.quote(item)
      helper(price)
      self.class.registry.add(self)
      line = Line.new(item, qty)
      line.total
    end
  end
end
"""


def parsed():
    return ruby.parse("lib/shop/cart.rb", SRC, "lib.shop.cart")


def test_symbols_are_named_by_constant_nesting():
    pf = parsed()
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("lib.shop.cart", "module"), ("Shop", "trait"), ("Shop.Cart", "class"),
        ("Shop.Cart.initialize", "method"), ("Shop.Cart.build", "method"), ("Shop.Cart.add", "method")]
    build = next(s for s in pf.symbols if s.name == "build")
    add = next(s for s in pf.symbols if s.name == "add")
    assert build.decorators == ["singleton"] and add.params == [("item", ""), ("qty", "")]
    assert pf.symbols[2].docstring == "A cart of items."
    attrs = ruby.parse("a.rb", b"class A\n  attr_accessor :x\n  def m\n    run\n  rescue Net::Err => e\n    e.go\n  end\nend\ndef top; end\n", "a")
    assert [(s.qualified_name, s.kind, s.decorators) for s in attrs.symbols[1:]] == [
        ("A", "class", []), ("A.x", "method", ["attr_accessor"]), ("A.x=", "method", ["attr_accessor"]),
        ("A.m", "method", []), ("a.top", "function", [])]
    assert [(b.name, b.annotation) for b in attrs.bindings] == [("e", "Net.Err")]
    nested = ruby.parse("a.rb", b"class A::B < ::C::D\n  class E; end\nend\n", "a")
    assert [s.qualified_name for s in nested.symbols] == ["a", "A.B", "A.B.E"]
    assert [(r.target, r.kind) for r in nested.relations] == [("C.D", "extends")]


def test_calls_relations_imports_bindings():
    pf = parsed()
    assert [(c.callee, c.kind) for c in pf.calls] == [
        ("super().initialize", "call"), ("Audit.Log", "new"), ("Shop.Cart", "new"), ("self.log.record", "call"),
        ("Pricing.quote", "call"), ("self.helper", "call"), ("Cart.registry().add", "call"), ("Cart.registry", "call"),
        ("Line", "new"), ("line.total", "call")]
    bare = ruby.parse("a.rb", b"class A\n  def run(p)\n    step\n    x = 1\n    x\n    p\n    [1].each { |i| i }\n  end\nend\n", "a")
    assert [c.callee for c in bare.calls] == ["self.step", "<expr>.each"]  # x, p and i are variables
    assert [(r.target, r.kind) for r in pf.relations] == [
        ("Base", "extends"), ("Enumerable", "implements"), ("Helpers", "implements")]
    assert [(i.module, i.level) for i in pf.imports] == [("json", 0), ("./support/base", 1)]
    binds = {(b.name, b.value, b.alias_of) for b in pf.bindings}
    assert {("self.log", "Audit.Log", ""), ("price", "Pricing.quote", ""), ("line", "Line", "")} <= binds


def test_files_and_test_code():
    assert language_for("lib/a.rb").name == "ruby" and language_for("Rakefile").name == "ruby"
    assert language_for("tasks/release.rake").name == "ruby"
    assert is_test_path("spec/models/cart_spec.rb") and is_test_path("lib/cart_spec.rb")
    assert is_test_path("test/cart_test.rb") and not is_test_path("lib/shop/cart.rb")


def test_bad_input_never_raises():
    pf = ruby.parse("x.rb", b"class < def (( end end end", "x")
    assert pf.symbols[0].kind == "module" and pf.syntax_errors > 0


def _refs(db) -> set[tuple[str, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return set(conn.execute(
            "SELECT a.qualified_name, COALESCE(b.qualified_name, r.callee_name), r.resolution FROM symbol_refs r "
            "JOIN symbols a ON a.id = r.caller_id LEFT JOIN symbols b ON b.id = r.callee_id"))
    finally:
        conn.close()


def test_constants_reopened_classes_and_outside_names(tmp_path):
    files = {
        "lib/app/base.rb": """
            module App
              class Base
                def run; step; end
              end
            end
            """,
        "lib/app/base_steps.rb": """
            module App
              class Base
                def step; end
              end
              module Util
                def self.slug(x); x; end
              end
            end
            """,
        "lib/app/job.rb": """
            module App
              class Job < Base
                def go
                  Util.slug(1)
                  JSON.parse("1")
                  run
                end
              end
            end
            """,
        "spec/job_spec.rb": "def step; end\n",
    }
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    index_repo(tmp_path, workers=1)
    refs = _refs(tmp_path / ".lore" / "index.db")
    assert ("App.Base.run", "App.Base.step", "self_method") in refs  # the class reopened in another file
    assert ("App.Job.go", "App.Util.slug", "module_global") in refs  # Util found by nesting: App::Util
    assert ("App.Job.go", "App.Base.run", "self_method") in refs  # inherited
    assert ("App.Job.go", "JSON.parse", "external") in refs  # no file defines JSON: Ruby's, never a guess


def test_module_singleton_methods_are_not_inherited_by_includers(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "party.rb").write_text(textwrap.dedent("""
        module Party
          def self.included(base)
            base.extend ClassMethods
          end
          module ClassMethods
            def get(path); end
          end
          def self.get(path); end
        end
        class Client
          include Party
          def self.fetch
            get("/a")
            Party.get("/b")
          end
        end
        """), encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    got = conn.execute("SELECT r.line, b.qualified_name FROM symbol_refs r JOIN symbols b ON b.id = r.callee_id "
                       "WHERE r.callee_name LIKE '%get' ORDER BY r.line").fetchall()
    conn.close()
    assert got == [(14, "Party.ClassMethods.get"), (15, "Party.get")]


def test_receivers_of_unknown_type_are_guessed_only_on_strong_evidence(tmp_path):
    # Ruby never states a receiver's type: ``uri.port`` is a URI's, ``b.bytesize`` a String's, ``r.header``
    # one of two; only a name defined once and no core method name (``r.checksum``) is still guessed
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "srv.rb").write_text(textwrap.dedent("""
        class Request
          def port; 80; end
          def header(k); end
          def checksum; end
        end
        class Response
          def header(k); end
        end
        class Files
          def bytesize; 0; end
        end
        def serve(uri, b, r)
          uri.port
          b.bytesize
          r.header("a")
          r.checksum
          x = Request.new
          x.port
        end
        """), encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    got = conn.execute("SELECT r.line, b.qualified_name, r.resolution, r.confidence FROM symbol_refs r "
                       "JOIN symbols b ON b.id = r.callee_id JOIN symbols a ON a.id = r.caller_id "
                       "WHERE a.name = 'serve' AND b.kind = 'method' ORDER BY r.line").fetchall()
    conn.close()
    assert [g[:3] for g in got] == [(17, "Request.checksum", "same_file_name"), (19, "Request.port", "constructor_type")]
    assert got[0][3] < 1.0


def test_python_only_index_never_loads_the_ruby_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.rb").write_text("class B; end\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_ruby" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_ruby" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]
