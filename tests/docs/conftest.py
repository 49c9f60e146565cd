"""Shared fixtures of the document-side tests: the tiny docs under fixtures/ indexed with hashing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lore.docs import add_documents
from lore.docs.vectors import clear_cache

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _fresh_vector_cache():
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    """A copy of fixtures/ as a project root (so tests may edit files)."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES, root)
    return root


@pytest.fixture
def db(docs_dir: Path) -> Path:
    """An index of the fixture docs: guides tagged (acme, guides), the rest (misc)."""
    path = docs_dir / ".lore" / "index.db"
    add_documents(
        path, [docs_dir / "guide"], library="acme", topic="guides", tags="api,http", embedder="hashing"
    )
    add_documents(
        path,
        [docs_dir / "errors.rst", docs_dir / "notes.txt", docs_dir / "cooking.md"],
        library="misc",
        topic="reference",
        embedder="hashing",
    )
    return path


@pytest.fixture
def chunk_of(db: Path):
    """``chunk_of(path, breadcrumb)`` -> the id of that chunk in the ``db`` fixture."""
    from lore.docs.search import chunk_result
    from lore.store import docs as store
    from lore.store.db import connect

    def find(path: str, breadcrumb: str) -> int:
        conn = connect(db)
        try:
            doc = store.get_document(conn, path)
            assert doc is not None, path
            for row in store.document_chunks(conn, doc["id"]):
                if row["breadcrumb"] == breadcrumb:
                    return chunk_result(row)["chunk_id"]
        finally:
            conn.close()
        raise AssertionError(f"no chunk {breadcrumb!r} in {path}")

    return find
