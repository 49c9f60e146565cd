"""The indexer's memory budget: how much it may hold at once, and giving memory back when done.

``lore index --memory 3G`` (``index_repo(memory=...)``, the ``memory`` setting) caps what the indexer
keeps of the repository at once; the default is a share of what this machine, or the container's
cgroup (``/sys/fs/cgroup/memory.max``), allows. The budget is respected by batching, not by failing:

* the records of freshly parsed files stay compressed (about a seventeenth of their decoded size)
  when decoding them all would not fit (:class:`lore.index._ingest.Ingest`);
* the resolver keeps the scope tables of the files it reads most recently and rebuilds the others from
  their records when read again (:meth:`lore.index._world.WorldCore.ctx`), so a large repository
  costs CPU instead of memory; answers do not depend on the budget.

The numbers below were measured on the Linux kernel's ``mm/``, ``include/``, ``arch/x86/``,
``kernel/`` and ``fs/`` (docs/scale.md, "Memory and disk").
"""

from __future__ import annotations

import ctypes
import os
import re
import sys

from ..errors import InvalidArgumentError

DEFAULT_SHARE = 0.5  # of the machine's (or the container's) memory, when no budget is given
MIN_BUDGET = 256 << 20  # below this the resolver's own tables alone do not fit: refused
DECODED_PER_SOURCE_BYTE = 4.0  # decoded records, Python objects, per byte of source text
CTX_BYTES_PER_ITEM = 450  # a file's scope tables and decoded records, per record item (symbol, call, ...)
MIN_CTX_SHARE = 0.1  # of the budget: the contexts' least share, however large the rest
BASE_BYTES = 200 << 20  # the interpreter, its modules, SQLite's page cache
WORLD_BYTES_PER_SYMBOL = 700  # the world's row of a symbol and its places in the name tables
BYTES_PER_FILE = 20 << 10  # a file's row, the languages' per-file tables and the memos of resolving it
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def parse_memory(value: str | int | float) -> int:
    """A memory size in bytes: an integer number of bytes, or a number with a unit (``3G``, ``512M``,
    ``1.5GB``, ``800MiB``; powers of 1024).

    Examples
    --------
    >>> parse_memory("3G"), parse_memory("512m"), parse_memory("1.5GiB"), parse_memory(1 << 30)
    (3221225472, 536870912, 1610612736, 1073741824)
    """
    if isinstance(value, bool):
        raise InvalidArgumentError(f"memory must be a size such as 3G or 512M, got {value!r}")
    if isinstance(value, int | float):
        size = int(value)
    else:
        m = _SIZE.match(str(value))
        if m is None:
            raise InvalidArgumentError(f"memory must be a size such as 3G or 512M, got {value!r}")
        size = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if size < MIN_BUDGET:
        raise InvalidArgumentError(f"memory must be at least {MIN_BUDGET >> 20}M, got {value!r}; "
                                   "give the indexer more, or leave --memory out for the default")
    return size


def available_memory() -> int | None:
    """What this process may use: the smaller of the machine's memory and the cgroup's limit (v2
    ``memory.max`` or v1 ``memory.limit_in_bytes``); ``None`` if neither can be read."""
    limits: list[int] = []
    try:
        limits.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as fh:
                text = fh.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:  # "max", or v1's "no limit" (a page-rounded 2**63)
            limits.append(int(text))
    return min(limits) if limits else None


def budget(memory: str | int | float | None) -> int | None:
    """The budget in bytes: ``memory`` parsed, else :data:`DEFAULT_SHARE` of :func:`available_memory`
    (``None``: no limit known, nothing is bounded)."""
    if memory is not None:
        return parse_memory(memory)
    total = available_memory()
    return None if total is None else max(MIN_BUDGET, int(total * DEFAULT_SHARE))


def decode_fits(source_bytes: int, limit: int | None) -> bool:
    """Whether the decoded records of ``source_bytes`` of source text fit in half of the budget."""
    return limit is None or source_bytes * DECODED_PER_SOURCE_BYTE <= limit / 2


def resident_bytes() -> int | None:
    """This process's resident memory now (Linux ``/proc/self/statm``; ``None`` elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def ctx_capacity(limit: int | None, symbols: int, files: int, held: int) -> int | None:
    """How many record items the resolver's file contexts may hold at once, per resolving process
    (``None``: no bound): what the budget leaves beside what this process holds now (the world's
    tables built, the records held: read from ``/proc`` where it can be, else estimated per symbol
    and from ``held`` bytes of records) and what resolving adds per file (the languages' per-file tables,
    memos), and never less than :data:`MIN_CTX_SHARE` of the budget. A forked resolver starts from
    this process's pages, so the same room holds for it."""
    if limit is None:
        return None
    now = resident_bytes()
    if now is None:
        now = BASE_BYTES + symbols * WORLD_BYTES_PER_SYMBOL + held
    room = max(limit * MIN_CTX_SHARE, limit - now - files * BYTES_PER_FILE)
    return max(1, int(room / CTX_BYTES_PER_ITEM))


def give_back() -> None:
    """Return freed memory to the operating system (glibc's ``malloc_trim``; a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
