"""Types that travel, and no invented edges.

Receivers typed by class-body attributes, annotations and returns; method lookup through a real C3
MRO; ``super()`` in multiple inheritance; star imports that shadow; nested classes; inherited
constructors; ``@overload`` and ``.pyi`` stubs beside their implementation. Then what must never be
made up: external symbols for members of unknown values, self-loops by name, project methods bound
by name to values of an external type.
"""

from __future__ import annotations

import pytest

from .flow_helpers import RULE, Case, check, index_graph

TYPES: dict[str, Case] = {
    "an_attribute_typed_by_another_attribute_of_the_same_class": Case(
        {"m.py": """
            class Base:
                def add_edge(self): pass
            class Tester:
                def setup_method(self):
                    class MyGraph(Base):
                        def factory(self): pass
                    self.Graph = MyGraph
                    self.K3 = self.Graph()
                def test_k3(self):
                    self.K3.factory()
                    self.K3.add_edge()
        """},
        expect={("m.Tester.test_k3", "m.Tester.setup_method.MyGraph.factory", RULE),
                ("m.Tester.test_k3", "m.Base.add_edge", RULE)},
    ),
    "a_class_attribute_annotated_type_of_x": Case(
        {"m.py": """
            import typing as t
            class Response:
                def __init__(self, body=None): pass
            class Formatter:
                def write(self): pass
            class App:
                response_class: type[Response] = Response
                formatter_class: t.ClassVar[t.Type["Formatter"]] = Formatter
                def make(self):
                    self.response_class()
                    self.formatter_class().write()
        """},
        expect={("m.App.make", "m.Response.__init__", RULE), ("m.App.make", "m.Formatter.write", RULE)},
    ),
    "typing_cast_names_the_type": Case(
        {"m.py": """
            import typing as t
            from typing import cast
            class Multi:
                def list_commands(self): pass
            def f(ctx):
                m = t.cast(Multi, ctx.command)
                m.list_commands()
                n = cast("Multi", ctx)
                n.list_commands()
        """},
        expect={("m.f", "m.Multi.list_commands", "annotated_type")},
    ),
    "a_class_body_manager": Case(
        {"m.py": """
            class Manager:
                def filter(self): pass
            class Model:
                objects = Manager()
            def query(): Model.objects.filter()
        """},
        expect={("m.query", "m.Manager.filter", RULE)},
    ),
    "an_attribute_from_init": Case(
        {"m.py": """
            class Conn:
                def close(self): pass
            class Client:
                def __init__(self):
                    self.conn = Conn()
                def stop(self):
                    self.conn.close()
        """},
        expect={("m.Client.stop", "m.Conn.close", "constructor_type")},
    ),
    "a_callee_return_annotation": Case(
        {"m.py": """
            class Conn:
                def close(self): pass
            def connect() -> "Conn": ...
            def main():
                c = connect()
                c.close()
        """},
        expect={("m.main", "m.Conn.close", RULE)},
    ),
    "tuple_unpacked_from_a_call": Case(
        {"m.py": """
            import typing as t
            class Conn:
                def close(self): pass
            class Cursor:
                def fetch(self): pass
            def open_both():
                conn = Conn()
                return conn, Cursor()
            def annotated() -> t.Tuple[t.Optional[str], "Cursor"]: ...
            def many() -> "tuple[Conn, ...]": ...
            def one():
                return Conn()
            def main():
                c, cur = open_both()
                c.close()
                cur.fetch()
                name, cur2 = annotated()
                cur2.fetch()
                x, y, z = many()
                z.close()
            def never():
                a, b = one()
                a.close()
                p, q, r = open_both()
                r.close()
                first, *rest = open_both()
                first.close()
        """},
        # one() returns no tuple, open_both() has no third element, a starred target shifts positions:
        # no rule binds those (only the labelled name guess, same_file_name)
        expect={("m.main", "m.Conn.close", RULE), ("m.main", "m.Cursor.fetch", RULE),
                ("m.never", "m.Conn.close", "same_file_name")},
    ),
    "a_rebinding_reads_the_value_before_it": Case(
        {"m.py": """
            class Request:
                def prepare(self): return Prepared()
            class Prepared:
                def send(self): pass
            class Session:
                def send(self, p): return Response()
            class Response:
                def json(self): pass
            def main(s: Session):
                r = Request()
                r = s.send(r.prepare())
                r.json()
                y = Response(); y.json()
        """},
        # r.prepare() reads r before its own line rebinds it; a binding alone on its line still counts
        expect={("m.main", "m.Request.prepare", RULE), ("m.main", "m.Response.json", RULE)},
        forbid={("m.main", "m.Prepared.send")},
    ),
    "a_marker_base_before_a_project_base": Case(
        {"m.py": """
            import typing
            from abc import ABC
            class Base:
                def add_edge(self): pass
            class Mixin(typing.Protocol):
                def extra(self): pass
            class G(Mixin, Base):
                pass
            class K(ABC, Base):
                pass
            def main():
                G().add_edge()
                K().add_edge()
                G().missing()
        """},
        # Protocol and ABC give a class no methods: the lookup goes on to Base, and a name nobody
        # defines is never made up as typing.Protocol.missing
        expect={("m.main", "m.Base.add_edge", RULE)},
        forbid={("m.main", "typing.Protocol.add_edge"), ("m.main", "abc.ABC.add_edge"),
                ("m.main", "typing.Protocol.missing")},
        unresolved={("m.main", "G().missing")},
    ),
    "return_of_a_constructor": Case(
        {"m.py": """
            class Conn:
                def close(self): pass
            def connect():
                return Conn()
            def main(): connect().close()
        """},
        expect={("m.main", "m.Conn.close", RULE)},
    ),
    "c3_mro_of_a_diamond": Case(
        {"m.py": """
            class A:
                def func(self): pass
            class B(A): pass
            class C(A):
                def func(self): pass
            class D(B, C): pass
            def main(): D().func()
        """},
        expect={("m.main", "m.C.func", RULE)},
        forbid={("m.main", "m.A.func")},
    ),
    "super_in_a_mixin_follows_the_instance_mro": Case(
        {"m.py": """
            class Base:
                def save(self): pass
            class LoggingMixin:
                def save(self):
                    super().save()
            class Model(LoggingMixin, Base): pass
            def main(): Model().save()
        """},
        expect={("m.LoggingMixin.save", "m.Base.save", "self_method"), ("m.main", "m.LoggingMixin.save", RULE)},
        forbid={("m.LoggingMixin.save", "m.LoggingMixin.save")},
    ),
    "super_in_a_diamond": Case(
        {"m.py": """
            class Base:
                def save(self): pass
            class Left(Base):
                def save(self):
                    super().save()
            class Right(Base):
                def save(self):
                    super().save()
            class Both(Left, Right): pass
        """},
        expect={("m.Left.save", "m.Base.save", "self_method"), ("m.Left.save", "m.Right.save", "self_method"),
                ("m.Right.save", "m.Base.save", "self_method")},
        forbid={("m.Left.save", "m.Left.save"), ("m.Right.save", "m.Left.save")},
    ),
    "super_of_a_class_shadowing_its_base": Case(
        {"a.py": """
            class Foo:
                def m(self): pass
        """, "b.py": """
            from a import Foo
            class Foo(Foo):
                def m(self):
                    super().m()
        """},
        expect={("b.Foo.m", "a.Foo.m", "self_method")},
        forbid={("b.Foo.m", "b.Foo.m")},
    ),
    "a_later_star_import_shadows_an_earlier_one": Case(
        {"a.py": "def f(): pass\n", "b.py": "def f(): pass\n", "m.py": """
            from a import *
            from b import *
            def main(): f()
        """},
        expect={("m.main", "b.f", "import")},
        forbid={("m.main", "a.f")},
    ),
    "nested_classes": Case(
        {"m.py": """
            class Outer:
                class Inner:
                    def m(self): pass
                def make(self):
                    return Outer.Inner()
            def main():
                Outer.Inner().m()
                Outer().make().m()
        """},
        expect={("m.main", "m.Outer.Inner.m", RULE)},
    ),
    "an_inherited_constructor": Case(
        {"m.py": """
            class Base:
                def __init__(self): pass
            class Child(Base): pass
            class GrandChild(Child): pass
            def main():
                Child()
                GrandChild()
        """},
        expect={("m.main", "m.Base.__init__", RULE)},
    ),
    "a_template_method_defined_in_subclasses": Case(
        {"m.py": """
            class A:
                def func(self):
                    self.child()
            class B(A):
                def child(self): pass
            class C(A):
                def child(self): pass
        """},
        expect={("m.A.func", "m.B.child", "self_method"), ("m.A.func", "m.C.child", "self_method")},
    ),
}


def _line_of(g, qname: str, path: str | None = None, *, last: bool = True) -> int:
    lines = sorted(s["start_line"] for s in g.symbols if s["qualified_name"] == qname and (path is None or s["path"] == path))
    return lines[-1] if last else lines[0]


def test_overload_answers_the_implementation(tmp_path):
    g = index_graph(tmp_path, {"m.py": """
        from typing import overload
        @overload
        def conv(x: int) -> int: ...
        @overload
        def conv(x: str) -> str: ...
        def conv(x):
            return x
        class K:
            @overload
            def get(self, x: int) -> int: ...
            @overload
            def get(self, x: str) -> str: ...
            def get(self, x):
                return x
        def main():
            conv(1)
            K().get(1)
    """})
    rows = [r for r in g.callee_rows if r["caller"] == "m.main" and r["callee"] in ("m.conv", "m.K.get")]
    assert sorted((r["callee"], r["callee_line"]) for r in rows) == [("m.K.get", 13), ("m.conv", 6)]


def test_a_stub_beside_its_module_answers_the_implementation(tmp_path):
    g = index_graph(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def f():\n    pass\n",
        "pkg/mod.pyi": "def f() -> None: ...\n",
        "app.py": "from pkg.mod import f\n\ndef main():\n    f()\n",
    })
    paths = {r["callee_path"] for r in g.callee_rows if r["caller"] == "app.main"}
    assert paths == {"pkg/mod.py"}


NO_INVENTION: dict[str, Case] = {
    "an_attribute_the_subclass_sets_is_not_the_external_bases": Case(
        {"m.py": """
            import threading
            def make():
                return object()
            class Server(threading.Thread):
                def __init__(self, handler):
                    super().__init__()
                    self.handler = handler[0]
                def run(self):
                    self.handler(1)
                    self.start()
        """},
        expect={("m.Server.run", "threading.Thread.start", "external")},
        forbid={("m.Server.run", "threading.Thread.handler")},
        unresolved={("m.Server.run", "self.handler")},
    ),
    "a_member_of_an_unknown_attribute_of_an_external_base": Case(
        {"m.py": """
            import unittest
            class T(unittest.TestCase):
                def test_x(self):
                    self.client.get("/")
                    self.client.login()
                    self.assertEqual(1, 1)
            class Other:
                def login(self): pass
        """},
        expect={("m.T.test_x", "unittest.TestCase.assertEqual", "external")},
        forbid={("m.T.test_x", "m.Other.login")},
        unresolved={("m.T.test_x", "self.client.get"), ("m.T.test_x", "self.client.login")},
    ),
    "no_self_loop_by_name": Case(
        {"m.py": """
            def get_backends(): return []
            def authenticate(request, **credentials):
                for backend in get_backends():
                    backend.authenticate(request, **credentials)
        """},
        forbid={("m.authenticate", "m.authenticate")},
        unresolved={("m.authenticate", "backend.authenticate")},
    ),
    "values_of_an_external_type_are_not_bound_by_name": Case(
        {"m.py": """
            import re
            class Parser:
                def group(self): pass
                def write(self): pass
                def match(self): pass
            def main(text, path):
                m = re.match("a", text)
                m.group(0)
                m.match()
                with open(path) as fh:
                    fh.write("x")
                out = open(path, "w")
                out.write("y")
        """},
        forbid={("m.main", "m.Parser.group"), ("m.main", "m.Parser.write"), ("m.main", "m.Parser.match")},
        unresolved={("m.main", "m.group"), ("m.main", "fh.write"), ("m.main", "out.write"), ("m.main", "m.match")},
    ),
    "external_symbols_only_where_an_import_proves_the_module": Case(
        {"m.py": """
            import os
            def main(x):
                x.foo.bar()
                os.path.join("a", "b")
        """},
        expect={("m.main", "os.path.join", "external")},
        unresolved={("m.main", "x.foo.bar")},
    ),
}


# not resolved yet (removed one by one)
PENDING: set[str] = set()
for _cases in (TYPES, NO_INVENTION):
    for _name in PENDING & set(_cases):
        _cases[_name].xfail = _cases[_name].xfail or "not resolved yet"


def _params(cases):
    for name, case in cases.items():
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_params(TYPES)))
def test_type_flow(tmp_path, name):
    case = TYPES[name]
    check(index_graph(tmp_path, case.files), case)


@pytest.mark.parametrize("name", list(_params(NO_INVENTION)))
def test_no_invented_edges(tmp_path, name):
    case = NO_INVENTION[name]
    g = index_graph(tmp_path, case.files)
    check(g, case)
    invented = [s["qualified_name"] for s in g.symbols
                if s["kind"] == "external" and (".client" in s["qualified_name"] or s["qualified_name"].startswith("x."))]
    assert not invented


def test_stats_report_calls_by_strength_and_callers_say_what_is_missing(tmp_path):
    from lore import lore_graph, open_index
    from tests.conftest import write_tree

    root = write_tree(tmp_path / "repo", {"m.py": """
        import os
        class QuerySet:
            def filter(self): pass
        class Other:
            def filter(self): pass
        class Third:
            def filter(self): pass
        class Fourth:
            def filter(self): pass
        class Fifth:
            def filter(self): pass
        def f(qs: QuerySet, anything):
            qs.filter()
            anything.filter()
            anything.rows.filter()
            os.path.join("a")
            helper()
        def helper(): pass
    """})
    from lore import index_repo

    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    with open_index(db, readonly=True) as idx:
        stats = idx.stats()
        out = lore_graph(idx, kind="callers", source_id="m.QuerySet.filter")
        call = lore_graph(idx, kind="call", source_id="m.f")
    by = stats["calls_by_strength"]
    assert set(by) == {"rule", "heuristic", "ambiguous", "external", "unresolved"}
    assert by["rule"] >= 2 and by["external"] >= 1 and by["unresolved"] >= 2
    assert sum(by.values()) == stats["edges"]["symbol_refs"]["total"]
    assert [r["qualified_name"] for r in out["results"] if r["qualified_name"] == "m.f"]
    assert out["unresolved_same_name"] == 2  # anything.filter(), anything.rows.filter(): 5 candidates, unknown
    assert call["unresolved_same_name"] == 0  # nothing else named f stayed unresolved


def test_a_class_attribute_naming_a_class_is_found_before_an_external_base(tmp_path):
    g = index_graph(tmp_path, {"m.py": """
        import unittest
        class Client:
            def get(self): pass
        class T(unittest.TestCase):
            client_class = Client
            def setUp(self):
                self.client = self.client_class()
            def test(self):
                self.client.get()
    """})
    assert g.has("m.T.setUp", "m.Client", RULE)  # no __init__: the call binds to the class
    assert g.has("m.T.test", "m.Client.get", RULE)
    assert not [s for s in g.symbols if s["qualified_name"].startswith("unittest.TestCase.client")]


def test_cast_by_a_function_that_is_not_typings_names_no_type(tmp_path):
    g = index_graph(tmp_path, {"m.py": """
        class Multi:
            def list_commands(self): pass
        def cast(kind, value):
            return value
        def f(ctx):
            m = cast(Multi, ctx)
            m.list_commands()
    """})
    assert g.has("m.f", "m.cast", RULE)
    assert "annotated_type" not in g.resolutions("m.f", "m.Multi.list_commands")


def test_a_tuple_element_nobody_returns_is_never_bound_by_a_rule(tmp_path):
    g = index_graph(tmp_path, TYPES["tuple_unpacked_from_a_call"].files)
    assert g.resolutions("m.never", "m.Conn.close") == {"same_file_name"}


def test_same_name_sites_count_only_the_seed_language(tmp_path):
    """Issue 34: a JavaScript ``rows.filter(...)`` is no missing caller of a Python ``QuerySet.filter``."""
    from lore import index_repo, lore_graph, open_index
    from tests.conftest import write_tree

    root = write_tree(tmp_path / "repo", {
        "m.py": """
            class QuerySet:
                def filter(self): pass
            class Other:
                def filter(self): pass
            class Third:
                def filter(self): pass
            class Fourth:
                def filter(self): pass
            class Fifth:
                def filter(self): pass
            def f(anything):
                anything.filter()
        """,
        "app.js": """
            export function pick(rows) {
                return rows.filter((r) => r.ok).filter(Boolean);
            }
        """,
    })
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    with open_index(db, readonly=True) as idx:
        out = lore_graph(idx, kind="callers", source_id="m.QuerySet.filter")
        js = idx.conn.execute("SELECT COUNT(*) FROM symbol_refs WHERE callee_id IS NULL AND callee_name LIKE '%filter'"
                              ).fetchone()[0]
    assert js >= 2  # the JavaScript sites are there, unresolved
    assert out["unresolved_same_name"] == 1  # only anything.filter() in Python (5 candidates: unbound)
