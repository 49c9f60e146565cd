"""Resolving many files in forked worker processes.

The :class:`~lore.index.resolve.World` is built once in the indexer and inherited by ``fork``
(copy-on-write, nothing pickled); each worker resolves a share of the files and returns plain edge
rows, which the indexer inserts as they arrive. External symbols a worker creates get provisional
ids from that worker's own range (no two workers can hand out the same id); the indexer maps them to
one id per qualified name afterwards, in SQL (:func:`lore.store.write.remap_targets`). Workers read
records of unchanged files through their own read-only connection (the last committed snapshot
holds exactly those), never through the parent's connection, which is inside the write transaction.
"""

from __future__ import annotations

import gc
import multiprocessing
import sqlite3
from array import array
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from ..parsers.records import ParsedFile, decode
from ..store import read
from .resolve import Edges, World, resolve_files

MIN_FILES_PER_WORKER = 200  # below this, forking costs more than it saves
ID_STRIDE = 1 << 36  # provisional external ids of worker k start at base + (k + 1) * ID_STRIDE


class RecordLoader:
    """Records of a file: freshly parsed ones from memory (decoded on first use), the others from the store."""

    def __init__(self, fresh: dict[int, tuple[ParsedFile | bytes, list[int]]], conn: sqlite3.Connection | None) -> None:
        self.fresh, self.conn = fresh, conn

    def __call__(self, file_id: int) -> tuple[ParsedFile, list[int]] | None:
        got = self.fresh.get(file_id)
        if got is not None:
            pf, ids = got
            return (decode(pf) if isinstance(pf, bytes) else pf), ids
        if self.conn is None:
            return None
        row = read.record_blob(self.conn, file_id)
        if row is None:
            return None
        ids = array("q")
        ids.frombytes(row[1])
        return decode(row[0]), ids.tolist()


_STATE: dict = {}


def _init(db_path: str) -> None:
    gc.disable()  # a short-lived worker whose objects form no cycles: collections would only cost time
    world: World = _STATE["world"]
    slot = _STATE["slot"]
    with slot.get_lock():
        k = slot.value
        slot.value += 1
    world.next_id = _STATE["base"] + (k + 1) * ID_STRIDE
    world.new_externals = []
    loader = world._load_records
    if isinstance(loader, RecordLoader):
        try:
            loader.conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        except sqlite3.Error:
            loader.conn = None


def _work(file_ids: list[int]) -> tuple[Edges, list[tuple[int, str, str]]]:
    world: World = _STATE["world"]
    world.new_externals = []  # report each external once: in the task that created it
    edges = resolve_files(world, file_ids)
    return edges, world.new_externals


def resolve_parallel(world: World, file_ids: list[int], db_path: str, workers: int,
                     progress: Callable[[str, int, int], None] | None = None, *,
                     sink: Callable[[Edges], None]) -> tuple[list[tuple[int, int]], int]:
    """Resolve ``file_ids``, with ``workers`` forked processes when there are enough files.

    Edge rows go to ``sink`` batch by batch. Returns ``(remap, lowest)``: the (provisional id, final
    id) pairs of the external symbols the workers created, all provisional ids being ``>= lowest``
    (``([], 0)`` when resolved in this process: ids are final then). Final externals are appended to
    ``world.new_externals``.
    """
    world.solve_flow()  # once, before forking: every worker reads the same solution
    if workers < 2 or len(file_ids) < 2 * MIN_FILES_PER_WORKER or "fork" not in multiprocessing.get_all_start_methods():
        sink(resolve_files(world, file_ids))
        if progress:
            progress("resolve", len(file_ids), len(file_ids))
        return [], 0
    base = world.next_id
    # contiguous runs of files (a package stays together): a worker then needs fewer other files' scope
    # tables and class hierarchies, which every worker builds for itself
    n_chunks = workers * 2
    size = -(-len(file_ids) // n_chunks)
    chunks = [file_ids[i : i + size] for i in range(0, len(file_ids), size)]
    ctx = multiprocessing.get_context("fork")
    _STATE.update(world=world, base=base, slot=ctx.Value("i", 0))
    remap: list[tuple[int, int]] = []
    done = 0
    gc.freeze()  # the inherited world is never collected in the workers: no GC pass touches (and copies) its pages
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init, initargs=(db_path,)) as pool:
            for k, (edges, externals) in enumerate(pool.map(_work, chunks)):
                sink(edges)
                remap.extend((cid, world.external(qname)) for cid, _name, qname in externals)
                done += len(chunks[k])
                if progress:
                    progress("resolve", done, len(file_ids))
    finally:
        gc.unfreeze()
        _STATE.clear()
    return remap, base + ID_STRIDE
