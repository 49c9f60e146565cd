"""Hostile lines on the stdio MCP transport: every one gets a JSON-RPC error, and the session keeps serving.

A real ``lore serve`` subprocess reads each line below, then a valid request; the test reads one answer
per line. Before the fix, 1,000 nested brackets ended the process (``RecursionError``) and every other
line was dropped without an answer, so a client waited forever.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from pathlib import Path

from lore import index_repo

# (line, expected error code, expected id)
HOSTILE: list[tuple[bytes, int, object]] = [
    (b"[" * 1000 + b"]" * 1000, -32700, None),                     # 2 KB of nesting
    (b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": ' + b"{\"a\":" * 3000 + b"1" + b"}" * 3001,
     -32700, None),
    (b"this is not json", -32700, None),
    (b'{"jsonrpc": "2.0", "id": 3, "method": ', -32700, None),   # cut short
    (b"\xff\xfe garbage \x00", -32700, None),
    (b"null", -32600, None),
    (b"42", -32600, None),
    (b"[]", -32600, None),
    (b'[{"jsonrpc": "2.0", "id": 11, "method": "ping"}]', -32600, 11),  # a batch: refused per request
    (b'{"jsonrpc": "2.0", "id": 12}', -32600, 12),                # no method
    (b'{"jsonrpc": "2.0", "id": 13, "method": 5}', -32600, 13),   # a method that is not a string
    (b'{"id": 14, "method": "ping"}', -32600, 14),                # not JSON-RPC 2.0
    (b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}', -32600, None),  # an id that cannot be an id
    (b'{"jsonrpc": "2.0", "id": 15, "method": "' + b"x" * (17 << 20) + b'"}', -32700, None),  # 17 MB: skipped
]


def _read_answer(proc: subprocess.Popen, timeout: float = 20.0) -> dict:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if ready:
            line = proc.stdout.readline()
            assert line, f"the server closed its output (exit {proc.poll()})"
            return json.loads(line)
    raise AssertionError("no answer: the client would wait forever")


def _send(proc: subprocess.Popen, line: bytes) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + b"\n")
    proc.stdin.flush()


def test_every_malformed_line_is_answered_and_the_session_keeps_serving(tmp_path: Path, tally) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def f(x):\n    return g(x)\n\ndef g(x):\n    return x\n")
    db = Path(index_repo(root, workers=1).db)
    proc = subprocess.Popen([sys.executable, "-m", "lore", "serve", "--db", str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    survived = 0
    problems = []
    try:
        # the first line is hostile too: it decides whether the session is handed to the SDK
        for k, (line, code, rid) in enumerate(HOSTILE):
            _send(proc, line)
            answer = _read_answer(proc)
            _send(proc, json.dumps({"jsonrpc": "2.0", "id": 1000 + k, "method": "ping"}).encode())
            pong = _read_answer(proc)
            good = (answer.get("error", {}).get("code") == code and answer.get("id") == rid
                    and pong == {"jsonrpc": "2.0", "id": 1000 + k, "result": {}})
            survived += good
            if not good:
                problems.append((line[:40], answer, pong))
        _send(proc, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "t", "version": "0"}}}).encode())
        assert _read_answer(proc)["result"]["protocolVersion"] == "2025-06-18"
        _send(proc, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        _send(proc, json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                "params": {"name": "lore_graph",
                                           "arguments": {"kind": "callers", "source_id": "m.g"}}}).encode())
        answer = _read_answer(proc)
        assert not answer["result"]["isError"] and "m.f" in answer["result"]["content"][0]["text"]
    finally:
        tally("stdio MCP: hostile lines", tried=len(HOSTILE), survived=survived, lost=len(HOSTILE) - survived)
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)
        assert proc.stdout is not None
        proc.stdout.close()
    assert not problems, problems
    assert proc.returncode == 0
