"""A refresh's graph is the last generation's saved graph patched with the edges the refresh rewrote, and
equals the graph built whole from the store, array for array."""

from __future__ import annotations

import numpy as np
import pytest

from lore import index_repo, open_index
from lore.graphs import build
from lore.graphs.build import RELATIONS, build_graph

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


def _tree(root):
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "a.py").write_text(A)
    (root / "pkg" / "b.py").write_text(B)
    (root / "pkg" / "c.py").write_text(C)


def _equal(got, want) -> None:
    assert np.array_equal(np.asarray(got.nodes.ids), np.asarray(want.nodes.ids))
    for name in ("kind", "is_test", "file", "parent"):
        assert np.array_equal(np.asarray(getattr(got, name)), np.asarray(getattr(want, name))), name
    for name in RELATIONS:
        a, b = got.arrays(name), want.arrays(name)
        for part in ("data", "indices", "indptr"):
            assert np.array_equal(np.asarray(getattr(a, part)), np.asarray(getattr(b, part))), (name, part)


@pytest.mark.parametrize("edit", [
    ("pkg/a.py", A.replace("def g(x):\n    return x\n", "def h(x):\n    return f(x)\n")),  # g removed, h new
    ("pkg/a.py", A.replace("def f(x):", "def f(x, y=0):")),  # a signature: b.py is re-resolved
    ("pkg/c.py", C + "\n\ndef thrice(v):\n    return twice(alone(v))\n"),  # a file nobody imports
])
def test_the_patched_graph_equals_the_built_one(tmp_path, monkeypatch, edit):
    root = tmp_path / "r"
    _tree(root)
    index_repo(root, workers=1)
    monkeypatch.setattr(build, "_MEMORY", {})  # a new process
    monkeypatch.setattr(build, "build_graph", lambda *a, **k: pytest.fail("built whole"))
    (root / edit[0]).write_text(edit[1])
    report = index_repo(root, workers=1)
    assert not report.full
    (root / "pkg" / "c.py").write_text(C.replace("v * 2", "v * 3") + "\n\ndef four(v):\n    return twice(twice(v))\n")
    again = index_repo(root, workers=1)  # patched from a patched graph
    monkeypatch.undo()
    assert again.generation == report.generation + 1
    with open_index(root) as idx:
        monkeypatch.setattr(build, "_MEMORY", {})
        got = idx.graph()  # the saved (patched) graph of this generation
        assert got.stamp.endswith(f":{again.generation}")
        _equal(got, build_graph(idx.conn))


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
