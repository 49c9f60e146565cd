"""``lore search``: a thin shell over :func:`lore.search.api.search` (symbols, or files with ``--files``),
and the code-vector step of ``lore index --embed`` (:func:`build_vectors`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table


def _found_by(fb: dict) -> str:
    """One short phrase: the ranks that found a direct hit, or the seed and edge path of an expanded one."""
    if "seed" in fb:
        edges = " -> ".join(f"{step['edge']}({step['direction']})" for step in fb.get("path", []))
        return f"via {fb.get('seed_qualified_name') or fb['seed']} [{edges}]"
    parts = [f"{k} #{v['rank']}" for k, v in fb.items() if isinstance(v, dict) and "rank" in v]
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
    for key in ("fallback", "relaxed", "stale"):
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
    exclude_tests: Annotated[bool, typer.Option("--exclude-tests", help="Leave test code out.")] = False,
    db: Annotated[Path | None, typer.Option("--db", "--index", help="Index file or repository root.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Search symbols (or files with --files): BM25 and vectors fused, expanded along the graph."""
    from .cli import _open, emit_json, out

    with _open(db, readonly=True) as idx:
        data = idx.search(query, mode=mode, files=files, kind=kind, path_prefix=path_prefix, limit=limit,
                          expand=expand, min_score=min_score, top_k=top_k, decay=decay, any_terms=any_terms,
                          include_tests=not exclude_tests)
    if as_json:
        emit_json(data)
        return
    table = Table(title=f"{'files' if files else 'symbols'} matching {query!r}", title_justify="left")
    cols = ("id", "file", "exports", "score", "found by") if files else ("id", "symbol", "kind", "location", "score",
                                                                            "found by")
    for c in cols:
        table.add_column(c, overflow="fold")
    for r in data["results"]:
        if files:
            cells = (str(r["id"]), r["path"], ", ".join(r.get("exports", [])[:6]), f"{r['score']:.3g}",
                     _found_by(r.get("found_by", {})))
        else:
            cells = (str(r["id"]), r["qualified_name"], r["kind"], f"{r['path']}:{r['line']}", f"{r['score']:.3g}",
                     _found_by(r.get("found_by", {})))
        table.add_row(*(escape(c) for c in cells))
    out.print(table)
    out.print(footer(data), markup=False)


def build_vectors(db: str | Path, embedder: str | None) -> dict[str, Any]:
    """``lore index --embed``: embed what changed since the last run (a progress bar on a TTY).

    An explicit ``--embedder`` makes that model the index's only one; without it the stored model
    is kept, else the no-model hashing embedder is used.
    """
    from .search.api import build_code_vectors

    if not sys.stderr.isatty():
        return build_code_vectors(db, embedder=embedder, replace=embedder is not None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .cli import err

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        tasks: dict[str, Any] = {}

        def report(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.update(tasks[phase], completed=done, total=total)

        return build_code_vectors(db, embedder=embedder, replace=embedder is not None, progress=report)


def print_vectors(v: dict[str, Any]) -> None:
    """One line per ``lore index --embed``: what was embedded, kept and removed."""
    from .cli import out

    s, f = v["symbol"], v["file"]
    line = (f"code vectors ({v['model']}): embedded {s['embedded']} symbols and {f['embedded']} files, "
            f"{s['unchanged']} symbols unchanged, {s['removed'] + f['removed']} removed in {v['seconds']:.2f}s")
    if v.get("dropped"):
        line += f"; dropped the vectors of {', '.join(v['dropped'])}"
    out.print(line, markup=False)


def bench_search_command(
    path: Annotated[Path | None, typer.Argument(help="Repository to measure on (default: the installed networkx).")] = None,
    db: Annotated[Path | None, typer.Option("--db", help="Copy this index of PATH's code instead of indexing it (never written).")] = None,
    queries: Annotated[int, typer.Option("--queries", help="Docstring sentences to ask (a seeded sample).")] = 300,
    minilm: Annotated[bool, typer.Option("--minilm", help="Also embed with MiniLM (the embed extra; ~20 symbols/s).")] = False,
    thresholds: Annotated[Path | None, typer.Option("--thresholds", help="Floors (default: benchmarks/search/thresholds.json when measuring networkx).")] = None,
    no_gate: Annotated[bool, typer.Option("--no-gate", help="Do not compare with the thresholds file.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full report as JSON.")] = False,
) -> None:
    """Code-search quality (docstring sentences, docstrings removed) and speed; exit 1 below the floors."""
    import json

    from .bench.search import default_thresholds_path, format_report, gate_failures, run_search_bench
    from .cli import emit_json, out
    from .errors import InvalidArgumentError

    if queries < 1:
        raise InvalidArgumentError(f"queries must be 1 or more, got {queries}")
    if path is None and db is None:
        import networkx

        source: Path | None = Path(networkx.__file__).parent
        label = f"networkx {networkx.__version__}"
    else:
        if path is not None and not path.is_dir():
            raise InvalidArgumentError(f"{path} is not a directory; pass a repository root")
        if db is not None and not db.is_file():
            raise InvalidArgumentError(f"no index at {db}; pass an index file made by `lore index`")
        source, label = (None if db is not None else path), str(path or db)
    report = run_search_bench(source=source, db=db, label=label, n_queries=queries, minilm=minilm,
                              at_100k=label.startswith("networkx"))
    floors_path = thresholds or (default_thresholds_path() if label.startswith("networkx") else None)
    floors = {} if no_gate or floors_path is None else json.loads(floors_path.read_text(encoding="utf-8"))
    report["gate_failures"] = gate_failures(report, floors)
    if as_json:
        emit_json(report)
    else:
        out.print(format_report(report), markup=False)
        for line in report["gate_failures"]:
            out.print(f"BELOW THRESHOLD: {line}", markup=False)
        out.print("PASS" if not report["gate_failures"] else "FAIL", markup=False)
    if report["gate_failures"]:
        raise typer.Exit(1)
