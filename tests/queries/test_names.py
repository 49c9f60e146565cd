"""Naming a symbol as its language's users write it (lore.queries._naming), on one small project per
language: the qualified name, public re-exports, Go packages, unique suffixes, C global names, C++
``ns::Class::method``, ``path:line``; an ambiguous name lists its candidates, never picks one."""

from __future__ import annotations

import pytest

from lore import index_repo, open_index
from lore.errors import AmbiguousSymbolError, UnknownSymbolError
from lore.queries._naming import find_symbols

from ..conftest import write_tree

PROJECT = {
    # Python: a package that re-exports from its __init__ (with __all__), a stub, overloads
    "pkg/__init__.py": """
        from .sessions import Session
        from .api import get as get
        from .sub.util import helper as assist
        from .models import *

        __all__ = ["Session", "get", "assist", "Model"]
    """,
    "pkg/sessions.py": """
        class Session:
            def request(self, method):
                return method

            def get(self, url):
                return self.request(url)
    """,
    "pkg/sessions.pyi": """
        class Session:
            def request(self, method: str) -> str: ...
    """,
    "pkg/api.py": """
        from typing import overload

        from .sessions import Session


        def get(url):
            return Session().get(url)


        @overload
        def fetch(x: int) -> int: ...
        @overload
        def fetch(x: str) -> str: ...
        def fetch(x):
            return x
    """,
    "pkg/models.py": """
        class Model:
            def save(self):
                pass
    """,
    "pkg/sub/__init__.py": "",
    "pkg/sub/util.py": """
        def helper():
            pass
    """,
    # Go: a module whose root package is imported by another package of it
    "gosrc/go.mod": "module github.com/acme/cobra\n\ngo 1.21\n",
    "gosrc/command.go": """
        package cobra

        type Command struct{ Use string }

        func (c *Command) Execute() error { return c.run() }

        func (c *Command) run() error { return nil }
    """,
    "gosrc/doc/gen.go": """
        package doc

        import "github.com/acme/cobra"

        func GenTree(c *cobra.Command) error { return c.Execute() }
    """,
    # C: kfree defined in two .c files (two configurations) and prototyped in a header
    "csrc/include/slab.h": """
        void kfree(const void *p);
        void kmalloc_init(void);
        static inline int slab_helper(int x) { return x; }
    """,
    "csrc/mm/slab_common.c": """
        #include "slab.h"
        void kfree(const void *p) { }
        void kmalloc_init(void) { }
        static void flush(void) { kfree(0); }
    """,
    "csrc/mm/slob.c": """
        #include "slab.h"
        void kfree(const void *p) { }
        void schedule(void) { kfree(0); }
        static void flush(void) { schedule(); }
    """,
    # C++: a method declared in a class and defined out of line
    "cpp/widget.cpp": """
        namespace gfx {
        class Canvas {
         public:
          int draw(int x);
        };
        int Canvas::draw(int x) { return x; }
        }
    """,
    # TypeScript: a barrel
    "web/src/lib/widget.ts": """
        export class Widget { render(): string { return "w"; } }
        export function makeWidget(): Widget { return new Widget(); }
    """,
    "web/src/index.ts": """
        export * from "./lib/widget";
        export { makeWidget as create } from "./lib/widget";
    """,
}


@pytest.fixture(scope="module")
def names_index(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("names") / "proj", PROJECT)
    index_repo(root, clusters=False)
    with open_index(root, readonly=True) as idx:
        yield idx


def qname(idx, ref) -> str:
    return idx.symbol(ref)["qualified_name"]


@pytest.mark.parametrize(("ref", "expected"), [
    ("pkg.sessions.Session.request", "pkg.sessions.Session.request"),  # the qualified name
    ("pkg.Session", "pkg.sessions.Session"),  # re-exported by the package __init__
    ("pkg.Session.request", "pkg.sessions.Session.request"),  # a member through the re-export
    ("pkg.get", "pkg.api.get"),  # `import x as x`
    ("pkg.assist", "pkg.sub.util.helper"),  # an alias
    ("pkg.Model.save", "pkg.models.Model.save"),  # through a star import
    ("pkg.api.Session", "pkg.sessions.Session"),  # any module's module-level import
    ("Session.request", "pkg.sessions.Session.request"),  # a unique suffix (the .pyi copy folds in)
    ("Session", "pkg.sessions.Session"),
    ("fetch", "pkg.api.fetch"),  # @overload copies fold into the implementation
])
def test_python_names(names_index, ref, expected):
    assert qname(names_index, ref) == expected
    assert names_index.symbol(ref)["path"].endswith(".py")  # never the stub, never an overload
    if ref == "fetch":
        assert names_index.symbol(ref)["line"] == 14  # the implementation, after the two overloads


@pytest.mark.parametrize("ref", [
    "github.com/acme/cobra.Command.Execute",  # the import path, as Go code writes it
    "cobra.Command.Execute",  # the package name
    "Command.Execute",  # a unique suffix
    "gosrc.command.Command.Execute",  # the stored qualified name
])
def test_go_names(names_index, ref):
    assert qname(names_index, ref) == "gosrc.command.Command.Execute"


def test_go_subpackage_and_a_file_that_is_not_a_name(names_index):
    assert qname(names_index, "github.com/acme/cobra/doc.GenTree") == "gosrc.doc.gen.GenTree"
    assert qname(names_index, "doc.GenTree") == "gosrc.doc.gen.GenTree"
    assert qname(names_index, "cobra.Command") == "gosrc.command.Command"


def test_c_global_names(names_index):
    assert qname(names_index, "schedule") == "csrc.mm.slob.schedule"
    # the definition, not the header prototype beside it
    assert qname(names_index, "kmalloc_init") == "csrc.mm.slab_common.kmalloc_init"
    assert qname(names_index, "slab_helper") == "csrc.include.slab.slab_helper"  # a static inline in a header
    # two definitions of one global name (two configurations): an ambiguity that names both, not the prototype
    with pytest.raises(AmbiguousSymbolError) as exc:
        names_index.symbol("kfree")
    assert [c["qualified_name"] for c in exc.value.candidates] == ["csrc.mm.slab_common.kfree", "csrc.mm.slob.kfree"]
    assert [c["at"] for c in exc.value.candidates] == ["csrc/mm/slab_common.c:2", "csrc/mm/slob.c:2"]
    assert qname(names_index, "mm.slob.kfree") == "csrc.mm.slob.kfree"  # a longer suffix settles it
    # two static functions of one name are two functions
    with pytest.raises(AmbiguousSymbolError, match="csrc.mm.slob.flush"):
        names_index.symbol("flush")


def test_cpp_names(names_index):
    assert qname(names_index, "gfx::Canvas::draw") == "cpp.widget.gfx.Canvas.draw"
    assert qname(names_index, "::gfx::Canvas") == "cpp.widget.gfx.Canvas"
    assert qname(names_index, "Canvas::draw") == "cpp.widget.gfx.Canvas.draw"


@pytest.mark.parametrize(("ref", "expected"), [
    ("web.src.Widget", "web.src.lib.widget.Widget"),  # export * from, the index file standing for its directory
    ("web.src.index.Widget", "web.src.lib.widget.Widget"),
    ("web.src.create", "web.src.lib.widget.makeWidget"),  # export { a as b } from
    ("web.src.Widget.render", "web.src.lib.widget.Widget.render"),
    ("Widget.render", "web.src.lib.widget.Widget.render"),
])
def test_typescript_barrel(names_index, ref, expected):
    assert qname(names_index, ref) == expected


@pytest.mark.parametrize(("ref", "expected", "form"), [
    ("web/src/lib/widget.makeWidget", "web.src.lib.widget.makeWidget", "module_path"),  # as an import writes it
    ("./web/src/lib/widget.Widget.render", "web.src.lib.widget.Widget.render", "module_path"),
    ("web/src.create", "web.src.lib.widget.makeWidget", "module_path"),  # the directory's index re-exports it
    ("web/src/lib/widget.ts:Widget.render", "web.src.lib.widget.Widget.render", "path_name"),  # a file and a name in it
    ("lib/widget.ts:makeWidget", "web.src.lib.widget.makeWidget", "path_name"),  # a unique end of the path
    ("web/src/index.ts:create", "web.src.lib.widget.makeWidget", "path_name"),  # re-exported by the file
    ("pkg/api.py:get", "pkg.api.get", "path_name"),
    ("Widget#render", "web.src.lib.widget.Widget.render", "suffix"),  # JSDoc: an instance member
    ("module:web/src/lib/widget.makeWidget", "web.src.lib.widget.makeWidget", "module_path"),  # JSDoc module namepath
])
def test_typescript_names_as_users_write_them(names_index, ref, expected, form):
    assert qname(names_index, ref) == expected
    assert find_symbols(names_index.conn, ref).form == form


def test_a_file_and_a_name_it_lacks_is_unknown(names_index):
    assert find_symbols(names_index.conn, "web/src/lib/widget.ts:nothing") is None
    assert find_symbols(names_index.conn, "web/src/lib/nowhere.ts:Widget") is None


def test_the_form_that_found_a_name(names_index):
    forms = {ref: find_symbols(names_index.conn, ref).form for ref in
             ("pkg.api.get", "pkg.Session", "cobra.Command.Execute", "Session.request", "pkg/api.py:7")}
    assert forms == {"pkg.api.get": "qualified_name", "pkg.Session": "reexport", "cobra.Command.Execute": "reexport",
                     "Session.request": "suffix", "pkg/api.py:7": "path_line"}
    sid = names_index.symbol("pkg.api.get")["id"]
    assert find_symbols(names_index.conn, sid).form == "id" and names_index.resolve_ref(str(sid)) == sid


def test_an_ambiguous_name_lists_every_candidate(names_index):
    with pytest.raises(AmbiguousSymbolError) as exc:
        names_index.symbol("get")
    err = exc.value
    assert isinstance(err, UnknownSymbolError) and err.ref == "get" and err.total == 2
    lines = str(err).splitlines()
    assert lines[0].startswith("ambiguous symbol 'get': 2 symbols answer to that name")
    assert lines[1:] == [
        f"  pkg.api.get  function  pkg/api.py:6  id {names_index.symbol('pkg.api.get')['id']}",
        f"  pkg.sessions.Session.get  method  pkg/sessions.py:5  id {names_index.symbol('Session.get')['id']}",
    ]


def test_a_qualified_name_several_symbols_share_is_ambiguous(tmp_path):
    root = write_tree(tmp_path / "dup", {"a/x.go": "package a\n\nfunc Run() {}\n",
                                         "b/x.go": "package b\n\nfunc Run() {}\n",
                                         "m.py": "if True:\n    def f():\n        pass\nelse:\n    def f():\n        pass\n"})
    index_repo(root, clusters=False)
    with open_index(root, readonly=True) as idx:
        with pytest.raises(AmbiguousSymbolError, match="a.x.Run") as exc:
            idx.symbol("Run")
        assert len(exc.value.candidates) == 2
        assert idx.symbol("a.Run")["qualified_name"] == "a.x.Run"  # the package name settles it
        # one file's redefinition of a Python name: the last one runs, as the resolver binds it
        assert idx.symbol("m.f")["line"] == 5


@pytest.mark.parametrize(("ref", "expected"), [
    ("pkg/sessions.py:3", "pkg.sessions.Session.request"),  # the innermost definition
    ("pkg/sessions.py:1", "pkg.sessions.Session"),
    ("./pkg/sessions.py:6", "pkg.sessions.Session.get"),
    ("sessions.py:3", "pkg.sessions.Session.request"),  # a unique end of the indexed paths
    ("csrc/mm/slob.c:3", "csrc.mm.slob.schedule"),
])
def test_path_line(names_index, ref, expected):
    assert qname(names_index, ref) == expected


def test_path_line_errors(names_index):
    with pytest.raises(UnknownSymbolError, match="past the end of pkg/sessions.py"):
        names_index.symbol("pkg/sessions.py:999")
    with pytest.raises(UnknownSymbolError, match="no indexed file 'nowhere.py'"):
        names_index.symbol("nowhere.py:3")
    with pytest.raises(AmbiguousSymbolError, match="pkg/sub/__init__.py:1"):  # two files end with that path
        names_index.symbol("__init__.py:1")


def test_unknown_names_still_suggest(names_index):
    with pytest.raises(UnknownSymbolError, match=r"did you mean pkg.sessions.Session.request \(id") as exc:
        names_index.symbol("Session.requst")
    assert not isinstance(exc.value, AmbiguousSymbolError)
    with pytest.raises(UnknownSymbolError, match=r"did you mean gosrc.command.Command.Execute \(id"):
        names_index.symbol("cobra.Command.Exeute")


def test_names_are_read_through_indexes(names_index):
    """Every statement that names a symbol or proposes names reads an index of the symbols and imports,
    never the whole table: what keeps naming fast on an index of a million symbols
    (benchmarks/perf/bench_names.py measures it)."""
    from lore.queries._names import closest_symbols

    conn = names_index.conn
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        for ref in ("pkg.sessions.Session", "pkg.Session.request", "pkg.Model.save", "Session.request",
                    "cobra.Command.Execute", "github.com/acme/cobra/doc.GenTree", "gfx::Canvas::draw",
                    "pkg/sessions.py:3", "sessions.py:3"):
            names_index.resolve_ref(ref)
        for typed in ("Sesion.request", "helpr", "pkg.sessions.Sessionn", "cobra.Command.Exeute"):
            assert closest_symbols(conn, typed)[0]
    finally:
        conn.set_trace_callback(None)
    plans = {sql: [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
             for sql in statements if sql.lstrip().upper().startswith("SELECT")}
    assert len(plans) > 10
    for sql, plan in plans.items():
        scans = [step for step in plan if step.startswith("SCAN") and "COVERING INDEX" not in step]
        # the file table alone may be scanned: a path's end (`sessions.py:3`) has no index; it is small
        assert all(step.startswith("SCAN files") for step in scans), (sql, plan)
        assert not any(step.startswith("SCAN") and "symbols" in step for step in plan), (sql, plan)


def test_a_suffix_hundreds_of_symbols_share_is_counted_and_the_first_listed(tmp_path):
    from lore.queries._naming import MAX_ROWS

    n = MAX_ROWS + 7
    source = "".join(f"class C{i}:\n    def run(self):\n        pass\n\n" for i in range(n))
    root = write_tree(tmp_path / "many", {"big.py": source})
    index_repo(root, clusters=False)
    with open_index(root, readonly=True) as idx:
        with pytest.raises(AmbiguousSymbolError) as exc:
            idx.symbol("run")
    assert exc.value.total == n and len(exc.value.candidates) == MAX_ROWS
    lines = str(exc.value).splitlines()
    assert lines[0].startswith(f"ambiguous symbol 'run': {n} symbols answer to that name")
    assert lines[1].startswith("  big.C0.run  method  big.py:2  id ")
    assert lines[-1] == f"  ... and {n - AmbiguousSymbolError.SHOWN} more (give more of the qualified name)"
    assert len(lines) == AmbiguousSymbolError.SHOWN + 2


JAVA_RUST = {
    "src/main/java/org/demo/Node.java": """\
        package org.demo;
        public class Node {
            public String outerHtml() { return ""; }
            public static class Settings { public int indent() { return 0; } }
        }
        """,
    "demo_crate/Cargo.toml": '[package]\nname = "demo_crate"\n',
    "demo_crate/src/lib.rs": "pub mod memmem;\npub fn top() {}\n",
    "demo_crate/src/memmem/mod.rs": "pub struct Finder;\nimpl Finder { pub fn find(&self) {} }\n",
}


@pytest.mark.parametrize(("ref", "expected"), [
    ("org.demo.Node.outerHtml", "src.main.java.org.demo.Node.Node.outerHtml"),  # package, class, member
    ("org.demo.Node.Settings.indent", "src.main.java.org.demo.Node.Node.Settings.indent"),
    ("Node.outerHtml", "src.main.java.org.demo.Node.Node.outerHtml"),
    ("crate::memmem::Finder::find", "demo_crate.src.memmem.mod.Finder.find"),  # mod.rs holds memmem
    ("demo_crate::memmem::Finder::find", "demo_crate.src.memmem.mod.Finder.find"),  # the crate's folder
    ("crate::top", "demo_crate.src.lib.top"),  # lib.rs holds the crate root's items
    ("Finder::find", "demo_crate.src.memmem.mod.Finder.find"),
])
def test_java_and_rust_names_as_their_users_write_them(tmp_path, ref, expected):
    root = write_tree(tmp_path / "proj", JAVA_RUST)
    index_repo(root, clusters=False)
    with open_index(root, readonly=True) as idx:
        assert qname(idx, ref) == expected


def test_a_private_member_is_named_by_its_own_name(tmp_path):
    """``Ser.#serialize`` names the private method; ``Ser#serialize`` (JSDoc) the public one beside it."""
    write_tree(tmp_path, {"src/priv.ts": """
        export class Ser {
          #serialize(x: number) { return x }
          serialize(x: number) { return this.#serialize(x) }
        }
    """})
    index_repo(tmp_path, workers=1)
    with open_index(tmp_path, readonly=True) as idx:
        assert qname(idx, "src.priv.Ser.#serialize") == "src.priv.Ser.#serialize"
        assert qname(idx, "Ser#serialize") == "src.priv.Ser.serialize"
