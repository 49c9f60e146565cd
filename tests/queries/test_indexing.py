"""One indexing pipeline: the index file settled once, steps around the code run, documents kept."""

from __future__ import annotations

import pytest

from lore.api import index_repo, open_index
from lore.errors import InvalidArgumentError
from lore.index.pipeline import run_index
from lore.queries.indexing import INDEX_STEPS

from ..conftest import write_tree


def test_steps_run_in_order_around_the_code_run(tmp_path):
    root = write_tree(tmp_path / "r", {"m.py": "def f():\n    pass\n"})
    calls: list[tuple] = []

    def step(name):
        def before(db):
            calls.append(("before", name, db, db.exists()))
            return lambda report: calls.append(("after", name, report.db, report.added))
        return before

    report = run_index(root, steps=[step("a"), step("b")], workers=1)
    db = root / ".lore" / "index.db"
    assert report.db == str(db)
    assert calls == [("before", "a", db, False), ("before", "b", db, False),
                     ("after", "a", str(db), ["m.py"]), ("after", "b", str(db), ["m.py"])]


def test_an_explicit_db_is_used_as_given(tmp_path):
    root = write_tree(tmp_path / "r", {"m.py": "x = 1\n"})
    seen = []
    report = run_index(root, db=tmp_path / "elsewhere.db", steps=[lambda db: seen.append(db) or (lambda r: None)])
    assert seen == [tmp_path / "elsewhere.db"] and report.db == str(tmp_path / "elsewhere.db")
    assert not (root / ".lore").exists()


def test_a_failed_run_skips_the_after_steps_and_leaves_no_kept_copy(tmp_path):
    after = []
    with pytest.raises(InvalidArgumentError, match="not a directory"):
        run_index(tmp_path / "missing", steps=[lambda db: after.append])
    assert after == []
    assert not list(tmp_path.glob("**/*.docs-keep*"))


def test_the_facade_runs_the_document_and_vector_steps(sample_repo):
    from lore.docs import add_documents
    from lore.search.api import build_code_vectors

    assert [s.__name__ for s in INDEX_STEPS] == ["doc_mentions_step", "code_vectors_step"]  # history: run_index, last
    index_repo(sample_repo, workers=1)
    write_tree(sample_repo, {"docs/guide.md": "# Guide\n\nUse `shop.orders.place_order` and `shop.extra.make`.\n"})
    add_documents(sample_repo, [sample_repo / "docs"], embedder="hashing", progress=False)
    build_code_vectors(sample_repo, embedder="hashing")
    write_tree(sample_repo, {"shop/extra.py": "def make():\n    return 1\n"})
    report = index_repo(sample_repo, workers=1)
    assert report.added == ["shop/extra.py"] and "code_vectors" in report.seconds  # vectors refreshed
    with open_index(sample_repo) as idx:
        mentioned = {r[0] for r in idx.conn.execute("SELECT qualified_name FROM chunk_symbol_mentions")}
    assert "shop.extra.make" in mentioned  # the mention of the new symbol was recomputed
    rebuilt = index_repo(sample_repo, workers=1, rebuild=True)
    assert rebuilt.rebuilt_reason == "--rebuild"
    with open_index(sample_repo) as idx:
        assert idx.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 1  # kept across the rebuild
