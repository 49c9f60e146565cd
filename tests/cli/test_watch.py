"""Watch mode: a change re-indexes (debounced, once per burst), a failed run keeps watching, noise is ignored."""

from __future__ import annotations

import threading
import time

import pytest

from lore import index_repo, open_index
from lore.errors import IndexBusyError
from lore.index.watch import change_filter, watch
from tests.conftest import sigint_default


def _wait(cond, timeout=60.0):  # generous: a loaded machine (CI beside other jobs) starts a run slowly
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def _start(root, run, **kw):
    stop = threading.Event()
    results, errors = [], []
    t = threading.Thread(target=watch, args=(root, run), daemon=True,
                         kwargs={"stop_event": stop, "debounce_ms": 300, "on_result": lambda r, c: results.append((r, c)),
                                 "on_error": errors.append, **kw})
    t.start()
    assert _wait(lambda: len(results) + len(errors) >= 1)  # the initial run
    time.sleep(0.3)  # the watcher is armed
    return stop, t, results, errors


def test_an_edit_is_indexed_once_per_burst(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    stop, t, results, _ = _start(tmp_path, lambda: index_repo(tmp_path, workers=1))
    try:
        for i in range(5):  # a burst of saves: one run
            (tmp_path / "a.py").write_text(f"def f():\n    g{i}()\n\ndef g{i}():\n    pass\n")
            time.sleep(0.02)
        (tmp_path / "notes.txt").write_text("not code")  # ignored
        assert _wait(lambda: len(results) >= 2)
        time.sleep(1.0)
        assert len(results) == 2, [c for _, c in results]
        report, changed = results[1]
        assert changed == ["a.py"] and report.changed == ["a.py"]
        with open_index(tmp_path, readonly=True) as idx:
            assert "a.g4" in {s["qualified_name"] for s in idx.symbols()}
    finally:
        stop.set()
        t.join(10)
    assert not t.is_alive()


def test_a_failed_run_is_reported_and_the_watch_goes_on(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    calls = []

    def run():
        calls.append(1)
        if len(calls) == 2:
            raise IndexBusyError(str(tmp_path / ".lore/index.db"))
        return index_repo(tmp_path, workers=1)

    stop, t, results, errors = _start(tmp_path, run)
    try:
        (tmp_path / "b.py").write_text("def b():\n    pass\n")
        assert _wait(lambda: len(errors) == 1)
        (tmp_path / "c.py").write_text("def c():\n    pass\n")
        assert _wait(lambda: len(results) == 2)
        assert sorted(results[1][0].added) == ["b.py", "c.py"]  # the retry picks up what the failed run missed
    finally:
        stop.set()
        t.join(10)


@pytest.mark.parametrize("path,expect", [
    ("pkg/a.py", True), ("pkg/a.txt", False), (".lore/index.db-wal", False), (".git/index", False),
    ("static/x.min.js", False), ("vendor/lib.py", False), ("pyproject.toml", True), (".loreignore", True),
])
def test_change_filter(tmp_path, path, expect):
    (tmp_path / ".loreignore").write_text("vendor/\n")
    assert change_filter(tmp_path)(None, str(tmp_path / path)) is expect


def test_lore_index_watch_process_reindexes_and_stops_on_ctrl_c(tmp_path):
    import signal
    import subprocess
    import sys

    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    proc = subprocess.Popen([sys.executable, "-m", "lore", "index", str(tmp_path), "--watch", "--workers", "1",
                             "--debounce", "200"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default)
    try:
        first = proc.stdout.readline()
        assert "indexed" in first, first
        time.sleep(0.5)
        (tmp_path / "b.py").write_text("def b():\n    pass\n")
        second = proc.stdout.readline()
        assert "1 added" in second and "b.py" in second, second
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 130) and "Traceback" not in err, err


def test_serve_watch_keeps_the_index_fresh(tmp_path):
    from lore.cli._watch import start_background_watch

    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    report = index_repo(tmp_path, workers=1)
    stop = start_background_watch(__import__("pathlib").Path(report.db), debounce=200)
    try:
        time.sleep(1.0)
        (tmp_path / "b.py").write_text("def b():\n    pass\n")

        def has_b():
            with open_index(tmp_path, readonly=True) as idx:
                return "b.b" in {s["qualified_name"] for s in idx.symbols()}

        assert _wait(has_b)
    finally:
        stop.set()
