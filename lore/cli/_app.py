"""What every ``lore`` command shares: the root app, consoles, the error boundary, ``--db``, JSON and tables.

Every command is registered through :func:`command`, whose wrapper (and :func:`main`, for the parser's
own usage errors) hands every error to :func:`report_error`: the one place that turns a
:class:`~lore.errors.LoreError` into one line on stderr, or with ``--json`` into one JSON object on
stdout (``{"error": {"type", "message", "hint"}}``), and exit code 2.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import sys
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .. import __version__
from ..errors import LoreError
from ..store.db import locate_index

if TYPE_CHECKING:  # rich and the query layer load where a command uses them: start-up stays short
    from rich.console import Console

    from ..api import Index


class LazyConsole:
    """A rich :class:`~rich.console.Console` made on first use, so that commands which print no table
    (``lore graph related`` writes plain lines) never import rich.

    Attribute access is forwarded to the console; :meth:`get` returns the console itself (for APIs
    that want a real ``Console``, such as a progress bar).
    """

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def get(self) -> Console:
        """The console (made now if it does not exist yet)."""
        if self._console is None:
            from rich.console import Console

            stream = sys.stderr if self._stderr else sys.stdout
            # piped output is not squeezed into 80 columns: tables stay readable in logs and CI
            width = None if stream.isatty() else 200
            if self._stderr:
                self._console = Console(stderr=True, highlight=False, width=width)
            else:
                self._console = Console(highlight=False, soft_wrap=False, width=width)
        return self._console

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and friends: not the console's business
            raise AttributeError(name)
        return getattr(self.get(), name)


def make_app() -> typer.Typer:
    """A root ``lore`` app with no commands yet (:mod:`lore.cli` registers the groups it needs)."""
    root = typer.Typer(
        name="lore",
        help="What else in this codebase is like this symbol? Index a repository, walk its graph, rank related symbols.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        # --install-completion / --show-completion, and the _LORE_COMPLETE protocol the scripts call back
        add_completion=True,
    )
    root.callback(invoke_without_command=True)(_root)
    return root


out = LazyConsole()
err = LazyConsole(stderr=True)

INTERRUPTED = "interrupted; the index is unchanged"

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
TestsOpt = Annotated[bool, typer.Option("--include-tests/--no-include-tests", help="Keep symbols of test files.")]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", "--index", help="Index file or repository root (default: nearest .lore/index.db upwards)."),
]


def fail(message: str, code: int = 2) -> None:
    """Print ``lore: error: <message>`` as one line on stderr (never wrapped) and exit with ``code``."""
    sys.stderr.write(f"lore: error: {message}\n")
    raise typer.Exit(code)


def error_hint(message: str) -> str | None:
    """The fix a message names: by the house rule a message reads "what happened; how to fix it".

    Examples
    --------
    >>> error_hint("no index at /x/.lore/index.db; run `lore index` first")
    'run `lore index` first'
    >>> error_hint("--limit must be a positive integer") is None
    True
    """
    _, sep, fix = message.partition("; ")
    return fix.strip() or None if sep else None


def error_object(exc: BaseException | None, *, kind: str | None = None, message: str | None = None,
                 hint: str | None = None) -> dict[str, Any]:
    """``{"error": {"type", "message", "hint"[, "details"]}}``: what ``--json`` prints for an error.

    ``details`` holds the error's structured fields (``path``, ``ref``, ``candidates``, ...) when it has any.

    Examples
    --------
    >>> from lore.errors import IndexNotFoundError
    >>> error_object(IndexNotFoundError("/r/.lore/index.db"))["error"]["hint"]
    'run `lore index` first'
    """
    text = message if message is not None else " ".join(str(exc).split())
    body: dict[str, Any] = {"type": kind or type(exc).__name__, "message": text,
                            "hint": hint if hint is not None else error_hint(text)}
    fields = {k: v for k, v in vars(exc).items() if not k.startswith("_")} if isinstance(exc, LoreError) else {}
    if fields:
        body["details"] = fields
    return {"error": body}


def report_error(exc: BaseException | None, *, as_json: bool, code: int = 2, kind: str | None = None,
                 message: str | None = None, hint: str | None = None) -> None:
    """The one error boundary: ``lore: error: <message>`` on stderr, or with ``as_json`` the
    :func:`error_object` on stdout and nothing else; then exit with ``code`` (2, 130 for Ctrl-C).

    :func:`command`'s wrapper calls it for a command's LoreError, :func:`main` for the parser's usage errors
    and for the LoreErrors of anything that raised outside a wrapped command.
    """
    if as_json:
        sys.stdout.write(json.dumps(error_object(exc, kind=kind, message=message, hint=hint), ensure_ascii=False,
                                    default=str) + "\n")
    else:
        text = message if message is not None else str(exc)
        if hint and hint not in text:
            text += f" ({hint})"
        sys.stderr.write(f"lore: error: {text}\n")
    raise typer.Exit(code)


def json_param(fn: Callable) -> str | None:
    """The name of ``fn``'s parameter declared as ``--json`` (``as_json``, ``json_out``), if any."""
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # an annotation that does not evaluate here: no --json to find
        return None
    for name, hint in hints.items():
        for meta in getattr(hint, "__metadata__", ()):
            # inside Annotated, typer reads Option's first argument (``default``) as a declaration too
            decls = (getattr(meta, "default", None), *(getattr(meta, "param_decls", None) or ()))
            if "--json" in decls:
                return name
    return None


def wants_json(args: Sequence[str]) -> bool:
    """Whether a command line asks for ``--json`` (before a ``--`` that ends the options).

    >>> wants_json(["graph", "related", "x", "--json"]), wants_json(["search", "--", "--json"])
    (True, False)
    """
    for a in args:
        if a == "--":
            return False
        if a == "--json":
            return True
    return False


def command(group: typer.Typer, name: str | None = None, *, interrupt: bool = True, **kw: Any) -> Callable:
    """Register a command whose LoreErrors go to :func:`report_error` (one line, or JSON with ``--json``; exit 2).

    Parameters
    ----------
    group : typer.Typer
        The app or sub-app to add the command to.
    name : str, optional
        The command's name (default: the function's).
    interrupt : bool
        Turn Ctrl-C into ``lore: error: interrupted; the index is unchanged`` and exit code 130
        (commands whose interruption can leave part of their work written pass False).
    **kw
        Passed to ``group.command``.
    """

    def deco(fn: Callable) -> Callable:
        json_name = json_param(fn)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            as_json = bool(json_name and kwargs.get(json_name))
            try:
                return fn(*args, **kwargs)
            except LoreError as exc:
                report_error(exc, as_json=as_json)
            except KeyboardInterrupt as exc:
                if not interrupt:
                    raise
                # lore index says what it committed (IndexInterrupted); others: the index is unchanged
                report_error(None, as_json=as_json, code=130, kind="Interrupted", message=str(exc) or INTERRUPTED)

        group.command(name, **kw)(wrapper)
        return wrapper

    return deco


_warned: set[str] = set()


def renamed_option(old: str, new: str) -> None:
    """Warn once per process on stderr that option ``old`` is now spelled ``new`` (the old one still works).

    A renamed option stays for one release as a hidden alias; its command calls this when it was given.
    """
    if old in _warned:
        return
    _warned.add(old)
    sys.stderr.write(f"lore: warning: {old} is now {new}; {old} goes away in the next release\n")


def find_db(given: Path | None) -> Path:
    """The index to use: ``--db`` (a file or a repository root), else the nearest ``.lore/index.db`` upwards."""
    return locate_index(given)


def open_db(db: Path | None, *, readonly: bool = False) -> Index:
    """Open the index named by ``--db`` (see :func:`find_db`)."""
    from ..api import open_index

    return open_index(find_db(db), readonly=readonly)


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON (non-ASCII kept, anything else as ``str``)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def progress_bar() -> Any:
    """A transient rich progress bar on stderr (callers start and stop it)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err.get(), transient=True)


def progress_callback(progress: Any) -> Callable[[str, int, int], None]:
    """A ``progress(phase, done, total)`` callback that drives one bar per phase of ``progress``."""
    tasks: dict[str, Any] = {}

    def report(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            tasks[phase] = progress.add_task(phase, total=total)
        progress.update(tasks[phase], completed=done, total=total)

    return report


def result_footer(data: dict) -> str:
    """``12 of 40 shown (truncated; raise --limit) · index generation 7 · note``: the line under every list."""
    shown = len(data["results"])
    raise_opt = "--max-tokens" if data.get("truncated_by") == "max_tokens" else "--limit"  # the option that cut rows
    foot = f"{shown} of {data['total']} shown" + (f" (truncated; raise {raise_opt})" if data.get("truncated") else "")
    foot += f" · index generation {data['generation']}"
    if data.get("note"):
        foot += f" · {data['note']}"
    return foot


def fmt_loc(row: dict) -> str:
    """``path:line``, or ``-`` for a row without a file."""
    return f"{row['path']}:{row['line']}" if row.get("path") else "-"


def fmt_why(why: Any) -> str:
    """One line for a row's ``why``: shared neighbours, a walk, a cluster, call lines, a relation or an import."""
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
    if "signals" in why:  # the hybrid ranker: each signal's contribution, summarised in one line
        return why.get("summary") or ""
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
    """A graph envelope as a table (id, symbol, kind, location, score, why) and a footer line."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_lines=False)
    for col in ("id", "symbol", "kind", "location", "score", "why"):
        table.add_column(col, overflow="fold")
    for r in data["results"]:
        cells = (str(r.get("id") if r.get("id") is not None else "-"), r.get("qualified_name") or r.get("name") or "",
                 r.get("kind", ""), fmt_loc(r), f"{r['score']:.4g}" if isinstance(r.get("score"), float | int) else "",
                 fmt_why(r.get("why")))
        table.add_row(*(escape(c) for c in cells))  # '[calls]' in a cell is text, not rich markup
    out.print(table)
    out.print(result_footer(data), markup=False)


def _root(version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False) -> None:
    if version:
        out.print(f"lore {__version__}", markup=False)
        raise typer.Exit(0)


app = make_app()  # the full app: lore.cli registers every command group on it when it is asked for


def usage_error_line(exc: BaseException) -> str:
    """One line for a usage error of the command-line parser (``No such option: -5``), naming the command.

    Examples
    --------
    >>> class E(Exception):
    ...     exit_code = 2
    ...     ctx = None
    ...     def format_message(self):
    ...         return "No such option: -5"
    >>> usage_error_line(E())
    'lore: error: No such option: -5 (see `lore --help`)'
    """
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", None) or "lore"
    message = " ".join(str(exc.format_message()).split())  # type: ignore[attr-defined]
    return f"lore: error: {message} (see `{where} --help`)"


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c not in (0x09, 0x0A)}


def terminal_safe(text: str, *, stream: Any = None) -> str:
    r"""``text`` with its control characters (but tab and newline) shown as ``\xNN`` when ``stream`` is a terminal.

    Source code and docstrings can hold escape sequences (``\x1b[2J`` clears the screen, OSC sequences
    set the window title or write to the clipboard); printed raw to a terminal they act instead of
    showing. Piped output keeps the exact text (``lore show ... > file``); JSON escapes them anyway.

    Examples
    --------
    >>> import io
    >>> class Tty(io.StringIO):
    ...     def isatty(self): return True
    >>> terminal_safe("a\x1b[2Jb\tc\n", stream=Tty())
    'a\\x1b[2Jb\tc\n'
    >>> terminal_safe("a\x1b[2Jb", stream=io.StringIO())
    'a\x1b[2Jb'
    """
    target = sys.stdout if stream is None else stream
    try:
        tty = target.isatty()
    except (AttributeError, ValueError):
        tty = False
    return text.translate(_CONTROL) if tty else text


_OS_ERROR_FIXES = {
    errno.ENOENT: "create its directory first, or pass another path",
    errno.ENOTDIR: "a part of the path is a file, not a directory: pass another path",
    errno.EISDIR: "pass a file path, not a directory",
    errno.EACCES: "check its permissions, or pass another path",
    errno.EPERM: "check its permissions, or pass another path",
    errno.EROFS: "the file system is read-only: pass a path elsewhere",
    errno.ENOSPC: "free some disk space, or write somewhere else",
    errno.EDQUOT: "free some disk space (quota exceeded), or write somewhere else",
    errno.EFBIG: "the file is larger than allowed here: write somewhere else",
}


def os_error_line(exc: OSError) -> str:
    """One line (without the ``lore: error:`` prefix) for an OSError that reached the command line.

    Such an error is the machine's answer to a write lore was asked to make (``-o`` into a missing
    directory, standard output on a full disk), never a lore bug: it names the file (or "the output")
    and the fix.

    Examples
    --------
    >>> os_error_line(FileNotFoundError(errno.ENOENT, "No such file or directory", "missing/x.graphml"))
    'could not write missing/x.graphml (No such file or directory); create its directory first, or pass another path'
    >>> os_error_line(OSError(errno.ENOSPC, "No space left on device"))
    'could not write the output (No space left on device); free some disk space, or write somewhere else'
    """
    what = os.fsdecode(exc.filename) if exc.filename is not None else "the output"
    reason = exc.strerror or type(exc).__name__
    fix = _OS_ERROR_FIXES.get(exc.errno or 0, "check the path and the disk, then retry")
    return f"could not write {what!s} ({reason}); {fix}"


def _exit_on_os_error(exc: OSError) -> None:
    """Print :func:`os_error_line` and exit 2 (a closed pipe, ``lore ... | head``: exit 1 quietly, as typer does).

    Standard output is pointed at the null device first, so the interpreter's last flush of what
    could not be written fails no more (it would print an "Exception ignored" report).
    """
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no real stdout (a test's capture): nothing to redirect
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(1)
    sys.stderr.write(f"lore: error: {os_error_line(exc)}\n")
    sys.exit(2)


def main(root: typer.Typer | None = None) -> None:
    """Console entry point: every error is one line on stderr (with ``--json``, one JSON object on stdout).

    ``root`` is the app to run (default: :data:`app`); :func:`lore.cli.main` passes one that holds only
    the command group the arguments name.

    The parser runs with ``standalone_mode=False`` so its usage errors (unknown option, bad integer)
    come here instead of being drawn as a box: they go to :func:`report_error` (one line, or the JSON
    error object when the command line has ``--json``) with exit code 2, as LoreErrors raised outside a
    wrapped command do.
    """
    as_json = wants_json(sys.argv[1:])
    try:
        try:
            rv = (app if root is None else root)(standalone_mode=False)
            sys.stdout.flush()  # a full disk behind stdout fails here, inside the error boundary, not at exit
        except LoreError as exc:
            report_error(exc, as_json=as_json)
        except KeyboardInterrupt:
            report_error(None, as_json=as_json, code=130, kind="Interrupted", message=INTERRUPTED)
        except typer.Exit:
            raise
        except OSError as exc:  # a write lore was asked to make (-o into a missing folder, a full stdout)
            _exit_on_os_error(exc)
        except Exception as exc:
            # the parser's own errors (typer bundles click; it is not imported here): usage errors carry an
            # exit code and a message, an Abort (Ctrl-C at a prompt) carries neither
            if type(exc).__name__ == "Abort":
                report_error(None, as_json=as_json, code=130, kind="Interrupted", message=INTERRUPTED)
            if hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int):
                ctx = getattr(exc, "ctx", None)
                if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:  # `lore`, `lore graph`: the help
                    sys.stdout.write(ctx.get_help() + "\n")
                    sys.exit(2)
                if as_json:
                    where = getattr(ctx, "command_path", None) or "lore"
                    report_error(exc, as_json=True, kind=type(exc).__name__,
                                 message=" ".join(str(exc.format_message()).split()),  # type: ignore[attr-defined]
                                 hint=f"see `{where} --help`")
                sys.stderr.write(usage_error_line(exc) + "\n")
                sys.exit(2)
            raise
    except typer.Exit as done:  # report_error's exit (or a command's own typer.Exit under standalone_mode=False)
        sys.exit(done.exit_code)
    sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)
