"""Python: the fixtures of the modules a conftest.py (or the test module) names in ``pytest_plugins`` reach
the tests below it, after every conftest.py, as pytest registers them (:mod:`lore.index._fixtures`).
Issue 34, found on the tuning set of its eighth session (``--round8``): aiohttp's ``tests/conftest.py``
names ``"aiohttp.pytest_plugin"``, whose ``aiohttp_client`` fixture yields a function returning a
``TestClient``; ``client = await aiohttp_client(app)`` then ``client.ws_connect(...)`` had been guessed by
name between ``ClientSession.ws_connect`` and ``TestClient.ws_connect``.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

PKG = {
    "pkg/__init__.py": "",
    "pkg/client.py": dedent("""
        class TestClient:
            async def post(self, url): pass
            async def ws_connect(self, url): pass
        class ClientSession:
            async def post(self, url): pass
            async def ws_connect(self, url): pass
    """),
    "pkg/pytest_plugin.py": dedent("""
        import pytest
        from pkg.client import ClientSession, TestClient
        @pytest.fixture
        def aiohttp_client():
            async def go(app) -> TestClient:
                return TestClient()
            yield go
        @pytest.fixture
        def session() -> ClientSession:
            return ClientSession()
    """),
    "pkg/other_plugin.py": dedent("""
        import pytest
        from pkg.client import TestClient
        @pytest.fixture
        def unlisted() -> TestClient:
            return TestClient()
    """),
}

CASES: dict[str, Case] = {
    "a_plugin_fixture_named_in_conftest": Case(
        {**PKG, "tests/conftest.py": 'pytest_plugins = ["pkg.pytest_plugin", "pytester"]\n',
         "tests/test_x.py": dedent("""
            async def test_a(aiohttp_client):
                client = await aiohttp_client(None)
                await client.ws_connect("/")
        """)},
        expect={("tests.test_x.test_a", "pkg.client.TestClient.ws_connect", RULE),
                ("tests.test_x.test_a", "pkg.pytest_plugin.aiohttp_client.go", RULE)},
        forbid={("tests.test_x.test_a", "pkg.client.ClientSession.ws_connect"),
                ("tests.test_x.test_a", "pkg.pytest_plugin.aiohttp_client")},
    ),
    "a_plugin_named_by_a_string_in_the_test_module": Case(
        {**PKG, "tests/test_x.py": dedent("""
            pytest_plugins = "pkg.pytest_plugin"
            async def test_a(session):
                await session.post("/")
        """)},
        expect={("tests.test_x.test_a", "pkg.client.ClientSession.post", RULE)},
        forbid={("tests.test_x.test_a", "pkg.client.TestClient.post")},
    ),
    # must stay: a conftest.py fixture of the same name wins over the plugin's
    "a_conftest_fixture_wins_over_the_plugin": Case(
        {**PKG, "tests/conftest.py": dedent("""
            import pytest
            from pkg.client import TestClient
            pytest_plugins = ["pkg.pytest_plugin"]
            @pytest.fixture
            def session() -> TestClient:
                return TestClient()
        """), "tests/test_x.py": dedent("""
            async def test_a(session):
                await session.post("/")
        """)},
        expect={("tests.test_x.test_a", "pkg.client.TestClient.post", RULE)},
        forbid={("tests.test_x.test_a", "pkg.client.ClientSession.post")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytest_plugins(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


# must stay: no fixture reaches these tests through a plugin (what a name guess binds is not this rule's)
UNREACHED: dict[str, dict[str, str]] = {
    "an_unlisted_module_gives_no_fixture": {
        **PKG, "tests/conftest.py": 'pytest_plugins = ["pkg.pytest_plugin"]\n',
        "tests/test_x.py": "async def test_a(unlisted):\n    await unlisted.post('/')\n"},
    "a_sibling_conftest_plugin_does_not_reach": {
        **PKG, "tests/a/conftest.py": 'pytest_plugins = ["pkg.pytest_plugin"]\n',
        "tests/b/test_x.py": "async def test_a(session):\n    await session.post('/')\n"},
}


@pytest.mark.parametrize("name", sorted(UNREACHED))
def test_no_plugin_fixture(tmp_path, name):
    g = index_graph(tmp_path, UNREACHED[name])
    assert not [t for t in g.triples if t[2] == "fixture_flow"]
