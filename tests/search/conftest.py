"""Shared fixtures of the code-search tests: one tiny repository, indexed once per session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lore.index import index_repo
from lore.search.vectors import clear_cache, refresh_code_vectors
from lore.store.db import connect

# a tiny app: a class with a method and a subclass override, helpers imported by two modules,
# a camelCase function and a test file
REPO: dict[str, str] = {
    "app/__init__.py": '"""A tiny app for code-search tests."""\n',
    "app/net.py": '"""Network clients."""\n\nimport json\n\nfrom app.util import backoff_delay\n\n\nclass HttpClient:\n    """Talks to the server."""\n\n    def retry_request(self, request):\n        """Retry a failed request with exponential backoff."""\n        backoff_delay(3)\n        return self.send(request)\n\n    def send(self, request):\n        """Send one request."""\n        return json.dumps(request)\n\n\nclass SecureClient(HttpClient):\n    """A client over TLS."""\n\n    def send(self, request):\n        return request\n\n\ndef getUserById(user_id):\n    """Fetch one user record."""\n    return user_id\n',
    "app/other.py": '"""Another user of the helpers."""\n\nfrom app.util import parse\n\n\ndef use_parse(value):\n    return parse(value)\n',
    "app/util.py": '"""Helpers used everywhere."""\n\n\ndef backoff_delay(attempt):\n    """Seconds to wait before the next attempt."""\n    return 2**attempt\n\n\ndef parse(text):\n    return text\n\n\ndef load_config(path):\n    """Read the file and parse it."""\n    return parse(path)\n',
    "tests/net_checks.py": 'from app.net import HttpClient\n\n\ndef test_retry_request():\n    HttpClient().retry_request({"a": 1})\n',
}


def write_repo(root: Path, files: dict[str, str] = REPO) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def keyword_db(tmp_path_factory) -> Path:
    """The tiny repo indexed, without code vectors (read-only use)."""
    root = write_repo(tmp_path_factory.mktemp("search") / "repo")
    index_repo(root)
    return root / ".lore" / "index.db"


@pytest.fixture(scope="session")
def vector_db(keyword_db: Path, tmp_path_factory) -> Path:
    """A copy of ``keyword_db`` with hashing code vectors (read-only use)."""
    db = tmp_path_factory.mktemp("vectors") / "index.db"
    shutil.copy(keyword_db, db)
    conn = connect(db)
    refresh_code_vectors(conn, embedder="hashing")
    conn.close()
    return db


@pytest.fixture
def fresh_repo(tmp_path: Path) -> Path:
    """A writable indexed copy of the repo, for tests that change files."""
    root = write_repo(tmp_path / "repo")
    index_repo(root)
    clear_cache()
    return root


def ids_by_qname(db: Path) -> dict[str, int]:
    conn = connect(db, readonly=True)
    try:
        return {q: i for i, q in conn.execute("SELECT id, qualified_name FROM symbols")}
    finally:
        conn.close()
