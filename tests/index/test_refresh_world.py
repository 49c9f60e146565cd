"""A refresh builds only the part of the resolver's world its changed files read (issue 33).

The symbol tables of a refresh's world are read from the store key by key (``lore.index._symtab``): they
answer every key as the tables built from every row do (same ids, same order, same misses), a one-file
refresh of a C project never reads every symbol row, and its edges equal a fresh index's, also when a
header's change re-resolves many files, and when the world is made whole before resolving.
"""

from __future__ import annotations

import sqlite3

import pytest

from lore import index_repo
from lore.index import resolve_pool
from lore.index._symtab import _MISS, SymRow, eager_tables, lazy_tables
from lore.store import read
from tests.index.test_c_refresh_macros import _edges, _fresh

HEADER = "#ifndef UTIL_H\n#define UTIL_H\nint util_add(int a, int b);\ntypedef int count_t;\nstruct point { int x; int y; };\n" \
         "enum color { RED, GREEN };\n#endif\n"
UTIL = '#include "util.h"\nint util_add(int a, int b)\n{\n\treturn a + b;\n}\nstatic int twice(int a)\n{\n\treturn util_add(a, a);\n}\n'


def _user(i: int) -> str:
    """A unit calling the header's function, a static helper every unit names alike, and (the first two) a
    global both define: names with several definitions, read through the by-name table."""
    shared = f"int shared_name(void)\n{{\n\treturn {i};\n}}\n" if i < 2 else ""
    return (f'#include "util.h"\nstatic int local_helper(int a)\n{{\n\treturn a + {i};\n}}\n{shared}'
            f'int user{i}(int a)\n{{\n\tcount_t n = (count_t)(a);\n\tstruct point p;\n'
            f'\tp.x = util_add(n, {i}) + local_helper(a) + shared_name();\n\treturn p.x;\n}}\n')


PY = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": ("from typing import overload\n\n\nclass Shape:\n    def area(self):\n        return 0\n\n"
                      "    class Inner:\n        def area(self):\n            return 1\n\n\n@overload\ndef make(x: int) -> Shape: ...\n"
                      "@overload\ndef make(x: str) -> Shape: ...\ndef make(x):\n    return Shape()\n"),
    "pkg/shapes.pyi": "class Shape:\n    def area(self) -> int: ...\n\ndef make(x: int) -> Shape: ...\n",
    "pkg/use.py": "import os\nfrom pkg.shapes import make\n\n\ndef run():\n    os.getcwd()\n    return make(1).area()\n",
}


def _c_tree(root, users: int = 6):
    root.mkdir()
    (root / "util.h").write_text(HEADER)
    (root / "util.c").write_text(UTIL)
    for i in range(users):
        (root / f"user{i}.c").write_text(_user(i))


def _tables(db):
    conn = sqlite3.connect(db)
    files = read.file_rows(conn)  # the world's stubs: a .pyi beside its module
    implemented = {mod for _, path, _, mod, _ in files if not path.endswith(".pyi")}
    stubs = {fid for fid, path, _, mod, _ in files if path.endswith(".pyi") and mod in implemented}
    rows = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    return conn, rows, stubs


@pytest.mark.parametrize("lang", ["c", "python"])
def test_lazy_tables_answer_every_key_as_the_tables_of_every_row(tmp_path, lang):
    tree = tmp_path / "tree"
    if lang == "c":
        _c_tree(tree)
    else:
        for rel, text in PY.items():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (tree / rel).write_text(text)
    index_repo(tree, db=tmp_path / "i.db")
    conn, rows, stubs = _tables(tmp_path / "i.db")
    eager = eager_tables(rows, stubs)
    if lang == "python":  # the stub's and the overloads' rows are there, and the tables leave them out
        assert stubs and len(eager[3]["make"]) == 1 and eager[4]
    _, lazy = lazy_tables(conn, stubs)
    names = {r.name for r in rows} | {"no_such_name", ""}
    keys = ([r.id for r in rows] + [max(r.id for r in rows) + 5, None],
            [r.qualified_name for r in rows] + ["no.such"], [r.id for r in rows] + [-1],
            sorted(names), [r.qualified_name for r in rows] + ["no.such"])
    for table, want, ks in zip(lazy, eager, keys, strict=True):
        for k in ks:
            assert table.get(k) == want.get(k), (k, table.get(k), want.get(k))
            assert (k in table) == (k in want)
    _, lazy = lazy_tables(conn, stubs)
    lazy[0].get(rows[-1].id)  # a few keys read first: iterating gives every entry, in the eager tables' order
    lazy[3].get("make")
    for table, want in zip(lazy, eager, strict=True):
        assert list(table.items()) == list(want.items())
        assert table.get(object(), _MISS) is _MISS  # complete: no key is read from the store after
    _, lazy = lazy_tables(conn, stubs)
    assert lazy[2][-1] == {} and -1 in lazy[2] and lazy[3]["no_such_name"] == []  # as defaultdicts answer


def test_a_one_file_c_refresh_reads_no_other_row_and_equals_a_fresh_index(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    _c_tree(tree)
    db = tmp_path / "i.db"
    index_repo(tree, db=db)

    def every_row(conn):
        raise AssertionError("a one-file refresh read every symbol row")

    monkeypatch.setattr(read, "symbol_rows_for_world", every_row)
    for k, text in enumerate([UTIL + "static int probe(int a)\n{\n\treturn twice(a);\n}\n",
                              UTIL.replace("return a + b;", "return b + a + 0;")]):
        (tree / "util.c").write_text(text)
        report = index_repo(tree, db=db)
        assert report.changed == ["util.c"] and report.reresolved_files >= 1
        monkeypatch.undo()
        assert _edges(db) == _edges(_fresh(tree, tmp_path, f"one{k}"))
        monkeypatch.setattr(read, "symbol_rows_for_world", every_row)


@pytest.mark.parametrize("eager_from", [0, resolve_pool.LAZY_FILES])
def test_a_header_change_that_re_resolves_many_files_equals_a_fresh_index(tmp_path, monkeypatch, eager_from):
    monkeypatch.setattr(resolve_pool, "LAZY_FILES", eager_from)  # 0: the world is read whole before resolving
    tree = tmp_path / "tree"
    _c_tree(tree, users=12)
    db = tmp_path / "i.db"
    index_repo(tree, db=db)
    edits = [("util.h", HEADER.replace("int util_add(int a, int b);", "int util_add(int a, int b);\nint util_sub(int a, int b);")),
             ("user3.c", _user(3).replace("util_add(n, 3)", "util_sub(n, 3)")),
             ("util.c", UTIL + "int util_sub(int a, int b)\n{\n\treturn a - b;\n}\n"),
             ("util.h", HEADER.replace("typedef int count_t;", "typedef long count_t;\ntypedef int other_t;"))]
    for k, (name, text) in enumerate(edits):
        (tree / name).write_text(text)
        index_repo(tree, db=db)
        assert _edges(db) == _edges(_fresh(tree, tmp_path, f"many{k}")), (name, k)
