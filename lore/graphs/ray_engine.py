"""The Ray graph engine: row blocks of the graph's matrices held by Ray actors (``--engine ray``).

Implements :class:`lore.algorithms._engine.Engine` on a Ray cluster (or a local Ray instance):

* **Workers.** One actor per worker (default: one per CPU of the cluster, spread over its nodes).
  Each holds, per matrix, one contiguous row block in its own memory, cut so that every block has
  about the same number of rows plus stored entries. Actors reserve no CPU (``num_cpus=0``): they
  are resident state, and tasks (the Monte-Carlo walk blocks) can still be scheduled beside them.
* **Products.** Every call sends each actor the same broadcast arguments (numpy arrays go through
  ``ray.put`` once per call: one shared-memory copy per node, read zero-copy by the actors there)
  and its block-local rows; each actor runs the *same* numpy/scipy kernel on its block as the
  local engine runs on the whole matrix, and the driver concatenates the blocks in row order. The
  kernels are row-wise independent, so the results are bit-identical to the local engine's.
* **Shipping once.** Blocks are cached per source matrix (``cache_on``) and name while that matrix
  lives; the graph's matrices are cached per index generation (``lore.graphs.related``), so the
  second query on the same generation ships nothing. Blocks of a matrix that was dropped are freed
  on the actors.
* **Walk blocks.** ``map_tasks`` runs independent tasks (Monte-Carlo walk blocks with their own
  seeds) over one ``ray.put`` copy of the matrix, grouped into a few tasks per worker.

Ray is imported only through :mod:`lore._ray` (one-line errors for a missing extra or an
unreachable cluster).
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._ray import connect
from ..algorithms._csr import Csr
from ..algorithms._engine import Engine, RowBlocks, RowFn

__all__ = ["RayEngine", "row_bounds"]

_INLINE_BYTES = 100_000  # smaller arguments travel inside the call instead of through the object store
_CACHE_SIZE = 16


def row_bounds(indptr: np.ndarray, blocks: int) -> np.ndarray:
    """Cut points of ``blocks`` contiguous row blocks with about equal rows + stored entries each.

    Examples
    --------
    >>> row_bounds(np.array([0, 10, 10, 10, 10, 10]), 2).tolist()  # row 0 holds every entry
    [0, 1, 5]
    """
    n = indptr.size - 1
    work = indptr.astype(np.int64) + np.arange(n + 1)
    cuts = np.searchsorted(work, np.linspace(0, work[-1], blocks + 1)[1:-1], side="left")
    return np.maximum.accumulate(np.r_[0, np.clip(cuts, 0, n), n]).astype(np.int64)


class _ShardWorker:
    """A Ray actor: row blocks of several matrices, by key, and the kernels run on them."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[sp.csr_matrix, int]] = {}

    def load(self, key: str, block: sp.csr_matrix, first: int) -> int:
        # own copies: the object-store buffer can then be released
        own = sp.csr_matrix((np.array(block.data), np.array(block.indices), np.array(block.indptr)), shape=block.shape)
        self.blocks[key] = (own, int(first))
        return int(own.data.nbytes + own.indices.nbytes + own.indptr.nbytes)

    def drop(self, key: str) -> None:
        self.blocks.pop(key, None)

    def run(self, key: str, fn: RowFn, part: np.ndarray | None, *args: Any) -> Any:
        block, first = self.blocks[key]
        return fn(block, first, part, *args)

    def memory(self) -> dict[str, int]:
        """Resident and peak resident memory of this worker process, bytes of blocks held (for benchmarks)."""
        import resource

        held = sum(b.data.nbytes + b.indices.nbytes + b.indptr.nbytes for b, _ in self.blocks.values())
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        rss = 0
        try:
            with open("/proc/self/status", encoding="ascii") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1]) * 1024
        except OSError:
            pass
        return {"pid": os.getpid(), "rss": rss, "peak": peak, "held": held}


def _run_items(fn: Callable[..., Any], items: Sequence[Any], *shared: Any) -> list[Any]:
    return [fn(*shared, item) for item in items]


def _drop_blocks(workers: list[Any], key: str) -> None:
    """Free one matrix's blocks on the actors (a finalizer: silent once Ray is gone)."""
    try:
        import ray

        if ray.is_initialized():
            for w in workers:
                w.drop.remote(key)
    except Exception:  # interpreter shutdown, a dead actor: nothing left to free
        pass


class RayRows(RowBlocks):
    """One matrix as row blocks on the engine's actors (block ``i`` on worker ``i``)."""

    def __init__(self, engine: RayEngine, matrix: sp.csr_matrix, key: str) -> None:
        bounds = row_bounds(matrix.indptr, len(engine.workers))
        super().__init__(matrix.shape, bounds, (matrix.indices.dtype, matrix.data.dtype))
        self.engine, self.key = engine, key
        ray = engine.ray
        loads = [w.load.remote(key, ray.put(matrix[int(lo):int(hi)]), int(lo))
                 for w, lo, hi in zip(engine.workers, bounds[:-1], bounds[1:], strict=True)]
        self.block_bytes = ray.get(loads)
        weakref.finalize(self, _drop_blocks, list(engine.workers), key)

    def run(self, fn: RowFn, parts: Sequence[np.ndarray | None] | None, *args: Any) -> list[Any]:
        ray = self.engine.ray
        shared = [ray.put(a) if isinstance(a, np.ndarray) and a.nbytes > _INLINE_BYTES else a for a in args]
        calls = [w.run.remote(self.key, fn, None if parts is None else parts[i], *shared)
                 for i, w in enumerate(self.engine.workers)]
        return ray.get(calls)


class RayEngine(Engine):
    """Sparse products on Ray actors; results bit-identical to :data:`lore.algorithms._engine.LOCAL`.

    Parameters
    ----------
    address : str, optional
        ``auto``, ``ray://host:port``, ``host:port``; ``None``: ``RAY_ADDRESS`` or a local instance
        (see :func:`lore._ray.connect`).
    workers : int, optional
        Number of actors (= row blocks per matrix); default: the cluster's CPUs.
    """

    name = "ray"

    def __init__(self, address: str | None = None, *, workers: int | None = None) -> None:
        self.ray = connect(address, feature="--engine ray")
        n = workers or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        actor = self.ray.remote(num_cpus=0)(_ShardWorker)
        self.workers = [actor.options(scheduling_strategy="SPREAD").remote() for _ in range(n)]
        self._task = self.ray.remote(num_cpus=1)(_run_items)
        self._job = self.ray.get_runtime_context().get_job_id()  # a new ray.init is a new job
        self._rows: dict[tuple, tuple[Any, RayRows]] = {}
        self._puts: dict[int, tuple[Any, Any]] = {}
        self._serial = 0

    @property
    def alive(self) -> bool:
        """Whether the Ray connection this engine was made on is still up (not shut down or replaced)."""
        return bool(self.ray.is_initialized()) and self.ray.get_runtime_context().get_job_id() == self._job

    def rows(self, matrix: sp.spmatrix, *, transpose: bool = False, cache_on: object = None,
             name: str = "") -> RowBlocks:
        key = (id(cache_on), name, transpose) if cache_on is not None else None
        if key is not None:
            hit = self._rows.get(key)
            if hit is not None and hit[0]() is cache_on:
                return hit[1]
        if isinstance(matrix, Csr):  # arrays mapped from a saved graph: ship them as the scipy matrix they are
            matrix = matrix.to_scipy()
        m = matrix.T.tocsr() if transpose else (matrix if matrix.format == "csr" else matrix.tocsr())
        self._serial += 1
        held = RayRows(self, m, f"{name or 'matrix'}#{self._serial}")
        if key is not None:
            rows_cache = self._rows

            def forget(_ref: object, key: tuple = key) -> None:
                rows_cache.pop(key, None)

            try:
                ref = weakref.ref(cache_on, forget)
            except TypeError:  # not weak-referenceable: use once
                return held
            while len(self._rows) >= _CACHE_SIZE:
                self._rows.pop(next(iter(self._rows)))
            self._rows[key] = (ref, held)
        return held

    def _put(self, obj: Any) -> Any:
        """An object-store reference for a big array or matrix (one per object while it lives)."""
        if isinstance(obj, np.ndarray):
            size = obj.nbytes
        elif sp.issparse(obj):
            size = obj.data.nbytes + getattr(obj, "indices", obj.data).nbytes
        else:
            return obj
        if size <= _INLINE_BYTES:
            return obj
        hit = self._puts.get(id(obj))
        if hit is not None and hit[0]() is obj:
            return hit[1]
        ref = self.ray.put(obj)
        key = id(obj)

        def forget(_ref: object) -> None:
            self._puts.pop(key, None)

        try:
            self._puts[key] = (weakref.ref(obj, forget), ref)
        except TypeError:
            pass
        while len(self._puts) > _CACHE_SIZE:
            self._puts.pop(next(iter(self._puts)))
        return ref

    def map_tasks(self, fn: Callable[..., Any], shared: tuple, items: Sequence[Any], *, cache_on: object = None,
                  name: str = "") -> list[Any]:
        if not items:
            return []
        refs = [self._put(s) for s in shared]
        groups = min(len(items), 2 * len(self.workers))
        cuts = np.linspace(0, len(items), groups + 1).astype(int)
        calls = [self._task.remote(fn, list(items[lo:hi]), *refs) for lo, hi in zip(cuts[:-1], cuts[1:], strict=True)]
        return [r for part in self.ray.get(calls) for r in part]

    def memory(self) -> list[dict[str, int]]:
        """Per worker: process id, resident and peak resident bytes, bytes of row blocks held."""
        return list(self.ray.get([w.memory.remote() for w in self.workers]))

    def close(self) -> None:
        """Stop the actors (their blocks go with them)."""
        for w in self.workers:
            try:
                self.ray.kill(w)
            except Exception:  # already gone with the cluster
                pass
        self.workers = []
        self._rows.clear()
        self._puts.clear()
