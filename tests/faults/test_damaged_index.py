"""Issue 32: a damaged index is named so and replaced by ``--rebuild`` (a copy kept); a newer lore's index is
never replaced by a plain ``lore index``; someone else's file is never touched, ``--rebuild`` or not."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from lore import index_repo, open_index
from lore.errors import DamagedIndexError

from .conftest import one_line_error, run_lore


def _indexed(root: Path) -> Path:
    root.mkdir()
    (root / "m.py").write_text("def a():\n    return b()\n\ndef b():\n    pass\n")
    index_repo(root, clusters=False)
    return root / ".lore" / "index.db"


def _answers(root: Path) -> bool:
    with open_index(root, readonly=True) as idx:
        return [s["name"] for s in idx.symbols(kind="function")] == ["a", "b"]


def _half(db: Path) -> None:
    os.truncate(db, db.stat().st_size // 2)


def _garbage(db: Path) -> None:
    db.write_bytes(os.urandom(8192))


@pytest.mark.parametrize("damage", [_half, _garbage])
def test_a_damaged_index_is_named_and_replaced_by_rebuild(tmp_path: Path, damage, tally) -> None:
    root = tmp_path / "repo"
    db = _indexed(root)
    for side in ("-wal", "-shm"):
        db.with_name(db.name + side).unlink(missing_ok=True)
    damage(db)
    damaged = db.read_bytes()
    plain = run_lore("index", str(root))
    with pytest.raises(DamagedIndexError, match="damaged"):
        open_index(root, readonly=True)  # readers say so too
    ok = (one_line_error(plain) and "damaged" in plain.stderr and "--rebuild" in plain.stderr
          and db.read_bytes() == damaged)
    report = index_repo(root, rebuild=True, clusters=False)
    kept = db.with_name(db.name + ".damaged")
    ok = ok and "damaged index was kept" in report.rebuilt_reason and kept.read_bytes() == damaged and _answers(root)
    tally("damaged index (truncated, garbage): named, --rebuild replaces it", tried=1, survived=int(ok),
          lost=int(not ok))
    assert ok, (plain.stderr, report.rebuilt_reason)


def test_rebuild_never_touches_someone_elses_file(tmp_path: Path, tally) -> None:
    root = tmp_path / "repo"
    _indexed(root)
    mine = tmp_path / "notes.db"
    conn = sqlite3.connect(mine)  # a healthy SQLite database of someone else's: no lore metadata
    conn.execute("CREATE TABLE notes(t TEXT)")
    conn.commit()
    conn.close()
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n")
    ok = 0
    for target in (mine, text):
        before = target.read_bytes()
        proc = run_lore("index", str(root), "--db", str(target), "--rebuild")
        ok += one_line_error(proc) and "not a lore index" in proc.stderr and target.read_bytes() == before \
            and not target.with_name(target.name + ".damaged").exists()
    tally("--db targets that are not an index", tried=2, survived=ok, lost=2 - ok)
    assert ok == 2


def test_an_index_of_a_newer_lore_is_replaced_only_by_rebuild(tmp_path: Path, tally) -> None:
    root = tmp_path / "repo"
    db = _indexed(root)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    plain = run_lore("index", str(root))
    conn = sqlite3.connect(db)
    still = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    conn.close()
    ok = (one_line_error(plain) and "written by a newer lore (schema 999" in plain.stderr
          and "upgrade lore or run `lore index --rebuild`" in plain.stderr and still == "999")
    report = index_repo(root, rebuild=True, clusters=False)
    ok = ok and report.rebuilt_reason == "--rebuild" and _answers(root)
    tally("index of a newer lore (schema 999)", tried=1, survived=int(ok), lost=int(not ok))
    assert ok, (plain.stderr, report.rebuilt_reason)
