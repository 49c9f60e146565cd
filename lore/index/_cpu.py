"""CPU seconds of this process and its finished children, for the index report (``seconds["cpu"]``)."""

from __future__ import annotations

import time

try:
    import resource
except ImportError:  # Windows: no getrusage; this process's own time is what can be measured there
    resource = None  # type: ignore[assignment]


def process_tree_cpu() -> float:
    """User + system CPU seconds of this process and of its children that have been waited for.

    >>> process_tree_cpu() >= 0.0
    True
    """
    if resource is None:
        return time.process_time()
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
