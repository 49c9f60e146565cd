"""Scala: packages as qualified names (chained and braced clauses), companion objects joined to their class,
case classes, traits, auxiliary constructors, imports relative to the package, calls through typed values,
``C(..)`` as the companion's ``apply``, overloads chosen by their arguments, test files, and a grammar loaded
only when a Scala file is seen. The fixtures are cut from scopt (OParser, OEffect, OptionDef) and scala-xml
(MarkupParser, TokenTests, ExternalID)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

from lore.index.walk import is_test_path
from lore.languages import get, language_for
from lore.languages.scala import _parser as scala

# scopt's OParser.scala and OptionDef.scala, cut down
SRC = b"""package scopt

import scala.collection.{ Seq => CSeq }
import scala.collection.mutable.ListBuffer

/** A command line parser. */
class OParser[A, C](head: OptionDef[A, C], rest: List[OptionDef[_, C]]) {
  def text(x: String): OParser[A, C] = subHead[A](head.text(x))
  def toList: List[OptionDef[_, C]] = head :: rest
}

object OParser {
  def apply[A, C](head: OptionDef[A, C], rest: List[OptionDef[_, C]]): OParser[A, C] =
    new OParser(head, rest)
  def usage[C](parser: OParser[_, C]): String = {
    def render(mode: Int): String = parser.toString
    render(1)
  }
}

class OptionDef[A, C](_id: Int, _name: String) {
  def this(name: String) = this(OptionDef.generateId, name)
  def text(x: String): OptionDef[A, C] = this
}

case class DisplayToErr(msg: String) extends OEffect with Serializable
sealed trait OEffect
enum Mode { case Plain, Rich }
"""


def parsed():
    return scala.parse("shared/src/main/scala/scopt/OParser.scala", SRC, "shared.src.main.scala.scopt.OParser")


def test_symbols_are_named_by_package_and_companions_are_one():
    pf = parsed()
    assert [(s.qualified_name, s.kind) for s in pf.symbols[1:]] == [
        ("scopt.OParser", "class"), ("scopt.OParser.text", "method"), ("scopt.OParser.toList", "method"),
        ("scopt.OParser.apply", "method"), ("scopt.OParser.usage", "method"),
        ("scopt.OParser.usage.render", "function"),
        ("scopt.OptionDef", "class"), ("scopt.OptionDef.<init>", "method"), ("scopt.OptionDef.text", "method"),
        ("scopt.DisplayToErr", "class"), ("scopt.OEffect", "trait"), ("scopt.Mode", "enum")]
    cls = pf.symbols[1]
    assert cls.start_line == 7 and cls.docstring == "A command line parser." and "companion" in cls.decorators
    assert pf.symbols[4].params == [("head", "OptionDef"), ("rest", "")]  # a List is no value of its element
    assert "case" in pf.symbols[10].decorators
    assert [(r.target, r.kind) for r in pf.relations] == [("OEffect", "extends"), ("Serializable", "implements")]


def test_calls_keep_their_receivers_and_constructors_their_class():
    pf = parsed()
    calls = [(pf.symbols[c.caller].name, c.callee, c.kind, c.args) for c in pf.calls]
    assert ("text", "subHead", "call", [""]) in calls and ("text", "head.text", "call", [":String"]) in calls
    assert ("apply", "OParser", "new", [":OptionDef", ":List"]) in calls
    assert ("<init>", "OptionDef", "new", ["", ":String"]) in calls  # this(..): the primary constructor
    assert ("usage", "render", "call", ["0"]) in calls


def test_imports_selectors_renames_wildcards_and_chained_packages():
    src = b"package scala\npackage xml\npackage dtd\n\nimport parsing.TokenTests\nimport a.b._\nimport a.c.*\n" \
          b"import a.d.{E, F => G, _}\nclass X\n"
    pf = scala.parse("x/X.scala", src, "x.X")
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [
        ("scala", "*", "<package>"), ("scala.xml", "*", "<package>"), ("parsing", "TokenTests", None), ("a.b", "*", None),
        ("a.c", "*", None), ("a.d", "E", None), ("a.d", "F", "G"), ("a.d", "*", None)]
    assert pf.symbols[1].qualified_name == "scala.xml.dtd.X"
    braced = scala.parse("y/Y.scala", b"package a {\n  package b {\n    class Y\n  }\n}\n", "y.Y")
    assert braced.symbols[1].qualified_name == "a.b.Y"


def test_scala_files_are_scala_and_scala_tests_are_tests():
    assert language_for("src/main/scala/a/B.scala").name == "scala" and language_for("build.sc").name == "scala"
    assert get("scala").parse is scala.parse
    assert is_test_path("core/src/main/scala/a/ParserSpec.scala") and is_test_path("a/OsPathSuite.scala")
    assert is_test_path("os/test/src/PathTests.scala") and is_test_path("src/test/scala/a/B.scala")
    assert not is_test_path("src/main/scala/a/Spectrum.scala") and not is_test_path("src/main/scala/a/OParser.scala")
    assert not is_test_path("shared/src/main/scala/scala/xml/parsing/TokenTests.scala")


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
            "SELECT a.name, r.line, b.qualified_name || ':' || b.start_line, r.resolution FROM symbol_refs r "
            "JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id "
            "WHERE b.kind != 'external' ORDER BY r.line, b.qualified_name").fetchall()
    finally:
        conn.close()


# scala-xml's TokenTests / MarkupParser / ExternalID / MetaData, cut down; a second package beside it
XML = {
    "src/main/scala/scala/xml/parsing/TokenTests.scala": """\
        package scala
        package xml
        package parsing

        trait TokenTests {
          final def isSpace(ch: Char): Boolean = ch == ' '
          final def isSpace(cs: Seq[Char]): Boolean = cs.nonEmpty && cs.forall(isSpace)
          def checkSysID(s: String): Boolean = true
        }
        """,
    "src/main/scala/scala/xml/parsing/MarkupParser.scala": """\
        package scala
        package xml
        package parsing

        trait MarkupParser extends TokenTests {
          def xToken(that: Char): Unit = ()
          def xToken(that: Seq[Char]): Unit = that.foreach(xToken)
          def run(md: MetaData, pos: Int): Unit = {
            xToken('[')
            xToken("UBLIC")
            val m: MetaData = md
            m("standalone")
            this.xToken(']')
            isSpace(' ')
            val at = new Attribute("k", null)
            at.key()
            Text("v")
            new Text("w")
          }
        }
        """,
    "src/main/scala/scala/xml/dtd/ExternalID.scala": """\
        package scala
        package xml
        package dtd

        sealed abstract class ExternalID extends parsing.TokenTests
        case class SystemID(systemId: String) extends ExternalID {
          if (!checkSysID(systemId)) throw new IllegalArgumentException("bad")
        }
        """,
    "src/main/scala/scala/xml/MetaData.scala": """\
        package scala.xml

        abstract class MetaData {
          def apply(key: String): Seq[Node]
        }
        class Attribute(k: String, next: MetaData) {
          def this(k: String) = this(k, null)
          def key(): String = k
        }
        class Text(data: String)
        object Text {
          def apply(data: String): Text = new Text(data)
        }
        class Node
        object Utility extends AnyRef with parsing.TokenTests {
          def ok(s: String): Boolean = checkSysID(s)
        }
        """,
    "src/main/scala/other/Helpers.scala": """\
        package other

        object Helpers {
          def key(): String = "x"
          def runWith(f: String => Int): Int = f("a")
        }
        """,
    # os-lib's ResourcePath (a repository getInputStream) beside its ZipOps (a library's ZipFile)
    "src/main/scala/os/Zip.scala": """\
        package os

        class ResourcePath(p: String) {
          def getInputStream(): Int = 1
        }
        class Attr(pre: String, value: Seq[Char], next: Attr) {
          def this(pre: String, value: String, next: Attr) = this(pre, value.toSeq, next)
        }
        object Zip {
          def unzip(name: String): Unit = {
            val zipFile = new java.util.zip.ZipFile(name)
            zipFile.getInputStream(null)
            new Attr("p", name, null)
          }
        }
        """,
}


def test_calls_resolve_through_types_companions_packages_and_overloads(tmp_path):
    got = _edges(tmp_path, XML)
    run = [(line, callee, res) for caller, line, callee, res in got if caller == "run"]
    assert run == [
        (9, "scala.xml.parsing.MarkupParser.xToken:6", "local_scope"),  # 'c': the Char overload
        (10, "scala.xml.parsing.MarkupParser.xToken:7", "local_scope"),  # "s": the Seq[Char] overload
        (12, "scala.xml.MetaData.apply:4", "annotated_type"),  # m(..): MetaData's apply
        (13, "scala.xml.parsing.MarkupParser.xToken:6", "self_method"),
        (14, "scala.xml.parsing.TokenTests.isSpace:6", "self_method"),  # inherited, by the literal's type
        (15, "scala.xml.Attribute:6", "module_global"),  # two arguments: the primary constructor (package scala.xml)
        (16, "scala.xml.Attribute.key:8", "constructor_type"),
        (17, "scala.xml.Text.apply:12", "module_global"),  # Text(..): the companion's apply
        (18, "scala.xml.Text:10", "module_global"),  # new Text(..): the class
    ]
    # a class body sees what it inherits, through a base named relative to an outer package
    assert ("SystemID", 7, "scala.xml.parsing.TokenTests.checkSysID:8", "self_method") in got
    # extends AnyRef with T: the root adds nothing, T's members are inherited
    assert ("ok", 16, "scala.xml.parsing.TokenTests.checkSysID:8", "self_method") in got
    # this(k, null) in the auxiliary constructor: the primary constructor
    assert ("<init>", 7, "scala.xml.Attribute:6", "module_global") in got
    # a library's ZipFile has no member of the repository's (no guess); a String argument runs the
    # auxiliary constructor that takes one
    zip = [(caller, line, callee) for caller, line, callee, _r in got if caller == "unzip"]
    assert zip == [("unzip", 13, "os.Attr.<init>:7")]
    # f("a") calls the parameter f: no guess; nothing reaches other.Helpers.key from scala.xml
    assert not any(callee.startswith("other.") for _c, _l, callee, _r in got)


def test_python_only_index_never_loads_the_scala_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "B.scala").write_text("package b\nobject B { def f(): Int = 1 }\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_scala" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_scala" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]
