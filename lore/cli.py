"""The ``lore`` command: parse arguments, call the library, print a table or ``--json``.

Every command is registered through :func:`_command`, the one place that turns a
:class:`~lore.errors.LoreError` into a one-line message on stderr and exit code 2.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from .errors import IndexNotFoundError, LoreError
from .store.db import DEFAULT_DB, DEFAULT_DIR

app = typer.Typer(
    name="lore",
    help="What else in this codebase is like this symbol? Index a repository, walk its graph, rank related symbols.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
graph_app = typer.Typer(help="Graph queries: direct edges, related symbols, clusters.", no_args_is_help=True)
app.add_typer(graph_app, name="graph")

# piped output is not squeezed into 80 columns: tables stay readable in logs and CI
out = Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 200)
err = Console(stderr=True, highlight=False, width=None if sys.stderr.isatty() else 200)


def fail(message: str, code: int = 2) -> None:
    """Print one line on stderr (never wrapped) and exit."""
    sys.stderr.write(f"lore: error: {message}\n")
    raise typer.Exit(code)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", "--index", help="Index file or repository root (default: nearest .lore/index.db upwards)."),
]


def _command(group: typer.Typer, name: str | None = None, **kw: Any) -> Callable:
    """Register a command whose LoreErrors become one line on stderr and exit code 2."""

    def deco(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except LoreError as exc:
                fail(str(exc))
            except KeyboardInterrupt:
                fail("interrupted; the index is unchanged", 130)

        group.command(name, **kw)(wrapper)
        return wrapper

    return deco


def find_db(given: Path | None) -> Path:
    """The index to use: ``--db`` (a file or a repository root), else the nearest ``.lore/index.db`` upwards."""
    if given is not None:
        if given.is_dir():
            return given / DEFAULT_DIR / DEFAULT_DB
        return given
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        candidate = d / DEFAULT_DIR / DEFAULT_DB
        if candidate.exists():
            return candidate
    raise IndexNotFoundError(str(here / DEFAULT_DIR / DEFAULT_DB))


def _open(db: Path | None, *, readonly: bool = False):
    from .api import open_index

    return open_index(find_db(db), readonly=readonly)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _fmt_loc(row: dict) -> str:
    return f"{row['path']}:{row['line']}" if row.get("path") else "-"


def _fmt_why(why: Any) -> str:
    if not isinstance(why, dict):
        return ""
    if "shared" in why or "path" in why:
        parts = [f"{'direct ' if s.get('direct') else ''}{s['relation']} {s['name']} ({s['weight']:.3g})"
                 for s in why.get("shared", [])]
        if "path" in why:
            hops = " -> ".join(f"{h['to']} [{h['edge']}]" for h in why.get("hops", []))
            se = f" ± {why['stderr']:.2g}" if "stderr" in why else ""
            parts.append(("walk: " if parts else "") + (hops or "direct") + se)
        return "; ".join(parts)
    if "cluster" in why:
        return f"cluster {why['cluster']} ({why.get('label')}), cohesion {why.get('cohesion')}"
    if "call_lines" in why:
        return f"{why['resolution']} @ line {', '.join(map(str, why['call_lines'][:5]))}"
    if "relation" in why:
        return f"{why['relation']} ({why.get('kind')}, depth {why.get('depth')}, {why.get('resolution')})"
    if "statement" in why:
        return f"{why['statement']} [{why['resolution']}] @ line {why['import_line']}"
    return json.dumps(why)[:80]


def print_rows(title: str, data: dict) -> None:
    table = Table(title=title, title_justify="left", show_lines=False)
    for col in ("id", "symbol", "kind", "location", "score", "why"):
        table.add_column(col, overflow="fold")
    for r in data["results"]:
        cells = (str(r.get("id") if r.get("id") is not None else "-"), r.get("qualified_name") or r.get("name") or "",
                 r.get("kind", ""), _fmt_loc(r), f"{r['score']:.4g}" if isinstance(r.get("score"), float | int) else "",
                 _fmt_why(r.get("why")))
        table.add_row(*(escape(c) for c in cells))  # '[calls]' in a cell is text, not rich markup
    out.print(table)
    shown = len(data["results"])
    foot = f"{shown} of {data['total']} shown" + (" (truncated; raise --limit)" if data.get("truncated") else "")
    foot += f" · index generation {data['generation']}"
    if data.get("note"):
        foot += f" · {data['note']}"
    out.print(foot, markup=False)


# -- index / stats / show ---------------------------------------------------------------------------
@_command(app, "index")
def index_cmd(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: PATH/.lore/index.db).")] = None,
    exclude: Annotated[list[str] | None, typer.Option("--exclude", "-x", help="Gitignore-style pattern to skip (repeatable).")] = None,
    max_file_size: Annotated[int, typer.Option(help="Skip files larger than this many bytes.")] = 2_000_000,
    workers: Annotated[int | None, typer.Option(help="Parser processes (default: CPU count).")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Drop the index and build it from scratch.")] = False,
    embed: Annotated[bool, typer.Option("--embed", help="Also embed symbols and files for vector / hybrid search (kept fresh by later runs).")] = False,
    embedder: Annotated[str | None, typer.Option("--embedder", help="hashing (default: no model, fast) | minilm (the embed extra; ~20 symbols/s). Implies --embed.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Index a repository (incremental: only changed files are re-parsed)."""
    from .api import index_repo
    from .cli_search import build_vectors, print_vectors

    if embedder is not None:
        from .docs.embed import get_embedder

        get_embedder(embedder)  # an unknown name or a missing extra fails before any work
        embed = True

    if not path.is_dir():
        raise LoreError(f"{path} is not a directory; pass the repository root")
    progress_cb = None
    progress = None
    if sys.stderr.isatty() and not as_json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=err, transient=True)
        tasks: dict[str, Any] = {}

        def progress_cb(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.update(tasks[phase], completed=done, total=total)

        progress.start()
    try:
        report = index_repo(path, db=db, exclude=tuple(exclude or ()), max_file_size=max_file_size, workers=workers,
                            rebuild=rebuild, progress=progress_cb)
    finally:
        if progress is not None:
            progress.stop()
    vectors = build_vectors(report.db, embedder) if embed else None
    if as_json:
        emit_json({**report.to_dict(), **({"code_vectors": vectors} if vectors else {})})
        return
    if report.rebuilt_reason:
        out.print(f"rebuilt the index ({report.rebuilt_reason})", markup=False)
    if not report.changed_any:
        out.print(f"index is up to date: {report.files_seen} files, generation {report.generation} ({report.db})",
                  markup=False)
    else:
        out.print(
            f"indexed {report.files_seen} files in {report.seconds['total']:.2f}s: {len(report.added)} added, "
            f"{len(report.changed)} changed, {len(report.removed)} removed, {report.unchanged} unchanged; "
            f"re-resolved {report.reresolved_files} files; generation {report.generation}",
            markup=False,
        )
        for label, paths in (("added", report.added), ("changed", report.changed), ("removed", report.removed)):
            if paths and len(paths) <= 10 and not report.full:
                out.print(f"  {label}: {', '.join(paths)}", markup=False)
        out.print(f"  {report.symbols} symbols; edges: " + ", ".join(f"{k} {v}" for k, v in report.edges.items()),
                  markup=False)
    if report.syntax_error_files:
        out.print(f"  {len(report.syntax_error_files)} files had syntax errors (indexed as far as they parse): "
                  + ", ".join(report.syntax_error_files[:5]), markup=False)
    for reason, n in report.skipped.items():
        err.print(f"warning: skipped {n} files: {reason}", markup=False)
    if vectors:
        print_vectors(vectors)


@_command(app, "stats")
def stats_cmd(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Files, symbols by kind and language, edges by table and by resolution."""
    with _open(db, readonly=True) as idx:
        s = idx.stats()
    if as_json:
        emit_json(s)
        return
    out.print(f"index {s['db']} · generation {s['generation']} · root {s['root']}", markup=False)
    t = Table(title="files and symbols by language", title_justify="left")
    for c in ("language", "files", "symbols", "calls", "resolved calls"):
        t.add_column(c)
    for lang, n in s["files_by_language"].items():
        calls = s["calls_by_language"].get(lang, {"total": 0, "resolved": 0})
        share = f"{calls['resolved']} ({100 * calls['resolved'] / calls['total']:.1f}%)" if calls["total"] else "0"
        t.add_row(lang, str(n), str(s["symbols_by_language"].get(lang, 0)), str(calls["total"]), share)
    out.print(t)
    t = Table(title="symbols by kind", title_justify="left")
    t.add_column("kind")
    t.add_column("count")
    for k, n in s["symbols_by_kind"].items():
        t.add_row(k, str(n))
    out.print(t)
    t = Table(title="edges by table and resolution", title_justify="left")
    for c in ("table", "total", "by resolution"):
        t.add_column(c, overflow="fold")
    for table, e in s["edges"].items():
        t.add_row(table, str(e["total"]), ", ".join(f"{k} {v}" for k, v in e["by_resolution"].items()))
    out.print(t)
    if s["syntax_error_files"]:
        out.print(f"{s['syntax_error_files']} files with syntax errors", markup=False)


@_command(app, "show")
def show_cmd(
    ref: Annotated[str, typer.Argument(help="Symbol id or qualified name.")],
    snippet: Annotated[int, typer.Option(help="Lines of source to print.")] = 12,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Details of one symbol: location, signature, docstring, container, source."""
    with _open(db, readonly=True) as idx:
        s = idx.symbol(ref, snippet_lines=snippet)
    if as_json:
        emit_json(s)
        return
    out.print(f"[bold]{s['qualified_name']}[/bold]  ({s['kind']}, id {s['id']})")
    out.print(f"{s['path']}:{s['line']}-{s['end_line']}" + ("  [test]" if s["is_test"] else ""), markup=False)
    if s.get("parent"):
        out.print(f"in {s['parent']['qualified_name']} (id {s['parent']['id']})", markup=False)
    if s.get("signature"):
        out.print(s["signature"], markup=False)
    if s.get("docstring"):
        out.print("\n" + s["docstring"], markup=False)
    if s.get("snippet"):
        out.print("\n" + s["snippet"], markup=False)
    if s.get("same_name_ids"):
        out.print(f"\nother symbols with this qualified name: {s['same_name_ids']}", markup=False)


# -- graph -----------------------------------------------------------------------------------------------
LimitOpt = Annotated[int, typer.Option("--limit", "-n", help="Maximum rows.")]
KindOpt = Annotated[list[str] | None, typer.Option("--kind", "-k", help="Keep only results of this symbol kind (repeatable).")]
TestsOpt = Annotated[bool, typer.Option("--include-tests", help="Keep symbols from test files.")]


def _graph(kind: str, refs: list[str], db: Path | None, as_json: bool, compact: bool = False,
           max_tokens: int | None = None, **kw: Any) -> None:
    from .api import lore_graph

    with _open(db) as idx:
        data = lore_graph(idx, kind=kind, source_id=refs if len(refs) > 1 else refs[0], compact=compact,
                          max_tokens=max_tokens, **kw)
    if as_json:
        emit_json(data)
        return
    if compact:
        data["results"] = [dict(r, qualified_name=r["qualified_name"], path=None, line=None) for r in data["results"]]
    print_rows(f"{kind} of {', '.join(refs)}", data)
    for d in data.get("docs", []) or []:
        doc = d.get("document") or {}
        out.print(f"  doc chunk {d.get('chunk_id')}: {doc.get('path')} > {d.get('breadcrumb', '')}"
                  f" (mentions {', '.join(m.get('mention', '') if isinstance(m, dict) else str(m) for m in d.get('mentions', []))})",
                  markup=False)


@_command(graph_app, "call")
def graph_call(ref: str, limit: LimitOpt = 50, kind: KindOpt = None, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """What REF calls: targets with resolution, confidence and call-site lines (unresolved names kept)."""
    _graph("call", [ref], db, as_json, limit=limit, result_kind=kind)


@_command(graph_app, "callers")
def graph_callers(ref: str, limit: LimitOpt = 50, kind: KindOpt = None, include_tests: TestsOpt = True,
                  db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Who calls REF, with resolution, confidence and call-site lines."""
    _graph("callers", [ref], db, as_json, limit=limit, result_kind=kind, include_tests=include_tests)


@_command(graph_app, "import")
def graph_import(
    ref: str,
    direction: Annotated[str, typer.Option(help="out: what REF's file imports; in: who imports it.")] = "out",
    limit: LimitOpt = 100, db: DbOpt = None, as_json: JsonOpt = False,
) -> None:
    """Imports of the file that defines REF (or, with --direction in, the modules importing it)."""
    _graph("import", [ref], db, as_json, limit=limit, direction=direction)


@_command(graph_app, "inheritance")
def graph_inheritance(
    ref: str,
    direction: Annotated[str, typer.Option(help="out: bases; in: subclasses; both.")] = "both",
    limit: LimitOpt = 100, kind: KindOpt = None, db: DbOpt = None, as_json: JsonOpt = False,
) -> None:
    """Base classes and subclasses of REF (transitively), and the methods it overrides."""
    _graph("inheritance", [ref], db, as_json, limit=limit, direction=direction, result_kind=kind)


@_command(graph_app, "related")
def graph_related(
    refs: Annotated[list[str], typer.Argument(help="One or more seed symbols (ids or qualified names).")],
    algorithm: Annotated[str, typer.Option("--algorithm", "-a", help="overlap | fusion (overlap + PageRank ranks) | pagerank | pagerank_push | pagerank_mc | cluster")] = "overlap",
    limit: LimitOpt = 20,
    kind: KindOpt = None,
    include_tests: TestsOpt = False,
    measure: Annotated[str | None, typer.Option(help="Overlap similarity: idf_cosine | cosine | adamic_adar | resource_allocation | jaccard | count")] = None,
    alpha: Annotated[float, typer.Option(help="PageRank damping, in (0, 1).")] = 0.85,
    direction: Annotated[str | None, typer.Option(help="PageRank walk direction: out | in | both.")] = None,
    walks: Annotated[int, typer.Option(help="Monte-Carlo walks (pagerank_mc).")] = 10_000,
    seed: Annotated[int, typer.Option(help="Random seed (pagerank_mc).")] = 0,
    compact: Annotated[bool, typer.Option("--compact", help="Fewer fields per row.")] = False,
    max_tokens: Annotated[int | None, typer.Option(help="Trim rows so the JSON fits about this many tokens.")] = None,
    with_docs: Annotated[bool, typer.Option("--with-docs", help="Also list document chunks that mention the seeds.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Symbols that play a role like REFS, ranked by graph structure, each with why."""
    _graph("related", refs, db, as_json, compact=compact, max_tokens=max_tokens, algorithm=algorithm, limit=limit,
           result_kind=kind, include_tests=include_tests, measure=measure, alpha=alpha, direction=direction,
           n_walks=walks, seed=seed, with_docs=with_docs)


@_command(graph_app, "cluster")
def graph_cluster(ref: str, limit: LimitOpt = 30, kind: KindOpt = None, include_tests: TestsOpt = False,
                  db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The cluster (subsystem) of REF and its members, ranked."""
    _graph("cluster", [ref], db, as_json, limit=limit, result_kind=kind, include_tests=include_tests)


@_command(graph_app, "clusters")
def graph_clusters(
    min_size: Annotated[int, typer.Option(help="Hide clusters smaller than this.")] = 3,
    limit: LimitOpt = 50,
    mode: Annotated[str, typer.Option(help="lpa (label propagation) | components")] = "lpa",
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The subsystems: size, cohesion, a readable label and top members of each cluster."""
    from .api import list_clusters

    with _open(db) as idx:
        data = list_clusters(idx, min_size=min_size, limit=limit, mode=mode)
    if as_json:
        emit_json(data)
        return
    t = Table(title="clusters", title_justify="left")
    for c in ("cluster", "size", "cohesion", "label", "top members"):
        t.add_column(c, overflow="fold")
    for r in data["results"]:
        t.add_row(str(r["cluster"]), str(r["size"]), f"{r['cohesion']:.2f}", escape(r["label"]),
                  escape(", ".join(m["qualified_name"] for m in r["top_members"])))
    out.print(t)
    out.print(f"{len(data['results'])} of {data['total']} clusters with at least {min_size} members "
              f"· generation {data['generation']}", markup=False)


def main() -> None:
    """Console entry point. Sub-apps from other modules raise LoreError too: caught here as well."""
    try:
        app()
    except LoreError as exc:
        sys.stderr.write(f"lore: error: {exc}\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("lore: interrupted; the index is unchanged\n")
        sys.exit(130)


@app.callback(invoke_without_command=True)
def _root(version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False) -> None:
    if version:
        out.print(f"lore {__version__}", markup=False)
        raise typer.Exit(0)


def _register_extensions() -> None:
    """Sub-apps that live in their own modules (each a thin shell like the commands above)."""
    from .cli_docs import docs_app, related_command

    app.add_typer(docs_app, name="docs")
    _command(app, "related")(related_command)

    from .cli_serve import serve_command, tools_command

    _command(app, "serve")(serve_command)
    _command(app, "tools")(tools_command)

    from .cli_search import search_command

    # a query may start with "-" ("-retry"): text, not an unknown option
    _command(app, "search", context_settings={"ignore_unknown_options": True})(search_command)

    from .cli_bench import bench_app
    from .cli_search import bench_search_command

    app.add_typer(bench_app, name="bench")
    _command(bench_app, "search")(bench_search_command)


_register_extensions()

if __name__ == "__main__":  # pragma: no cover
    main()
