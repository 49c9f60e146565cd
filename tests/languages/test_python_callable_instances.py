"""Python: calling an instance runs its class's ``__call__``, so the call gives what ``__call__`` returns
(``lore.languages.python._rules.PythonRules.call_signatures_give``). Issue 34, found on the tuning set of
its eighth session (``--round8``): aiohttp's tests annotate a fixture parameter with the protocol
``AiohttpClient`` (an overloaded ``async def __call__(...) -> TestClient[...]``); ``client = await
aiohttp_client(app)`` then ``client.ws_connect(...)`` had been guessed by name between
``ClientSession.ws_connect`` and ``TestClient.ws_connect``.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

BASE = dedent("""
    from typing import Generic, Protocol, TypeVar, overload
    R = TypeVar("R")

    class App: pass
    class Server: pass

    class TestClient(Generic[R]):
        async def ws_connect(self, url): pass
        def close(self): pass

    class ClientSession:
        async def ws_connect(self, url): pass
        def close(self): pass
""")

CASES: dict[str, Case] = {
    "a_protocol_with_overloaded_call": Case(
        {"m.py": BASE + dedent("""
            class Factory(Protocol):
                @overload
                async def __call__(self, p: App) -> TestClient[App]: ...
                @overload
                async def __call__(self, p: Server) -> TestClient[Server]: ...

            async def test(f: Factory):
                c = await f(App())
                await c.ws_connect("/")
        """)},
        expect={("m.test", "m.TestClient.ws_connect", RULE)},
        forbid={("m.test", "m.ClientSession.ws_connect")},
    ),
    "an_instance_of_a_class_with_call": Case(
        {"m.py": BASE + dedent("""
            class Maker:
                def __call__(self) -> ClientSession:
                    return ClientSession()

            def test():
                make = Maker()
                s = make()
                s.close()
        """)},
        expect={("m.test", "m.ClientSession.close", RULE), ("m.test", "m.Maker.__call__", RULE)},
        forbid={("m.test", "m.TestClient.close")},
    ),
    # must stay: calling the class constructs an instance (not what __call__ gives)
    "calling_the_class_constructs": Case(
        {"m.py": BASE + dedent("""
            class Maker:
                def __call__(self) -> ClientSession:
                    return ClientSession()
                def close(self): pass

            def test():
                m = Maker()
                m.close()
        """)},
        expect={("m.test", "m.Maker.close", RULE)}, forbid={("m.test", "m.ClientSession.close")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_callable_instances(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


def test_an_instance_without_call_gives_nothing(tmp_path):
    """must stay: an instance without ``__call__`` gives nothing its call's result could be bound by."""
    g = index_graph(tmp_path, {"m.py": BASE + dedent("""
        class Plain:
            pass

        def test():
            p = Plain()
            s = p()
            s.close()
    """)})
    assert not g.has("m.test", "m.ClientSession.close", RULE) and not g.has("m.test", "m.TestClient.close", RULE)
