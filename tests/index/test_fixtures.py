"""pytest fixtures: a test's parameter named after a fixture receives what the fixture returns or
yields (lore.index._fixtures), looked up as pytest does; everything else stays as it was."""

from __future__ import annotations

from lore.index._fixtures import is_fixture
from tests.index.flow_helpers import Case, check, index_graph

APP = """\
class Flask:
    def test_request_context(self):
        return RequestContext()
    def test_client(self):
        return Client()
class RequestContext:
    def push(self): pass
class AppContext:
    def push(self): pass
class Client:
    def get(self, url): pass
"""

CONFTEST = """\
import pytest
from app import Flask

@pytest.fixture
def app():
    app = Flask()
    return app

@pytest.fixture
def client(app):
    return app.test_client()

@pytest.fixture
def purge_module(request):
    def inner(name):
        pass
    return inner

@pytest.fixture(scope="session")
def ctx(app):
    c = app.test_request_context()
    yield c
"""


def test_tests_and_fixtures_receive_what_fixtures_give(tmp_path):
    case = Case(
        files={
            "app.py": APP,
            "tests/conftest.py": CONFTEST,
            # a nearer conftest overrides ``client`` and receives the outer one (``def client(client)``)
            "tests/sub/conftest.py": "import pytest\n\n@pytest.fixture\ndef client(client):\n    client.get('/warm')\n    yield client\n",
            "tests/sub/test_x.py": (
                "def test_push(ctx, purge_module):\n    ctx.push()\n    purge_module('x')\n\n"
                "def test_client(client):\n    client.get('/')\n\n"
                "class TestK:\n    def test_m(self, app):\n        app.test_client()\n"
            ),
        },
        expect={
            ("tests.sub.test_x.test_push", "app.RequestContext.push", "fixture_flow"),  # a yield fixture
            ("tests.sub.test_x.test_push", "tests.conftest.purge_module.inner", "fixture_flow"),  # returns a function
            ("tests.sub.test_x.test_client", "app.Client.get", "fixture_flow"),  # through the override
            ("tests.sub.conftest.client", "app.Client.get", "fixture_flow"),  # the override's own parameter
            ("tests.sub.test_x.TestK.test_m", "app.Flask.test_client", "fixture_flow"),
            ("tests.conftest.client", "app.Flask.test_client", "fixture_flow"),  # a fixture's parameter
        },
        forbid={
            ("tests.sub.test_x.test_push", "app.AppContext.push"),
            ("tests.sub.test_x.test_push", "tests.conftest.purge_module"),  # never the fixture itself
        },
    )
    check(index_graph(tmp_path, case.files), case)


def test_what_pytest_does_not_inject_stays_as_it_was(tmp_path):
    """No fixture for a helper (pytest never calls it), none outside the test's directory tree, none
    for a file that is not test code, and pytest's own fixtures are not guessed."""
    case = Case(
        files={
            "app.py": APP,
            "tests/conftest.py": CONFTEST,
            "tests/test_y.py": (
                "def helper(app):\n    app.missing()\n\n"
                "def test_tmp(tmp_path, monkeypatch):\n    monkeypatch.setattr('x', 1)\n"
            ),
            "other/test_z.py": "def test_far(app):\n    app.test_client()\n",  # tests/conftest.py is not above it
            "src/run.py": "def test_connection(app):\n    app.test_request_context()\n",  # not test code
        },
        expect={
            ("other.test_z.test_far", "app.Flask.test_client", "unique_name"),  # the old name guess, labelled
            ("src.run.test_connection", "app.Flask.test_request_context", "unique_name"),
        },
        unresolved={("tests.test_y.helper", "app.missing"), ("tests.test_y.test_tmp", "monkeypatch.setattr")},
    )
    g = index_graph(tmp_path, case.files)
    check(g, case)
    assert not any(res == "fixture_flow" for caller, _, res in g.triples if not caller.startswith("tests.conftest."))


def test_is_fixture_reads_decorators():
    assert is_fixture(["pytest.fixture"]) and is_fixture(["fixture()"]) and is_fixture(["pytest_asyncio.fixture"])
    assert not is_fixture(["pytest.mark.parametrize('a', [1])"]) and not is_fixture([])
