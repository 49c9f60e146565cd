"""The name heuristics for a call whose receiver's type is unknown (``x.m()``): code outside the tests
never binds into test code by a name, and methods of one name where one is defined in a class all the
others derive from stand for that one (the interface the call goes through)."""

from __future__ import annotations

from .flow_helpers import index_graph

FILES = {
    "pkg/__init__.py": "",
    "pkg/params.py": """
        class Parameter:
            def get_default(self, ctx):
                return None
        class Option(Parameter):
            def get_default(self, ctx):
                return 1
        class Sibling:
            def push(self):
                pass
        class Other:
            def push(self):
                pass
        def resolve(param, ctx, thing):
            param.get_default(ctx)
            thing.push()
            thing.only_in_tests()
    """,
    "tests/test_params.py": """
        from pkg.params import Parameter
        class CustomParameter(Parameter):
            def get_default(self, ctx):
                return 2
        class Helper:
            def only_in_tests(self):
                pass
        def test_it(obj):
            obj.only_in_tests()
    """,
}


def _edges(tmp_path):
    g = index_graph(tmp_path, FILES)
    out: dict[tuple[str, str], set[tuple[str | None, str]]] = {}
    for r in g.callee_rows:
        out.setdefault((r["caller"], r["callee_name"]), set()).add((r["callee"], r["resolution"]))
    for caller, raw in g.unresolved:  # a call edge bound to nothing is an unresolved one
        out.setdefault((caller, raw), set()).add((None, "unresolved"))
    return out


def test_overrides_stand_for_the_method_they_override_and_tests_are_never_guessed(tmp_path):
    e = _edges(tmp_path)
    # Parameter, Option(Parameter) and the tests' CustomParameter(Parameter): the base's method
    assert e[("pkg.params.resolve", "param.get_default")] == {("pkg.params.Parameter.get_default", "unique_name")}
    # two unrelated classes: still one of two
    assert e[("pkg.params.resolve", "thing.push")] == {("pkg.params.Sibling.push", "ambiguous_name"),
                                                        ("pkg.params.Other.push", "ambiguous_name")}
    # only a test defines it: code outside the tests never calls into them
    assert e[("pkg.params.resolve", "thing.only_in_tests")] == {(None, "unresolved")}
    # test code may still call its own helpers by name
    assert e[("tests.test_params.test_it", "obj.only_in_tests")] == {("tests.test_params.Helper.only_in_tests", "same_file_name")}
