"""``lore export``: the graph (whole, a cluster, a symbol's neighbourhood) as GraphML, GEXF, DOT, JSON or CSV."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import InvalidArgumentError
from ..queries.export import FORMATS, RELATIONS, export_text, subgraph, write_export
from ._app import DbOpt, TestsOpt, command, emit_json, err, open_db, renamed_option


def export_cmd(
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"{' | '.join(FORMATS)}")] = "graphml",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File to write (default: stdout; CSV also writes <stem>.nodes.csv beside it).")] = None,
    cluster: Annotated[int | None, typer.Option("--cluster", help="Only this cluster (an id from `lore graph clusters`).")] = None,
    symbol: Annotated[str | None, typer.Option("--symbol", "-s", help="Only this symbol's neighbourhood (id or qualified name).")] = None,
    depth: Annotated[int, typer.Option(help="Neighbourhood radius in edges (1-3).")] = 1,
    relation: Annotated[list[str] | None, typer.Option("--relation", "-r", help=f"Keep only this relation (repeatable): {', '.join(RELATIONS)}.")] = None,
    include_external: Annotated[bool, typer.Option("--include-external", help="Keep external (library) symbols.")] = False,
    include_tests: TestsOpt = True,
    no_tests: Annotated[bool, typer.Option("--no-tests", hidden=True, help="Renamed --no-include-tests.")] = False,
    max_nodes: Annotated[int | None, typer.Option(help="Keep at most this many nodes (nearest first for --symbol).")] = None,
    db: DbOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: with --output, what was written (files, bytes, counts); without, the subgraph itself (nodes and edges with every field).")] = False,
) -> None:
    """Export the code graph for Gephi, Graphviz, yEd or scripts (networkx reads every format back)."""
    if no_tests:
        renamed_option("--no-tests", "--no-include-tests")
        include_tests = False
    if output is not None and output.is_dir():
        raise InvalidArgumentError(f"{output} is a directory; pass a file name")
    with open_db(db) as idx:
        data = subgraph(idx, cluster=cluster, symbol=symbol, depth=depth, relations=tuple(relation or RELATIONS),
                        include_external=include_external, include_tests=include_tests, max_nodes=max_nodes)
    if as_json and output is None:
        emit_json(data)
        return
    if output is None:
        texts = export_text(data, fmt)
        sys.stdout.write(texts["main"])
        if "nodes" in texts:
            err.print("note: CSV on stdout holds the edges only; pass --output FILE for the node table too",
                      markup=False)
        return
    written = write_export(data, fmt, output)
    if as_json:
        emit_json({"written": [{"path": str(p), "bytes": p.stat().st_size} for p in written], "format": fmt,
                   "scope": data["scope"], "nodes": len(data["nodes"]), "edges": len(data["edges"]),
                   "truncated": data["truncated"]})
        return
    note = " (truncated by --max-nodes)" if data["truncated"] else ""
    err.print(f"wrote {len(data['nodes'])} nodes and {len(data['edges'])} edges of the {data['scope']} "
              f"to {', '.join(map(str, written))}{note}", markup=False)


def register(app: typer.Typer) -> None:
    """Add ``export`` to ``app``."""
    command(app, "export")(export_cmd)
