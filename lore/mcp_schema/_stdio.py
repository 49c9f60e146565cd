"""MCP over stdio without the SDK: newline-delimited JSON-RPC 2.0, the ``initialize`` handshake, three methods.

``lore serve`` answers ``initialize`` in about the time Python takes to start: the official SDK's
import alone (pydantic models of every protocol version, starlette, uvicorn, httpx) costs most of a
second of CPU before the first byte. lore's server needs a small part of the protocol: the handshake
(protocol versions 2024-11-05 to 2025-11-25, negotiated as the SDK does), ``ping``, ``tools/list``,
``tools/call`` and the ``initialized`` / ``cancelled`` notifications. Other methods get
``-32601 Method not found`` with the method as ``data``, and a request before ``initialize`` (but
``ping``) ``-32602 Invalid request parameters``, as from the SDK. Every malformed line gets an answer, so a
client never waits for one that will not come: a line that is not JSON (or nests deeper than
:data:`MAX_DEPTH`: never decoded, so hostile input cannot exhaust the stack) ``-32700 Parse error``, and
anything else that is not a request (``null``, a batch, an object without a method)
``-32600 Invalid Request``, with the request's id when it has one and ``null`` otherwise; a line longer
than :data:`MAX_LINE` is skipped without being held in memory and answered with a parse error. A session that opens with anything but ``initialize`` (a client of the 2026-07-28
per-request envelope) is handed to a fallback, the SDK, with that first line replayed.

Tool calls run one at a time on a worker thread, in order, so ``ping`` is answered while a call
runs and a call cancelled before it starts is skipped; the reader thread answers everything else.
While serving, the process's fd 0 reads the null device and fd 1 points at stderr: a stray
``print`` or child process cannot corrupt the wire (as the SDK's own stdio transport does).
"""

from __future__ import annotations

import io
import json
import logging
import os
import queue
import re
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

log = logging.getLogger("lore.mcp")

# the revisions reachable through the initialize handshake (mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS):
# a requested one is echoed, anything else gets the newest
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_ENVELOPE_KEY = "io.modelcontextprotocol/protocolVersion"  # in params._meta of 2026-era requests
METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32601, -32602, -32603
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
MAX_DEPTH = 64  # deeper JSON is refused before decoding: no MCP message nests anywhere near this
MAX_LINE = 16 * 1024 * 1024  # a longer line is skipped unread (answered with a parse error), not held in memory

CallTool = Callable[[str, "dict[str, Any] | None"], dict]


def negotiate(requested: Any) -> str:
    """The protocol version to answer ``initialize`` with.

    >>> negotiate("2025-06-18"), negotiate("2026-07-28"), negotiate(None)
    ('2025-06-18', '2025-11-25', '2025-11-25')
    """
    return requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]


class StdioServer:
    """One MCP session over a pair of byte streams (the process's stdin and stdout by default).

    Parameters
    ----------
    call_tool : callable
        ``call_tool(name, arguments) -> {"content": [...], "isError": bool}``; must not raise.
    tools : list of dict
        The ``tools/list`` answer (tool definitions as JSON).
    server_info : dict
        ``{"name": ..., "version": ...}`` for the ``initialize`` answer.
    instructions : str
        The server's instructions for the model, sent with ``initialize``.
    fallback : callable, optional
        ``fallback(first_line, rest, wire)`` serves a session that does not open with ``initialize``
        (``rest`` is the input after that line, ``wire`` the output); without it such a session is
        served here, by the handshake era's rules.
    """

    def __init__(self, call_tool: CallTool, tools: list[dict], *, server_info: dict, instructions: str,
                 fallback: Callable[[bytes, IO[bytes], IO[bytes]], None] | None = None) -> None:
        self.call_tool = call_tool
        self.tools = tools
        self.server_info = server_info
        self.instructions = instructions
        self.fallback = fallback
        self.initialized = False
        self._out: IO[bytes] | None = None  # set by serve()
        self._write_lock = threading.Lock()
        self._calls: queue.Queue[tuple[Any, str, Any] | None] = queue.Queue()
        self._pending: set[Any] = set()  # ids of queued calls not started yet
        self._cancelled: set[Any] = set()
        self._lock = threading.Lock()
        self._closed = False

    # -- running ---------------------------------------------------------------------------------------
    def serve_process(self) -> None:
        """Serve on this process's stdin and stdout until the client closes stdin.

        The wire gets private copies of fds 0 and 1; meanwhile fd 0 reads the null device and fd 1
        writes to stderr, so nothing else the process (or a child) does can read or write the wire.
        """
        sys.stdout.flush()
        wire_in = os.fdopen(os.dup(0), "rb")  # buffered: a read returns what the pipe holds, a line at a time
        wire_out = os.fdopen(os.dup(1), "wb")  # every answer is flushed
        null = os.open(os.devnull, os.O_RDONLY)
        saved = os.dup(0), os.dup(1)
        os.dup2(null, 0)
        os.dup2(2, 1)
        os.close(null)
        try:
            self.serve(wire_in, wire_out)
        finally:
            sys.stdout.flush()
            os.dup2(saved[0], 0)
            os.dup2(saved[1], 1)
            for fd in saved:
                os.close(fd)
            wire_in.close()
            wire_out.close()

    def serve(self, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        """Read requests from ``stdin`` until it ends, answering on ``stdout``; then finish queued calls."""
        self._out = stdout
        worker = threading.Thread(target=self._work, name="lore-mcp-calls", daemon=True)
        worker.start()
        first = True
        try:
            for raw in iter(lambda: stdin.readline(MAX_LINE + 1), b""):
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):  # never held whole: skipped to its end
                    while (rest := stdin.readline(MAX_LINE + 1)) and not rest.endswith(b"\n"):
                        pass
                    first = False
                    self._reply(None, error=(PARSE_ERROR, "Parse error", f"a line longer than {MAX_LINE} bytes"))
                    continue
                if not raw.strip():
                    continue
                if first:
                    first = False
                    if self.fallback is not None and not _opens_handshake(raw):
                        self._calls.put(None)
                        worker.join()
                        self.fallback(raw, stdin, stdout)
                        return
                self.handle_line(raw)
                if self._closed:
                    break
        finally:
            self._calls.put(None)
            worker.join()

    def _work(self) -> None:
        while (item := self._calls.get()) is not None:
            rid, name, arguments = item
            with self._lock:
                self._pending.discard(rid)
                if rid in self._cancelled:
                    self._cancelled.discard(rid)
                    continue
            self._reply(rid, result=self.call_tool(name, arguments))

    # -- one message -----------------------------------------------------------------------------------
    def handle_line(self, raw: bytes) -> None:
        """Handle one line of input (a JSON-RPC request or notification); anything else gets an error answer."""
        msg, problem = decode_line(raw)
        if problem is not None:
            log.warning("answered a line that is not JSON with a parse error (%s): %r", problem, raw[:80])
            self._reply(None, error=(PARSE_ERROR, "Parse error", problem))
            return
        if isinstance(msg, list):  # JSON-RPC batches are not part of MCP (since 2025-06-18): refuse each request
            ids = [m["id"] for m in msg if isinstance(m, dict) and _valid_id(m.get("id"))]
            for rid in ids or [None]:
                self._reply(rid, error=(INVALID_REQUEST, "Invalid Request", "batches are not supported"))
            return
        if (not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str)
                or ("id" in msg and not _valid_id(msg["id"]))):  # MCP: an id is a string or a number, never null
            if isinstance(msg, dict) and "method" not in msg and ("result" in msg or "error" in msg):
                return  # a response: this server sends no requests, so there is nothing it could answer
            rid = msg.get("id") if isinstance(msg, dict) and _valid_id(msg.get("id")) else None
            log.warning("answered a message that is not a JSON-RPC 2.0 request with Invalid Request")
            self._reply(rid, error=(INVALID_REQUEST, "Invalid Request",
                                    "expected a JSON-RPC 2.0 request: an object with \"jsonrpc\": \"2.0\" and a "
                                    "string \"method\""))
            return
        method, params = msg["method"], msg.get("params")
        if "id" not in msg:
            self._notification(method, params)
            return
        rid = msg["id"]
        if params is not None and not isinstance(params, dict):
            self._reply(rid, error=(INVALID_PARAMS, "Invalid request parameters", ""))
            return
        self._request(rid, method, params or {})

    def _notification(self, method: str, params: Any) -> None:
        if method == "notifications/cancelled" and isinstance(params, dict):
            with self._lock:  # a queued call is skipped (no answer); a running one finishes
                if params.get("requestId") in self._pending:
                    self._cancelled.add(params["requestId"])

    def _request(self, rid: Any, method: str, params: dict) -> None:
        if method == "initialize":
            self.initialized = True
            self._reply(rid, result={
                "protocolVersion": negotiate(params.get("protocolVersion")),
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": self.server_info,
                "instructions": self.instructions,
            })
        elif method == "ping":
            self._reply(rid, result={})
        elif method not in ("tools/list", "tools/call"):
            self._reply(rid, error=(METHOD_NOT_FOUND, "Method not found", method))
        elif not self.initialized:  # the SDK's gate: only ping before the handshake
            self._reply(rid, error=(INVALID_PARAMS, "Invalid request parameters", ""))
        elif method == "tools/list":
            self._reply(rid, result={"tools": self.tools})
        else:
            name, arguments = params.get("name"), params.get("arguments")
            if not isinstance(name, str) or not (arguments is None or isinstance(arguments, dict)):
                self._reply(rid, error=(INVALID_PARAMS, "Invalid request parameters", ""))
                return
            with self._lock:
                self._pending.add(rid)
            self._calls.put((rid, name, arguments))

    def _reply(self, rid: Any, *, result: dict | None = None, error: tuple[int, str, Any] | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid}
        if error is not None:
            code, message, data = error
            msg["error"] = {"code": code, "message": message, "data": data}
        else:
            msg["result"] = result
        line = (json.dumps(msg, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        with self._write_lock:
            try:
                assert self._out is not None, "serve() sets the output stream"
                self._out.write(line)
                self._out.flush()
            except (BrokenPipeError, ValueError):  # the client is gone: stop reading
                self._closed = True


_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # a string (skipped whole) or one bracket


def json_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in the JSON text ``raw`` (brackets inside strings ignored).

    A scan, not a parse: it never recurses, whatever the input.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b"[" * 5000), json_depth(b"null")
    (3, 5000, 0)
    """
    depth = deepest = 0
    for m in _BRACKETS.finditer(raw):
        c = m.group()
        if c in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif c in (b"]", b"}"):
            depth -= 1
    return deepest


def decode_line(raw: bytes) -> tuple[Any, str | None]:
    """``(message, None)`` for a line of JSON, or ``(None, reason)`` when it is not JSON or nests too deep.

    >>> decode_line(b'{"id": 1}'), decode_line(b"{")[1], decode_line(b"[" * 1000 + b"]" * 1000)[1]
    (({'id': 1}, None), 'not JSON: Expecting property name enclosed in double quotes', 'nested deeper than 64 levels')
    """
    # counting brackets is C speed; only a line that could nest too deep is scanned exactly
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and json_depth(raw) > MAX_DEPTH:
        return None, f"nested deeper than {MAX_DEPTH} levels"
    try:
        return json.loads(raw.decode("utf-8", errors="replace")), None
    except ValueError as exc:
        return None, f"not JSON: {exc.msg}" if isinstance(exc, json.JSONDecodeError) else "not JSON"
    except RecursionError:  # unreachable after the depth check; kept so no input can end the session
        return None, f"nested deeper than {MAX_DEPTH} levels"


def _valid_id(rid: Any) -> bool:
    """Whether ``rid`` can be a JSON-RPC request id (a string or a number; ``null`` is answered as unknown)."""
    return isinstance(rid, str | int | float) and not isinstance(rid, bool)


def _opens_handshake(raw: bytes) -> bool:
    """Whether a session's first line is something this server answers (not a 2026-era envelope)."""
    msg, problem = decode_line(raw)
    if problem is not None:
        return True
    if not isinstance(msg, dict) or msg.get("method") == "initialize":
        return True
    meta = (msg.get("params") or {}).get("_meta") if isinstance(msg.get("params"), dict) else None
    return not (isinstance(meta, dict) and MODERN_ENVELOPE_KEY in meta)


class Replay(io.RawIOBase):
    """A readable byte stream: ``head`` first, then whatever ``rest`` yields (a session handed over).

    >>> r = io.BufferedReader(Replay(b"one\\n", io.BytesIO(b"two\\n")))
    >>> r.readline(), r.readline(), r.readline()
    (b'one\\n', b'two\\n', b'')
    """

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.readline(len(buffer))
        buffer[: len(data)] = data
        return len(data)
