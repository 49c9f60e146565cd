"""A refresh's walk of a tree that barely changed: what it must still see.

A folder's mtime moves only when an entry is added, removed or renamed in it, never when a file in it
is rewritten; a walk that skipped the files of an "unchanged" folder (or trusted a file's size and
mtime alone) would keep a stale index. These tests change files so that every shortcut of that kind
misses the change, and check that the refresh still re-indexes exactly what changed; and that a
changed ``.gitignore`` or ``.loreignore`` (which changes no other file) moves the indexed set.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from lore import index_repo
from lore.index import _files

FILES = {
    "a/x.c": "int x(void)\n{\n\treturn 1;\n}\n",
    "a/y.c": "int x(void);\n\nint y(void)\n{\n\treturn x();\n}\n",
    "b/z.c": "int z(void)\n{\n\treturn 3;\n}\n",
    "gen/g.c": "int g(void)\n{\n\treturn 4;\n}\n",
}


def make(root: Path) -> Path:
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def symbols(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return sorted(q for (q,) in conn.execute("SELECT qualified_name FROM symbols WHERE kind = 'function'"))
    finally:
        conn.close()


def rewrite_in_place(path: Path, text: str) -> None:
    """Rewrite ``path``'s bytes through the same inode (no rename): its folder's mtime does not move."""
    with open(path, "r+b") as fh:
        fh.seek(0)
        fh.write(text.encode())
        fh.truncate()


def test_a_file_rewritten_in_an_unchanged_folder_is_re_indexed(tmp_path: Path) -> None:
    root = make(tmp_path / "repo")
    db = tmp_path / "index.db"
    index_repo(root, db=db)
    folder = os.stat(root / "a")
    rewrite_in_place(root / "a/x.c", "int x(void)\n{\n\treturn 1;\n}\n\nint x2(void)\n{\n\treturn 2;\n}\n")
    after = os.stat(root / "a")
    assert (after.st_mtime_ns, after.st_size) == (folder.st_mtime_ns, folder.st_size)  # the folder looks unchanged
    report = index_repo(root, db=db)
    assert report.changed == ["a/x.c"] and not report.added and not report.removed
    assert "a.x.x2" in symbols(db)


def test_a_same_size_rewrite_with_its_mtime_set_back_is_re_indexed(tmp_path: Path) -> None:
    """Size and mtime as before (``cp -p``, ``touch -r``): the inode's change time still tells."""
    root = make(tmp_path / "repo")
    db = tmp_path / "index.db"
    index_repo(root, db=db)
    path = root / "b/z.c"
    st = os.stat(path)
    new = FILES["b/z.c"].replace("return 3", "return 9").replace("z(void)", "w(void)")
    assert len(new) == st.st_size
    rewrite_in_place(path, new)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns
    report = index_repo(root, db=db)
    assert report.changed == ["b/z.c"]
    assert "b.z.w" in symbols(db) and "b.z.z" not in symbols(db)


def test_a_hard_link_made_elsewhere_hashes_the_file_again_and_says_so(tmp_path: Path, monkeypatch) -> None:
    """A link made or removed elsewhere moves the inode's change time: read and hashed, not parsed, counted."""
    monkeypatch.setattr(_files, "CTIME_SLACK_NS", 0)  # files made just before the first run: not "too close to tell"
    root = make(tmp_path / "repo")
    db = tmp_path / "index.db"
    first = index_repo(root, db=db)
    assert first.rehashed == 0
    os.link(root / "b/z.c", tmp_path / "elsewhere.c")
    report = index_repo(root, db=db)
    assert report.rehashed == 1 and report.to_dict()["rehashed"] == 1
    assert not report.changed_any and report.generation == first.generation


def test_nothing_changed_is_a_no_op_and_the_index_stays(tmp_path: Path) -> None:
    root = make(tmp_path / "repo")
    db = tmp_path / "index.db"
    first = index_repo(root, db=db)
    report = index_repo(root, db=db)
    assert not report.changed_any and report.generation == first.generation
    assert report.unchanged == len(FILES)


def test_a_changed_gitignore_or_loreignore_walks_again(tmp_path: Path) -> None:
    """Only the ignore file changes: the files it lets in (or keeps out) follow, in folders left untouched."""
    root = make(tmp_path / "repo")
    db = tmp_path / "index.db"
    (root / ".gitignore").write_text("gen/\n")
    index_repo(root, db=db)
    assert "gen.g.g" not in symbols(db)
    (root / ".gitignore").write_text("# nothing ignored\n")
    report = index_repo(root, db=db)
    assert report.added == ["gen/g.c"] and "gen.g.g" in symbols(db)
    (root / ".loreignore").write_text("b/\n")
    report = index_repo(root, db=db)
    assert report.removed == ["b/z.c"] and "b.z.z" not in symbols(db)
    (root / ".loreignore").write_text("")
    report = index_repo(root, db=db)
    assert report.added == ["b/z.c"] and "b.z.z" in symbols(db)
