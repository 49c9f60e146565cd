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
