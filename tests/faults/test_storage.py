"""Storage faults: kill -9 at random points of an index run, a full disk, a read-only index.

After each fault the index must be intact (``PRAGMA integrity_check``) and hold exactly the previous
generation or the new one, never a mix; a failed write is one line on stderr with exit code 2.
"""

from __future__ import annotations

import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lore import index_repo, lore_graph, open_index

from .conftest import one_line_error, run_lore

KILL_RUNS = int(os.environ.get("LORE_FAULT_KILL_RUNS", "20"))


def _repo(root: Path, per_file: int, n_files: int = 120) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n_files):
        body = "".join(f"def f{i}_{k}(x):\n    return f{i}_{(k + 1) % per_file}(x) + f{(i + 1) % n_files}_0(x)\n\n"
                       for k in range(per_file))
        (root / f"m{i}.py").write_text(f"from m{(i + 1) % n_files} import f{(i + 1) % n_files}_0\n\n" + body)
    return root


def _state(db: Path) -> tuple[int, int]:
    """(generation, symbols) of the index at ``db``, after checking its integrity."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        gen = int(conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])
        return gen, conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    finally:
        conn.close()


def test_kill_9_at_random_points_leaves_the_old_or_the_new_generation(tmp_path: Path, tally) -> None:
    a, b = _repo(tmp_path / "a", 6), _repo(tmp_path / "b", 7)
    db = tmp_path / "index.db"
    index_repo(a, db=db, workers=1)
    counts = {}
    for name, root in (("a", a), ("b", b)):
        index_repo(root, db=tmp_path / f"{name}.db", workers=1)
        counts[name] = _state(tmp_path / f"{name}.db")[1]
    t = time.perf_counter()
    index_repo(b, db=tmp_path / "timing.db", workers=1, rebuild=True)
    full = time.perf_counter() - t + 0.6  # + interpreter start-up of the subprocess
    rng = random.Random(15)
    gen, symbols = _state(db)
    current = "a"
    lost = 0
    for run in range(KILL_RUNS):
        target = "b" if current == "a" else "a"
        cmd = [sys.executable, "-m", "lore", "index", str(tmp_path / target), "--db", str(db), "--workers", "2"]
        if run % 2:
            cmd.append("--rebuild")
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0.05, full))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        try:
            new_gen, new_symbols = _state(db)
            ok = (new_gen, new_symbols) == (gen, symbols) or (new_gen == gen + 1 and new_symbols == counts[target])
        except (AssertionError, sqlite3.Error):
            ok = False
        if not ok:
            lost += 1
            continue
        if new_gen != gen:
            current = target
        gen, symbols = new_gen, new_symbols
    with open_index(db, readonly=True) as idx:  # and it still answers
        assert lore_graph(idx, kind="call", source_id="m0.f0_0")["total"] == 2
    tally("kill -9 during index", tried=KILL_RUNS, survived=KILL_RUNS - lost, lost=lost)
    assert lost == 0


def _limit_file_size(limit: int):
    def pre() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return pre


def test_disk_full_is_one_line_and_leaves_the_index(tmp_path: Path, tally) -> None:
    a, b = _repo(tmp_path / "a", 6), _repo(tmp_path / "b", 7)
    db = tmp_path / "index.db"
    index_repo(a, db=db, workers=1)
    before = _state(db)
    tried = lost = 0
    for extra in (0, 4096, 65536, 262144):  # the disk fills at several points of the run
        for args in (["--rebuild"], []):
            tried += 1
            proc = subprocess.run([sys.executable, "-m", "lore", "index", str(b), "--db", str(db), *args],
                                  capture_output=True, text=True, timeout=120,
                                  preexec_fn=_limit_file_size(db.stat().st_size + extra))
            state = _state(db)
            fine = (proc.returncode == 0 and state[0] > before[0]) or (one_line_error(proc) and state == before)
            if proc.returncode == 0:
                index_repo(a, db=db, workers=1)  # back to state a for the next try
                before = _state(db)
            lost += int(not fine)
    tally("disk full (file size limit)", tried=tried, survived=tried - lost, lost=lost)
    assert lost == 0


@pytest.fixture
def tmpfs(tmp_path: Path):
    """A small tmpfs mounted at a temporary directory (needs root; skipped otherwise)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_real_full_disk_and_a_read_only_index(tmp_path: Path, tmpfs: Path, tally) -> None:
    small = _repo(tmp_path / "small", 3, n_files=20)
    big = _repo(tmp_path / "big", 40, n_files=200)
    db = tmpfs / "index.db"
    index_repo(small, db=db, workers=1)
    before = _state(db)
    proc = run_lore("index", str(big), "--db", str(db), "--rebuild")
    full_ok = one_line_error(proc) and "could not write the index" in proc.stderr and _state(db) == before
    # read-only: every query answers, nothing is written beside the index
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True, capture_output=True)
    names = sorted(p.name for p in tmpfs.iterdir())
    answers = [run_lore("graph", "call", "m0.f0_0", "--db", str(db)), run_lore("search", "f1", "--db", str(db)),
               run_lore("stats", "--db", str(db)), run_lore("graph", "related", "m0.f0_0", "--db", str(db))]
    ro_ok = [p.returncode == 0 and "Traceback" not in p.stderr for p in answers]
    write = run_lore("index", str(small), "--db", str(db), "--rebuild")
    ro_ok.append(one_line_error(write))
    assert sorted(p.name for p in tmpfs.iterdir()) == names
    tally("disk full (1 MB tmpfs)", tried=1, survived=int(full_ok), lost=int(not full_ok))
    tally("read-only index", tried=len(ro_ok), survived=sum(ro_ok), lost=len(ro_ok) - sum(ro_ok))
    assert full_ok, proc.stderr
    assert all(ro_ok), [(p.returncode, p.stderr[-300:]) for p in [*answers, write]]
