"""Output that cannot be written: a missing ``-o`` directory, standard output on a full disk.

Each is one line on stderr and exit code 2 (the OSError is classified where the CLI's error boundary is,
:func:`lore.cli._app.os_error_line`), never a traceback or an "Exception ignored" report at exit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lore import index_repo

from .conftest import one_line_error, run_lore, tiny_index


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return tiny_index(tmp_path_factory, "outputs")


def test_an_output_file_in_a_missing_directory_is_one_line(db: Path, tmp_path: Path, tally) -> None:
    cases = [("export", "-o", str(tmp_path / "missing_dir" / "x.graphml")),
             ("view", "-o", str(tmp_path / "missing_dir" / "v.html"))]
    procs = [run_lore(*args, "--db", str(db)) for args in cases]
    good = [one_line_error(p) and "missing_dir" in p.stderr and "directory" in p.stderr for p in procs]
    tally("output: -o into a missing directory", tried=len(good), survived=sum(good), lost=len(good) - sum(good))
    assert all(good), [p.stderr[-400:] for p in procs]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_standard_output_on_a_full_disk_is_one_line(db: Path, tally) -> None:
    cases = [["stats"], ["graph", "callers", "m.g"], ["graph", "callers", "m.g", "--json"], ["show", "m.f"],
             ["export"]]
    good, problems = [], []
    for args in cases:
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "lore", *args, "--db", str(db)], stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=60)
        ok = one_line_error(proc) and "No space left" in proc.stderr and "free some disk space" in proc.stderr
        good.append(ok)
        if not ok:
            problems.append((args, proc.returncode, proc.stderr[-300:]))
    tally("output: stdout on a full disk", tried=len(good), survived=sum(good), lost=len(good) - sum(good))
    assert not problems, problems


def test_serve_http_on_a_busy_port_is_one_line(db: Path, tally) -> None:
    """Before: "MCP server ... on http://..." and then uvicorn's own error (exit 3)."""
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        port = busy.getsockname()[1]
        proc = run_lore("serve", "--http", f"127.0.0.1:{port}", "--db", str(db), timeout=60)
    finally:
        busy.close()
    ok = one_line_error(proc) and f"127.0.0.1:{port}" in proc.stderr and "another port" in proc.stderr
    tally("serve --http on a busy port", tried=1, survived=int(ok), lost=int(not ok))
    assert ok, (proc.returncode, proc.stderr[-400:])


def test_show_on_a_terminal_never_sends_escape_sequences_from_the_source(tmp_path: Path, tally) -> None:
    """Source holding ``ESC[2J`` (clear screen) and an OSC title sequence: shown as ``\\x1b``, not acted on."""
    import pty
    import select

    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text('def f(x):\n    """Doc \x1b[31mred\x1b[0m \x1b]0;title\x07."""\n'
                               '    s = "\x1b[2J\x1b[H cleared"\n    return x\n')
    db = index_repo(root, workers=1).db
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "lore", "show", "m.f", "--db", str(db)], stdout=slave,
                                stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "120", "TERM": "dumb"})
        os.close(slave)
        chunks = []
        while True:
            ready, _, _ = select.select([master], [], [], 30)
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:  # the other end closed
                break
            if not data:
                break
            chunks.append(data)
        proc.wait(timeout=30)
        assert proc.stderr is not None
        proc.stderr.close()
    finally:
        os.close(master)
    shown = b"".join(chunks).decode("utf-8", "replace")
    source_escapes = ("\x1b[2J", "\x1b[H", "\x1b]0;", "\x1b[31m")
    ok = proc.returncode == 0 and "cleared" in shown and not any(e in shown for e in source_escapes) \
        and "\\x1b[2J" in shown
    tally("lore show: terminal escapes in source", tried=1, survived=int(ok), lost=int(not ok))
    assert ok, repr(shown[-400:])
