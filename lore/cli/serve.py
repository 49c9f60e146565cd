"""``lore serve`` and ``lore tools``: run the MCP server (:mod:`lore.mcp_server`), list its tool definitions.

The arrow runs one way: the CLI starts the server; the server never imports the CLI.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ._app import DbOpt, command, emit_json, err


def serve_command(
    db: DbOpt = None,
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="HOST:PORT",
            help="Serve streamable HTTP on this loopback address instead of stdio.",
        ),
    ] = None,
    allow_refresh: Annotated[
        bool,
        typer.Option(
            "--allow-refresh", help="Add the lore_refresh tool (the only one that writes the index)."
        ),
    ] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Keep the index fresh while serving: re-index as files change (debounced).")
    ] = False,
    engine: Annotated[
        str, typer.Option("--engine", help="Where the graph tools run: local | ray (Ray actors; the ray extra). Same answers.")
    ] = "local",
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="--engine ray: auto | ray://host:port | host:port (default: RAY_ADDRESS, else a local Ray).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --http, announce the address as one JSON line on stdout; errors as JSON (stdio: stdout is the protocol's).")
    ] = False,
) -> None:
    """Run the MCP server (stdio by default) for Claude Desktop, Claude Code, VS Code or any MCP client."""
    from ..mcp_server import (  # here: other commands never load the MCP SDK
        bind_http,
        locate_db,
        parse_http,
        serve,
    )

    db_path = locate_db(db)
    address = parse_http(http) if http else None  # a bad address fails here, before anything starts
    if engine != "local":  # likewise a bad engine name (Ray itself connects on the first graph call)
        from ..graphs.engines import check_engine_name

        check_engine_name(engine)
    sock = bind_http(*address) if address else None  # a busy port: one line, before anything starts
    stop = None
    if watch:
        from ._watch import start_background_watch

        stop = start_background_watch(db_path)
    if address:
        host, port = address
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{port}/mcp"
        if as_json:  # one line, flushed: a script waits for it before it connects
            print(json.dumps({"serving": {"transport": "http", "url": url, "db": str(db_path),
                                          "allow_refresh": allow_refresh, "watch": watch}}), flush=True)
        else:
            err.print(f"lore: MCP server (streamable HTTP) on {url} for {db_path}; Ctrl-C stops it", markup=False)
    try:
        serve(db_path, http=http, allow_refresh=allow_refresh, engine=engine, ray_address=ray_address,
              http_socket=sock)
    finally:
        if stop is not None:
            stop.set()
        if sock is not None:  # run_http closes it too; closing twice is harmless
            sock.close()


def tools_command(
    schema: Annotated[
        bool, typer.Option("--schema", help="Print the full tool definitions as JSON.")
    ] = False,
    allow_refresh: Annotated[bool, typer.Option("--allow-refresh", help="Include lore_refresh.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print each tool's name, title and description as JSON (--schema: the full definitions).")] = False,
) -> None:
    """List the MCP tools; with --schema, print their JSON definitions (for non-MCP agent frameworks)."""
    from ..mcp_schema import tool_definitions

    tools = tool_definitions(allow_refresh=allow_refresh)
    if schema:
        emit_json(tools)
        return
    if as_json:
        emit_json([{"name": t["name"], "title": t["title"], "description": t.get("description", "")} for t in tools])
        return
    for t in tools:
        typer.echo(f"{t['name']:<14} {t['title']}")


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``tools`` to ``app``."""
    command(app, "serve")(serve_command)
    command(app, "tools")(tools_command)
