"""Python rules of issue 34's third session (tuned on httpcore, uvicorn, tenacity, asgiref, httpx and
fastapi), each with what must stay unbound.

An import in a ``try:`` body whose handler defines a fallback of the same name (``try: from .http2 import
HTTP2Connection`` / ``except ImportError: class HTTP2Connection: ...``): the name is what the import
binds; the fallback binds it only when the try body failed. A parameter annotated ``Annotated[T, ...]``
is a ``T`` (PEP 593), whatever text its metadata holds (fastapi's ``Doc("# Example ...")``: a ``#`` in
an annotation was read as TypeScript's contextual-typing mark and stopped the index). ``next(it).m()``
calls ``m`` of an element of ``it``, as ``x = next(it); x.m()`` already did. ``ContextVar[T]``, ``Future[T]``
and ``Task[T]`` hold a ``T`` (``get()``, ``result()``). ``for k, v in d.items()``, ``for i, x in
enumerate(xs)`` and ``for a, b in zip(xs, ys)`` bind each name to what it iterates. A generic class
(``Generic[T]``, ``Protocol[T]``, or the type variables of its subscripted bases) read through an
annotation with arguments (``Stream[TaskGroup]``) or a base given them (``class S(Stream[TaskGroup])``):
a member typed ``T`` is a ``TaskGroup``.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

CASES: dict[str, Case] = {
    "an_import_in_a_try_body_wins_over_its_except_importerror_fallback": Case(
        {"pkg/__init__.py": "from ._sync import Conn, Plain, Local, Extra\n",
         "pkg/_sync/__init__.py": dedent("""
            try:
                from .h2 import Conn
            except ImportError:
                class Conn:
                    def __init__(self, *a):
                        raise RuntimeError("install h2")
            try:
                from .h2 import helper
            except (ModuleNotFoundError, ImportError):
                def helper():
                    pass
            try:
                from .h2 import Plain
            except Exception:  # any handler runs only when the try body failed
                class Plain:
                    def run(self):
                        pass
                class Extra:  # not imported above: the handler's own definition
                    def run(self):
                        pass
            class Local:
                def run(self):
                    pass
            def here():
                helper()
                Conn().request()
        """),
         "pkg/_sync/h2.py": dedent("""
            class Conn:
                def __enter__(self) -> "Conn":
                    return self
                def __exit__(self, *a):
                    pass
                def request(self):
                    pass
            class Plain:
                def run(self):
                    pass
            def helper():
                pass
        """),
         "t.py": dedent("""
            import pkg
            def test():
                with pkg.Conn() as conn:
                    conn.request()
                c = pkg.Conn()
                c.request()
                pkg.Plain().run()
                pkg.Local().run()
                pkg.Extra().run()
        """)},
        expect={("t.test", "pkg._sync.h2.Conn.request", RULE), ("t.test", "pkg._sync.h2.Conn.__enter__", RULE),
                ("pkg._sync.here", "pkg._sync.h2.helper", RULE), ("pkg._sync.here", "pkg._sync.h2.Conn.request", RULE),
                ("t.test", "pkg._sync.h2.Plain.run", RULE), ("t.test", "pkg._sync.Local.run", RULE),
                ("t.test", "pkg._sync.Extra.run", RULE)},
        forbid={("t.test", "pkg._sync.Conn.__init__"), ("t.test", "pkg._sync.Conn"),
                ("pkg._sync.here", "pkg._sync.helper"), ("pkg._sync.here", "pkg._sync.Conn.__init__"),
                ("t.test", "pkg._sync.Plain.run")},
    ),
    "an_annotated_parameter_is_its_first_argument_whatever_its_metadata_holds": Case(
        {"m.py": dedent('''
            from typing import Annotated, Literal
            import typing
            class Doc:
                def __init__(self, text):
                    self.text = text
            class Router:
                def route(self):
                    pass
            class Other:
                def route(self):
                    pass
            def include(router: Annotated[Router, Doc("""
                # Example
                `app.include(router)`
            """)], mode: Literal["#", "a#b#param0"] = "#"):
                router.route()
                mode.upper()
            def plain(router: typing.Annotated[Router, 1]):
                router.route()
        ''')},
        expect={("m.include", "m.Router.route", RULE), ("m.plain", "m.Router.route", RULE)},
        forbid={("m.include", "m.Other.route"), ("m.plain", "m.Other.route")},
    ),
    "next_of_an_iterator_in_a_chain_is_its_element": Case(
        {"m.py": dedent("""
            from typing import Iterator
            class A:
                def run(self):
                    pass
            class B:
                def run(self):
                    pass
            def gen() -> Iterator[A]:
                yield A()
            def use(xs: list[A]):
                h = gen()
                next(h).run()
                next(iter(xs)).run()
        """)},
        expect={("m.use", "m.A.run", RULE)},
        forbid={("m.use", "m.B.run")},
    ),
    "a_context_variable_or_future_holds_the_value_its_type_argument_names": Case(
        {"m.py": dedent("""
            import asyncio
            from contextvars import ContextVar
            class AppContext:
                def copy(self):
                    pass
                async def pop(self, exc):
                    pass
            class Other:
                def copy(self):
                    pass
                async def pop(self, exc):
                    pass
            _cv_app: ContextVar[AppContext] = ContextVar("app")
            _cv_plain: ContextVar = ContextVar("plain")
            def current():
                _cv_app.get().copy()
                ctx = _cv_app.get(None)
                ctx.copy()
                _cv_plain.get().copy()
            async def done(fut: "asyncio.Future[AppContext]", q: "asyncio.Queue[AppContext]"):
                await fut.result().pop(None)
                q.get_nowait().copy()
        """)},
        expect={("m.current", "m.AppContext.copy", RULE), ("m.done", "m.AppContext.pop", RULE),
                ("m.done", "m.AppContext.copy", RULE)},
        forbid={("m.current", "m.Other.copy"), ("m.done", "m.Other.pop"), ("m.done", "m.Other.copy")},
    ),
    "a_loop_over_items_enumerate_or_zip_binds_each_name_to_what_it_iterates": Case(
        {"m.py": dedent("""
            from typing import Dict, List
            class Field:
                def get_default(self):
                    pass
            class Key:
                def strip_key(self):
                    pass
            class Other:
                def get_default(self):
                    pass
                def strip_key(self):
                    pass
            def fields(d: Dict[Key, Field], xs: List[Field], ks: List[Key]):
                for k, v in d.items():
                    k.strip_key()
                    v.get_default()
                for i, x in enumerate(xs):
                    x.get_default()
                for a, b in zip(ks, xs):
                    a.strip_key()
                    b.get_default()
                return [f.get_default() for _, f in d.items()]
            def literal():
                table = {"a": Field()}
                for name, field in table.items():
                    field.get_default()
        """)},
        expect={("m.fields", "m.Field.get_default", RULE), ("m.fields", "m.Key.strip_key", RULE),
                ("m.literal", "m.Field.get_default", RULE)},
        forbid={("m.fields", "m.Other.get_default"), ("m.fields", "m.Other.strip_key"),
                ("m.literal", "m.Other.get_default")},
    ),
    "a_generic_class_member_typed_by_its_parameter_is_what_the_argument_names": Case(
        {"types.py": dedent("""
            from typing import TypeVar
            T_co = TypeVar("T_co", covariant=True)
        """),
         "m.py": dedent("""
            from typing import Generic, Protocol, TypeVar
            from .types import T_co
            Item = TypeVar("Item")
            class TaskGroup:
                def start_soon(self):
                    pass
            class Other:
                def start_soon(self):
                    pass
            class Stream(Generic[T_co]):
                async def receive(self) -> T_co:
                    ...
            class Buffered(Stream[Item]):
                def peek(self) -> Item:
                    ...
            class TaskStream(Stream[TaskGroup]):
                pass
            class Reader(Protocol[Item]):
                def read(self) -> "Item":
                    ...
            async def streams(s: Stream[TaskGroup], ts: TaskStream, r: Reader[TaskGroup], b: Buffered[TaskGroup],
                              plain: Stream):
                (await s.receive()).start_soon()
                item = await ts.receive()
                item.start_soon()
                r.read().start_soon()
                b.peek().start_soon()
                (await plain.receive()).start_soon()
        """)},
        expect={("m.streams", "m.TaskGroup.start_soon", RULE)},
        forbid={("m.streams", "m.Other.start_soon")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_issue34_round4(tmp_path, name):
    case = CASES[name]
    check(index_graph(tmp_path, case.files), case)
