"""Native BLAS threads pinned to one while an algorithm runs.

The algorithms do many small dense operations (dot products of length-N vectors inside every power
iteration, norms, reductions). OpenBLAS runs them on every core; on a busy 2-core machine that
thrashes: a 45k-element ``x @ y`` took 0.8 ms with 2 threads and 0.009 ms with one (measured
here, load ~7). Sparse products in scipy are single-threaded anyway. Entering the limit costs
about 10 µs. The caller's own thread settings are restored on exit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_CONTROLLER = None


def _controller():
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


def one_blas_thread(fn: F) -> F:
    """Run ``fn`` with native BLAS thread pools limited to one thread."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with _controller().limit(limits=1, user_api="blas"):
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
