"""Rules for Python code the resolver was never tuned on (issue 34), each with what must stay unbound.

Generic bases resolve to their origin class (``class String(Field[str])``); a decorated class stays the
class; ``x.m()`` on a class that is closed (every ancestor known) and lacks ``m`` is no guess; a class
passed through a function that hands its argument back stays that class; ``copy.copy`` / ``deepcopy`` /
``dataclasses.replace`` keep their argument's type; ``next`` / ``iter`` / ``sorted`` / ``deque`` and
comprehensions carry their elements (a comprehension's variable only on its own lines).
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
    "a_subscripted_generic_class_called_is_the_class": Case(
        {"m.py": dedent("""
            from typing import Generic, TypeVar
            T = TypeVar("T")
            class RunVar(Generic[T]):
                def get(self):
                    pass
            class Other:
                def get(self):
                    pass
            HANDLERS = {"a": Other}
            def use(key):
                t1 = RunVar[str]("x")
                t1.get()
                HANDLERS[key]().get()
        """)},
        expect={("m.use", "m.RunVar.get", RULE), ("m.use", "m.Other.get", RULE)},
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
    "a_class_through_a_function_that_gives_its_argument_back": Case(
        {"m.py": dedent("""
            class Attribute:
                def evolve(self):
                    pass
            def _add_hash(cls: type, hash):
                cls.__hash__ = hash
                return cls
            Attribute = _add_hash(Attribute, None)
            def use():
                a = Attribute()
                a.evolve()
        """)},
        expect={("m.use", "m.Attribute", RULE), ("m.use", "m.Attribute.evolve", RULE)},
        forbid={("m.use", "builtins.type")},
    ),
    "a_function_that_makes_something_else_is_not_its_argument": Case(
        {"m.py": dedent("""
            class A:
                def run(self):
                    pass
            class B:
                def run(self):
                    pass
            def convert(x):
                y = B()
                return y
            def use(a: A):
                b = convert(a)
                b.run()
        """)},
        expect={("m.use", "m.B.run", RULE)},
        forbid={("m.use", "m.A.run")},
    ),
    "copies_keep_their_argument_type": Case(
        {"m.py": dedent("""
            import copy
            import dataclasses
            from copy import deepcopy
            class Schema:
                def dump(self):
                    pass
            class Other:
                def dump(self):
                    pass
            def use(s: Schema):
                a = copy.copy(s)
                a.dump()
                b = deepcopy(s)
                b.dump()
                c = dataclasses.replace(s, x=1)
                c.dump()
        """)},
        expect={("m.use", "m.Schema.dump", RULE)},
        forbid={("m.use", "m.Other.dump")},
    ),
    "iterators_give_their_elements": Case(
        {"m.py": dedent("""
            from collections import deque
            class Node:
                def visit(self):
                    pass
            class Other:
                def visit(self):
                    pass
            def use(xs: list[Node]):
                it = iter(xs)
                n = next(it)
                n.visit()
                q = deque(xs)
                q.popleft().visit()
                for y in reversed(xs):
                    y.visit()
                for z in sorted(xs, key=id):
                    z.visit()
                m = next(iter(xs))
                m.visit()
            def literal():
                items = [Node(), Node()]
                first = next(iter(items))
                first.visit()
        """)},
        expect={("m.use", "m.Node.visit", RULE), ("m.literal", "m.Node.visit", RULE)},
        forbid={("m.use", "m.Other.visit"), ("m.literal", "m.Other.visit")},
    ),
    "comprehension_variables_are_elements_on_their_lines_only": Case(
        {"m.py": dedent("""
            class Node:
                def visit(self):
                    pass
            class Other:
                def visit(self):
                    pass
            def use(xs: list[Node], o: Other):
                [x.visit() for x in xs]
                first = next(x for x in xs if x)
                first.visit()
                found = [k for k in xs]
                found[0].visit()
                for m in (x for x in xs):
                    m.visit()
            def later(xs: list[Node]):
                ys = [x for x in xs]
                x = Other()
                x.visit()
        """)},
        expect={("m.use", "m.Node.visit", RULE), ("m.later", "m.Other.visit", RULE)},
        forbid={("m.use", "m.Other.visit"), ("m.later", "m.Node.visit")},
    ),
    "with_binds_what_entering_gives": Case(
        {"m.py": dedent("""
            from contextlib import AbstractAsyncContextManager, contextmanager
            from typing import Iterator
            class Nursery:
                def start_soon(self, f):
                    pass
            class Manager:
                async def __aenter__(self) -> Nursery:
                    return Nursery()
                async def __aexit__(self, *a):
                    pass
                def start_soon(self, f):
                    pass
            class Plain:
                def __enter__(self):
                    return self
                def __exit__(self, *a):
                    pass
                def go(self):
                    pass
            def open_nursery() -> AbstractAsyncContextManager[Nursery]:
                return Manager()
            @contextmanager
            def opened() -> Iterator[Nursery]:
                yield Nursery()
            async def main():
                async with open_nursery() as n:
                    n.start_soon(main)
                with opened() as m:
                    m.start_soon(main)
                async with Manager() as j:
                    j.start_soon(main)
                with Plain() as p:
                    p.go()
        """)},
        expect={("m.main", "m.Nursery.start_soon", RULE), ("m.main", "m.Plain.go", RULE)},
        forbid={("m.main", "m.Manager.start_soon")},
    ),
    "properties_give_what_their_getter_returns": Case(
        {"m.py": dedent("""
            from functools import cached_property
            class Args:
                def get(self, k):
                    pass
            class Other:
                def get(self, k):
                    pass
            class lazy_property(property):
                pass
            class Request:
                @property
                def args(self) -> Args:
                    return Args()
                @args.setter
                def args(self, value):
                    pass
                @cached_property
                def form(self):
                    return Args()
                @lazy_property
                def files(self) -> "Args":
                    return Args()
                def plain(self):
                    return Args()
            def use(r: Request):
                r.args.get("s")
                r.form.get("s")
                r.files.get("s")
                r.plain.get("s")
        """)},
        expect={("m.use", "m.Args.get", RULE)},
        forbid={("m.use", "m.Other.get")},
        unresolved={("m.use", "r.plain.get")},  # a method read, not called: no Args
    ),
    "getattr_gives_what_it_returns": Case(
        {"m.py": dedent("""
            class HookCaller:
                def call_historic(self):
                    pass
            class Other:
                def call_historic(self):
                    pass
            class HookRelay:
                def __getattr__(self, name: str) -> HookCaller:
                    ...
            class Plain:
                pass
            def use(hook: HookRelay, p: Plain):
                hook.anything.call_historic()
                p.anything.call_historic()
        """)},
        expect={("m.use", "m.HookCaller.call_historic", RULE)},
        forbid={("m.use", "m.Other.call_historic")},
    ),
    "a_bare_final_is_typed_by_its_value": Case(
        {"m.py": dedent("""
            from typing import ClassVar, Final
            class HookRelay:
                def register(self):
                    pass
            class Other:
                def register(self):
                    pass
            class PluginManager:
                registry: ClassVar = HookRelay()
                def __init__(self):
                    self.hook: Final = HookRelay()
                def run(self):
                    self.hook.register()
                    self.registry.register()
        """)},
        expect={("m.PluginManager.run", "m.HookRelay.register", RULE)},
        forbid={("m.PluginManager.run", "m.Other.register")},
    ),
    "a_manager_built_from_a_queryset_answers_its_methods": Case(
        {"m.py": dedent("""
            class QuerySet:
                def filter(self, **kw):
                    return self._chain()
                def _chain(self):
                    return self.__class__()
                def using(self, alias):
                    clone = self._chain()
                    return clone
            class BaseManager:
                @classmethod
                def from_queryset(cls, queryset_class, class_name=None):
                    return type(class_name, (cls,), {"_queryset_class": queryset_class})
            class Manager(BaseManager.from_queryset(QuerySet)):
                pass
            class Permission:
                objects = Manager()
            class Library:
                def filter(self):
                    pass
            def use(qs: QuerySet):
                Permission.objects.filter(a=1)
                Permission.objects.using("x").filter(a=1)
                qs.using("default").filter()
        """)},
        expect={("m.use", "m.QuerySet.filter", RULE), ("m.use", "m.QuerySet.using", RULE)},
        forbid={("m.use", "m.Library.filter")},
    ),
    "callables_given_to_builtins_are_called_by_the_caller": Case(
        {"m.py": dedent("""
            import functools
            import threading
            def double(x):
                return x
            def keep(x):
                return True
            def work():
                pass
            def later(a):
                pass
            def main(xs):
                list(map(double, xs))
                list(filter(keep, xs))
                threading.Thread(target=work).start()
                p = functools.partial(later, 1)
                p()
        """)},
        expect={("m.main", "m.double", "argument_flow"), ("m.main", "m.keep", "argument_flow"),
                ("m.main", "m.work", "argument_flow"), ("m.main", "m.later", RULE)},
    ),
    "a_list_is_no_callable_given_to_map": Case(
        {"m.py": dedent("""
            def double(x):
                return x
            def main(xs):
                return list(map(double, xs)), sorted(xs)
        """)},
        forbid={("m.main", "m.main")},
        expect={("m.main", "m.double", "argument_flow")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_issue34_rules(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
