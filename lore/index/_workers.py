"""Worker processes that die with the indexer that forked them.

``kill -9`` of the indexer alone used to leave its parse workers alive (parent 1, idle, forever). A
worker calls :func:`die_with_parent` first thing: on Linux the kernel sends it ``SIGKILL`` when its
parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon thread watches the parent's pid and
ends the worker when it changes (the worker was re-parented: its parent is gone).
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
WATCH_SECONDS = 0.5  # how often the portable fallback looks at the parent


def die_with_parent(parent: int | None = None) -> None:
    """End this process when its parent process dies (call it in the child, right after the fork).

    ``parent`` is the pid the parent had before the fork (``os.getpid()`` there): a parent that died
    before this call is caught too (the child has another parent by then).
    """
    if parent is None:
        parent = os.getppid()
    if not _linux_death_signal():
        threading.Thread(target=_watch, args=(parent,), name="lore-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)


def _linux_death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def init_parse_worker(parent: int) -> None:
    """Initializer of the parse pool (``initargs=(os.getpid(),)``): die with the indexer; no garbage
    collection (workers hold nothing long-lived)."""
    die_with_parent(parent)
    gc.disable()
