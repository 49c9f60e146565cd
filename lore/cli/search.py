"""``lore search``: a thin shell over :meth:`lore.api.Index.search` (symbols, or files with ``--files``);
``lore locate``: over :func:`lore.api.locate` (where to start on a bug report)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ._app import command, emit_json, open_db, renamed_option


def _found_by(fb: dict) -> str:
    """One short phrase: the ranks that found a direct hit, or the seed and edge path of an expanded one."""
    if "seed" in fb:
        edges = " -> ".join(f"{step['edge']}({step['direction']})" for step in fb.get("path", []))
        return f"via {fb.get('seed_qualified_name') or fb['seed']} [{edges}]"
    parts = [f"{k} #{v['rank']}" for k, v in fb.items() if isinstance(v, dict) and "rank" in v]
    if isinstance(fb.get("graph"), dict):  # the graph vote that raised a report's row
        g = fb["graph"]
        parts.append(f"graph {g['edge']}({g['direction']}) {g.get('seed_qualified_name') or g['seed']}")
    if fb.get("exact_path"):
        parts.insert(0, "exact path")
    return ", ".join(parts)


def footer(data: dict) -> str:
    """The line under the table: rows shown, mode, and every note the envelope carries."""
    foot = f"{len(data['results'])} of {data['total']} shown"
    if data["truncated"]:
        foot += " (truncated; raise --limit)"
    foot += f" · mode {data['query']['mode']}"
    if data.get("model"):
        foot += f" ({data['model']})"
    for key in ("fallback", "relaxed", "stale", "weak"):
        if data.get(key):
            foot += f" · {data[key]}"
    return foot + f" · index generation {data['generation']}"


def search_command(
    query: Annotated[str, typer.Argument(help='Words, "quoted phrases" or an identifier (getUserById).')],
    files: Annotated[bool, typer.Option("--files", help="Search files (path, exported names, imports).")] = False,
    mode: Annotated[str, typer.Option(help="hybrid | keyword | vector")] = "hybrid",
    kind: Annotated[str | None, typer.Option("--kind", "-k", help="Only symbols of this kind.")] = None,
    path_prefix: Annotated[str | None, typer.Option("--path", help="Only results under this path prefix.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", "-n", help="Maximum rows (default 5, files 10).")] = None,
    expand: Annotated[int | None, typer.Option(help="Graph hops from the top hits, 0..3 (default 1, files 0).")] = None,
    min_score: Annotated[float | None, typer.Option(help="Drop rows below this score, 0..1 (default 0.5, files 0.3).")] = None,
    top_k: Annotated[int | None, typer.Option(help="How many top hits seed the expansion (default 5).")] = None,
    decay: Annotated[float | None, typer.Option(help="One per-hop decay for every edge kind, in (0, 1].")] = None,
    any_terms: Annotated[bool, typer.Option("--any", help="Keyword hits need one of the words, not all.")] = False,
    include_tests: Annotated[bool, typer.Option("--include-tests/--no-include-tests", help="Keep test code (each row says is_test).")] = True,
    exclude_tests: Annotated[bool, typer.Option("--exclude-tests", hidden=True, help="Renamed --no-include-tests.")] = False,
    db: Annotated[Path | None, typer.Option("--db", "--index", help="Index file or repository root.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Search symbols (or files with --files): BM25 and vectors fused, expanded along the graph."""
    if exclude_tests:
        renamed_option("--exclude-tests", "--no-include-tests")
        include_tests = False
    with open_db(db, readonly=True) as idx:
        data = idx.search(query, mode=mode, files=files, kind=kind, path_prefix=path_prefix, limit=limit,
                          expand=expand, min_score=min_score, top_k=top_k, decay=decay, any_terms=any_terms,
                          include_tests=include_tests)
    if as_json:
        emit_json(data)
        return
    from ._format import Column, print_table

    columns: tuple[Column, ...]
    rows: list[tuple[Any, ...]]
    if files:
        columns = (Column("id", align="right"), Column("file", "path", min=16), Column("exports", "list"),
                   Column("score", align="right"), Column("found by", "spill", min=8))
        rows = [(str(r["id"]), r["path"], ", ".join(r.get("exports", [])[:6]), f"{r['score']:.3g}",
                 _found_by(r.get("found_by", {}))) for r in data["results"]]
    else:
        columns = (Column("id", align="right"), Column("symbol", "name", min=14), Column("kind"),
                   Column("location", "path", min=12), Column("score", align="right"),
                   Column("found by", "spill", min=8))
        rows = [(str(r["id"]), r["qualified_name"], r["kind"], f"{r['path']}:{r['line']}", f"{r['score']:.3g}",
                 _found_by(r.get("found_by", {}))) for r in data["results"]]
    print_table(f"{'files' if files else 'symbols'} matching {query!r}", columns, rows, footer(data))


def locate_command(
    text: Annotated[str | None, typer.Argument(help="The bug report (error message, traceback, description); "
                                                    "- reads it from stdin.")] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="Read the bug report from this file.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="Maximum symbols.")] = 10,
    files: Annotated[int, typer.Option("--files", help="Maximum files.")] = 5,
    include_tests: Annotated[bool, typer.Option("--include-tests/--no-include-tests", help="Keep test code.")] = False,
    db: Annotated[Path | None, typer.Option("--db", "--index", help="Index file or repository root.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Where to start on a bug report: files and functions, with reasons (stack frames, search, graph)."""
    import sys

    from ..errors import InvalidArgumentError

    if file is not None and text is not None:
        raise InvalidArgumentError("give the bug report as TEXT, - (stdin) or --file, not two of them")
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise InvalidArgumentError(f"cannot read --file {file}: {exc.strerror or exc}") from None
    elif text is None or text == "-":
        if sys.stdin.isatty():  # nothing piped in: say how, rather than wait for input
            raise InvalidArgumentError("give the bug report as TEXT, pipe it in with -, or name a --file")
        text = sys.stdin.read()
    with open_db(db, readonly=True) as idx:
        from ..api import locate

        data = locate(idx, text, limit=limit, files=files, include_tests=include_tests)
    if as_json:
        emit_json(data)
        return
    from ._format import Column, print_table

    print_table("files", (Column("file", "path", min=16), Column("score", align="right"),
                          Column("why", "spill", min=8)),
                [(r["path"], f"{r['score']:.3g}", r["why"]["summary"]) for r in data["files"]], "")
    print_table("symbols", (Column("id", align="right"), Column("symbol", "name", min=14), Column("kind"),
                            Column("location", "path", min=12), Column("score", align="right"),
                            Column("why", "spill", min=8)),
                [(str(r["id"]), r["qualified_name"], r["kind"], f"{r['path']}:{r['line']}", f"{r['score']:.3g}",
                  r["why"]["summary"]) for r in data["results"]],
                f"{len(data['results'])} of {data['total']} shown · {data['query']['frames']} stack frames read"
                + (f" · {data['weak']}" if data.get("weak") else "") + f" · index generation {data['generation']}")


def register(app: typer.Typer) -> None:
    """Add ``search`` and ``locate`` to ``app``."""
    # a query may start with "-" ("-retry"): text, not an unknown option
    command(app, "search", context_settings={"ignore_unknown_options": True})(search_command)
    command(app, "locate", context_settings={"ignore_unknown_options": True})(locate_command)
