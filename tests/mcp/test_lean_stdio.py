"""``lore serve`` over stdio without the SDK: the same answers as the SDK's server, a quick handshake, a clean wire."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from lore.mcp_schema import tool_definitions
from lore.mcp_schema._stdio import StdioServer, negotiate
from lore.mcp_server import INSTRUCTIONS

ENV = {k: v for k, v in os.environ.items() if k != "LORE_MCP_SDK"}


def _req(rid, method, params=None) -> str:
    msg = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return json.dumps(msg)


def session(version: str) -> list[str]:
    """One client session: the handshake, every method lore serves, errors, and methods it does not serve."""
    return [
        _req(0, "tools/list"),  # before initialize: refused
        _req(1, "initialize", {"protocolVersion": version, "capabilities": {},
                               "clientInfo": {"name": "t", "version": "1"}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _req(2, "ping"),
        _req(3, "tools/list"),
        _req(4, "tools/call", {"name": "lore_status", "arguments": {}}),
        _req(5, "tools/call", {"name": "nope", "arguments": {}}),
        _req(6, "tools/call", {"name": "lore_graph", "arguments": {"relation": "related", "source_id": 1, "limit": 500}}),
        _req(7, "tools/call", {"name": "lore_graph", "arguments": {"relation": "related",
                                                                   "source_id": "shop.orders.place_order"}}),
        _req(8, "tools/call", {"name": "lore_clusters", "arguments": {"limit": 2}}),
        _req(9, "tools/call", {"name": "lore_search_similar", "arguments": {}}),
        _req(10, "resources/list"),
        _req(11, "foo/bar"),
        "{not json",
        _req("abc", "ping"),
        json.dumps({"jsonrpc": "2.0", "id": 12}),
        _req(13, "tools/call", {"name": "lore_symbol", "arguments": {"symbol": "shop.orders.place_order"}}),
    ]


def converse(db: Path, lines: list[str], *, sdk: bool, expect: int) -> dict:
    """Run ``lore serve`` with ``lines`` on stdin; the answers by id (stdin stays open until ``expect`` arrive)."""
    env = dict(ENV, LORE_MCP_SDK="1") if sdk else ENV
    proc = subprocess.Popen([sys.executable, "-m", "lore", "serve", "--db", str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    got: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [got.put(ln) for ln in proc.stdout], daemon=True).start()
    proc.stdin.write(("\n".join(lines) + "\n").encode())
    proc.stdin.flush()
    answers = {}
    deadline = time.monotonic() + 120
    while len(answers) < expect and time.monotonic() < deadline:
        try:
            msg = json.loads(got.get(timeout=max(0.1, deadline - time.monotonic())))
        except queue.Empty:
            break
        answers[msg["id"]] = msg
    proc.stdin.close()
    proc.wait(timeout=60)
    proc.stderr.close()
    proc.stdout.close()
    return answers


@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "1999-01-01"])
def test_the_lean_server_answers_as_the_sdk_server_does(shop_repo, version):
    _, db = shop_repo
    lines = session(version)
    lean = converse(db, lines, sdk=False, expect=16)
    sdk = converse(db, lines, sdk=True, expect=14)
    assert set(sdk) == {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "abc", 13}
    # the SDK drops a line that is not JSON and a request without a method; lean answers them (the client
    # would otherwise wait forever): a parse error with id null, an invalid request with the request's id
    assert set(lean) == set(sdk) | {None, 12}
    assert lean[None]["error"]["code"] == -32700 and lean[12]["error"]["code"] == -32600
    for rid in sdk:
        assert lean[rid] == sdk[rid], rid
    assert lean[1]["result"]["protocolVersion"] == negotiate(version)
    assert lean[0]["error"]["code"] == -32602 and lean[10]["error"]["code"] == -32601
    assert lean[4]["result"]["isError"] is False and lean[5]["result"]["isError"] is True


def test_a_session_in_the_2026_envelope_is_handed_to_the_sdk(shop_repo):
    _, db = shop_repo
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    lines = [_req(1, "server/discover", {"_meta": meta}), _req(2, "tools/list", {"_meta": meta})]
    lean = converse(db, lines, sdk=False, expect=2)
    sdk = converse(db, lines, sdk=True, expect=2)
    assert lean == sdk and set(lean) == {1, 2}
    assert "result" in lean[2] and [t["name"] for t in lean[2]["result"]["tools"]] == [
        t["name"] for t in tool_definitions()]


def test_the_handshake_loads_neither_the_sdk_nor_the_graph(shop_repo):
    _, db = shop_repo
    script = (
        "import json, sys\n"
        "from lore.mcp_server import main\n"
        f"main(['--db', {str(db)!r}])\n"
        "sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n"
    )
    lines = session("2025-06-18")[1:4]  # initialize, initialized, ping
    res = subprocess.run([sys.executable, "-c", script], input=("\n".join(lines) + "\n").encode(),
                         capture_output=True, timeout=120, env=ENV)
    assert res.returncode == 0, res.stderr.decode()
    answers = [json.loads(ln) for ln in res.stdout.decode().splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    mods = set(json.loads(res.stderr.decode().rsplit("MODULES ", 1)[1]))
    for heavy in ("mcp", "mcp_types", "pydantic", "anyio", "numpy", "scipy", "lore.graphs", "lore.index"):
        assert heavy not in mods, heavy


def test_stray_output_of_a_tool_never_reaches_the_wire(tmp_path):
    """A tool that prints, or runs a child that prints, writes to stderr: the wire carries JSON-RPC only."""
    script = (
        "import os, sys\n"
        "from lore.mcp_schema._stdio import StdioServer\n"
        "def call(name, arguments):\n"
        "    print('stray print')\n"
        "    os.system('echo stray child; cat')\n"  # the child reads fd 0: the null device, not the wire
        "    return {'content': [{'type': 'text', 'text': 'ok'}], 'isError': False}\n"
        "StdioServer(call, [], server_info={'name': 'x', 'version': '1'}, instructions='').serve_process()\n"
        "print('after serving')\n"
    )
    lines = [_req(1, "initialize", {"protocolVersion": "2025-06-18"}),
             _req(2, "tools/call", {"name": "t", "arguments": {}}), _req(3, "ping")]
    res = subprocess.run([sys.executable, "-c", script], input=("\n".join(lines) + "\n").encode(),
                         capture_output=True, timeout=60)
    assert res.returncode == 0, res.stderr.decode()
    out = res.stdout.decode().splitlines()
    assert [json.loads(ln)["id"] for ln in out[:-1]] == [1, 3, 2] or [json.loads(ln)["id"] for ln in out[:-1]] == [
        1, 2, 3]
    assert out[-1] == "after serving"  # fds restored after the session
    assert "stray print" in res.stderr.decode() and "stray child" in res.stderr.decode()


class _Pipe:
    """A blocking byte stream fed line by line from the test."""

    def __init__(self) -> None:
        r, w = os.pipe()
        self.reader = os.fdopen(r, "rb", buffering=0)
        self.writer = os.fdopen(w, "wb", buffering=0)

    def send(self, line: str) -> None:
        self.writer.write((line + "\n").encode())


def test_calls_run_in_order_one_at_a_time_and_a_queued_call_can_be_cancelled():
    release = threading.Event()
    started: list[str] = []

    def call(name, arguments):
        started.append(name)
        if name == "slow":
            release.wait(30)
        return {"content": [{"type": "text", "text": name}], "isError": False}

    server = StdioServer(call, [], server_info={"name": "x", "version": "1"}, instructions="")
    pipe, out = _Pipe(), io.BytesIO()
    runner = threading.Thread(target=server.serve, args=(pipe.reader, out))
    runner.start()
    pipe.send(_req(1, "initialize", {"protocolVersion": "2025-06-18"}))
    pipe.send(_req(2, "tools/call", {"name": "slow"}))
    pipe.send(_req(3, "tools/call", {"name": "cancelled"}))
    pipe.send(_req(4, "tools/call", {"name": "last"}))
    pipe.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}))
    pipe.send(_req(5, "ping"))
    deadline = time.monotonic() + 10
    while b'"id":5' not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert b'"id":5' in out.getvalue() and b'"id":2' not in out.getvalue()  # ping answered during the call
    release.set()
    pipe.writer.close()
    runner.join(30)
    pipe.reader.close()
    ids = [json.loads(ln)["id"] for ln in out.getvalue().splitlines()]
    assert ids == [1, 5, 2, 4] and started == ["slow", "last"]


def test_tools_list_is_the_schema_module_s_definitions():
    server = StdioServer(lambda n, a: {}, tool_definitions(), server_info={"name": "lore", "version": "0"},
                         instructions=INSTRUCTIONS)
    out = io.BytesIO()
    server.serve(io.BytesIO((_req(1, "initialize", {}) + "\n" + _req(2, "tools/list") + "\n").encode()), out)
    first, second = (json.loads(ln) for ln in out.getvalue().splitlines())
    assert first["result"]["protocolVersion"] == "2025-11-25" and first["result"]["instructions"] == INSTRUCTIONS
    assert second["result"]["tools"] == tool_definitions()
