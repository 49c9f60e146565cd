"""Reading one source file on a hostile file system, and the per-file budget of its parse.

A file can turn into anything between the walk and the read: a named pipe (a plain ``open`` blocks
forever), a socket, a device, a file that vanished or grew past the size limit. :func:`read_source`
opens with ``O_NONBLOCK``, checks the type of what it opened with ``fstat`` and reads at most the size
limit, so every such file comes back as a counted skip reason instead of a hang.

A file within the size limit can still be pathological (3,000 nested brackets, a 58 MB generated
table): :func:`file_budget` bounds the wall time and the memory growth of parsing and extracting one
file. tree-sitter polls the budget through its progress hook (:func:`lore.parsers._ts.set_budget`);
Python-level extraction is interrupted by an interval timer in the main thread. A file over budget
is skipped with the reason ``too slow`` or ``too big to parse``; the run goes on.
"""

from __future__ import annotations

import errno
import hashlib
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Protocol, TypeVar

from ..parsers import _ts


class Walked(Protocol):
    """What :func:`files_to_parse` reads of a walked file (:class:`lore.index.walk.SourceFile`)."""

    path: str
    abspath: str
    size: int
    mtime_ns: int
    ctime_ns: int


W = TypeVar("W", bound=Walked)

# per-file budget; the environment variables exist for the fault suite and for very large generated files
FILE_SECONDS = float(os.environ.get("LORE_FILE_SECONDS", "20"))
FILE_MEMORY = int(float(os.environ.get("LORE_FILE_MEMORY_MB", "1024")) * (1 << 20))
RECURSION_LIMIT = 20_000  # extractors walk some trees recursively; Python 3.11 frames do not use the C stack
_READ_CHUNK = 1 << 20
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

# A file whose size and mtime match the index can still hold other bytes: ``cp -p``, ``tar x`` and
# ``rsync -a`` set the mtime back. No one can set the inode's ctime, so a file whose ctime is not older
# than the start of the last run that looked at it is read and hashed again (its bytes decide). The
# slack covers file-system clocks that lag the system clock (coarse timestamps, network file systems).
SCANNED_AT = "scanned_at_ns"  # meta key: time.time_ns() when the last committed run began its walk
CTIME_SLACK_NS = 2_000_000_000

SKIP_REASONS = ("larger than N bytes", "too big to parse", "too slow", "too deep", "vanished", "unreadable", "pipe", "socket",
                "device", "not a regular file", "binary")


def kind_of(mode: int) -> str | None:
    """The skip reason of a file that is not a regular file (``pipe``, ``socket``, ``device``), else ``None``.

    Examples
    --------
    >>> import stat
    >>> kind_of(stat.S_IFIFO), kind_of(stat.S_IFREG)
    ('pipe', None)
    """
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "pipe"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "not a regular file"


def read_source(path: str, max_size: int) -> tuple[str, bytes]:
    """``(status, data)`` of the file at ``path``: status ``ok`` or the reason it is skipped.

    Never blocks and never reads more than ``max_size + 1`` bytes: opened with ``O_NONBLOCK`` (a
    named pipe opens at once), its type checked after the open (what was a file at walk time may be a
    pipe now), read in chunks up to the limit (a file that grew past it is ``larger than N bytes``).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return "vanished", b""
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket (or a device without a driver) cannot be opened
            return "socket", b""
        return "unreadable", b""
    try:
        st = os.fstat(fd)
        other = kind_of(st.st_mode)
        if other is not None:
            return other, b""
        if st.st_size > max_size:
            return f"larger than {max_size} bytes", b""
        parts: list[bytes] = []
        got = 0
        while True:
            chunk = os.read(fd, min(_READ_CHUNK, max_size + 1 - got))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
            if got > max_size:
                return f"larger than {max_size} bytes", b""
        return "ok", b"".join(parts)
    except OSError:
        return "unreadable", b""
    finally:
        os.close(fd)


def content_hash(data: bytes) -> str:
    """The hash the index keeps of a file's bytes.

    Examples
    --------
    >>> content_hash(b"def f(): pass\\n") == content_hash(b"def f(): pass\\n") != content_hash(b"")
    True
    """
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def needs_rehash(ctime_ns: int, scanned_ns: int) -> bool:
    """Whether a file whose size and mtime match the index must be hashed again: its inode changed
    (``ctime``) after the last run began looking at it, or too close to then to tell.

    Examples
    --------
    >>> needs_rehash(10_000_000_000, 20_000_000_000), needs_rehash(19_000_000_000, 20_000_000_000)
    (False, True)
    """
    return ctime_ns >= scanned_ns - CTIME_SLACK_NS


def same_content(path: str, digest: str, max_size: int) -> bool:
    """Whether the file at ``path`` still holds the bytes whose :func:`content_hash` is ``digest``."""
    status, data = read_source(path, max_size)
    return status == "ok" and content_hash(data) == digest


def files_to_parse(files: Sequence[W], existing: Mapping[str, Sequence], scanned_ns: int,
                   max_size: int) -> tuple[list[W], int]:
    """The walked ``files`` to read and parse, and how many were hashed again to tell.

    ``existing`` maps an indexed path to its ``(id, hash, size, mtime_ns)``; ``scanned_ns`` is when the
    last run began its walk (:data:`SCANNED_AT`). A file is skipped when its size and mtime match and
    its inode has not changed since then, or has but still holds the same bytes (:func:`needs_rehash`).
    """
    todo: list[W] = []
    rehashed = 0
    for f in files:
        old = existing.get(f.path)
        if old is not None and old[2] == f.size and old[3] == f.mtime_ns:
            if not needs_rehash(f.ctime_ns, scanned_ns):
                continue
            rehashed += 1  # the same size and mtime, a changed inode: cp -p, tar x, rsync -a
            if same_content(f.abspath, old[1], max_size):
                continue
        todo.append(f)
    return todo, rehashed


_statm: tuple[int, int] | None = None  # (pid, descriptor of /proc/self/statm) of the process that opened it


def _rss() -> int | None:
    """Resident memory of this process in bytes, ``None`` where ``/proc`` is missing.

    Every file reads it at least twice (at the start of its budget and when the query runs): opening
    ``/proc/self/statm`` each time cost 8 us, a ``pread`` on a descriptor kept open costs 1 us. The
    descriptor is per process: a forked child inherits its parent's, which names the parent's memory.
    """
    global _statm
    pid = os.getpid()
    try:
        if _statm is None or _statm[0] != pid:
            _statm = (pid, os.open("/proc/self/statm", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)))
        return int(os.pread(_statm[1], 128, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        _statm = None
        return None


class FileBudget:
    """The time and memory one file may take; :meth:`check` says whether it is still within them."""

    def __init__(self, seconds: float = FILE_SECONDS, memory: int = FILE_MEMORY) -> None:
        self.deadline = time.monotonic() + seconds
        self.memory = memory
        self.rss0 = _rss()

    def check(self) -> str | None:
        """``None`` within budget, else the skip reason (``too slow`` / ``too big to parse``)."""
        if time.monotonic() > self.deadline:
            return "too slow"
        if self.rss0 is not None:
            now = _rss()
            if now is not None and now - self.rss0 > self.memory:
                return "too big to parse"
        return None


@contextmanager
def file_budget(seconds: float = FILE_SECONDS, memory: int = FILE_MEMORY) -> Iterator[FileBudget]:
    """Run the body within one file's budget; raises :class:`lore.parsers._ts.BudgetExceeded` when over it.

    tree-sitter polls the budget itself; in the main thread an interval timer (``SIGALRM``, every
    0.25 s) interrupts Python-level extraction too, unless someone else owns that signal. The recursion
    limit is raised meanwhile, and a ``RecursionError`` becomes the reason ``too deep``.
    """
    budget = FileBudget(seconds, memory)
    _ts.set_budget(budget.check)
    use_timer = (threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None))
    previous = None
    if use_timer:
        def on_alarm(_sig: int, _frame: object) -> None:
            if _ts.in_parser():  # tree-sitter's own progress hook stops it; never raise through C
                return
            reason = budget.check()
            if reason:
                raise _ts.BudgetExceeded(reason)

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, 0.25, 0.25)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        yield budget
    except RecursionError as exc:
        raise _ts.BudgetExceeded("too deep") from exc
    finally:
        sys.setrecursionlimit(old_limit)
        if use_timer:
            signal.setitimer(signal.ITIMER_REAL, 0, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        _ts.set_budget(None)
