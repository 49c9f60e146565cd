"""The git-history step of an index run: now (``wait``), in a detached process (``background``) or not at all.

Mining a history costs more than indexing the code it maps onto (cobra: 5 s of history beside 0.9 s
of code on a first run), and the code index is usable without it (the ranker's history signal is
then 0). So ``lore index`` commits the code first and hands the history to a background process:
``python -m lore.index.history_job DB ROOT``, detached from the terminal (its own session, no
output), niced so that it yields to whatever the user does next.

One miner per index: the process holds an exclusive ``flock`` on ``<index>.history.lock`` for its
life, so a second ``lore index`` (or ``--rebuild``) started meanwhile sees it running and starts no
other. It writes its progress to ``<index>.history.json`` (:func:`status` reads both), removed when
it ends. When it is done it checks that the index is still the one it mined for (same identity and
generation, :func:`lore.index.history.refresh_history` writes nothing otherwise); if another run
moved it meanwhile it mines again (cheap: the names and parsed versions are cached), if the index
file is gone it just ends. Readers never see a stale run: the stored run names its generation, and
the hybrid ranker's feature cache is keyed by the stored run (:func:`lore.graphs._features.load_features`).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import IndexBusyError, InvalidArgumentError, LoreError
from ..store import db as store_db
from ..store import history as store_history
from . import history as hist

try:
    import fcntl
except ImportError:  # Windows: no flock (writing an index already says so: lore.index._lock)
    fcntl = None  # type: ignore[assignment]

MODES = ("wait", "background", "off")
ROUNDS = 4  # times a background miner re-mines because the index moved while it mined (then the next run does)
_SPAWNED: list[subprocess.Popen] = []  # children of this process, reaped when the next one starts (no zombies)


def check_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`MODES`, else InvalidArgumentError."""
    if mode not in MODES:
        raise InvalidArgumentError(f"unknown history mode {mode!r}; use one of {', '.join(MODES)}")
    return mode


def lock_path(db: str | os.PathLike[str]) -> Path:
    p = Path(db)
    return p.with_name(p.name + ".history.lock")


def marker_path(db: str | os.PathLike[str]) -> Path:
    p = Path(db)
    return p.with_name(p.name + ".history.json")


def _try_lock(db: Path):
    """The open lock file, locked by this process, or ``None`` when another process holds it."""
    try:
        fh = open(lock_path(db), "a")  # noqa: SIM115  (held for the miner's life)
    except OSError:
        return None
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        return None
    return fh


def running(db: str | os.PathLike[str]) -> bool:
    """Whether a miner holds the history lock of the index at ``db``."""
    if not lock_path(db).exists():
        return False
    fh = _try_lock(Path(db))
    if fh is None:
        return True
    fcntl.flock(fh, fcntl.LOCK_UN)
    fh.close()
    return False


def status(db: str | os.PathLike[str]) -> dict | None:
    """``{"state": "mining", "pid", "done", "total", "started"}`` while a background miner works on the
    index at ``db``, else ``None`` (the stored run, :func:`lore.store.history.run_summary`, says the rest)."""
    if not running(db):
        return None
    try:
        got = json.loads(marker_path(db).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        got = {}
    return {"state": "mining", "pid": got.get("pid"), "done": int(got.get("done") or 0),
            "total": int(got.get("total") or 0), "started": got.get("started")}


def _write_marker(db: Path, data: dict) -> None:
    tmp = marker_path(db).with_name(f"{marker_path(db).name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, marker_path(db))


def current_run(db: str | os.PathLike[str], root: str | os.PathLike[str]) -> dict | None:
    """The stored run's summary when it is current for the index at ``db`` (its generation, HEAD and
    the default caps), else ``None``: what decides, in a few milliseconds, that nothing needs mining."""
    db, root = Path(db), Path(root)
    try:
        conn = store_db.connect(db, readonly=True)
    except (LoreError, OSError):
        return None
    try:
        stored = store_history.run_summary(conn)
        gen = store_db.generation(conn)
    finally:
        conn.close()
    if stored is None or stored[0] != gen:
        return None
    old = hist._loads(stored[1])
    if (old.get("format") != hist.FORMAT or old.get("until") is not None or old.get("max_commits") != hist.MAX_COMMITS
            or old.get("max_files") != hist.MAX_FILES or old.get("cut_by_budget")):
        return None
    if old.get("reason") in ("not a git checkout", "git is not installed"):
        return old if hist.head_of(root) is None else None
    return old if old.get("head") == hist.head_of(root) else None


def start(db: str | os.PathLike[str], root: str | os.PathLike[str]) -> dict:
    """Start a background miner for the index at ``db`` unless one runs; what the index report says of it:
    ``{"state": "background", "pid": ...}`` (``"already": True`` when one was running)."""
    for proc in list(_SPAWNED):  # reap the children that ended (a long-lived caller: MCP server, tests)
        if proc.poll() is not None:
            _SPAWNED.remove(proc)
    now = status(db)
    if now is not None:
        return {**now, "state": "background", "already": True}
    try:
        proc = subprocess.Popen([sys.executable, "-m", "lore.index.history_job", str(db), str(root)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True, close_fds=True)
    except OSError as exc:
        return {"state": "off", "reason": f"could not start the background miner: {exc}"}
    _SPAWNED.append(proc)
    return {"state": "background", "pid": proc.pid, "done": 0, "total": 0}


def wait(db: str | os.PathLike[str], timeout: float = 120.0) -> bool:
    """Wait until no background miner works on the index at ``db`` and the miners this process started have
    ended (tests); whether they did in time. (A miner started by another process may not hold its lock
    yet: watch :func:`current_run` for it instead.)"""
    deadline = time.monotonic() + timeout
    time.sleep(0.05)
    while time.monotonic() < deadline:
        if not running(db) and not any(p.poll() is None for p in _SPAWNED):
            return True
        time.sleep(0.05)
    return False


def run_step(db: str | os.PathLike[str], root: str | os.PathLike[str], mode: str,
             progress: Callable[[str, int, int], None] | None = None) -> dict:
    """The history step of an index run, after the code is committed; the report's ``history`` entry.

    ``wait``: mine now (``progress("history", done, total)``), the run's summary with ``state: "done"``
    (``"kept"`` when the stored run was current). ``background``: a current run is kept as is, else a
    detached miner is started (:func:`start`). ``off``: nothing. Never raises for git or the index:
    history is a ranking hint.
    """
    check_mode(mode)
    db, root = Path(db), Path(root)
    if mode == "off":
        return {"state": "off"}
    t0 = time.perf_counter()
    if mode == "background":
        kept = current_run(db, root)
        if kept is not None:
            return {**kept, "state": "kept", "seconds": round(time.perf_counter() - t0, 3)}
        if hist.head_of(root) is not None:  # a git checkout: the work worth a process
            return start(db, root)
    try:
        summary = hist.refresh_history(db, root, progress=progress, budget=hist.BUDGET)
    except (LoreError, OSError) as exc:
        return {"state": "failed", "reason": str(exc)}
    except Exception as exc:  # noqa: BLE001  (sqlite3 and the like: the code index stands without its history)
        return {"state": "failed", "reason": f"{type(exc).__name__}: {exc}"}
    state = "kept" if summary.pop("kept", False) else "done"
    return {**summary, "state": state, "seconds": round(time.perf_counter() - t0, 3)}


def main(argv: list[str]) -> int:
    """The background miner: ``python -m lore.index.history_job DB ROOT``."""
    db, root = Path(argv[0]), argv[1]
    fh = _try_lock(db)
    if fh is None:  # another miner works on this index
        return 0
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    started = time.time()
    last = [0.0]

    def progress(_phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.25 or done == total:
            last[0] = now
            _write_marker(db, {"pid": os.getpid(), "done": done, "total": total, "started": started})

    try:
        for _ in range(ROUNDS):
            if not db.is_file():  # the index was deleted: nothing to mine for
                break
            _write_marker(db, {"pid": os.getpid(), "done": 0, "total": 0, "started": started})
            try:
                # cpu_since=0: the run's cost is the whole miner's (its start and imports too), which a user pays
                summary = hist.refresh_history(db, root, progress=progress, budget=hist.BUDGET, cpu_since=0.0)
            except IndexBusyError:  # a long write of a `lore index` meanwhile: try again after it
                time.sleep(1.0)
                continue
            except (LoreError, OSError):
                break
            except Exception:  # noqa: BLE001  (a damaged index, a full disk: the next `lore index` tries again)
                break
            if summary.get("cut_by_budget") or current_run(db, root) is not None:
                break  # done (a run cut by its budget is taken up by the next `lore index`, not in a loop here)
            # stale: another run moved or replaced the index while this one mined (or right after): again
    finally:
        with contextlib.suppress(OSError):
            marker_path(db).unlink()
        fcntl.flock(fh, fcntl.LOCK_UN)
        fh.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
