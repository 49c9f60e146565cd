"""Issue 32, 2: a file replaced by one of the same size and mtime (``cp -p``, ``tar x``, ``rsync -a``) is read again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from lore import index_repo, open_index

OLD = "def alpha():\n    return 1\n"
NEW = "def gamma():\n    return 2\n"  # the same size: only the bytes differ


def _names(root: Path) -> set[str]:
    with open_index(root, readonly=True) as idx:
        return {s["name"] for s in idx.symbols(kind="function")}


def _replace_in_place(path: Path, text: str) -> None:
    """What ``cp -p`` onto an existing file does: new bytes in the same inode, the old mtime put back."""
    st = path.stat()
    path.write_text(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _replace_by_rename(path: Path, text: str) -> None:
    """What ``rsync -a`` and ``tar x`` do: a new file with the old mtime, renamed over the old one."""
    st = path.stat()
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_text(text)
    os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(tmp, path)


def test_same_size_and_mtime_does_not_hide_new_bytes(tmp_path: Path, tally) -> None:
    tried = survived = 0
    for how in (_replace_in_place, _replace_by_rename):
        root = tmp_path / how.__name__
        root.mkdir()
        (root / "m.py").write_text(OLD)
        (root / "other.py").write_text("def beta():\n    return alpha()\n")
        index_repo(root)
        assert _names(root) == {"alpha", "beta"}
        before = (root / "m.py").stat()
        how(root / "m.py", NEW)
        after = (root / "m.py").stat()
        assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        tried += 1
        with open_index(root, readonly=True) as idx:
            status = idx.status()
        report = index_repo(root)
        ok = (status["fresh"] is False and status["changed_on_disk"] == ["m.py"] and report.changed == ["m.py"]
              and _names(root) == {"gamma", "beta"})
        again = index_repo(root)  # and then it is fresh: nothing re-parsed, status agrees
        with open_index(root, readonly=True) as idx:
            ok = ok and not again.changed_any and idx.status()["fresh"] is True
        survived += ok
        assert ok, (how.__name__, status, report.changed, _names(root))
    tally("same size and mtime, new bytes (cp -p, rsync -a)", tried=tried, survived=survived, lost=tried - survived)


def test_a_copy_with_the_same_bytes_is_not_parsed_again(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text(OLD)
    index_repo(root)
    spare = tmp_path / "spare.py"
    spare.write_text(OLD)
    shutil.copystat(root / "m.py", spare)
    _replace_by_rename(root / "m.py", OLD)  # a new inode, the same bytes: hashed, not parsed
    report = index_repo(root)
    assert not report.changed_any and report.generation == 1
