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

import pytest

from lore import index_repo
from lore.index import _parse, resolve_pool
from tests.conftest import EDGE_TABLES, dump_edge_tables, write_tree

LORE = Path(__file__).resolve().parents[2] / "lore"


@pytest.mark.parametrize("per_worker", [1, 4])
def test_one_process_and_many_chunks_give_the_same_edges(tmp_path, monkeypatch, per_worker):
    """One chunk per worker (the first resolved in the indexer's own process), or four (each in a
    forked process of its own)."""
    root = tmp_path / "repo"
    shutil.copytree(LORE, root / "lore", ignore=shutil.ignore_patterns("__pycache__", "data"))
    monkeypatch.setattr(_parse, "PARALLEL_THRESHOLD", 10_000)
    index_repo(root, db=tmp_path / "one.db", workers=1)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 4)
    monkeypatch.setattr(resolve_pool, "CHUNKS_PER_WORKER", per_worker)
    index_repo(root, db=tmp_path / "many.db", workers=2)
    one, many = dump_edge_tables(tmp_path / "one.db"), dump_edge_tables(tmp_path / "many.db")
    for table in EDGE_TABLES:
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


# two attributes that type each other (``x`` from ``y``, ``y`` from ``x`` or a constructor): whichever
# of them a lookup meets first closes the cycle, so neither may be memoized from inside it, the cycle's
# first step included; one file reads ``a.x``, the other ``a.y``, so the file order decides which
# lookup comes first
CYCLE = {
    "pkg/__init__.py": "",
    "pkg/m.py": """
        class Baz:
            def run(self):
                return 2
        class Bar:
            def run(self):
                return 1
            def make(self):
                return Baz()
        class A:
            def __init__(self):
                self.x = self.y.make()
                self.y = self.x or Bar()
    """,
    "pkg/n_x.py": """
        from pkg.m import A
        def read_x(a: A):
            return a.x.run()
    """,
    "pkg/o_y.py": """
        from pkg.m import A
        def read_y(a: A):
            return a.y.run()
    """,
}


def _world(db: Path):
    from lore.index.resolve import FileRow, SymRow, World
    from lore.index.resolve_pool import RecordLoader
    from lore.languages import get as get_language
    from lore.store import read

    conn = sqlite3.connect(db)
    symbols = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, path, lang, mod, msid, get_language(lang).is_package(path))
             for fid, path, lang, mod, msid in read.file_rows(conn)]
    w = World(symbols, files, RecordLoader({}, conn), read.max_symbol_id(conn) + 1)
    w.solve_flow()
    return w, {s.qualified_name: s.id for s in symbols}


def test_a_cycle_of_attribute_types_is_answered_the_same_from_either_end(tmp_path, monkeypatch):
    from lore.index.resolve import resolve_files

    root = write_tree(tmp_path / "repo", CYCLE)
    index_repo(root, db=tmp_path / "one.db", workers=1)
    w, ids = _world(tmp_path / "one.db")
    x_first = (w.attr_type(ids["pkg.m.A"], "x"), w.attr_type(ids["pkg.m.A"], "y"))
    w, ids = _world(tmp_path / "one.db")
    y = w.attr_type(ids["pkg.m.A"], "y")
    assert (w.attr_type(ids["pkg.m.A"], "x"), y) == x_first
    # and so the edges of the two readers do not depend on which file is resolved first
    edges = []
    for order in (sorted, lambda fs: sorted(fs, reverse=True)):
        w, _ = _world(tmp_path / "one.db")
        got = resolve_files(w, order(w.files))
        edges.append(sorted(r[:4] for r in got.refs))
    assert edges[0] == edges[1]
    assert ("pkg.o_y.read_y", "pkg.m.Bar.run") in {(w.syms[a].qualified_name, w.syms[b].qualified_name)
                                                    for a, b, *_ in edges[0] if b in w.syms}
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 1)
    index_repo(root, db=tmp_path / "many.db", workers=2)
    assert dump_edge_tables(tmp_path / "one.db") == dump_edge_tables(tmp_path / "many.db")


def _import_resolution(tmp_path: Path, name: str, files: dict[str, str]) -> list[tuple]:
    root = write_tree(tmp_path / name, files)
    index_repo(root, db=tmp_path / f"{name}.db", workers=1)
    conn = sqlite3.connect(tmp_path / f"{name}.db")
    try:
        return conn.execute("SELECT f.path, i.name, i.resolution FROM file_imports i JOIN files f ON f.id = i.file_id"
                            " WHERE i.name = 'path' AND f.path LIKE '%z_reader.py'").fetchall()
    finally:
        conn.close()


def test_an_import_is_resolved_in_its_files_mode_whatever_was_looked_up_before(tmp_path):
    """``path = partial(_path)``: in a Python file the value of an external call is opaque (never guessed).
    An import is resolved in that mode too, so a call site of another file that met ``path`` first (or
    did not) cannot change what the import says."""
    base = {
        "pkg/__init__.py": "from .conf import path\n",
        "pkg/conf.py": "from functools import partial\n\ndef _path(route):\n    return route\n\npath = partial(_path)\n",
        "pkg/z_reader.py": "from pkg import path\n",
    }
    alone = _import_resolution(tmp_path, "alone", base)
    after_a_call = _import_resolution(tmp_path, "called", {**base, "pkg/a_user.py": "from pkg import path\n\ndef urls():\n    return path('x')\n"})
    assert alone == after_a_call == [("pkg/z_reader.py", "path", "import")]
