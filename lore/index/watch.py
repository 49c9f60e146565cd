"""Watch mode: keep an index fresh while a developer edits (``lore index --watch``, ``lore serve --watch``).

:func:`watch` waits for file changes under the root (watchfiles: inotify / FSEvents, no polling),
lets a burst of them settle (``debounce_ms``), and calls ``run`` once per burst. Each run is an
ordinary incremental refresh: one write transaction, so a run killed half-way leaves the previous
index intact, exactly as ``lore index`` does. A run that fails (the index busy in another process, a
file unreadable for a moment) is reported through ``on_error`` and the watch goes on; the next change
retries.

Only changes that can matter trigger a run: files of an indexed language that the settings do not
exclude, and the settings files themselves (``pyproject.toml``, ``.loreignore``, ``.lore/config.toml``).
Writes to the index under ``.lore/`` never wake the watcher.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pathspec

from ..errors import LoreError, MissingExtraError
from ..languages import EXTENSIONS, FILE_NAMES
from .config import load_settings
from .walk import ALWAYS_SKIP_DIRS

SETTINGS_FILES = ("pyproject.toml", ".loreignore", ".lore/config.toml", ".gitignore")


def change_filter(root: str | os.PathLike[str], *, exclude: tuple[str, ...] | list[str] = ()) -> Callable[[Any, str], bool]:
    """``filter(change, path) -> bool``: whether a change of ``path`` can alter the index of ``root``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> keep = change_filter(d, exclude=["gen/"])
    >>> [keep(None, str(d / p)) for p in ("a.py", "gen/b.py", "notes.txt", ".lore/index.db", "x.min.js",
    ...                                    ".loreignore", ".lore/config.toml")]
    [True, False, False, False, False, True, True]
    """
    root_path = Path(root).resolve()
    spec = pathspec.GitIgnoreSpec.from_lines(list(load_settings(root_path, exclude=tuple(exclude)).exclude))

    def keep(_change: Any, path: str) -> bool:
        try:
            rel = Path(path).resolve().relative_to(root_path).as_posix()
        except ValueError:
            return False
        if rel in SETTINGS_FILES or rel.endswith("/.gitignore"):
            return True
        parts = rel.split("/")
        if any(p in ALWAYS_SKIP_DIRS for p in parts[:-1]):
            return False
        name = parts[-1]
        dot = name.rfind(".")
        if not ((dot > 0 and name[dot:].lower() in EXTENSIONS) or name in FILE_NAMES):
            return False
        return not spec.match_file(rel)

    return keep


def watch(
    root: str | os.PathLike[str],
    run: Callable[[], Any],
    *,
    exclude: tuple[str, ...] | list[str] = (),
    debounce_ms: int = 400,
    on_result: Callable[[Any, list[str]], None] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    stop_event: threading.Event | None = None,
    initial: bool = True,
) -> int:
    """Call ``run()`` (once at the start if ``initial``, then after each settled burst of changes) until stopped.

    Parameters
    ----------
    root : path
        The repository root to watch.
    run : callable
        Refreshes the index (e.g. ``lambda: lore.index_repo(root)``); its return value goes to ``on_result``.
    exclude : patterns
        Command-line excludes, on top of the repository's settings (see :mod:`lore.index.config`).
    debounce_ms : int
        Changes closer together than this are one burst, and one run (a run starts after this much quiet).
    on_result : callable, optional
        ``on_result(result, changed_paths)`` after each successful run (changed paths relative to root).
    on_error : callable, optional
        ``on_error(exc)`` when a run raises a :class:`~lore.errors.LoreError` or ``OSError``; the watch goes on.
        Other exceptions propagate.
    stop_event : threading.Event, optional
        Set it to stop watching (from another thread); Ctrl-C also stops.

    Returns
    -------
    int
        The number of runs made.
    """
    try:
        import watchfiles
    except ImportError:  # pragma: no cover - a core dependency; a broken install names the fix
        raise MissingExtraError("watch mode (watchfiles)", "watch") from None
    if isinstance(debounce_ms, bool) or not isinstance(debounce_ms, int) or debounce_ms < 0:
        from ..errors import InvalidArgumentError

        raise InvalidArgumentError(f"debounce_ms must be a non-negative integer, got {debounce_ms!r}")
    root_path = Path(root).resolve()
    runs = 0

    def once(changed: list[str]) -> None:
        nonlocal runs
        runs += 1
        try:
            result = run()
        except (LoreError, OSError) as exc:
            if on_error is None:
                raise
            on_error(exc)
            return
        if on_result is not None:
            on_result(result, changed)

    if initial:
        once([])
    keep = change_filter(root_path, exclude=exclude)
    # watchfiles yields once `step` ms pass with no new change (the quiet window: our debounce), or after
    # `debounce` ms of continuous changes at the latest (a long checkout still gets indexed as it goes)
    for batch in watchfiles.watch(root_path, watch_filter=keep, step=max(debounce_ms, 1),
                                  debounce=max(1600, 4 * debounce_ms), stop_event=stop_event,
                                  raise_interrupt=False, yield_on_timeout=False):
        changed = sorted({Path(p).resolve().relative_to(root_path).as_posix() for _, p in batch})
        if any(c in SETTINGS_FILES for c in changed):
            keep = change_filter(root_path, exclude=exclude)  # new settings: new excludes from now on
        once(changed)
    return runs
