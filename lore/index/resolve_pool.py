"""Resolving many files in forked worker processes.

The :class:`~lore.index.resolve.World` is built once in the indexer and inherited by ``fork``
(copy-on-write, nothing pickled); each worker process resolves one chunk of the files and writes its
plain edge rows, batch by batch, to a file beside the index, which the indexer reads back batch by batch
and inserts in chunk order (never a whole chunk's rows in memory at once). External symbols a chunk creates get provisional
ids from that chunk's own range (no two chunks can hand out the same id); the indexer maps them to
one id per qualified name afterwards, in chunk order, in SQL (:func:`lore.store.write.remap_targets`). Workers read
records of unchanged files through their own read-only connection (the last committed snapshot
holds exactly those), never through the parent's connection, which is inside the write transaction.

With ``lore index --executor ray`` the same chunks go to Ray tasks instead (:func:`resolve_ray`): the
world is pickled once into Ray's object store with every record it may need (workers on other machines
cannot read the index file), each task unpickles a fresh copy and numbers its externals from its
chunk's range, and the results are collected in chunk order, so the rows and ids are those of a local
run with as many workers.
"""

from __future__ import annotations

import gc
import marshal
import multiprocessing
import os
import pickle
import shutil
import sqlite3
import tempfile
from array import array
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import ModuleType

from ..parsers.records import ParsedFile, decode
from ..store import read
from ._memory import give_back
from ._workers import die_with_parent
from .resolve import Edges, World, resolve_files

MIN_FILES_PER_WORKER = 200  # below this, forking costs more than it saves
# a refresh's world reads symbol rows by key (lore.index._symtab); resolving more files than this, it reads
# them all at once (and always before a fork: the children must not share the refresh's connection)
LAZY_FILES = 2 * MIN_FILES_PER_WORKER - 1
CHUNKS_PER_WORKER = 1  # more would balance uneven chunks, each at the cost of one more fork and memo build
SINK_EVERY = 256  # files resolved in this process between two hand-overs of their edge rows
ID_STRIDE = 1 << 36  # provisional external ids of worker k start at base + (k + 1) * ID_STRIDE


class RecordLoader:
    """Records of a file: freshly parsed ones from memory (decoded on first use), the others from the store."""

    def __init__(self, fresh: dict[int, tuple[ParsedFile | bytes, list[int] | array]],
                 conn: sqlite3.Connection | None) -> None:
        self.fresh, self.conn = fresh, conn

    def held(self, file_id: int) -> ParsedFile | None:
        """The records of a freshly parsed file when they are held decoded (``None``: not without decoding)."""
        got = self.fresh.get(file_id)
        return got[0] if got is not None and isinstance(got[0], ParsedFile) else None

    def __call__(self, file_id: int) -> tuple[ParsedFile, list[int]] | None:
        got = self.fresh.get(file_id)
        if got is not None:
            pf, ids = got
            if isinstance(pf, bytes):
                return decode(pf), (ids.tolist() if isinstance(ids, array) else ids)
            return pf, ids  # type: ignore[return-value]
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
    world.new_externals = []
    loader = world._load_records
    if isinstance(loader, RecordLoader):
        try:
            loader.conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        except sqlite3.Error:
            loader.conn = None


def _work(task: tuple[int, list[int]], spill: str) -> tuple[str, list[tuple[int, str, str]]]:
    """Resolve chunk ``k`` in a forked process, its rows written to the file ``spill`` batch by batch
    (``marshal``, :data:`SINK_EVERY` files each) instead of sent through the pipe at the end in one piece:
    the indexer is resolving chunk 0 meanwhile, and a chunk's rows in one message would be held whole
    in both processes (a sixth of the kernel's edges: several hundred MB of tuples, twice)."""
    k, file_ids = task
    world: World = _STATE["world"]
    world.next_id = _STATE["base"] + (k + 1) * ID_STRIDE  # chunk k's own range of provisional ids
    world.new_externals = []
    with open(spill, "wb") as fh:
        for i in range(0, len(file_ids), SINK_EVERY):
            edges = resolve_files(world, file_ids[i : i + SINK_EVERY])
            marshal.dump((edges.refs, edges.types, edges.imports, edges.rels), fh)
    return spill, world.new_externals


def _drain(spill: str, sink: Callable[[Edges], None]) -> None:
    """Hand the rows :func:`_work` wrote to ``spill`` to ``sink``, batch by batch, and remove the file."""
    try:
        with open(spill, "rb") as fh:
            while True:
                try:
                    refs, types, imports, rels = marshal.load(fh)
                except EOFError:
                    break
                sink(Edges(refs, types, imports, rels))
    finally:
        os.unlink(spill)


def _chunks(file_ids: list[int], n_chunks: int, world: World) -> list[list[int]]:
    """At most ``n_chunks`` contiguous runs of files (a package stays together: a chunk then needs fewer
    other files' scope tables and class hierarchies, which every chunk builds for itself) of about as
    much work each: call sites and type mentions, as the records loaded so far count them."""
    seen = world.work_seen  # every context built so far, whether the world's bound has dropped it since
    weights = [1 + seen.get(fid, 0) for fid in file_ids]
    step = sum(weights) / n_chunks
    chunks: list[list[int]] = [[]]
    acc = 0
    for fid, w in zip(file_ids, weights, strict=True):
        if acc >= step * len(chunks) and len(chunks) < n_chunks:
            chunks.append([])
        chunks[-1].append(fid)
        acc += w
    return chunks


def resolve_parallel(world: World, file_ids: list[int], db_path: str, workers: int,
                     progress: Callable[[str, int, int], None] | None = None, *,
                     sink: Callable[[Edges], None]) -> tuple[list[tuple[int, int]], int]:
    """Resolve ``file_ids``, with ``workers`` processes when there are enough files.

    The files are cut into ``CHUNKS_PER_WORKER * workers`` contiguous chunks of about equal work, each
    resolved from the world as it is after :meth:`~lore.index.resolve.World.solve_flow`: the memoized
    lookups a chunk leaves behind never reach another chunk, so the rows depend on the chunks only, never
    on which process ran which chunk after which (and :func:`resolve_ray` gets the same rows from the
    same chunks). Each chunk but the first runs in a process forked for it alone; with one chunk per
    worker (the default) every one of those is forked before this process resolves chunk 0 itself,
    which costs it no copied pages and no second build of what its lookups memoize (on Django: a
    quarter less CPU than four forked chunks, and a third less wall time).

    Edge rows go to ``sink`` batch by batch, in chunk order. Returns ``(remap, lowest)``: the
    (provisional id, final id) pairs of the external symbols the chunks created, all provisional ids
    being ``>= lowest`` (``([], 0)`` when resolved in this process alone: ids are final then). Final
    externals are appended to ``world.new_externals``.
    """
    world.solve_flow()  # once, before forking: every worker reads the same solution
    if len(file_ids) > LAZY_FILES:  # many files read most rows: one read of them all costs less than a query each
        world.make_eager()
    if workers < 2 or len(file_ids) < 2 * MIN_FILES_PER_WORKER or "fork" not in multiprocessing.get_all_start_methods():
        for i in range(0, len(file_ids), SINK_EVERY):  # rows go to the store as they come, not all at the end
            sink(resolve_files(world, file_ids[i : i + SINK_EVERY]))
            if progress:
                progress("resolve", min(i + SINK_EVERY, len(file_ids)), len(file_ids))
        return [], 0
    base = world.next_id
    chunks = _chunks(file_ids, CHUNKS_PER_WORKER * workers, world)
    if world.contexts_evicted:  # over the memory budget: every process builds the contexts its chunk reads,
        world.drop_contexts()  # so none inherits (and counts in its RSS) those this one built before the fork
        give_back()
    _STATE.update(world=world, base=base)
    created: list[list[tuple[int, str, str]]] = []
    done = 0
    gc.freeze()  # the inherited world is never collected in the workers: no GC pass touches (and copies) its pages
    spills = tempfile.mkdtemp(prefix=".lore-resolve-", dir=os.path.dirname(os.path.abspath(db_path)))
    try:
        # the world is left untouched until every chunk is forked: processes forked later inherit it as it was
        here = (lambda chunk: _work_here(chunk, sink)) if len(chunks) <= workers else None
        for k, (edges, externals) in enumerate(_forked(chunks, workers, db_path, spills, here=here)):
            if isinstance(edges, str):
                _drain(edges, sink)
            else:
                sink(edges)
            created.append(externals)
            done += len(chunks[k])
            if progress:
                progress("resolve", done, len(file_ids))
    finally:
        gc.unfreeze()
        _STATE.clear()
        shutil.rmtree(spills, ignore_errors=True)
    return _final_ids(world, created), base + ID_STRIDE


def _work_here(chunk: list[int], sink: Callable[[Edges], None]) -> tuple[Edges, list[tuple[int, str, str]]]:
    """:func:`_work` on chunk 0 in this process, its rows handed to ``sink`` as they come (the first
    chunk's go first anyway), the world's externals left as they were: the chunk's own are provisional,
    numbered for good by :func:`_final_ids` with the other chunks'. Returns no rows, and those externals."""
    world: World = _STATE["world"]
    next_id, new = world.next_id, world.new_externals
    world.next_id = _STATE["base"] + ID_STRIDE  # chunk 0's range of provisional ids
    world.new_externals = []
    try:
        for i in range(0, len(chunk), SINK_EVERY):
            sink(resolve_files(world, chunk[i : i + SINK_EVERY]))
        return Edges(), world.new_externals
    finally:
        for _sid, _name, qname in world.new_externals:
            world.externals.pop(qname, None)
        world.next_id, world.new_externals = next_id, new


def _child(out: Connection, db_path: str, k: int, chunk: list[int], parent: int, spill: str) -> None:
    die_with_parent(parent)  # a killed indexer leaves no resolver behind
    try:
        _init(db_path)
        result: tuple[str, object] = ("ok", _work((k, chunk), spill))
    except BaseException as exc:  # reported to the parent, which raises it
        result = ("error", exc)
    out.send(result)
    out.close()


def _forked(chunks: list[list[int]], workers: int, db_path: str, spills: str, *,
            here: Callable[[list[int]], tuple[Edges, list[tuple[int, str, str]]]] | None = None,
            ) -> Iterator[tuple[Edges | str, list[tuple[int, str, str]]]]:
    """Results of :func:`_work` per chunk (the file in ``spills`` that holds its rows, and its externals),
    in chunk order, each chunk in a process forked for it alone
    (at most ``workers`` at a time). With ``here``, chunk 0 is resolved by ``here(chunks[0])`` in this
    process instead, once the processes of all the others are started (there must be at most ``workers``
    chunks: a process forked later would inherit what chunk 0 memoized). A process that dies without
    answering raises :class:`RuntimeError`."""
    ctx = multiprocessing.get_context("fork")
    running: dict[int, tuple[BaseProcess, Connection]] = {}
    results: dict[int, tuple[Edges | str, list[tuple[int, str, str]]]] = {}
    started = 1 if here is not None else 0
    emitted = 0
    try:
        while emitted < len(chunks):
            while started < len(chunks) and len(running) < workers:
                receive, send = ctx.Pipe(duplex=False)
                spill = os.path.join(spills, f"chunk-{started}")
                child = ctx.Process(target=_child, args=(send, db_path, started, chunks[started], os.getpid(), spill),
                                    daemon=True)
                child.start()
                send.close()
                running[started] = (child, receive)
                started += 1
            if here is not None and emitted == 0:
                yield here(chunks[0])
                emitted += 1
                continue
            if emitted in results:
                yield results.pop(emitted)
                emitted += 1
                continue
            ready = wait([conn for _proc, conn in running.values()])
            for k, (proc, conn) in list(running.items()):
                if conn not in ready:
                    continue
                try:
                    status, payload = conn.recv()
                except EOFError:
                    proc.join()
                    raise RuntimeError(f"a resolver process died (exit code {proc.exitcode}) on chunk {k}") from None
                proc.join()
                conn.close()
                del running[k]
                if status == "error":
                    raise payload  # type: ignore[misc]
                results[k] = payload  # type: ignore[assignment]
    finally:
        for proc, conn in running.values():
            proc.kill()
            proc.join()
            conn.close()


def _final_ids(world: World, created: list[list[tuple[int, str, str]]]) -> list[tuple[int, int]]:
    """(provisional id, final id) of the externals each chunk created, numbered in chunk order."""
    return [(cid, world.external(qname)) for externals in created for cid, _name, qname in externals]


RAY_MIN_FILES = 2 * MIN_FILES_PER_WORKER  # below this, Ray resolves in this process too (as the local pool does)


def resolve_chunk(world: World | bytes, next_id: int, file_ids: list[int]) -> tuple[Edges, list[tuple[int, str, str]]]:
    """A Ray task: resolve one chunk with a fresh copy of the world (unpickled for this task alone).

    Parameters
    ----------
    world : World or bytes
        The world after :meth:`~lore.index.resolve.World.solve_flow`, with every record in its loader,
        or its pickle (:func:`resolve_ray` ships bytes: unpickled here with the garbage collector off,
        which Ray's own argument decoding would leave on, several times slower for millions of objects).
    next_id : int
        First provisional id of the external symbols this chunk creates.
    file_ids : list of int
        The chunk.

    Returns
    -------
    (Edges, list)
        The chunk's edge rows, and the ``(provisional id, name, qualified name)`` of the externals it created.
    """
    was_enabled = gc.isenabled()
    gc.disable()  # as in a forked worker: a large object graph with no cycles
    try:
        if isinstance(world, bytes):
            world = pickle.loads(world)
        assert isinstance(world, World)
        world.next_id = next_id
        world.new_externals = []
        edges = resolve_files(world, file_ids)
        return edges, world.new_externals
    finally:
        if was_enabled:
            gc.enable()


def _all_records(loader: RecordLoader, file_ids: list[int]) -> RecordLoader:
    """A loader holding the records of every file in ``file_ids`` (from memory, else the store) and no connection."""
    fresh = dict(loader.fresh)
    if loader.conn is not None:
        for fid in file_ids:
            if fid in fresh:
                continue
            row = read.record_blob(loader.conn, fid)
            if row is not None:
                ids = array("q")
                ids.frombytes(row[1])
                fresh[fid] = (bytes(row[0]), ids.tolist())
    return RecordLoader(fresh, None)


def resolve_ray(world: World, file_ids: list[int], ray: ModuleType, workers: int | None = None,
                progress: Callable[[str, int, int], None] | None = None, *,
                sink: Callable[[Edges], None]) -> tuple[list[tuple[int, int]], int]:
    """:func:`resolve_parallel` on Ray tasks: same chunks, same results (rows, ids and order).

    The world is put into Ray's object store once; each chunk is a task that unpickles its own copy
    (a fresh world per chunk, as the local pool forks a fresh process per chunk), and the results are
    collected by chunk index, never by completion.

    Parameters
    ----------
    world : World
        Built by the indexer; its record loader may read the store through the writer's connection
        (the records of unchanged files are copied into the shipped world from there).
    file_ids : list of int
        Files to resolve, in order.
    ray : module
        The connected :mod:`ray` module (:func:`lore._ray.connect`).
    workers : int, optional
        Makes ``2 * workers`` chunks, as in the local pool (default: the cluster's CPUs).
    progress : callable, optional
        ``(phase, done, total)``.
    sink : callable
        Receives the edge rows chunk by chunk, in chunk order.

    Returns
    -------
    (remap, lowest)
        As :func:`resolve_parallel`: provisional -> final ids of the externals the actors created.
    """
    world.solve_flow()
    if len(file_ids) >= RAY_MIN_FILES:  # shipped to the actors whole (the refresh's connection stays here)
        world.make_eager()
    if len(file_ids) < RAY_MIN_FILES:
        sink(resolve_files(world, file_ids))
        if progress:
            progress("resolve", len(file_ids), len(file_ids))
        return [], 0
    n = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    base = world.next_id
    chunks = _chunks(file_ids, 2 * n, world)
    loader = world._load_records
    try:
        if isinstance(loader, RecordLoader):
            world._load_records = _all_records(loader, sorted(world.files))
        shared = ray.put(pickle.dumps(world, protocol=pickle.HIGHEST_PROTOCOL))
    finally:
        world._load_records = loader
    task = ray.remote(num_cpus=1)(resolve_chunk)
    refs = [task.remote(shared, base + (k + 1) * ID_STRIDE, chunk) for k, chunk in enumerate(chunks)]
    created: list[list[tuple[int, str, str]]] = []
    done = 0
    try:
        for k, ref in enumerate(refs):  # by chunk index, never by completion
            edges, externals = ray.get(ref)
            sink(edges)
            created.append(externals)
            done += len(chunks[k])
            if progress:
                progress("resolve", done, len(file_ids))
    except BaseException:
        for ref in refs:
            ray.cancel(ref)
        raise
    finally:
        del shared
    return _final_ids(world, created), base + ID_STRIDE
