"""A refresh's graph is the last generation's saved graph patched with the edges the refresh rewrote, and
equals the graph built whole from the store, array for array."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lore import index_repo, open_index
from lore.graphs import build
from lore.graphs._saved_arrays import open_array
from lore.graphs.build import RELATIONS, build_graph, save_graph
from lore.store.graph_files import cache_path, state_dir

A = '''class Base:
    def run(self):
        return 1


def f(x):
    return g(x) + 1


def g(x):
    return x
'''

B = '''from pkg.a import Base, f, g


class Job(Base):
    def run(self):
        return f(2) + g(3)


def main():
    return Job().run()
'''

C = '''def alone(v):
    return v * 2


def twice(v):
    return alone(alone(v))
'''


D = '''import os
import json


def where(p):
    return os.path.join(p, "x")


def dump(v):
    return json.dumps(v)
'''

F = '''import pkg.a


def use(v):
    return pkg.a.g(v)
'''


def _tree(root):
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "a.py").write_text(A)
    (root / "pkg" / "b.py").write_text(B)
    (root / "pkg" / "c.py").write_text(C)
    (root / "pkg" / "d.py").write_text(D)
    (root / "pkg" / "f.py").write_text(F)


def _equal(got, want) -> None:
    assert np.array_equal(np.asarray(got.nodes.ids), np.asarray(want.nodes.ids))
    for name in ("kind", "is_test", "file", "parent"):
        assert np.array_equal(np.asarray(getattr(got, name)), np.asarray(getattr(want, name))), name
    for name in RELATIONS:
        a, b = got.arrays(name), want.arrays(name)
        for part in ("data", "indices", "indptr"):
            assert np.array_equal(np.asarray(getattr(a, part)), np.asarray(getattr(b, part))), (name, part)


def _saved_equal(db, g, tmp) -> None:
    """Every array saved for the patched state ``g`` (transposes, walks, closed neighbourhoods
    included) equals, byte for byte, the one saved for the graph built whole from the store."""
    got_dir = state_dir(cache_path(db), g.stamp)
    got = json.loads((got_dir / "meta.json").read_text())
    with open_index(db) as idx:
        fresh = build_graph(idx.conn)
    want_dir = save_graph(fresh, tmp)
    want = json.loads((want_dir / "meta.json").read_text())
    assert sorted(got["arrays"]) == sorted(want["arrays"])
    assert got["walks"] == want["walks"] and got["presence"] == want["presence"]
    for name in want["arrays"]:
        a, b = open_array(got_dir, name, got["arrays"]), open_array(want_dir, name, want["arrays"])
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
        assert got["arrays"][name] == want["arrays"][name], name  # the checksums and encodings too


def _check(root, tmp, generation, monkeypatch) -> None:
    """The saved graph of ``generation`` is the patched one, and equals the whole build's."""
    with monkeypatch.context() as m, open_index(root) as idx:
        m.setattr(build, "_MEMORY", {})
        got = idx.graph()  # the saved (patched) graph of this generation
        assert got.stamp.endswith(f":{generation}")
        _equal(got, build_graph(idx.conn))
    _saved_equal(root / ".lore" / "index.db", got, tmp)


@pytest.mark.parametrize("edit", [
    ("pkg/a.py", A.replace("def g(x):\n    return x\n", "def h(x):\n    return f(x)\n")),  # g removed, h new
    ("pkg/a.py", A.replace("def f(x):", "def f(x, y=0):")),  # a signature: b.py is re-resolved
    ("pkg/c.py", C + "\n\ndef thrice(v):\n    return twice(alone(v))\n"),  # a file nobody imports
    ("pkg/d.py", D.replace("json.dumps(v)", "repr(v)")),  # an external no edge points at any more
    ("pkg/d.py", D + "\n\ndef walk(p):\n    return os.walk(os.sep.join([p]))\n"),  # new externals
    ("pkg/b.py", B.replace("return f(2) + g(3)", "return f(2)")),  # a call dropped: g's rows lose Job.run
    ("pkg/b.py", B.replace("return Job().run()", "return Job().run() + g(4)")),  # a call added to a kept symbol
    ("pkg/f.py", F.replace("pkg.a.g(v)", "v")),  # a call dropped, its callee reached through its module
    ("pkg/c.py", None),  # a file removed
    ("pkg/e.py", "from pkg.c import twice\n\n\ndef e(v):\n    return twice(v)\n"),  # a file added
])
def test_the_patched_graph_equals_the_built_one(tmp_path, monkeypatch, edit):
    root = tmp_path / "r"
    _tree(root)
    index_repo(root, workers=1)
    with monkeypatch.context() as m:
        m.setattr(build, "_MEMORY", {})  # a new process
        m.setattr(build, "build_graph", lambda *a, **k: pytest.fail("built whole"))
        if edit[1] is None:
            (root / edit[0]).unlink()
        else:
            (root / edit[0]).write_text(edit[1])
        report = index_repo(root, workers=1)
    assert not report.full
    _check(root, tmp_path / "whole1", report.generation, monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(build, "_MEMORY", {})
        m.setattr(build, "build_graph", lambda *a, **k: pytest.fail("built whole"))
        (root / "pkg" / "c.py").write_text(C.replace("v * 2", "v * 3") + "\n\ndef four(v):\n    return twice(twice(v))\n")
        (root / "pkg" / "a.py").write_text(A.replace("return x\n", "return len(x)\n"))
        again = index_repo(root, workers=1)  # patched from a patched graph
    assert again.generation == report.generation + 1
    _check(root, tmp_path / "whole2", again.generation, monkeypatch)


def test_a_rebuild_records_no_delta_and_builds_whole(tmp_path, monkeypatch):
    root = tmp_path / "r"
    _tree(root)
    index_repo(root, workers=1)
    calls = []
    real = build.build_graph

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(build, "_MEMORY", {})
    monkeypatch.setattr(build, "build_graph", counting)
    index_repo(root, workers=1, rebuild=True)
    assert calls
