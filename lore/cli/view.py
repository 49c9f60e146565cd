"""``lore view``: write one static, self-contained HTML page of the index (cluster map, related, neighbourhood)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import InvalidArgumentError
from ..queries.view import DEFAULT_LINK, write_view
from ._app import DbOpt, JsonOpt, command, emit_json, err, open_db


def view_cmd(
    symbol: Annotated[list[str] | None, typer.Option("--symbol", "-s", help="A symbol to carry the related list of (repeatable); the first opens the page.")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")] = Path("lore-view.html"),
    top: Annotated[int, typer.Option(help="Also carry the related lists of this many of the most connected symbols.")] = 100,
    related_limit: Annotated[int, typer.Option("--limit", "-n", help="Rows per related list.")] = 10,
    max_clusters: Annotated[int, typer.Option(help="Clusters drawn on the map (largest first).")] = 150,
    link: Annotated[str, typer.Option(help="Click-through URL template: {abspath}, {path}, {line} (e.g. vscode://file/{abspath}:{line}).")] = DEFAULT_LINK,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a static HTML page: cluster map, a symbol's related list and neighbourhood, search (no server, no network)."""
    if output.is_dir():
        raise InvalidArgumentError(f"{output} is a directory; pass a file name such as {output / 'lore-view.html'}")
    with open_db(db) as idx:
        info = write_view(idx, output, symbols=tuple(symbol or ()), top=top, related_limit=related_limit,
                          max_clusters=max_clusters, link=link)
    if as_json:
        emit_json(info)
        return
    err.print(f"wrote {info['path']} ({info['bytes'] / 1e6:.1f} MB): {info['symbols']} symbols, {info['clusters']} "
              f"clusters on the map, {info['related_lists']} related lists; open it in a browser", markup=False)


def register(app: typer.Typer) -> None:
    """Add ``view`` to ``app``."""
    command(app, "view")(view_cmd)
