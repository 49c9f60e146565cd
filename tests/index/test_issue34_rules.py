"""Rules for Python code the resolver was never tuned on (issue 34), each with what must stay unbound.

Generic bases resolve to their origin class (``class String(Field[str])``); a class passed through a
function that hands its argument back stays that class; ``copy.copy`` / ``deepcopy`` /
``dataclasses.replace`` keep their argument's type; an attribute assigned in another method joins the
attribute's values.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

CASES: dict[str, Case] = {
    "a_subscripted_generic_base_is_its_origin_class": Case(
        {"m.py": dedent("""
            import typing
            from typing import Generic, TypeVar
            T = TypeVar("T")
            class Field(Generic[T]):
                def __init__(self, a):
                    pass
                def serialize(self):
                    pass
            class String(Field[str]):
                def __init__(self):
                    super().__init__(1)
            class Pair(typing.Generic[T], Field["int"]):
                pass
            def use(s: String, p: Pair):
                s.serialize()
                p.serialize()
        """)},
        expect={("m.String.__init__", "m.Field.__init__", RULE), ("m.use", "m.Field.serialize", RULE)},
    ),
    "a_generic_marker_answers_nothing_it_does_not_define": Case(
        {"m.py": dedent("""
            from typing import Generic, TypeVar
            T = TypeVar("T")
            class Box(Generic[T]):
                pass
            class Other:
                def unpack(self):
                    pass
            def use(b: Box):
                b.unpack()
        """)},
        forbid={("m.use", "m.Other.unpack")},
    ),
    "a_decorated_class_stays_the_class": Case(
        {"m.py": dedent("""
            def define(maybe_cls=None, *, frozen=False):
                def wrap(cls):
                    return Builder(cls).build()
                if maybe_cls is None:
                    return wrap
                return wrap(maybe_cls)
            class Builder:
                def __init__(self, cls):
                    self._cls = cls
                def build(self):
                    return self._patch()
                def _patch(self):
                    return type(self._cls)(self._cls.__name__, (), {})
            @define
            class C:
                def __init__(self, x):
                    self.x = x
            def make():
                return C(1)
        """)},
        expect={("m.make", "m.C.__init__", RULE)},
        forbid={("m.make", "m.define.wrap")},
    ),
    "a_function_decorator_still_wraps": Case(
        {"m.py": dedent("""
            def trace(fn):
                def inner(*a):
                    return fn(*a)
                return inner
            @trace
            def work(x):
                pass
            def main():
                work(1)
        """)},
        expect={("m.main", "m.trace.inner", "decorator_flow"), ("m.trace.inner", "m.work", RULE)},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_issue34_rules(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
