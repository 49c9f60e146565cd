"""Resolving many files in forked worker processes.

The :class:`~lore.index.resolve.World` is built once in the indexer and inherited by ``fork``
(copy-on-write, nothing pickled); each worker resolves a share of the files and returns plain edge
rows. External symbols a worker creates get provisional ids from its own range; the parent maps
them to one id per qualified name. Workers read records of unchanged files through their own
read-only connection (the last committed snapshot holds exactly those), never through the
parent's connection, which is inside the write transaction.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
from array import array
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from ..parsers.records import ParsedFile, decode
from .resolve import Edges, World, resolve_files

MIN_FILES_PER_WORKER = 200  # below this, forking costs more than it saves


class RecordLoader:
    """Records of a file: freshly parsed ones from memory, the others from the store."""

    def __init__(self, fresh: dict[int, tuple[ParsedFile, list[int]]], conn: sqlite3.Connection | None) -> None:
        self.fresh, self.conn = fresh, conn

    def __call__(self, file_id: int) -> tuple[ParsedFile, list[int]] | None:
        got = self.fresh.get(file_id)
        if got is not None:
            return got
        if self.conn is None:
            return None
        row = self.conn.execute("SELECT data, local_ids FROM file_records WHERE file_id = ?", (file_id,)).fetchone()
        if row is None:
            return None
        ids = array("q")
        ids.frombytes(row[1])
        return decode(row[0]), ids.tolist()


_STATE: dict = {}


def _init(db_path: str) -> None:
    world: World = _STATE["world"]
    loader = world._load_records
    if isinstance(loader, RecordLoader):
        try:
            loader.conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        except sqlite3.Error:
            loader.conn = None


def _work(file_ids: list[int]) -> tuple[Edges, list[tuple[int, str, str]]]:
    world: World = _STATE["world"]
    edges = resolve_files(world, file_ids)
    return edges, list(world.new_externals)


def resolve_parallel(world: World, file_ids: list[int], db_path: str, workers: int,
                     progress: Callable[[str, int, int], None] | None = None) -> Edges:
    """Resolve ``file_ids`` with ``workers`` forked processes; same rows as :func:`resolve_files`."""
    if workers < 2 or len(file_ids) < 2 * MIN_FILES_PER_WORKER or "fork" not in multiprocessing.get_all_start_methods():
        return resolve_files(world, file_ids)
    base = world.next_id
    n_chunks = workers * 4
    chunks = [file_ids[i::n_chunks] for i in range(n_chunks)]
    _STATE["world"] = world
    out = Edges()
    try:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init, initargs=(db_path,)) as pool:
            for k, (edges, externals) in enumerate(pool.map(_work, chunks)):
                remap = {cid: world.external(qname) for cid, _name, qname in externals}
                _merge(out, edges, remap, base)
                if progress:
                    progress("resolve", min(len(file_ids), (k + 1) * len(chunks[0])), len(file_ids))
    finally:
        _STATE.clear()
    return out


def _merge(out: Edges, edges: Edges, remap: dict[int, int], base: int) -> None:
    def fix(v):
        return remap.get(v, v) if v is not None and v >= base else v

    out.refs.extend((r[0], fix(r[1]), *r[2:]) for r in edges.refs)
    out.types.extend((r[0], fix(r[1]), *r[2:]) for r in edges.types)
    out.imports.extend((*r[:8], fix(r[8]), *r[9:]) for r in edges.imports)
    out.rels.extend((r[0], fix(r[1]), *r[2:]) for r in edges.rels)
