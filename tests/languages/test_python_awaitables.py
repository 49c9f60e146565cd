"""Python: ``x = await f()`` where ``f()`` returns an object whose class defines ``__await__`` is what that
``__await__`` gives, never the object itself (:mod:`lore.index._awaited`). Issue 34, found on the tuning
set of its eighth session (``--round8``): aiohttp's ``r = await session.get(url)`` (``get`` returns a
``_RequestContextManager``, awaiting it gives a ``ClientResponse``) bound ``r.close()`` to the context
manager's ``close``. The site stays unbound, and is not guessed by name either; a coroutine function's
result, and the awaitable object used without ``await``, keep their answers.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

BASE = dedent("""
    from typing import Any, Generator, Generic, TypeVar
    T = TypeVar("T")

    class Response:
        def release(self): pass
        def close(self): pass

    class Ctx(Generic[T]):
        def __init__(self, coro): self._coro = coro
        def close(self): pass
        def send(self, v): pass
        def __await__(self) -> Generator[Any, None, T]:
            return self._coro.__await__()

    class SubCtx(Ctx[Response]):
        pass

    RequestCtx = Ctx[Response]

    class Session:
        def get(self, url) -> "RequestCtx":
            return Ctx(None)
        def sub(self) -> SubCtx:
            return SubCtx(None)
        async def fetch(self) -> Response:
            return Response()
""")

CASES: dict[str, Case] = {
    "awaiting_an_awaitable_object_is_not_the_object": Case(
        {"m.py": BASE + dedent("""
            async def test(s: Session):
                r = await s.get("x")
                r.close()
                r.release()
        """)},
        forbid={("m.test", "m.Ctx.close"), ("m.test", "m.Response.close"), ("m.test", "m.Response.release")},
        unresolved={("m.test", "r.close"), ("m.test", "r.release")},
    ),
    "an_inherited_await_counts_too": Case(
        {"m.py": BASE + dedent("""
            async def test(s: Session):
                r = await s.sub()
                r.send(1)
        """)},
        forbid={("m.test", "m.Ctx.send")}, unresolved={("m.test", "r.send")},
    ),
    # must stay: a coroutine function's result is what it returns
    "a_coroutine_result_keeps_its_type": Case(
        {"m.py": BASE + dedent("""
            async def test(s: Session):
                r = await s.fetch()
                r.close()
        """)},
        expect={("m.test", "m.Response.close", RULE)}, forbid={("m.test", "m.Ctx.close")},
    ),
    # must stay: the awaitable object used as an object (not awaited) is itself
    "an_awaitable_not_awaited_is_the_object": Case(
        {"m.py": BASE + dedent("""
            def test(s: Session):
                c = s.sub()
                c.close()
        """)},
        expect={("m.test", "m.Ctx.close", RULE)},
    ),
    # must stay: awaiting an instance of a class without __await__ (an async factory) changes nothing
    "an_async_factory_of_a_plain_class": Case(
        {"m.py": BASE + dedent("""
            async def make() -> Response:
                return Response()
            async def test():
                r = await make()
                r.release()
        """)},
        expect={("m.test", "m.Response.release", RULE)},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_awaited_values(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
