"""``lore index``, ``lore stats`` and ``lore show``: build the index, count what is in it, read one symbol."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from .._paths import symbol_with_source
from ..api import index_repo
from ..errors import LoreError, NothingToIndexError
from ..store.db import get_meta
from ._app import (
    DbOpt,
    JsonOpt,
    command,
    emit_json,
    err,
    open_db,
    out,
    progress_bar,
    progress_callback,
    terminal_safe,
)


def index_cmd(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: PATH/.lore/index.db).")] = None,
    exclude: Annotated[list[str] | None, typer.Option("--exclude", "-x", help="Gitignore-style pattern to skip (repeatable).")] = None,
    include: Annotated[list[str] | None, typer.Option("--include", "-i", help="Gitignore-style pattern to index even where .gitignore, --exclude or a built-in skip (virtualenvs, node_modules, build output) leaves it out (repeatable).")] = None,
    gitignore: Annotated[bool | None, typer.Option("--gitignore/--no-gitignore", help="Read .gitignore files (default: the repository's settings, else yes); --no-gitignore indexes what they exclude (a .gitignore of '/*', as Debian's kernel source has).", show_default=False)] = None,
    max_file_size: Annotated[int | None, typer.Option(help="Skip files larger than this many bytes (default: the repository's settings, else 2000000; see `lore config`).")] = None,
    workers: Annotated[int | None, typer.Option(help="Parser processes (default: CPU count).")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Drop the index and build it from scratch.")] = False,
    memory: Annotated[str | None, typer.Option("--memory", help="What the indexer may hold at once, e.g. 3G or 512M (default: half of this machine's memory, or of the container's limit); a smaller budget costs CPU, never answers.")] = None,
    embed: Annotated[bool, typer.Option("--embed", help="Also embed symbols and files for vector / hybrid search (kept fresh by later runs).")] = False,
    embedder: Annotated[str | None, typer.Option("--embedder", help="hashing (default: no model, fast) | minilm (the embed extra; about 60 symbols per CPU second). Implies --embed.")] = None,
    as_json: JsonOpt = False,
    watch: Annotated[bool, typer.Option("--watch", help="Keep watching: re-index whenever source files change (debounced); Ctrl-C stops.")] = False,
    debounce: Annotated[int, typer.Option(help="--watch: changes closer together than this many ms make one run.")] = 400,
    executor: Annotated[str, typer.Option("--executor", help="local (process pools, the default) | ray (Ray tasks and actors; the ray extra). Same index either way.")] = "local",
    ray_address: Annotated[str | None, typer.Option("--ray-address", help="--executor ray: auto | ray://host:port | host:port (default: RAY_ADDRESS, else a local Ray).")] = None,
    edge_store: Annotated[str | None, typer.Option("--edge-store", help="parquet: also write the graph's edges as Parquet shards beside the index (the ray extra) | sqlite: stop; default: keep the index's.")] = None,
    history: Annotated[str, typer.Option("--history", help="The git history (the ranker's co-change signal) in a git checkout: background (default: mined by a detached process after the code index is written; `lore stats` shows its progress) | wait (mine before returning, with a progress bar) | off.")] = "background",
    clusters: Annotated[bool, typer.Option("--clusters/--no-clusters", help="Compute and store the default clusters of the new state, and the related ranker's features and fold, so every reader (a read-only MCP server too) gets them at once (about 0.5 s CPU on Django); --no-clusters leaves them to the first query that may write.")] = True,
) -> None:
    """Index a repository (incremental: only changed files are re-parsed)."""
    t0 = time.perf_counter()
    scale: dict[str, Any] = {"executor": executor, "ray_address": ray_address, "edge_store": edge_store,
                             "clusters": clusters, "history": history, "include": tuple(include or ()),
                             **({} if gitignore is None else {"gitignore": gitignore}),
                             **({} if memory is None else {"memory": memory})}
    if watch:
        from ._watch import watch_index

        watch_index(path, debounce=debounce, as_json=as_json, db=db, exclude=tuple(exclude or ()),
                    max_file_size=max_file_size, workers=workers, rebuild=rebuild, **scale,
                    **({"embed": True, "embedder": embedder} if embed or embedder else {}))
        return
    if embedder is not None:
        embed = True
    if not path.is_dir():
        raise LoreError(f"{path} is not a directory; pass the repository root")
    progress = progress_bar() if sys.stderr.isatty() and not as_json else None
    if progress is not None:
        progress.start()
    try:
        callback = progress_callback(progress) if progress is not None else None
        report = index_repo(path, db=db, exclude=tuple(exclude or ()), max_file_size=max_file_size, workers=workers,
                            rebuild=rebuild, progress=callback, embed=embed, embedder=embedder,
                            embed_progress=callback, **scale)
    finally:
        if progress is not None:
            progress.stop()
    vectors = report.code_vectors
    if report.nothing_indexed:  # exit code 2 and one line (with --json: the error object, its details the counts)
        raise NothingToIndexError(report.root, report.nothing_indexed, report.excluded,
                                  db=report.db if Path(report.db).is_file() else "")
    seconds = time.perf_counter() - t0  # the whole command's, history and clusters included
    if as_json:
        emit_json(report.to_dict())
        return
    if report.rebuilt_reason:
        out.print(f"rebuilt the index ({report.rebuilt_reason})", markup=False)
    if not report.changed_any:
        out.print(f"index is up to date: {report.files_seen} files, generation {report.generation} ({report.db})",
                  markup=False)
    else:
        out.print(
            f"indexed {report.files_seen} files in {seconds:.2f}s (code {report.seconds['total']:.2f}s): "
            f"{len(report.added)} added, "
            f"{len(report.changed)} changed, {len(report.removed)} removed, {report.unchanged} unchanged; "
            f"re-resolved {report.reresolved_files} files; generation {report.generation}",
            markup=False,
        )
        for label, paths in (("added", report.added), ("changed", report.changed), ("removed", report.removed)):
            if paths and len(paths) <= 10 and not report.full:
                out.print(f"  {label}: {', '.join(paths)}", markup=False)
        out.print(f"  {report.symbols} symbols; edges: " + ", ".join(f"{k} {v}" for k, v in report.edges.items()),
                  markup=False)
    if report.skipped_dirs:
        out.print(f"  skipped: {skipped_dirs_text(report.skipped_dirs)}", markup=False)
    if report.syntax_error_files:
        out.print(f"  {len(report.syntax_error_files)} files had syntax errors (indexed as far as they parse): "
                  + ", ".join(report.syntax_error_files[:5]), markup=False)
    for reason, n in report.skipped.items():
        err.print(f"warning: skipped {n} files: {reason}", markup=False)
    if vectors:
        print_vectors(vectors)
    line = history_line(report.history)
    if line:
        out.print(line, markup=False)


def history_line(h: dict) -> str:
    """One line on the git-history step of ``lore index`` (``report.history``), or ``""`` without one."""
    state = h.get("state")
    if not state:
        return ""
    if state == "off":
        return "history: off (--history off)"
    if state == "failed":
        return f"history: failed ({h.get('reason', '')}); the code index is complete without it"
    if state == "background":
        if h.get("already"):
            return (f"history: mining in the background, {h.get('done', 0)} of {h.get('total', 0)} commits "
                    f"(pid {h.get('pid')}); the ranker uses it once it lands")
        return (f"history: mining in the background (pid {h.get('pid')}); `lore stats` shows its progress, "
                "the ranker uses it once it lands")
    if h.get("reason"):
        return f"history: none ({h['reason']})"
    line = f"history: {h.get('commits_used', 0)} of {h.get('commits_read', 0)} commits used"
    if state == "kept":
        return line + " (unchanged since the last run)"
    if h.get("hunks_mapped") is not None:  # (lore.index.linemap: no old file version is parsed)
        line += f", {h['hunks_mapped']} hunks carried to today's lines ({h.get('hunks_gone', 0)} gone since)"
    if h.get("log_from") in ("index", "user cache"):
        line += f", log from the {h['log_from']}"
    line += f", in {h.get('seconds', 0):.2f}s"
    if h.get("cut_by_budget"):
        line += f"; stopped at its time budget, {h['cut_by_budget']} older commits left for the next run"
    return line


def skipped_dirs_text(dirs: dict[str, str], *, most: int = 5) -> str:
    """The built-in skips of a run, briefly: ``venv/ (virtualenv), node_modules/``; a folder's name that says
    what it is goes without a reason.

    Examples
    --------
    >>> skipped_dirs_text({"venv": "virtualenv", "web/node_modules": "npm packages"})
    'venv/ (virtualenv), web/node_modules/'
    """
    from ..index._skips import by_name  # the CLI starts without the indexer's modules

    parts = [f"{p}/" if by_name(p.rsplit("/", 1)[-1]) == r else f"{p}/ ({r})" for p, r in list(dirs.items())[:most]]
    if len(dirs) > most:
        parts.append(f"and {len(dirs) - most} more")
    return ", ".join(parts)


def print_vectors(v: dict[str, Any]) -> None:
    """One line per ``lore index --embed``: what was embedded, kept and removed."""
    s, f = v["symbol"], v["file"]
    line = (f"code vectors ({v['model']}): embedded {s['embedded']} symbols and {f['embedded']} files, "
            f"{s['unchanged']} symbols unchanged, {s['removed'] + f['removed']} removed in {v['seconds']:.2f}s")
    if v.get("dropped"):
        line += f"; dropped the vectors of {', '.join(v['dropped'])}"
    out.print(line, markup=False)


def stats_cmd(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Files, symbols by kind and language, edges by table and by resolution."""
    from ..index import history_job

    with open_db(db, readonly=True) as idx:
        s = idx.stats()
    mining = history_job.status(s["db"])  # a background miner at work: {"done", "total", "pid", ...}, else None
    if as_json:
        emit_json({**s, "history_mining": mining})
        return
    out.print(f"index {s['db']} · generation {s['generation']} · root {s['root']}", markup=False)
    from rich.table import Table

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
    strengths = s.get("calls_by_strength", {})
    total = sum(strengths.values())
    if total:
        t = Table(title="call edges by strength (how much to trust)", title_justify="left")
        for c in ("strength", "edges", "share"):
            t.add_column(c)
        for k, n in strengths.items():
            t.add_row(k, str(n), f"{100 * n / total:.1f}%")
        out.print(t)
    if s["syntax_error_files"]:
        out.print(f"{s['syntax_error_files']} files with syntax errors", markup=False)
    if s.get("skipped"):
        out.print("skipped by the last index run: " + ", ".join(f"{k} {v}" for k, v in s["skipped"].items()),
                  markup=False)
    h = s.get("history") or {}
    if mining is not None:
        out.print(f"git history: mining in the background, {mining['done']} of {mining['total']} commits "
                  f"(pid {mining['pid']})", markup=False)
    if h.get("reason"):
        out.print(f"git history: none ({h['reason']})", markup=False)
    elif h:
        out.print(f"git history: {h.get('commits_used', 0)} commits used of {h.get('commits_read', 0)} read "
                  "(the hybrid ranker's history signal; --weights history=0 leaves it out)", markup=False)


def show_cmd(
    ref: Annotated[str, typer.Argument(help="Symbol id or qualified name.")],
    snippet: Annotated[int, typer.Option(help="Lines of source to print.")] = 12,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Details of one symbol: location, signature, docstring, container, source."""
    with open_db(db, readonly=True) as idx:
        s = symbol_with_source(idx, ref, snippet_lines=snippet, root=get_meta(idx.conn, "root"))
    if as_json:
        emit_json(s)
        return
    from rich.markup import escape

    safe = terminal_safe  # source text can hold terminal escape sequences: shown, never acted on
    out.print(f"[bold]{escape(safe(s['qualified_name']))}[/bold]  ({s['kind']}, id {s['id']})")
    out.print(f"{s['path']}:{s['line']}-{s['end_line']}" + ("  [test]" if s["is_test"] else ""), markup=False)
    if s.get("parent"):
        out.print(f"in {s['parent']['qualified_name']} (id {s['parent']['id']})", markup=False)
    if s.get("shown_for") is not None:  # a stub / @overload copy was asked for: its implementation is shown
        out.print(f"the implementation of id {s['shown_for']}", markup=False)
    if s.get("also_at"):
        out.print(f"also declared at {', '.join(s['also_at'])}", markup=False)
    if s.get("signature"):
        out.print(safe(s["signature"]), markup=False)
        if s["signature"].endswith("…"):  # the index keeps 300 characters, cut after a whole word
            out.print(f"(signature cut at a word boundary; the whole header is at {s['path']}:{s['line']})",
                      markup=False)
    # the docstring once: on its own only when the source snippet below does not already show it
    doc = s.get("docstring") or ""
    doc_lines = [ln.strip() for ln in doc.strip().splitlines() if ln.strip()]
    if doc and not (s.get("snippet") and doc_lines and all(ln in s["snippet"] for ln in doc_lines[:2])):
        out.print("\n" + safe(doc), markup=False)
    if s.get("snippet"):
        out.print("\n" + safe(s["snippet"]), markup=False)
    elif s.get("note"):
        out.print("\n" + s["note"], markup=False)
    if s.get("same_name_ids"):
        out.print(f"\nother symbols with this qualified name: {s['same_name_ids']}", markup=False)


def register(app: typer.Typer) -> None:
    """Add ``index``, ``stats`` and ``show`` to ``app``."""
    command(app, "index")(index_cmd)
    command(app, "stats")(stats_cmd)
    command(app, "show")(show_cmd)
