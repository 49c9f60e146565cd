"""A refresh whose changed files read the same to the resolver keeps the last run's flow solution, and with
it the last run's per-file flow digests: nothing is digested again over every file (issue 33: 3 s of a
one-file refresh of the Linux kernel), and the edges equal a fresh index's."""

from __future__ import annotations

import shutil

from lore import index_repo
from lore.index.resolve import World
from tests.index.test_c_refresh_macros import _edges

APP = "def helper(cb):\n    return cb()\n\n\ndef main():\n    return helper(lambda: 1)\n"


def test_a_same_shape_refresh_digests_no_file_again(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "app.py").write_text(APP)
    (tree / "other.py").write_text("from app import helper\n\n\ndef run():\n    return helper(len)\n")
    db = tmp_path / "index.db"
    index_repo(tree, db=db)

    def digests(self):
        raise AssertionError("a kept flow solution was digested again over every file")

    monkeypatch.setattr(World, "flow_digests", digests)
    (tree / "app.py").write_text(APP.replace("return cb()", "return cb()  # same shape: a comment"))
    report = index_repo(tree, db=db)
    assert report.changed == ["app.py"] and report.flow == "kept"
    monkeypatch.undo()
    copy = tmp_path / "fresh"
    shutil.copytree(tree, copy)
    index_repo(copy, db=tmp_path / "fresh.db")
    assert _edges(db) == _edges(tmp_path / "fresh.db")


CPP_BASE = "class Shape {\npublic:\n  virtual int area() { return 0; }\n};\n"
CPP_USE = '#include "shape.h"\nint total(Shape* s)\n{\n\treturn s->area();\n}\n'
CPP_SUB = '#include "shape.h"\nclass Square : public Shape {\npublic:\n  int area() override { return 4; }\n};\n'


def test_a_refresh_of_files_whose_values_do_not_travel_keeps_the_flow_and_equals_a_fresh_index(tmp_path, monkeypatch):
    """Only Python's values travel: a C/C++ refresh beside Python files (the kernel's scripts) keeps the
    stored solution and subclass index (Python's classes only) instead of reading every symbol row to solve
    them again (issue 33: 6 s of a one-file refresh of the kernel); a new C++ subclass, and a later
    same-shape Python refresh that adopts what was kept, still equal a fresh index."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "app.py").write_text(APP)
    (tree / "other.py").write_text("from app import helper\n\n\ndef run():\n    return helper(len)\n")
    (tree / "shape.h").write_text(CPP_BASE)
    (tree / "use.cpp").write_text(CPP_USE)
    (tree / "sq.cpp").write_text("int unrelated(int a)\n{\n\treturn a;\n}\n")
    db = tmp_path / "index.db"
    index_repo(tree, db=db)

    def digests(self):
        raise AssertionError("a kept flow solution was digested again over every file")

    steps = [("use.cpp", CPP_USE + "static int probe(int a)\n{\n\treturn a + 1;\n}\n"),  # a new function: shape moves
             ("sq.cpp", CPP_SUB),  # a new subclass of Shape: the subclass index changes
             ("app.py", APP.replace("return cb()", "return cb()  # same shape"))]  # adopts the stored index
    for k, (name, text) in enumerate(steps):
        monkeypatch.setattr(World, "flow_digests", digests)
        (tree / name).write_text(text)
        report = index_repo(tree, db=db)
        assert report.changed == [name] and report.flow == "kept", (name, report.flow)
        monkeypatch.undo()
        copy = tmp_path / f"fresh{k}"
        shutil.copytree(tree, copy)
        index_repo(copy, db=tmp_path / f"fresh{k}.db")
        assert _edges(db) == _edges(tmp_path / f"fresh{k}.db"), name


def test_a_new_c_function_kept_flow_still_moves_the_saved_graph_and_features(tmp_path):
    """A refresh that keeps the flow solution because the changed file's values do not travel (a new C
    function) still changed the graph: its saved graph, features and related answers are a fresh
    index's, not the last generation's carried forward (a carried graph lacked the new function)."""
    import numpy as np

    from lore import lore_graph, open_index
    from lore.graphs import _walk, build
    from lore.graphs._features import SymbolFeatures
    from lore.graphs._hybrid_cache import saved

    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "app.py").write_text(APP)
    lib = "int base(int a)\n{\n\treturn a * 2;\n}\n\nint twice(int a)\n{\n\treturn base(base(a));\n}\n"
    (tree / "lib.c").write_text(lib)
    (tree / "use.c").write_text("int base(int a);\n\nint run(int x)\n{\n\treturn base(x) + 1;\n}\n")
    db = tmp_path / "index.db"
    index_repo(tree, db=db)
    (tree / "lib.c").write_text(lib + "\nint thrice(int a)\n{\n\treturn base(a) + twice(a);\n}\n")
    report = index_repo(tree, db=db)
    assert report.changed == ["lib.c"] and report.flow == "kept" and not report.same_shape
    copy = tmp_path / "fresh"
    shutil.copytree(tree, copy)
    index_repo(copy, db=tmp_path / "fresh.db")

    def state(path):
        build._MEMORY.clear()
        _walk._WALK_CACHE.clear()
        with open_index(path, readonly=True) as idx:
            g = idx.graph()
            names = dict(idx.conn.execute("SELECT id, qualified_name FROM symbols"))
            calls = g.arrays("calls")
            rows = np.repeat(np.arange(g.n), np.diff(calls.indptr))
            edges = sorted((names[g.nodes.id(int(r))], names[g.nodes.id(int(c))])
                           for r, c in zip(rows.tolist(), np.asarray(calls.indices).tolist(), strict=True))
            feats = saved(path, SymbolFeatures)
            answers = lore_graph(idx, kind="related", source_id="lib.twice")["results"]
            return (sorted(names[int(i)] for i in g.nodes.ids), edges, [f.line.size for f in feats],
                    [(r["qualified_name"], r["score"]) for r in answers])

    got, want = state(db), state(tmp_path / "fresh.db")
    assert "lib.thrice" in got[0] and ("lib.thrice", "lib.twice") in got[1]
    assert got == want
