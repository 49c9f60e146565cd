"""Indexing as one pipeline: the code index, the documents kept across a rebuild, then the upkeep steps.

``lore index`` (through :func:`lore.api.index_repo`) and the MCP server's reindex tool run this one
function. The repository root and the index file are settled once, here, and handed down; what
happens after the code is written (document mentions, code vectors) belongs to packages above this
one, so it arrives as ``steps`` (see :mod:`lore.queries.indexing`): each is called with the index
file before the run and returns the function to call with the run's report after it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import IndexInterrupted
from ..store import db as store_db
from ..store import docs_keep
from . import history_job
from ._memory import give_back
from .config import load_settings, walk_options
from .indexer import IndexReport, index_repo

Step = Callable[[Path], Callable[[IndexReport], None]]


def run_index(root: str | os.PathLike[str] = ".", *, steps: Sequence[Step] = (), **options: Any) -> IndexReport:
    """Index (or refresh) the repository at ``root``, keeping documents and running ``steps`` around it.

    Parameters
    ----------
    root : path
        Repository root.
    steps : callables ``step(db) -> after(report)``
        Called in order with the index file before the run; their ``after`` functions are called in
        the same order with the report once the code index (and any kept documents) is written.
    **options
        Those of :func:`lore.index.index_repo` (``db``, ``exclude``, ``include``, ``gitignore``,
        ``max_file_size``, ``workers``, ``memory``, ``rebuild``, ``progress``, ``executor``, ``ray_address``,
        ``edge_store``),
        and ``history``:
        ``wait`` (the default: the git history is mined before this returns, ``progress("history",
        done, total)`` follows it), ``background`` (a detached miner, :mod:`lore.index.history_job`)
        or ``off``. ``report.history`` says what the step did; ``report.seconds["all"]`` is the
        whole run's wall time.

    A rebuild (``rebuild=True`` or a schema change) drops the database; the document tables are
    copied aside first and back afterwards (ids included, so chunk ids stay valid;
    :mod:`lore.store.docs_keep`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    pass\\n")
    >>> seen = []
    >>> def step(db):
    ...     return lambda report: seen.append((db.name, report.added))
    >>> _ = run_index(d, steps=[step])
    >>> seen
    [('index.db', ['m.py'])]
    """
    t0 = time.perf_counter()
    history = history_job.check_mode(options.pop("history", None) or "wait")
    db = Path(options.pop("db", None) or store_db.default_db_path(Path(root).resolve()))
    # the repository's own settings (pyproject.toml [tool.lore], .lore/config.toml, .loreignore) under the caller's
    settings = load_settings(Path(root).resolve(), exclude=tuple(options.pop("exclude", ()) or ()),
                             max_file_size=options.pop("max_file_size", None), workers=options.pop("workers", None),
                             include=tuple(options.pop("include", ()) or ()), gitignore=options.pop("gitignore", None),
                             memory=options.pop("memory", None))
    options.update(walk_options(settings), workers=settings.workers, memory=settings.memory)
    damaged = store_db.set_aside_damaged(db) if options.get("rebuild") else ""  # --rebuild replaces a damaged index
    # a file that is not a lore index is refused before anything touches it (a newer lore's unless --rebuild)
    store_db.check_index_target(db, rebuild=bool(options.get("rebuild")))
    before = store_db.committed_generation(db)
    try:
        kept = docs_keep.save_before_rebuild(db, rebuild=bool(options.get("rebuild")))
        try:
            after = [step(db) for step in steps]
            report = index_repo(root, db=db, **options)
            report.rebuilt_reason = damaged or report.rebuilt_reason
            if kept is not None and report.rebuilt_reason:
                docs_keep.restore_after_rebuild(report.db, kept)
        finally:
            docs_keep.discard(kept)
        if not report.nothing_indexed:  # nothing was written: the upkeep steps have nothing new to follow
            give_back()  # what the resolver freed goes back to the system before the steps build their own
            for finish in after:
                finish(report)
    except KeyboardInterrupt as exc:
        raise interrupted(db, before) from exc
    # last: the code (and what follows it) is committed and usable; the history joins it now or later
    if not report.nothing_indexed:
        report.history = history_job.run_step(report.db, report.root, history, options.get("progress"))
    report.seconds["all"] = round(time.perf_counter() - t0, 3)
    return report


def interrupted(db: Path, before: int | None) -> IndexInterrupted:
    """What a Ctrl-C left: decided from the generation the index has committed now, not from where it
    landed (the steps after the commit, such as the clusters, run after the index moved on)."""
    now = store_db.committed_generation(db)
    return IndexInterrupted(str(db), now, committed=now is not None and now != before)
