"""A damaged index, a disk that is already full: every command answers or says in one line what to do.

SQLite's failures are classified in one place (:func:`lore.store.db.classify_sqlite_error`): a damaged
file (``database disk image is malformed``, text that is not UTF-8, a dropped table, a metadata value lore
never writes) says "run `lore index --rebuild`", and that rebuild then works; a full disk says "free some
disk space", never that the intact index is "not a lore index".
"""

from __future__ import annotations

import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from lore import index_repo
from lore.errors import DamagedIndexError, IndexStorageError, LoreError
from lore.store.db import classify_sqlite_error, connect

from .conftest import one_line_error, run_lore

COMMANDS = [["stats"], ["graph", "callers", "m1.g1"], ["graph", "related", "m1.g1"], ["search", "g1"]]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("damage") / "repo"
    root.mkdir()
    for i in range(1, 7):
        (root / f"m{i}.py").write_text(f'"""Module {i}."""\n\n\ndef f{i}(x):\n    """Call g{i}."""\n'
                                       f"    return g{i}(x)\n\n\ndef g{i}(x):\n    return x + {i}\n")
    return Path(index_repo(root, workers=1).db)


def _copy(db: Path, to: Path) -> Path:
    to.mkdir(parents=True, exist_ok=True)
    shutil.copy(db, to / "index.db")
    return to / "index.db"


def _no_traceback(proc: subprocess.CompletedProcess) -> bool:
    return "Traceback" not in proc.stderr and (proc.returncode == 0 or one_line_error(proc))


def _edit(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute(sql)
    conn.commit()
    conn.close()


DAMAGES = {
    "dropped table symbol_refs": "DROP TABLE symbol_refs",
    "dropped table symbols": "DROP TABLE symbols",
    "meta generation not an integer": "UPDATE meta SET value = 'x' WHERE key = 'generation'",
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_index_says_rebuild_and_the_rebuild_works(indexed: Path, tmp_path: Path, damage: str,
                                                            tally) -> None:
    db = _copy(indexed, tmp_path)
    _edit(db, DAMAGES[damage])
    procs = [run_lore(*args, "--db", str(db)) for args in COMMANDS]
    good = [one_line_error(p) and "damaged" in p.stderr and "lore index --rebuild" in p.stderr for p in procs]
    rebuild = run_lore("index", str(indexed.parent.parent), "--db", str(db), "--rebuild")
    after = run_lore("graph", "callers", "m1.g1", "--db", str(db))
    good.append(rebuild.returncode == 0 and after.returncode == 0 and "m1.f1" in after.stdout)
    tally(f"damaged index: {damage}", tried=len(good), survived=sum(good), lost=len(good) - sum(good))
    assert all(good), [(p.returncode, p.stderr[-400:]) for p in [*procs, rebuild, after]]


def test_byte_flips_give_answers_or_one_line(indexed: Path, tmp_path: Path, tally) -> None:
    """Random byte flips past the header: no command prints a traceback, and a rebuild hint is honest."""
    rng = random.Random(32)
    tried = lost = 0
    problems = []
    for k in range(5):
        db = _copy(indexed, tmp_path / f"flip{k}")
        data = bytearray(db.read_bytes())
        for _ in range(10 * 2 ** k):  # 10 to 160 flips
            data[rng.randrange(100, len(data))] ^= 0xFF
        db.write_bytes(data)
        for args in (COMMANDS[0], COMMANDS[1]):
            tried += 1
            proc = run_lore(*args, "--db", str(db))
            if not _no_traceback(proc):
                lost += 1
                problems.append((k, args, proc.stderr[-300:]))
    tally("damaged index: random byte flips", tried=tried, survived=tried - lost, lost=lost)
    assert not problems, problems


def test_a_malformed_page_is_classified_on_the_read_path(indexed: Path, tmp_path: Path) -> None:
    """Overwrite the first page of the symbols table: the API raises DamagedIndexError, not a bare sqlite3 error."""
    db = _copy(indexed, tmp_path)
    conn = sqlite3.connect(db)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'symbols'").fetchone()[0]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * page:(root - 1) * page + 64] = b"\xa5" * 64  # the page header: garbage
    db.write_bytes(data)
    conn = connect(db, readonly=True)
    try:
        with pytest.raises(DamagedIndexError, match="rebuild") as info:
            conn.execute("SELECT * FROM symbols").fetchall()
        assert isinstance(info.value, sqlite3.DatabaseError)  # code that tolerates an SQLite error still does
    finally:
        conn.close()
    proc = run_lore("stats", "--db", str(db))
    assert one_line_error(proc) and "damaged" in proc.stderr, proc.stderr[-400:]


def _full_disk() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as ENOSPC would
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_an_intact_index_on_a_full_disk_says_free_space(indexed: Path, tmp_path: Path, tally) -> None:
    """No byte can be written (SQLite cannot make its ``-shm`` file): before, "not a lore index ... move it away"."""
    db = _copy(indexed, tmp_path)
    good = []
    for args in COMMANDS:
        proc = subprocess.run([sys.executable, "-m", "lore", *args, "--db", str(db)], capture_output=True, text=True,
                              timeout=60, preexec_fn=_full_disk)
        good.append(one_line_error(proc) and "free some disk space" in proc.stderr
                    and "not a lore index" not in proc.stderr)
    tally("disk full before a read", tried=len(good), survived=sum(good), lost=len(good) - sum(good))
    assert all(good), proc.stderr
    assert run_lore("graph", "callers", "m1.g1", "--db", str(db)).returncode == 0  # untouched


@pytest.mark.parametrize("message, name, kind", [
    ("database disk image is malformed", "SQLITE_CORRUPT", DamagedIndexError),
    ("database or disk is full", "SQLITE_FULL", IndexStorageError),
    ("disk I/O error", "SQLITE_IOERR_SHMSIZE", IndexStorageError),
    ("unable to open database file", "SQLITE_CANTOPEN", IndexStorageError),
    ("attempt to write a readonly database", "SQLITE_READONLY", IndexStorageError),
    ("file is not a database", "SQLITE_NOTADB", LoreError),
])
def test_each_sqlite_failure_has_one_class_and_a_fix(message: str, name: str, kind: type) -> None:
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorname = name  # type: ignore[attr-defined]
    err = classify_sqlite_error(exc, "x.db")
    assert isinstance(err, kind) and isinstance(err, sqlite3.OperationalError)
    assert "x.db" in str(err) and "\n" not in str(err)
    assert err.sqlite_errorname == name  # type: ignore[attr-defined]
    assert classify_sqlite_error(sqlite3.OperationalError("database is locked")) is None
