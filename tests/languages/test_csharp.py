"""C#: namespaces as qualified names, using directives, receivers' declared types, partial types,
extension methods, overloads by arity, test projects, and a grammar loaded only when a .cs file is seen."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from lore import index_repo
from lore.index.walk import is_test_path
from lore.languages.csharp import _parser as csharp

SRC = b"""using System;
using static System.Math;
using Repo = Shop.Data.MemoryRepo;

namespace Shop.Services
{
    /// <summary>Registers users.</summary>
    [Service]
    public class UserService : BaseService, IRegistrar
    {
        private readonly IUserRepo _repo;
        public ILogger Log { get; set; }

        public UserService(IUserRepo repo) : base(repo) { _repo = repo; }

        public async Task<User> Register(string name, int age = 0)
        {
            var u = new User(name);
            _repo.Save(u);
            this.Audit(u);
            base.Check();
            _repo?.Flush();
            ((IFlusher)_repo).Flush();
            if (u is Admin a) { a.Promote(); }
            Helper(nameof(u));
            return await Load(u);
        }
    }

    public static class UserExtensions
    {
        public static string Shout(this User user) => user.Name;
        public static T Echo<T>(this T value) => value;
    }

    record Point(int X, Vector Y);
    struct Pair { }
    interface IRegistrar { void Register(string name); }
    enum Color { Red }
    delegate void Handler(Event e);
}
"""


def parsed():
    return csharp.parse("src/UserService.cs", SRC, "src.UserService")


def test_symbols_are_named_by_namespace():
    got = {s.qualified_name: s.kind for s in parsed().symbols}
    assert got == {
        "src.UserService": "module",
        "Shop.Services.UserService": "class", "Shop.Services.UserService.<init>": "method",
        "Shop.Services.UserService.Register": "method",
        "Shop.Services.UserExtensions": "class", "Shop.Services.UserExtensions.Shout": "method",
        "Shop.Services.UserExtensions.Echo": "method",
        "Shop.Services.Point": "class", "Shop.Services.Pair": "struct", "Shop.Services.IRegistrar": "interface",
        "Shop.Services.IRegistrar.Register": "method", "Shop.Services.Color": "enum",
        "Shop.Services.Handler": "type_alias",
    }
    pf = parsed()
    cls = pf.symbols[1]
    assert cls.docstring.strip().endswith("Registers users.</summary>") and cls.decorators == ["Service"]
    reg = next(s for s in pf.symbols if s.name == "Register" and s.kind == "method")
    assert reg.params == [("name", "String"), ("age", "Int32")] and reg.return_type == "User"
    assert reg.signature.startswith("public async Task<User> Register(string name, int age = 0)")
    shout = next(s for s in pf.symbols if s.name == "Shout")
    echo = next(s for s in pf.symbols if s.name == "Echo")
    assert shout.decorators == ["extension"] and shout.params == [("user", "User")]
    assert echo.decorators == ["extension"] and echo.params == [("value", "")]  # this T: any receiver


def test_file_scoped_namespace():
    pf = csharp.parse("a/B.cs", b"namespace A.B;\nclass C { void M() {} }\n", "a.B")
    assert [s.qualified_name for s in pf.symbols] == ["a.B", "A.B.C", "A.B.C.M"]
    outside = csharp.parse("a/B.cs", b"class C { }\n", "a.B")
    assert [s.qualified_name for s in outside.symbols] == ["a.B", "a.B.C"]  # the global namespace


def test_calls_imports_relations_bindings():
    pf = parsed()
    assert [(c.callee, c.kind, len(c.args)) for c in pf.calls] == [
        ("super().<init>", "call", 1), ("User", "new", 1), ("_repo.Save", "call", 1), ("this.Audit", "call", 1),
        ("super().Check", "call", 0), ("_repo.Flush", "call", 0), ("IFlusher().Flush", "call", 0),
        ("a.Promote", "call", 0), ("Helper", "call", 1), ("Load", "call", 1),
    ]
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [
        ("System", "*", None), ("System.Math", "*", None), ("Shop.Data", "MemoryRepo", "Repo")]
    assert [(r.target, r.kind) for r in pf.relations] == [("BaseService", "extends"), ("IRegistrar", "implements")]
    binds = {(b.name, b.annotation, b.value) for b in pf.bindings}
    assert {("self._repo", "IUserRepo", ""), ("_repo", "IUserRepo", ""), ("Log", "ILogger", ""),
            ("u", "", "User"), ("a", "Admin", ""), ("self.Y", "Vector", "")} <= binds
    kinds = {(t.type_name, t.kind) for t in pf.type_refs}
    assert {("IUserRepo", "field"), ("IUserRepo", "param"), ("User", "return"), ("User", "instantiation"),
            ("Event", "param"), ("Vector", "field")} <= kinds
    assert ("Task", "return") in kinds  # the wrapper is named; what it wraps is the return type


def test_bad_input_never_raises():
    pf = csharp.parse("x.cs", b"class { void (( }}} namespace", "x")
    assert pf.symbols[0].kind == "module" and pf.syntax_errors > 0


def test_dotnet_test_projects_are_test_code():
    assert is_test_path("src/FluentValidation.Tests/RuleTests.cs")
    assert is_test_path("test/MediatR.Tests/SendTests.cs")
    assert is_test_path("src/App.UnitTests.Core/Helpers.cs")
    assert is_test_path("src/App/ParserTests.cs")
    assert not is_test_path("src/App/Parser.cs")
    assert not is_test_path("src/App.Testing2/Parser.cs")


def _refs(db: Path) -> list[tuple[str, str, str]]:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT a.qualified_name, COALESCE(b.qualified_name, r.callee_name), r.resolution FROM symbol_refs r "
            "JOIN symbols a ON a.id = r.caller_id LEFT JOIN symbols b ON b.id = r.callee_id ORDER BY 1, 2").fetchall()
    finally:
        conn.close()


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")


def test_overloads_by_arity_and_outside_types(tmp_path):
    _write(tmp_path, {
        "src/Calc.cs": """
            using System.Text;
            namespace M
            {
                public class Calc
                {
                    public int Add(int a) => a;
                    public int Add(int a, int b) => a + b;
                    public int Add(int a, int b, int c = 0, params int[] more) => a;
                }
            }
            """,
        "src/Use.cs": """
            using System.Text;
            namespace M
            {
                class Use
                {
                    void Run(Calc c, StringBuilder sb)
                    {
                        c.Add(1);
                        c.Add(1, 2, 3, 4);
                        sb.Add(1, 2);
                    }
                }
            }
            """,
    })
    index_repo(tmp_path, workers=1)
    refs = [r for r in _refs(tmp_path / ".lore" / "index.db") if r[0] == "M.Use.Run"]
    import sqlite3

    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    lines = dict(conn.execute("SELECT s.start_line, s.id FROM symbols s WHERE s.name = 'Add' AND s.kind = 'method'"))
    got = conn.execute("SELECT r.line, s.start_line, r.resolution FROM symbol_refs r LEFT JOIN symbols s "
                       "ON s.id = r.callee_id WHERE r.callee_name LIKE '%Add' ORDER BY r.line").fetchall()
    conn.close()
    assert len(lines) == 3 and refs
    # c.Add(1) -> the one-parameter overload; c.Add(1, 2, 3, 4) -> the params one; a StringBuilder's Add is
    # System's, never the repository's method of that name
    assert got == [(9, 7, "annotated_type"), (10, 9, "annotated_type"), (11, 0, "external")]  # line 0: an external symbol


def test_extension_methods_partial_types_and_visibility(tmp_path):
    _write(tmp_path, {
        "src/Core/Widget.cs": """
            namespace Core
            {
                public partial class Widget
                {
                    public void Draw() { Paint(); }
                }
            }
            """,
        "src/Core/Widget.Paint.cs": """
            namespace Core
            {
                public partial class Widget
                {
                    private void Paint() { }
                }
            }
            """,
        "src/Core/WidgetExtensions.cs": """
            namespace Core
            {
                public static class WidgetExtensions
                {
                    public static void Spin(this Widget w) { w.Draw(); }
                }
            }
            """,
        "src/Other/Helpers.cs": """
            namespace Other
            {
                public static class Helpers
                {
                    public static void Spin(this object o) { }
                    public static void Only() { }
                }
            }
            """,
        "src/App/Main.cs": """
            using Core;
            namespace App
            {
                class Main
                {
                    void Run(Widget w, Gadget g)
                    {
                        w.Spin();
                        g.Only();
                    }
                }
            }
            """,
    })
    index_repo(tmp_path, workers=1)
    refs = _refs(tmp_path / ".lore" / "index.db")
    assert ("Core.Widget.Draw", "Core.Widget.Paint", "self_method") in refs  # the other part of a partial class
    assert ("App.Main.Run", "Core.WidgetExtensions.Spin", "annotated_type") in refs  # never Other's, not in sight
    # Helpers.Only lives in a namespace App does not use: a name guess never reaches it
    assert not [r for r in refs if r[0] == "App.Main.Run" and r[1] == "Other.Helpers.Only"]


def test_python_only_index_never_loads_the_csharp_grammar(tmp_path):
    """The grammar of a language is imported when a file of it is parsed, not when lore starts."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return g()\n\ndef g():\n    return 1\n")
    (tmp_path / "B.cs").write_text("class B { }\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_c_sharp" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_c_sharp" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]
