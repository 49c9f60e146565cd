"""The index's write lock: one writer at a time, a non-blocking ``flock`` on a file beside the index."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..errors import IndexBusyError, LoreError
from ..store import db as store_db

try:
    import fcntl
except ImportError:  # Windows: no flock; `import lore` still works, writing an index says why it cannot
    fcntl = None  # type: ignore[assignment]


class IndexLock:
    """An exclusive, non-blocking lock file beside the index: one writer at a time."""

    def __init__(self, db_path: Path) -> None:
        self.path = store_db.lock_path(db_path)
        self.fh: TextIO | None = None

    def __enter__(self) -> IndexLock:
        if fcntl is None:  # without the lock two writers could interleave
            raise LoreError("writing an index needs POSIX file locks (fcntl), which this platform lacks; run "
                            "`lore index` under Linux, macOS or WSL")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a")  # noqa: SIM115  (never truncates: check_index_target refused a non-empty one)
        self.fh = fh
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            fh.close()
            raise IndexBusyError(str(self.path.with_name(self.path.name[: -len(".lock")]))) from exc
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fh is not None:
            fcntl.flock(self.fh, fcntl.LOCK_UN)
            self.fh.close()
