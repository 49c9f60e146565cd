"""The writer's lock: one ``lore index`` at a time per index, held by the indexing process alone.

An exclusive ``flock`` on ``index.db.lock``. A ``flock`` belongs to the open file description, and every
forked parse and resolve worker inherits the descriptor: after a ``kill -9`` of the indexer alone its
workers held the index locked, and every later ``lore index`` said "being written by another process;
wait", forever. So a forked child lets go of it at once: an ``os.register_at_fork`` hook points the
inherited descriptor at ``/dev/null`` (the lock stays with the parent, which still holds its own
descriptor; closing the number instead could close whatever reuses it later). A POSIX record lock
would not be inherited, but two threads of one process (an MCP server refreshing twice) would both get it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from ..errors import IndexBusyError, LoreError
from ..store import db as store_db

try:
    import fcntl
except ImportError:  # Windows: no flock; `import lore` still works, writing an index says why it cannot
    fcntl = None  # type: ignore[assignment]

_HELD: set[int] = set()  # descriptors of the lock files this process holds


def _let_go_in_child() -> None:
    if not _HELD:
        return
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        for fd in _HELD:
            os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_let_go_in_child)


class WriterLock:
    """An exclusive, non-blocking lock file beside the index (``index.db.lock``): one writer at a time.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> db = pathlib.Path(tempfile.mkdtemp()) / "index.db"
    >>> with WriterLock(db):
    ...     try:
    ...         with WriterLock(db):
    ...             pass
    ...     except IndexBusyError:
    ...         print("busy")
    busy
    """

    def __init__(self, db_path: Path) -> None:
        self.path = store_db.lock_path(db_path)
        self.db_path = db_path
        self.fh: IO[str] | None = None

    def __enter__(self) -> WriterLock:
        if fcntl is None:  # without the lock two writers could interleave
            raise LoreError("writing an index needs POSIX file locks (fcntl), which this platform lacks; run "
                            "`lore index` under Linux, macOS or WSL")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a")  # noqa: SIM115  (never truncates: check_index_target refused a non-empty one)
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            fh.close()
            raise IndexBusyError(str(self.db_path)) from exc
        self.fh = fh
        _HELD.add(fh.fileno())
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fh is not None:
            _HELD.discard(self.fh.fileno())
            fcntl.flock(self.fh, fcntl.LOCK_UN)
            self.fh.close()
            self.fh = None
