"""Issue 32, 4: ``kill -9`` of the indexer alone leaves no worker behind, and no lock held.

Its forked parse workers used to live on (parent 1, idle) holding the write lock they inherited, and
every later ``lore index`` said "being written by another process; wait", forever.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import run_lore

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:  # field 4, after the command name in parentheses
            out.add(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _corpus(root: Path) -> None:
    body = "".join(f"def f{i}(x):\n    return g{i}(x) + h(x)\n\n" for i in range(600))
    for k in range(32):  # ~0.7 MB over 32 files: the pool starts and parses for a second or two
        (root / f"m{k}.py").write_text(body)


def test_kill_9_of_the_indexer_leaves_no_worker_and_no_lock(tmp_path: Path, tally) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _corpus(root)
    tried = survived = 0
    for _attempt in range(3):  # until one kill lands mid-parse
        proc = subprocess.Popen([sys.executable, "-m", "lore", "index", str(root), "--rebuild", "--workers", "2"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            workers = _children(proc.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.01)
        if proc.poll() is not None or not workers:
            continue  # finished before its workers were seen: nothing to try (the machine was fast)
        time.sleep(0.2)  # into the parse
        if not workers <= _children(proc.pid):
            continue  # the parse already ended: nothing to try
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        tried += 1
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.05)
        orphans = [w for w in workers if _alive(w)]
        for w in orphans:  # never leave them behind, whatever the result
            os.kill(w, signal.SIGKILL)
        again = run_lore("index", str(root), "--no-clusters", timeout=120)
        ok = not orphans and again.returncode == 0
        survived += ok
        assert ok, (orphans, again.stderr)
        break
    assert tried, "the indexer finished before any worker could be seen"
    tally("kill -9 of the indexer alone (workers, lock)", tried=tried, survived=survived, lost=tried - survived)


HOLDER = """
import os, sys, time
from pathlib import Path
from lore.index._lock import WriterLock
lock = WriterLock(Path(sys.argv[1]))
lock.__enter__()
child = os.fork()
if child == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # the caller reads stdout to its end: let go of it
    os.dup2(null, 2)
    time.sleep(30)
    os._exit(0)
print(child, flush=True)
os._exit(0)  # dies holding the lock, as after kill -9; its forked child lives on
"""


def test_a_forked_child_does_not_hold_the_write_lock(tmp_path: Path, tally) -> None:
    from lore.errors import IndexBusyError
    from lore.index._lock import WriterLock

    db = tmp_path / "index.db"
    proc = subprocess.run([sys.executable, "-c", HOLDER, str(db)], capture_output=True, text=True, timeout=60)
    child = int(proc.stdout.split()[0])
    try:
        assert _alive(child)
        try:
            with WriterLock(db):
                ok = True
        except IndexBusyError:
            ok = False
    finally:
        os.kill(child, signal.SIGKILL)
    tally("kill -9 of the indexer alone (workers, lock)", tried=1, survived=int(ok), lost=int(not ok))
    assert ok, "the forked child of a dead writer still holds the lock"
