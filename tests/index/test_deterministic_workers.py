"""The same repository gives the same index whatever the number of resolver processes.

Resolution memoizes what it finds (attribute types, members, returns). A memo taken while a lookup
was inside a cycle of lookups would make an answer depend on which lookup came first, and the files
each process resolves, in which order, depend on the worker count. Here lore's own source (classes
whose attributes are typed by other attributes, values that flow between files) is indexed in one
process and in many small chunks, and every edge table must come out equal.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from lore import index_repo
from lore.index import _parse, resolve_pool
from tests.conftest import write_tree

LORE = Path(__file__).resolve().parents[2] / "lore"
TABLES = ("symbols", "symbol_refs", "type_refs", "file_imports", "symbol_relationships")


def _dump(db: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(db)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        conn.close()


def test_one_process_and_many_chunks_give_the_same_edges(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    shutil.copytree(LORE, root / "lore", ignore=shutil.ignore_patterns("__pycache__", "data"))
    monkeypatch.setattr(_parse, "PARALLEL_THRESHOLD", 10_000)
    index_repo(root, db=tmp_path / "one.db", workers=1)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 4)  # many chunks, each its own process
    index_repo(root, db=tmp_path / "many.db", workers=2)
    one, many = _dump(tmp_path / "one.db"), _dump(tmp_path / "many.db")
    for table in TABLES:
        assert one[table] == many[table], f"{table}: {len(set(one[table]) ^ set(many[table]))} rows differ"


# networkx's test_special.py in small: a base tester (resolved first) reads ``self.K3`` of its
# subclasses; the subclass types ``K3`` by another of its attributes, ``self.Graph``
TESTERS = {
    "pkg/__init__.py": "",
    "pkg/a_base.py": """
        class BaseTester:
            def test_edges(self):
                self.K3.add_edge(0, 1)
    """,
    "pkg/b_special.py": """
        from pkg.a_base import BaseTester
        class Graph:
            def add_edge(self, u, v): pass
        class TestThin(BaseTester):
            def setup_method(self):
                class MyGraph(Graph):
                    pass
                self.Graph = MyGraph
                self.K3 = self.Graph()
    """,
}


def test_an_attribute_typed_by_another_is_found_whichever_lookup_comes_first(tmp_path, monkeypatch):
    root = write_tree(tmp_path / "repo", TESTERS)
    monkeypatch.setattr(_parse, "PARALLEL_THRESHOLD", 10_000)
    index_repo(root, db=tmp_path / "one.db", workers=1)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 1)
    index_repo(root, db=tmp_path / "many.db", workers=2)
    for db in ("one.db", "many.db"):
        conn = sqlite3.connect(tmp_path / db)
        fields = conn.execute("""SELECT s.qualified_name, t.qualified_name FROM type_refs r
                                 JOIN symbols s ON s.id = r.symbol_id JOIN symbols t ON t.id = r.type_id
                                 WHERE r.kind = 'field' AND r.context = 'K3'""").fetchall()
        conn.close()
        assert fields == [("pkg.b_special.TestThin", "pkg.b_special.TestThin.setup_method.MyGraph")], db
