"""MCP server: lore's search and graph as tools for AI agents, over stdio or streamable HTTP.

Built on the official ``mcp`` SDK's low-level :class:`mcp.server.Server` so that every tool has a
hand-written JSON Schema (ranges, enums, descriptions written for a model choosing tools) and every
failure becomes an MCP tool error (``isError``) with one sentence, never a crash of the server.

Each tool is a thin shell: check the arguments against its schema, call one function of
:mod:`lore.api` (or :mod:`lore.docs.api`), return compact JSON (``max_tokens`` trims rows with
:func:`lore.api.fit_tokens`). Every answer is both ``structuredContent`` (checked by clients against the
``outputSchema`` each tool declares) and the same JSON as text, for clients that read only text. Long lists
come in pages: an answer with more rows carries an opaque ``next_cursor``; the same call with ``cursor`` set
to it continues, as long as the index is at the same generation (:func:`encode_cursor`). Calls in the
previous release's names (``search_docs``, ``kind`` as lore_graph's query type, ...) still work and say so in
``deprecated`` (:func:`lore.mcp_schema.migrate_arguments`). The server opens the index read-only and never writes it, unless
started with ``allow_refresh=True``, which adds the ``lore_refresh`` tool. It never imports or
executes indexed code, and never reads a source file that resolves outside the repository root.

Every call sees the index as it is now: the index file is reopened when it is replaced (deleted
and indexed again), and the library's caches (graph, clusters, BM25 statistics, vectors) are keyed by the
index identity and generation, so a refresh by another process is served at once, never stale.

Run it with ``lore serve`` (or ``python -m lore.mcp_server --db PATH``); ``lore tools --schema``
prints :func:`tool_definitions`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import IndexNotFoundError, InvalidArgumentError, LoreError, ServeAddressError
from .mcp_schema import PAGED_TOOLS, check_arguments, migrate_arguments, tool_definitions
from .mcp_schema._pages import MAX_ROWS_ALL, call_key, decode_cursor, default_limit, encode_cursor
from .mcp_schema._stdio import Replay, StdioServer
from .queries._reason import reason
from .store.db import DEFAULT_DIR, default_db_path, get_meta, locate_index

if TYPE_CHECKING:  # the SDK loads only for streamable HTTP (and sessions that do not open with initialize)
    from mcp.server import Server

log = logging.getLogger("lore.mcp")
ENVELOPED = frozenset({"lore_search_similar"})  # tools whose failures are answers ({"success": false, ...})

SERVER_NAME = "lore"
INSTRUCTIONS = (
    "lore answers 'what else in this codebase is like this symbol?' and 'where do I start on this bug?'. Typical "
    "flow: lore_locate with a bug report, or lore_search with words, to find symbol ids; lore_symbol to read one; "
    "lore_graph relation=related to rank similar symbols (call/callers/import/inheritance for direct edges); "
    "lore_clusters for the subsystems; lore_search_docs and lore_docs_related for the project's documents. Ids "
    "are stable integers; qualified names work wherever an id does. Parameters shared by the list tools: limit "
    "(rows per page), cursor (the next_cursor of an answer, sent with the same other arguments, gives the next "
    "page), max_tokens (rows are cut from the end to fit about that many tokens), compact (short rows with a "
    "one-line why, the default; false gives full rows), include_tests (keep test code). kind is always a symbol "
    "kind (function, method, class...). lore_status says whether the index is fresh."
)


# -- tools ---------------------------------------------------------------------------------------------
class LoreTools:
    """The tool implementations over one index, opened read-only on first use and kept open.

    ``engine`` and ``ray_address`` (the server's settings, ``lore serve --engine ray``) are where every
    graph tool runs its sparse products; the answers are the same on either engine.
    """

    def __init__(self, db_path: str | os.PathLike[str], *, allow_refresh: bool = False, engine: str = "local",
                 ray_address: str | None = None) -> None:
        if engine != "local":  # a bad setting stops the server at start, not at the first call
            from .graphs.engines import check_engine_name

            check_engine_name(engine)
        self.db_path = Path(db_path)
        self.allow_refresh = allow_refresh
        self.engine, self.ray_address = engine, ray_address
        self._index = None
        self._ident: tuple[int, int] | None = None
        self.handlers: dict[str, Callable[[dict[str, Any]], dict]] = {
            "lore_search": self.lore_search,
            "lore_graph": self.lore_graph,
            "lore_symbol": self.lore_symbol,
            "lore_clusters": self.lore_clusters,
            "lore_status": self.lore_status,
            "lore_locate": self.lore_locate,
            "lore_search_docs": self.search_docs,
            "lore_docs_related": self.get_related,
            "lore_search_similar": self.search_similar,
        }
        if allow_refresh:
            self.handlers["lore_refresh"] = self.lore_refresh

    def index(self):
        """The open read-only index: opened lazily (the server starts before the first `lore index`)
        and reopened when the file is replaced (deleted and indexed again: a new file, a new inode)."""
        try:
            st = self.db_path.stat()
        except OSError:
            self.close()
            raise IndexNotFoundError(str(self.db_path)) from None
        ident = (st.st_dev, st.st_ino)
        if self._index is not None and ident != self._ident:
            self.close()
        if self._index is None:
            from .api import open_index

            self._index = open_index(self.db_path, readonly=True, engine=self.engine, ray_address=self.ray_address)
            self._ident = ident
        return self._index

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

    def call(self, name: str, arguments: dict[str, Any] | None) -> dict:
        """Run one tool; raises LoreError (user-caused) or anything else (a bug)."""
        name, arguments, notes = migrate_arguments(name, arguments)
        if name not in self.handlers:
            hint = " (start the server with --allow-refresh to enable it)" if name == "lore_refresh" else ""
            raise InvalidArgumentError(f"unknown tool {name!r}{hint}; available: {', '.join(self.handlers)}")
        if name in ENVELOPED:  # its contract: every failure is an answer, arguments included
            out = self.handlers[name](dict(arguments or {}))
        elif name in PAGED_TOOLS:
            out = self._page(name, check_arguments(name, arguments), notes)
        else:
            out = self.handlers[name](check_arguments(name, arguments))
        if notes:
            out["deprecated"] = notes
        return out

    def _page(self, name: str, a: dict, notes: list[str]) -> dict:
        """One page of a list tool: the rows after the cursor's offset, ``next_cursor`` when more remain.

        The handler is asked for ``offset + limit`` rows and the page is cut from them: the ranking is
        deterministic for one generation, so page 2 continues page 1 exactly. ``max_tokens`` cuts the page
        (never the envelope), and the cursor then points just after the last row shown.
        """
        cursor = a.pop("cursor", None)
        max_tokens = a.pop("max_tokens", None)
        limit = a.pop("limit", None) or default_limit(name, a)
        key = call_key(name, a)
        generation, offset = (None, 0) if cursor is None else decode_cursor(name, key, cursor)
        out = self.handlers[name]({**a, "limit": offset + limit})
        gen = out.get("generation")
        if generation is not None and gen != generation:
            raise InvalidArgumentError(
                f"{name}: this cursor is from index generation {generation} and the index is now at generation "
                f"{gen} (it was refreshed since); call again without cursor to start over")
        rows = out["results"]
        out["results"] = rows[offset:offset + limit]
        echo = out["query"] if isinstance(out.get("query"), dict) and "limit" in out["query"] else out
        if "limit" in echo:  # what was asked is one page, not the rows computed for it
            echo["limit"] = limit
        if offset:
            out["offset"] = offset
            out.pop("files", None)  # lore_locate lists its files on the first page only
        if notes:
            out["deprecated"] = notes  # counted in the token budget

        def more(shown: int) -> bool:
            end = offset + shown
            return len(rows) > end or bool(out.get("has_more")) or (out.get("total", 0) > end and end < MAX_ROWS_ALL)

        if more(len(out["results"])) or max_tokens is not None:
            # a stand-in of the real cursor's size while the budget is applied (a budget that cuts rows adds one)
            out["next_cursor"] = encode_cursor(key, gen, offset + len(out["results"]))
        _fit(out, max_tokens)
        out.pop("next_cursor", None)
        shown = len(out["results"])
        if more(shown):
            out["next_cursor"] = encode_cursor(key, gen, offset + shown)
        out["truncated"] = more(shown)
        return out

    # each handler: one call into the library, then formatting (compact rows)
    def lore_search(self, a: dict) -> dict:
        from .api import lore_search

        compact = a.pop("compact", True)
        out = lore_search(self.index(), a.pop("query"), **a)  # the other keys are search()'s options
        if compact:
            out["results"] = [compact_search_row(r) for r in out["results"]]
        return out

    def lore_graph(self, a: dict) -> dict:
        from .api import lore_graph

        opts = dict(a)
        compact = opts.pop("compact", True)
        relation = opts.pop("relation")
        kinds = opts.pop("kind", None)
        opts.update(opts.pop("options", None) or {})
        out = lore_graph(self.index(), kind=relation, result_kind=kinds, **opts)
        out["query"] = {"relation": out["query"].pop("kind"), **out["query"]}  # kind means a symbol kind here
        if kinds:
            out["query"]["kind"] = kinds
        if compact:
            out["results"] = [compact_graph_row(r, relation) for r in out["results"]]
        return out

    def lore_locate(self, a: dict) -> dict:
        from .api import locate

        compact = a.pop("compact", True)
        out = locate(self.index(), a.pop("text"), **a)
        if compact:
            out["results"] = [compact_graph_row(r, "locate") for r in out["results"]]
            out["files"] = [{"path": f["path"], "score": f["score"], "why": reason(f["why"])} for f in out["files"]]
        return out

    def lore_symbol(self, a: dict) -> dict:
        from ._paths import symbol_with_source
        from .index.walk import unescape_name

        idx = self.index()
        return symbol_with_source(idx, a["symbol"], snippet_lines=a.get("snippet_lines", 12),
                                  root=unescape_name(get_meta(idx.conn, "root") or "") or None)

    def lore_clusters(self, a: dict) -> dict:
        from .api import list_clusters

        return list_clusters(self.index(), **a)

    def lore_status(self, a: dict) -> dict:
        out = self.index().status()
        out["read_only"] = not self.allow_refresh
        return out

    def search_docs(self, a: dict) -> dict:
        from .docs.api import search_docs

        return _envelope(search_docs(self.index(), a.pop("query"), **a))

    def get_related(self, a: dict) -> dict:
        from .docs.api import get_related

        return _envelope(get_related(self.index(), a.pop("chunk_id"), **a))

    def search_similar(self, a: dict) -> dict:
        """The ``search_similar`` contract: ``{success, count, documents}``, failures as ``success: false``."""
        from .docs.api import search_similar
        from .docs.similar import DEFAULT_LIMIT as SIMILAR_LIMIT
        from .docs.similar import failure

        if not isinstance(a.get("query"), str) or not a["query"].strip():
            return failure("Query parameter is required")
        try:
            a = check_arguments("lore_search_similar", a)
            index = self.index()
        except Exception as exc:  # noqa: BLE001 - the contract turns every failure into an envelope
            return failure(f"Failed to search: {error_message('lore_search_similar', exc)}")
        return search_similar(index, a["query"], limit=a.get("limit", SIMILAR_LIMIT))

    def lore_refresh(self, a: dict) -> dict:
        from .api import index_repo
        from .index.walk import unescape_name

        root = None
        if self.db_path.is_file():
            root = unescape_name(get_meta(self.index().conn, "root") or "")
        if not root and self.db_path.parent.name == DEFAULT_DIR:
            root = str(self.db_path.parent.parent)
        if not root:
            raise IndexNotFoundError(str(self.db_path))
        report = index_repo(Path(root).resolve(), db=self.db_path, history=a.get("history", "background")).to_dict()
        for key in ("added", "changed", "removed", "syntax_error_files"):
            files = report.get(key) or []
            report[key] = files[:50]
            report[f"{key}_count"] = len(files)
        return report


def _envelope(out: dict) -> dict:
    """Make sure an answer says how much there was: ``total`` and ``truncated``."""
    rows = out.get("results")
    if isinstance(rows, list):
        out.setdefault("total", len(rows))
        out.setdefault("truncated", bool(out.get("has_more", out["total"] > len(rows))))
    return out


def compact_graph_row(row: dict, relation: str) -> dict:
    """A graph (or locate) row for an agent: id, qualified name, kind, ``at``, score, and ``why`` as one line
    (<= 100 characters, read from the row's own why); ``call`` / ``callers`` rows add ``lines``, the call sites
    (in the seed's file for ``call``, in the caller's for ``callers``).

    Examples
    --------
    >>> compact_graph_row({"id": 7, "name": "f", "qualified_name": "m.f", "kind": "function", "path": "m.py",
    ...                    "line": 3, "score": 1.0, "why": {"resolution": "import", "call_lines": [9]}}, "call")
    {'id': 7, 'qualified_name': 'm.f', 'kind': 'function', 'at': 'm.py:3', 'score': 1.0, 'why': 'called at line 9 (import)', 'lines': [9]}
    """
    out = {"id": row["id"], "qualified_name": row.get("qualified_name") or row.get("name"), "kind": row.get("kind"),
           "at": f"{row['path']}:{row['line']}" if row.get("path") else None, "score": row.get("score"),
           "why": reason(row.get("why"), relation=relation)}
    why = row.get("why")
    if isinstance(why, dict) and why.get("call_lines") and relation in ("call", "callers"):
        out["lines"] = why["call_lines"]
    if row.get("also_at"):  # the row's other copies (stubs, @overload signatures)
        out["also_at"] = row["also_at"]
    return out


def _fit(out: dict, max_tokens: int | None) -> dict:
    if max_tokens is not None:
        from .api import fit_tokens

        fit_tokens(out, max_tokens)
    return out


def compact_search_row(row: dict) -> dict:
    """A search row for an agent: ``at`` = ``path:line`` instead of path, line and end_line; no ``name``.

    Examples
    --------
    >>> compact_search_row({"id": 7, "name": "get", "qualified_name": "api.get", "kind": "function",
    ...                     "path": "api.py", "line": 3, "end_line": 9, "score": 1.0})
    {'id': 7, 'qualified_name': 'api.get', 'kind': 'function', 'at': 'api.py:3', 'score': 1.0}
    """
    drop = ("name", "path", "line", "end_line")
    out = {
        "id": row["id"],
        "qualified_name": row.get("qualified_name") or row.get("name"),
        "kind": row.get("kind"),
        "at": f"{row['path']}:{row['line']}"
        if row.get("path") and row.get("kind") != "file"
        else row.get("path"),
    }
    out.update((k, v) for k, v in row.items() if k not in drop and k not in out)
    return out


# -- the MCP server ------------------------------------------------------------------------------------
def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=str)


def error_message(name: str, exc: BaseException) -> str:
    """One sentence for a tool failure: the LoreError's own message, or a short description of a bug."""
    import sqlite3

    if isinstance(exc, LoreError):
        return str(exc)
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return "the index is being written by another process; wait for it to finish and retry"
    if isinstance(exc, sqlite3.DatabaseError):
        return f"the index could not be read ({exc}); run `lore index --rebuild` if this persists"
    first = str(exc).splitlines()[0][:200] if str(exc) else ""
    return (
        f"{name} failed with an internal error ({type(exc).__name__}: {first}); the server is still running"
    )


def call_tool(tools: LoreTools, name: str, arguments: dict[str, Any] | None) -> dict:
    """One ``tools/call`` as its MCP result; never raises.

    An answer is ``{"content": [text], "structuredContent": answer, "isError": false}``: the same JSON twice,
    as the MCP specification recommends (clients that read structured content check it against the tool's
    ``outputSchema``; the others read the text). A failure becomes a tool error with one sentence
    (:func:`error_message`) and no structured content, except for the tools whose contract makes every
    failure an answer (``lore_search_similar``: ``{"success": false, ...}``).
    """
    out: dict | None
    try:
        out = tools.call(name, arguments)
        text, failed = _dump(out), False
    except Exception as exc:  # a bug must not take the server down: report it and keep serving
        if not isinstance(exc, LoreError):
            log.exception("tool %s failed", name)
        if migrate_arguments(name, None)[0] in ENVELOPED:  # the contract: a failure is a {"success": false} answer
            from .docs.similar import failure

            out = failure(f"Failed to search: {error_message(name, exc)}")
            text, failed = _dump(out), False
        else:
            out, text, failed = None, error_message(name, exc), True
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": failed}
    if out is not None:
        result["structuredContent"] = out
    return result


def build_server(db_path: str | os.PathLike[str], *, allow_refresh: bool = False, engine: str = "local",
                 ray_address: str | None = None) -> Server:
    """An MCP server of the official SDK over the index at ``db_path`` (read-only unless ``allow_refresh``).

    ``engine``/``ray_address``: where the graph tools run (``local``, or ``ray`` at an address).
    It serves streamable HTTP (:func:`run_http`); stdio sessions are served by :class:`StdioServer`,
    which answers the same (a test replays one session through both), without loading the SDK.

    The index is opened on the first tool call, so the server starts (and says "no index at ...;
    run `lore index` first" as a tool error) before the repository has been indexed.

    Examples
    --------
    >>> server = build_server("/nonexistent/.lore/index.db")
    >>> server.name
    'lore'
    """
    import anyio
    import mcp_types as types
    from mcp.server import Server

    tools = LoreTools(db_path, allow_refresh=allow_refresh, engine=engine, ray_address=ray_address)
    listed = [types.Tool.model_validate(t) for t in tool_definitions(allow_refresh=allow_refresh)]
    lock = anyio.Lock()  # one connection, one graph cache: calls run one at a time, off the event loop

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        async with lock:
            result = await anyio.to_thread.run_sync(call_tool, tools, params.name, params.arguments)
        return types.CallToolResult.model_validate(result)

    server: Server = Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    server.lore_tools = tools  # type: ignore[attr-defined]  # for tests and embedding
    return server


def parse_http(spec: str) -> tuple[str, int]:
    """``host:port`` for ``--http``; only loopback hosts are accepted (no auth on this transport).

    Examples
    --------
    >>> parse_http("127.0.0.1:8765")
    ('127.0.0.1', 8765)
    """
    host, sep, port_s = spec.rpartition(":")
    host = host.strip("[]")
    if not sep or not port_s.isdigit() or not 0 < int(port_s) < 65536:
        raise InvalidArgumentError(f"--http takes HOST:PORT such as 127.0.0.1:8765, got {spec!r}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise InvalidArgumentError(
            f"--http serves without authentication, so it binds loopback only (127.0.0.1, localhost, ::1), not {host!r}"
        )
    return host, int(port_s)


async def run_stdio(server: Server, stdin: Any = None, stdout: Any = None) -> None:
    """Serve ``server`` (the SDK's) over stdio, or over the given text streams (``anyio`` async files)."""
    from mcp.server.stdio import stdio_server

    async with stdio_server(stdin, stdout) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def bind_http(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for :func:`run_http`, or :class:`~lore.errors.ServeAddressError`.

    Binding before anything is printed or started means a busy port is one line, not a "serving on"
    line followed by the web server's own error; and the server listens on this very socket, so no
    other program can take the port in between.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart right after a stop
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ServeAddressError(host, port, exc.strerror or str(exc)) from None
    sock.set_inheritable(True)
    return sock


# An HTTP session a client never closes (no DELETE) holds about 39 KB: it is dropped after this long without a
# request (a client that comes back gets 404 and starts a new session, as the protocol says), and at most
# this many are kept at once (about 40 MB), whatever the SDK's defaults are.
SESSION_IDLE_SECONDS = 30 * 60
MAX_SESSIONS = 1000


def run_http(server: Server, host: str, port: int, sock: socket.socket | None = None, *,
             session_idle_timeout: float = SESSION_IDLE_SECONDS, max_sessions: int = MAX_SESSIONS) -> None:
    """Serve streamable HTTP on ``sock`` (default: :func:`bind_http` of ``host:port``) until interrupted.

    Sessions idle for ``session_idle_timeout`` seconds are closed; at most ``max_sessions`` are open.
    """
    import inspect

    import uvicorn

    if sock is None:
        sock = bind_http(host, port)
    # Plain JSON responses instead of one SSE stream per call: lore sends no progress or log
    # notifications mid-call, and JSON halves the transport's cost per call (see bench_mcp.py).
    # The SDK turns on DNS-rebinding protection (Host and Origin checks) for loopback hosts.
    limits: dict[str, Any] = {"session_idle_timeout": session_idle_timeout, "max_sessions": max_sessions}
    accepted = inspect.signature(server.streamable_http_app).parameters  # SDKs before 2.x's limits lack them
    app = server.streamable_http_app(host=host, json_response=True,
                                     **{k: v for k, v in limits.items() if k in accepted})
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def serve(db_path: str | os.PathLike[str], *, http: str | None = None, allow_refresh: bool = False,
          engine: str = "local", ray_address: str | None = None, sdk: bool | None = None,
          http_socket: socket.socket | None = None) -> None:
    """Serve until the client disconnects (stdio) or the process is interrupted (HTTP).

    Stdio is served by :class:`StdioServer` (ready in about the time Python takes to start; the
    SDK's import alone costs most of a second), or by the SDK when ``sdk`` is true (default: the
    ``LORE_MCP_SDK`` environment variable set to ``1``); streamable HTTP always by the SDK, on
    ``http_socket`` when the caller bound it already (:func:`bind_http`).
    """
    if sdk is None:
        sdk = os.environ.get("LORE_MCP_SDK", "") == "1"
    if http or sdk:
        import anyio

        server = build_server(db_path, allow_refresh=allow_refresh, engine=engine, ray_address=ray_address)
        try:
            if http:
                host, port = parse_http(http)
                run_http(server, host, port, http_socket)
            else:
                anyio.run(run_stdio, server)
        finally:
            server.lore_tools.close()  # type: ignore[attr-defined]
        return
    tools = LoreTools(db_path, allow_refresh=allow_refresh, engine=engine, ray_address=ray_address)

    def sdk_session(first: bytes, rest: Any, wire: Any) -> None:  # a 2026-era client: the SDK serves it
        import io

        import anyio

        server = build_server(db_path, allow_refresh=allow_refresh, engine=engine, ray_address=ray_address)
        stdin = anyio.wrap_file(io.TextIOWrapper(io.BufferedReader(Replay(first, rest)), encoding="utf-8",
                                                 errors="replace"))
        stdout = anyio.wrap_file(io.TextIOWrapper(wire, encoding="utf-8", write_through=True))
        try:
            anyio.run(run_stdio, server, stdin, stdout)
        finally:
            server.lore_tools.close()  # type: ignore[attr-defined]

    try:
        stdio_server(tools, fallback=sdk_session).serve_process()
    finally:
        tools.close()


def stdio_server(tools: LoreTools, *, fallback: Callable | None = None) -> StdioServer:
    """The stdio MCP session over ``tools`` (:class:`lore.mcp_schema._stdio.StdioServer`, no SDK).

    Examples
    --------
    >>> import io, json
    >>> server = stdio_server(LoreTools("/nonexistent/.lore/index.db"))
    >>> out = io.BytesIO()
    >>> server.serve(io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}\\n'), out)
    >>> json.loads(out.getvalue())["result"]["serverInfo"]
    {'name': 'lore', 'version': '0.1.0'}
    """
    return StdioServer(lambda name, arguments: call_tool(tools, name, arguments),
                       tool_definitions(allow_refresh=tools.allow_refresh),
                       server_info={"name": SERVER_NAME, "version": __version__}, instructions=INSTRUCTIONS,
                       fallback=fallback)


def locate_db(given: str | os.PathLike[str] | None) -> Path:
    """:func:`lore.store.db.locate_index`, except that a missing index is not fatal: the server starts and
    its tools say so.

    The path is made absolute, so messages name the file whatever directory the client started us in.
    """
    try:
        return locate_index(given).absolute()
    except IndexNotFoundError:
        return default_db_path(Path.cwd()).absolute()


def main(argv: list[str] | None = None) -> None:
    """``python -m lore.mcp_server --db PATH [--http HOST:PORT] [--allow-refresh] [--engine ray [--ray-address A]]``."""
    p = argparse.ArgumentParser(prog="python -m lore.mcp_server", description="lore MCP server")
    p.add_argument("--db", type=Path, default=None, help="index file or repository root")
    p.add_argument("--http", default=None, help="serve streamable HTTP on HOST:PORT (loopback only)")
    p.add_argument(
        "--allow-refresh", action="store_true", help="add the lore_refresh tool (writes the index)"
    )
    p.add_argument("--engine", default="local", help="where graph tools run: local | ray")
    p.add_argument("--ray-address", default=None, help="--engine ray: auto | ray://host:port (default: RAY_ADDRESS)")
    ns = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        serve(locate_db(ns.db), http=ns.http, allow_refresh=ns.allow_refresh, engine=ns.engine,
              ray_address=ns.ray_address)
    except LoreError as exc:
        print(f"lore: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        pass


__all__ = [
    "LoreTools",
    "build_server",
    "call_key",
    "call_tool",
    "check_arguments",
    "compact_graph_row",
    "compact_search_row",
    "decode_cursor",
    "encode_cursor",
    "locate_db",
    "main",
    "parse_http",
    "serve",
    "stdio_server",
    "tool_definitions",
]

if __name__ == "__main__":
    main()
