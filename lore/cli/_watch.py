"""``lore index --watch`` and ``lore serve --watch``: the shell over :func:`lore.index.watch.watch`."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

from ..api import index_repo
from ..errors import LoreError
from ..index.watch import watch
from ..store.db import get_meta
from ._app import err, error_object


def _line(report: Any, changed: list[str]) -> str:
    what = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    if report.nothing_indexed:  # not "up to date: 0 files": which rule left everything out, the index kept
        return report.nothing_indexed
    if not report.changed_any:
        return f"up to date: {report.files_seen} files, generation {report.generation}" + (f" ({what})" if what else "")
    return (f"indexed in {report.seconds['total']:.2f}s: {len(report.added)} added, {len(report.changed)} changed, "
            f"{len(report.removed)} removed; generation {report.generation}" + (f" ({what})" if what else ""))


def watch_index(path: Path, *, debounce: int, as_json: bool, **options: Any) -> int:
    """Index ``path`` now and after every settled burst of changes until Ctrl-C; one line (or JSON line) per run."""
    state = dict(options)

    def run() -> Any:
        report = index_repo(path, **state)
        state["rebuild"] = False  # --rebuild means the first run only
        return report

    def on_result(report: Any, changed: list[str]) -> None:
        if as_json:
            sys.stdout.write(json.dumps({**report.to_dict(), "changed_paths": changed}, default=str) + "\n")
        else:
            sys.stdout.write(_line(report, changed) + "\n")
        sys.stdout.flush()

    def on_error(exc: Exception) -> None:
        if as_json:  # a stream of JSON lines stays one: the failed run is a line too (the watch goes on)
            sys.stdout.write(json.dumps(error_object(exc), ensure_ascii=False, default=str) + "\n")
            sys.stdout.flush()
        else:
            err.print(f"lore: error: {exc} (still watching)", markup=False)

    err.print(f"watching {path.resolve()} for changes (Ctrl-C stops)", markup=False)
    return watch(path, run, exclude=tuple(options.get("exclude") or ()), debounce_ms=debounce,
                 on_result=on_result, on_error=on_error)


def start_background_watch(db_path: Path, *, debounce: int = 400) -> threading.Event:
    """For ``lore serve --watch``: keep the index at ``db_path`` fresh from a daemon thread; set the event to stop.

    The root is the one the index records (else the folder holding ``.lore/``). Messages go to stderr:
    stdout belongs to the MCP stdio transport.
    """
    root = db_path.parent.parent
    if db_path.exists():
        from ..api import open_index

        try:
            with open_index(db_path, readonly=True) as idx:
                root = Path(get_meta(idx.conn, "root") or root)
        except LoreError:
            pass
    stop = threading.Event()

    def on_result(report: Any, changed: list[str]) -> None:
        if changed or report.changed_any:
            err.print(f"lore: watch: {_line(report, changed)}", markup=False)

    def on_error(exc: Exception) -> None:
        err.print(f"lore: watch: error: {exc} (still watching)", markup=False)

    def loop() -> None:
        # clusters=False: this process is the only reader, and computes them when a tool first asks
        # (not on every save); a separate `lore index --watch` stores them for the processes reading it
        watch(root, lambda: index_repo(root, db=db_path, clusters=False), debounce_ms=debounce,
              on_result=on_result, on_error=on_error, stop_event=stop)

    threading.Thread(target=loop, name="lore-watch", daemon=True).start()
    err.print(f"lore: watching {root} and refreshing {db_path} as files change", markup=False)
    return stop
