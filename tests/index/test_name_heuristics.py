"""The name heuristics for a call whose receiver's type is unknown (``x.m()``): code outside the tests
never binds into test code by a name, and methods of one name where one is defined in a class all the
others derive from stand for that one (the interface the call goes through)."""

from __future__ import annotations

import sqlite3

from lore import index_repo
from tests.conftest import write_tree

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
    root = write_tree(tmp_path / "repo", FILES)
    index_repo(root, db=tmp_path / "i.db", workers=1)
    conn = sqlite3.connect(tmp_path / "i.db")
    try:
        rows = conn.execute("""SELECT s.qualified_name, r.callee_name, t.qualified_name, r.resolution
                               FROM symbol_refs r JOIN symbols s ON s.id = r.caller_id
                               LEFT JOIN symbols t ON t.id = r.callee_id""").fetchall()
    finally:
        conn.close()
    out: dict[tuple[str, str], set[tuple[str | None, str]]] = {}
    for caller, callee, target, res in rows:
        out.setdefault((caller, callee), set()).add((target, res))
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
