"""Kotlin: packages as qualified names, companion objects, extension functions, val parameters, imports,
test source sets, and a grammar loaded only when a Kotlin file is seen."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

from lore.index.walk import is_test_path
from lore.languages import language_for
from lore.languages.kotlin import _parser as kotlin

SRC = b"""package shop.service

import shop.model.User
import shop.repo.UserRepo as Repo
import shop.util.*

/** Registers users. */
class Registrar(private val repo: Repo, n: Int) : Base(n), Contract {
    val cache: Cache = Cache()

    fun register(name: String): User? {
        val u = User(name)
        repo?.save(u)
        this.audit(u)
        super.check()
        return repo.find(name)
    }

    companion object {
        fun create(): Registrar = Registrar(Repo(), 1)
    }
}

fun String.slug(): String = lowercase()
typealias Names = List<String>
"""


def parsed():
    return kotlin.parse("src/main/kotlin/shop/service/Registrar.kt", SRC, "src.main.kotlin.shop.service.Registrar")


def test_symbols_are_named_by_package():
    pf = parsed()
    assert [(s.qualified_name, s.kind) for s in pf.symbols[1:]] == [
        ("shop.service.Registrar", "class"), ("shop.service.Registrar.register", "method"),
        ("shop.service.Registrar.create", "method"), ("shop.service.slug", "function"),
        ("shop.service.Names", "type_alias")]
    reg = pf.symbols[2]
    assert reg.params == [("name", "String")] and reg.return_type == "User"
    slug = pf.symbols[4]
    assert slug.decorators == ["extension"] and slug.params == [("this", "String")]
    assert pf.symbols[1].docstring == "Registers users."


def test_calls_imports_relations_bindings():
    pf = parsed()
    assert [c.callee for c in pf.calls] == [
        "Cache", "User", "repo.save", "this.audit", "super().check", "repo.find", "Registrar", "Repo", "lowercase"]
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [
        ("shop.model", "User", None), ("shop.repo", "UserRepo", "Repo"), ("shop.util", "*", None)]
    assert [(r.target, r.kind) for r in pf.relations] == [("Base", "extends"), ("Contract", "implements")]
    binds = {(b.name, b.annotation, b.value) for b in pf.bindings}
    assert {("self.repo", "Repo", ""), ("self.cache", "Cache", ""), ("u", "", "User")} <= binds
    assert not any(b.name == "self.n" for b in pf.bindings)  # a plain constructor parameter is no property


def test_files_and_test_code():
    assert language_for("src/A.kt").name == "kotlin" and language_for("build.gradle.kts").name == "kotlin"
    assert is_test_path("src/commonTest/kotlin/a/ResultTest.kt") and is_test_path("src/test/kotlin/A.kt")
    assert is_test_path("src/main/kotlin/a/ParserTest.kt") and not is_test_path("src/main/kotlin/a/Parser.kt")


def test_bad_input_never_raises():
    pf = kotlin.parse("x.kt", b"class { fun (( }}} package", "x")
    assert pf.symbols[0].kind == "module" and pf.syntax_errors > 0


def test_python_only_index_never_loads_the_kotlin_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "B.kt").write_text("class B\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_kotlin" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_kotlin" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]


def _edges(tmp_path, files: dict[str, str]) -> list[tuple[str, int, str, str]]:
    """Index ``files`` and return (caller, line, callee, resolution) of every edge to a repository symbol."""
    from lore import index_repo
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        return conn.execute(
            "SELECT a.name, r.line, b.qualified_name, r.resolution FROM symbol_refs r JOIN symbols a ON a.id = r.caller_id "
            "JOIN symbols b ON b.id = r.callee_id WHERE b.kind != 'external' ORDER BY r.line, b.qualified_name").fetchall()
    finally:
        conn.close()


def test_a_private_constructor_sends_outside_calls_to_the_companion_invoke(tmp_path):
    got = _edges(tmp_path, {"src/main/kotlin/a/Err.kt": """
        package a

        class Err private constructor(msg: String) {
          companion object {
            operator fun invoke(msg: String) = Err(msg)
          }
        }

        class Open(msg: String)

        fun fail(m: String) {
          Err(m)
          Open(m)
        }
        """})
    assert ("invoke", 6, "a.Err", "module_global") in got  # inside the class: the private constructor
    assert ("fail", 13, "a.Err.invoke", "module_global") in got  # outside: the companion's invoke
    assert ("fail", 14, "a.Open", "module_global") in got


def test_implicit_receivers_of_extensions_and_lambdas_with_receiver(tmp_path):
    got = _edges(tmp_path, {"src/main/kotlin/a/T.kt": """
        package a

        class B { fun m() {} }
        fun m() {}
        fun add(x: Int) {}

        fun B.ext() {
          m()
        }

        fun g(b: B) {
          b.apply {
            m()
          }
          with(b) { m() }
          B().run {
            m()
          }
          val l = buildList {
            add(1)
          }
          m()
        }
        """})
    assert ("ext", 9, "a.B.m", "annotated_type") in got  # this of fun B.ext() is a B
    assert ("g", 14, "a.B.m", "annotated_type") in got  # b.apply { }: b's
    assert ("g", 16, "a.B.m", "annotated_type") in got  # with(b) { }
    assert ("g", 18, "a.B.m", "annotated_type") in got  # B().run { }: what B() makes
    assert not [e for e in got if e[1] == 21]  # buildList { add(1) }: the list's add, never a.add
    assert ("g", 23, "a.m", "module_global") in got  # after the lambdas: the top-level m
