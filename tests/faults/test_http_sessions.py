"""HTTP sessions a client never closes are dropped after an idle period (each held about 39 KB before).

A real server process (:func:`lore.mcp_server.run_http`, here with a 1 s idle period instead of 30 min)
gets sessions that are opened and never closed; after the idle period each is gone (``404``, the
protocol's "start a new session"), while a session in use keeps working.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from lore import index_repo

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}


def _post(url: str, body: dict, session: str | None = None) -> tuple[int, str | None]:
    headers = dict(HEADERS, **({"mcp-session-id": session} if session else {}), **{"mcp-protocol-version": "2025-06-18"})
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            return resp.status, resp.headers.get("mcp-session-id")
    except urllib.error.HTTPError as exc:
        return exc.code, None


def test_idle_http_sessions_are_dropped(tmp_path: Path, tally) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def f(x):\n    return x\n")
    db = index_repo(root, workers=1).db
    script = ("import sys\nfrom lore.mcp_server import bind_http, build_server, run_http\n"
              "sock = bind_http('127.0.0.1', 0)\nprint(sock.getsockname()[1], flush=True)\n"
              f"run_http(build_server({str(db)!r}), '127.0.0.1', 0, sock, session_idle_timeout=1.0)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    try:
        assert proc.stdout is not None
        url = f"http://127.0.0.1:{int(proc.stdout.readline())}/mcp"
        deadline = time.monotonic() + 60
        while True:  # the server takes a moment to start
            try:
                status, kept = _post(url, INIT)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert status == 200 and kept
        idle = [_post(url, INIT)[1] for _ in range(5)]  # opened, never closed
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        for _ in range(6):  # the kept session is used every 0.4 s: never idle for 1 s
            time.sleep(0.4)
            assert _post(url, ping, kept)[0] == 200
        gone = [_post(url, ping, s)[0] == 404 for s in idle]
        alive = _post(url, ping, kept)[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
    ok = sum(gone) + int(alive)
    tally("HTTP sessions never closed", tried=len(gone) + 1, survived=ok, lost=len(gone) + 1 - ok)
    assert all(gone) and alive, (gone, alive)
