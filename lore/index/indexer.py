"""Full and incremental indexing: walk, parse in worker processes, resolve, write in one transaction.

A refresh re-parses only files whose content hash changed, deletes rows of removed files, keeps the
ids of symbols whose qualified name survives, re-resolves the edges of changed files and of the
files that mention any name they define, and bumps ``meta.generation`` once. Everything is written
in a single transaction: a crash, ``kill -9`` or Ctrl-C leaves the previous index readable and
intact, rebuilds included (the old tables are dropped inside the same transaction).

Speed, by design (``benchmarks/perf/bench_index.py`` measures it):

* workers read, hash, parse and pre-tokenize files and send back ready-made rows plus the records
  as one compressed blob; the indexer never decodes the records of a fresh file;
* the indexer inserts each batch of rows while the workers are still parsing (one transaction,
  ``executemany``), and builds the secondary indexes after the bulk load;
* resolution runs in forked workers that inherit the symbol tables; their edge rows are inserted as
  they arrive and the external symbols they numbered provisionally are mapped to final ids in SQL;
* no garbage-collection passes during a run: millions of records and rows, none in a cycle.

Past one machine (``executor="ray"``, ``lore index --executor ray``): the same batches of files are
parsed by Ray tasks and the same shares of the files are resolved by Ray actors
(:func:`~lore.index._parse.parse_iter_ray`, :func:`~lore.index.resolve_pool.resolve_ray`); results are
collected in submission order, so the store is the one a local run writes, row for row and id for id.
With ``edge_store="parquet"`` the graph's edges are also written as Parquet shards beside the index,
inside the same commit (:mod:`lore.store.parquet`).
"""

from __future__ import annotations

import errno
import gc
import json
import os
import sqlite3
import time
from collections import Counter
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from sys import intern

from .._ray import ray_module
from ..errors import (
    IndexWriteError,
    InvalidArgumentError,
    UnknownAlgorithmError,
)
from ..languages import get as get_language
from ..languages import rules_for
from ..languages.cpp import fingerprint as cpp_fingerprint
from ..languages.cpp import project_table as cpp_project_table
from ..languages.cpp import use_table as use_cpp_table
from ..store import clusters as clusters_store
from ..store import db as store_db
from ..store import graph_delta, read, write
from ..store import parquet as edge_parquet
from ..store.schema import INDEX_FORMAT
from ._carried import finish as finish_carried
from ._carried import held as held_tally
from ._carried import start as start_carried
from ._cpu import process_tree_cpu
from ._edge_store import sync_edge_store
from ._files import SCANNED_AT, files_to_parse
from ._flow_keep import load as load_flow
from ._flow_keep import save as save_flow
from ._gc_pause import paused_gc
from ._ingest import Ingest
from ._lock import WriterLock
from ._memory import budget as memory_budget
from ._memory import ctx_capacity, decode_fits, give_back
from ._options import Options as _Options
from ._parse import Progress, parse_iter, parse_iter_ray
from ._project import inputs_changed, read_languages
from ._report import IndexReport
from .resolve import Edges, FileRow, SymRow, World
from .resolve_pool import MIN_FILES_PER_WORKER, RecordLoader, resolve_parallel, resolve_ray
from .walk import DEFAULT_MAX_FILE_SIZE, WalkResult, escape_name, walk

SKIPPED_PATHS_KEPT = 20  # skipped paths the index names per reason (the report counts them all)
EXECUTORS = ("local", "ray")  # local: process pools on this machine; ray: tasks and actors on a Ray cluster
EDGE_STORES = edge_parquet.EDGE_STORES


def index_repo(
    root: str | os.PathLike[str] = ".",
    *,
    db: str | os.PathLike[str] | None = None,
    exclude: tuple[str, ...] | list[str] = (),
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    workers: int | None = None,
    rebuild: bool = False,
    progress: Progress | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    edge_store: str | None = None,
    include: tuple[str, ...] | list[str] = (),
    gitignore: bool = True,
    exclude_sources: tuple[str, ...] | list[str] | None = None,
    memory: str | int | None = None,
) -> IndexReport:
    """Index (or refresh the index of) the repository at ``root``.

    Parameters
    ----------
    root : path
        Repository root.
    db : path, optional
        Index file; default ``<root>/.lore/index.db``.
    exclude : gitignore-style patterns to skip, on top of ``.gitignore``.
    max_file_size : files larger than this many bytes are skipped (counted in the report).
    workers : parser processes (default: the CPU count, at most 8).
    rebuild : drop the existing index and build from scratch (in the same one transaction).
    progress : callback ``(phase, done, total)``.
    executor : {"local", "ray"}
        Where files are parsed and resolved: ``local`` process pools (the default), or ``ray``: Ray
        tasks over batches of files and Ray actors resolving shares of them; the index written is the
        same (same ids, same rows). ``workers`` then caps the resolver actors.
    ray_address : str, optional
        With ``executor="ray"``: ``auto``, ``ray://host:port`` or ``host:port`` (else ``RAY_ADDRESS``,
        else a local Ray instance); see :func:`lore._ray.connect`.
    edge_store : {"sqlite", "parquet"}, optional
        ``parquet`` also writes the graph's edges as Parquet shards beside the index (the ``ray``
        extra; :mod:`lore.store.parquet`), which :func:`lore.graphs.build.load_graph` then reads;
        ``sqlite`` stops doing so; default: what the index already does (``sqlite`` for a new one).
    include, gitignore, exclude_sources : see :func:`lore.index.walk.walk`. A walk that finds no file
        leaves the index as it was; ``report.nothing_indexed`` says why, ``report.excluded`` counts by rule.
    memory : str or int, optional
        What the indexer may hold at once, in bytes or as ``3G`` / ``512M`` (default: half of this
        machine's memory, or of the container's cgroup limit); respected by batching, the index written
        is the same whatever it is (:mod:`lore.index._memory`).

    An index of another schema version is rebuilt; a file at ``db`` that is not a lore index raises
    :class:`~lore.errors.NotAnIndexError` and is left untouched.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    g()\\n\\ndef g():\\n    pass\\n")
    >>> report = index_repo(d)
    >>> report.added, report.edges["symbol_refs"]
    (['m.py'], 1)
    >>> index_repo(d).changed_any
    False
    """
    t0, c0 = time.perf_counter(), process_tree_cpu()
    root_path = Path(root).resolve()
    if not root_path.is_dir():
        raise InvalidArgumentError(f"{root} is not a directory; pass the root of the repository to index")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidArgumentError(f"workers must be a positive integer, got {workers!r}")
    if isinstance(max_file_size, bool) or not isinstance(max_file_size, int) or max_file_size < 1:
        raise InvalidArgumentError(f"max_file_size must be a positive number of bytes, got {max_file_size!r}")
    if executor not in EXECUTORS:
        raise UnknownAlgorithmError(str(executor), EXECUTORS, what="executor")
    if edge_store is not None and edge_store not in EDGE_STORES:
        raise UnknownAlgorithmError(str(edge_store), EDGE_STORES, what="edge store")
    if edge_store == "parquet":
        edge_parquet.pyarrow_modules("--edge-store parquet")  # a missing extra fails before any work
    limit = memory_budget(memory)  # a bad size fails before any work
    db_path = Path(db) if db is not None else store_db.default_db_path(root_path)
    report = IndexReport(root=str(root_path), db=str(db_path), generation=0, full=False)
    report.rebuilt_reason = store_db.set_aside_damaged(db_path) if rebuild else ""  # --rebuild replaces a damaged one
    store_db.check_index_target(db_path, rebuild=rebuild)  # before the lock file or the directory is created
    if executor == "ray":
        ray_module("--executor ray")  # a missing extra fails now; connecting waits until there is work
    try:
        walked = walk(root_path, exclude=tuple(exclude), max_file_size=max_file_size, include=tuple(include),
                      gitignore=gitignore, exclude_sources=exclude_sources)
        report.seconds["walk"] = round(time.perf_counter() - t0, 3)
        report.skipped_dirs = dict(walked.skipped_dirs)
        if not walked.files:  # nothing to index: say why, and keep the last good index as it is (no lock taken)
            report.nothing_indexed, report.excluded = walked.nothing_indexed(), walked.exclusions()
            report.skipped = dict(sorted(walked.skipped.items()))
            if store_db.index_state(db_path)[0] == "current":
                with closing(store_db.connect(db_path, readonly=True)) as conn:
                    report.generation = store_db.generation(conn)
            return report
        _index_locked(root_path, db_path, report, walked, max_file_size, workers, rebuild, progress,
                      _Options(executor, ray_address, edge_store, limit))
    except sqlite3.OperationalError as exc:  # disk full, read-only file system, I/O error: nothing committed
        if not store_db.is_storage_failure(exc):
            raise
        raise IndexWriteError(str(db_path), str(exc)) from exc
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EROFS, errno.EFBIG, errno.EDQUOT, errno.EACCES, errno.EIO):
            raise
        raise IndexWriteError(str(db_path), exc.strerror or str(exc)) from exc
    report.seconds["total"] = round(time.perf_counter() - t0, 3)
    report.seconds["cpu"] = round(process_tree_cpu() - c0, 3)
    return report


def _index_locked(root_path: Path, db_path: Path, report: IndexReport, walked: WalkResult, max_file_size: int,
                  workers: int | None, rebuild: bool, progress: Progress | None, opts: _Options) -> None:
    with WriterLock(db_path):  # a forked worker lets go of it at once (lore.index._lock)
        state, version = store_db.index_state(db_path)
        if state == "foreign":
            raise store_db.refusal(db_path)
        if state == "stale" and version is not None and version > store_db.SCHEMA_VERSION and not rebuild:
            raise store_db.schema_refusal(db_path, version)
        reset = rebuild or state in ("missing", "blank", "stale")
        if rebuild and state in ("current", "stale"):
            report.rebuilt_reason = "--rebuild"
        elif state == "stale":
            report.rebuilt_reason = f"schema version {version} -> {store_db.SCHEMA_VERSION}"
        conn = store_db.connect_writer(db_path)
        if state == "current" and not reset:
            built = store_db.get_meta(conn, "index_format")
            if built != str(INDEX_FORMAT):  # unchanged files would keep what an older parser / resolver made
                reset = True
                report.rebuilt_reason = f"index format {built or 0} -> {INDEX_FORMAT}: written by another lore"
        if opts.edge_store is None and state in ("current", "stale"):  # the index's choice survives a rebuild
            try:
                opts = replace(opts, edge_store=edge_parquet.recorded(conn))
            except sqlite3.Error:
                pass
        gc_was_enabled = gc.isenabled()
        gc.disable()  # millions of records and rows, no reference cycles: collection passes are pure cost
        try:
            _run(conn, root_path, db_path, report, walked, max_file_size, workers, progress, reset, opts)
        finally:
            conn.close()
            if gc_was_enabled:
                gc.enable()


CPP_MACROS = "cpp_macros"  # meta: the fingerprint of the C++ namespace/attribute macro table the files were parsed with


def _cpp_macros(conn: sqlite3.Connection, walked: WalkResult, existing: dict, todo: list) -> tuple[set[str], str]:
    """Build the project's C++ macro table for the parse workers (:mod:`lore.languages.cpp._project_macros`); when it
    is not the one the index was parsed with, every C++ file is parsed and stored again (added to ``todo``, and
    returned with the table's fingerprint: their unchanged hashes must not keep the old parse)."""
    table = cpp_project_table((f.path, f.abspath, f.language) for f in walked.files)
    use_cpp_table(table)
    fp = cpp_fingerprint(table)
    if not existing or store_db.get_meta(conn, CPP_MACROS, "") == fp:
        return set(), fp
    forced = {f.path for f in walked.files if f.language == "cpp"}
    again = {f.path for f in todo}
    todo += [f for f in walked.files if f.path in forced and f.path not in again]
    return forced, fp


def _run(conn: sqlite3.Connection, root_path: Path, db_path: Path, report: IndexReport, walked: WalkResult,
         max_file_size: int, workers: int | None, progress: Progress | None, reset: bool, opts: _Options) -> None:
    t = time.perf_counter()
    scan_start = walked.started_ns  # what changes after the walk began is seen next run
    report.files_seen = len(walked.files)
    skipped = Counter(walked.skipped)
    skipped_paths = {reason: list(paths) for reason, paths in walked.skipped_paths.items()}
    existing = {} if reset else read.file_states(conn)
    report.full = not existing
    # each language names the modules of its files knowing all of them (Python: the package directories)
    paths_of: dict[str, list[str]] = {}
    for f in walked.files:
        paths_of.setdefault(f.language, []).append(f.path)
    namers = {lang: get_language(lang).module_namer(paths, root_path.name) for lang, paths in paths_of.items()}
    seen = {f.path for f in walked.files}
    scanned = int(store_db.get_meta(conn, SCANNED_AT, "0") or 0) if existing else 0
    todo, rehashed = files_to_parse(walked.files, existing, scanned, max_file_size)
    report.rehashed = rehashed
    if existing:  # a file whose language changed with its project (a .h header once the first .cpp arrives)
        again = {f.path for f in todo}
        todo += [f for f in walked.files if f.path not in again and f.path in existing
                 and existing[f.path].language not in ("", f.language)]
    forced, macros = _cpp_macros(conn, walked, existing, todo)
    removed = [p for p in existing if p not in seen]
    report.seconds["walk"] = round(report.seconds.get("walk", 0.0) + time.perf_counter() - t, 3)

    # parse in worker processes; rows are inserted while the workers go on parsing
    t = time.perf_counter()
    want_items = not report.full
    jobs = [(f.path, f.abspath, f.language, namers[f.language](f.path), want_items, max_file_size)
            for f in todo]
    ing = Ingest(conn, db_path, report, existing, reset)
    # (Ray actors unpickle their world: compressed blobs travel smaller than decoded records)
    ing.decode_now = (not opts.on_ray and len(jobs) >= 2 * MIN_FILES_PER_WORKER
                      and (workers or os.cpu_count() or 1) > 1
                      and decode_fits(sum(f.size for f in todo), opts.memory))  # else kept compressed
    touched: list[tuple[int, int, int]] = []
    changed: list[str] = []
    added: list[str] = []
    syntax_errors: list[str] = []
    try:
        results = (parse_iter_ray(jobs, opts.ray(), progress) if opts.on_ray and jobs
                   else parse_iter(jobs, workers, progress))
        for f, res in zip(todo, results, strict=True):
            old = existing.get(f.path)
            if res.status != "ok":  # not stored: the next run tries it again
                skipped[res.status] += 1
                skipped_paths.setdefault(res.status, []).append(f.path)
                if old is not None:
                    removed.append(f.path)
                continue
            if old is not None and old[1] == res.hash and old.language in ("", f.language) and f.path not in forced:
                touched.append((f.size, f.mtime_ns, old[0]))
                continue
            (changed if old is not None else added).append(f.path)
            if res.syntax_errors:
                syntax_errors.append(f.path)
            ing.add(f, res)
        report.seconds["parse"] = round(time.perf_counter() - t, 3)
        removed = sorted(set(removed))
        report.skipped = dict(sorted(skipped.items()))
        report.added, report.changed, report.removed = added, changed, removed
        report.syntax_error_files = sorted(syntax_errors)
        report.unchanged = sum(1 for p in seen if p in existing) - len(changed) - len(set(removed) & seen)

        skipped_meta = json.dumps(report.skipped, sort_keys=True)  # `lore stats` shows the last run's skips
        # and `lore_status` names them (a few per reason)
        skipped_files = json.dumps({k: sorted(v)[:SKIPPED_PATHS_KEPT] for k, v in sorted(skipped_paths.items())})
        if not ing.begun and not removed and not reset and not inputs_changed(conn, root_path):
            if touched or rehashed or store_db.get_meta(conn, "skipped", "{}") != skipped_meta \
                    or store_db.get_meta(conn, "skipped_files", "{}") != skipped_files:
                with store_db.write_transaction(conn, db_path):
                    write.touch_files(conn, touched)
                    store_db.set_meta(conn, "skipped", skipped_meta)
                    store_db.set_meta(conn, "skipped_files", skipped_files)
                    store_db.set_meta(conn, SCANNED_AT, str(scan_start))  # what was hashed again is not, next run
            sync_edge_store(conn, db_path, opts.edge_store)
            report.generation = store_db.generation(conn)
            _counts(conn, report)
            return
        ing.begin()
        write.touch_files(conn, touched)
        store_db.set_meta(conn, "skipped", skipped_meta)
        store_db.set_meta(conn, "skipped_files", skipped_files)
        store_db.set_meta(conn, SCANNED_AT, str(scan_start))
        store_db.set_meta(conn, CPP_MACROS, macros)
        ing.remove(removed)
        ing.flush()
        report.seconds["store_symbols"] = round(time.perf_counter() - t - report.seconds["parse"], 3)
        _resolve_and_finish(ing, conn, root_path, db_path, report, workers, progress, opts)
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    finally:
        if ing.begun and reset:
            store_db.set_foreign_keys(conn, True)
    _counts(conn, report)
    if report.full:
        try:
            store_db.analyze(conn)  # a fresh index: give the query planner its statistics
        except sqlite3.OperationalError as exc:  # the index is committed; statistics are only a speed-up
            if not store_db.is_storage_failure(exc):
                raise
            conn.rollback()


def _counts(conn: sqlite3.Connection, report: IndexReport) -> None:
    report.symbols = read.table_count(conn, "symbols")
    report.edges = {tb: read.table_count(conn, tb) for tb in ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")}


def _resolve_and_finish(ing: Ingest, conn: sqlite3.Connection, root_path: Path, db_path: Path,
                        report: IndexReport, workers: int | None, progress: Progress | None, opts: _Options) -> None:
    t = time.perf_counter()
    if report.full:
        store_db.ensure_indexes(conn, tables=("symbols",))  # the resolver's reads use them
        resolve_ids = sorted(ing.fresh)
    else:
        # only names whose definition, signature, base classes, imports or bindings changed can
        # change how other files resolve; editing a function body touches none of them
        touched_names = {item[0] for item in ing.old_items ^ ing.new_items}
        for mod in ing.added_modules | ing.removed_modules:
            touched_names.update(mod.split("."))
        resolve_set = set(ing.fresh)
    # names and kinds repeat (a prototype and its definition, a million "function"s): one string each,
    # and one int object per file id (SQLite makes one per row)
    fids: dict[int, int] = {}
    with paused_gc():  # millions of small objects, none garbage yet: the collector's scans were half the cost
        # a full index resolves every file: every symbol row; a refresh reads the rows its lookups ask for
        # (lore.index._symtab), made whole before resolving in other processes (resolve_pool)
        symbols = [SymRow(sid, fid if fid is None else fids.setdefault(fid, fid), intern(name), qname, intern(kind),
                          parent) for sid, fid, name, qname, kind, parent in read.symbol_rows_for_world(conn)
                   ] if report.full else []
        del fids
        files = [FileRow(fid, path, lang, mod, msid, get_language(lang).is_package(path))
                 for fid, path, lang, mod, msid in read.file_rows(conn)]
        world = World(symbols, files, RecordLoader(ing.fresh, conn), read.max_symbol_id(conn) + 1,
                      lazy=None if report.full else conn)
    world.root = str(root_path)
    n_symbols = len(symbols) if report.full else read.table_count(conn, "symbols")
    world.bound_contexts(ctx_capacity(opts.memory, n_symbols, len(files), ing.held_bytes()))
    # config files read once (the world carries them); the files of a language whose configuration changed
    again = read_languages(conn, root_path, world, sorted({f.language for f in files}), report.full)
    again |= start_carried(conn, world, ing.gone, ing.fresh, report.full)  # whole-project tallies, carried over
    # the values that travel are solved over the files of the languages that follow them (Python), and the
    # subclass index holds their classes only: a refresh that changed only files of other languages (a .c
    # of the kernel beside its Python scripts) keeps both
    elsewhere = not report.full and not ing.same_shape and _changed_none_that_flow(ing, world)
    kept = load_flow(conn) if not report.full and (ing.same_shape or elsewhere) and not again else None
    if kept is None and any(rules_for(lang).follows_values for lang in {f.language for f in files}):
        world.make_eager()  # solving the values that travel reads every file of those languages, and most rows
    if kept is not None:  # no changed file changed what resolution reads: the last run's solution holds
        world.adopt_flow(*kept)
    report.flow = "kept" if kept is not None else "solved"
    # values that travel: solved over every file before any edge; a kept solution digests as the run that
    # stored it did (the same solution over the same symbols), so the stored digests stand
    digests = world.flow_digests() if kept is None else None
    if not report.full:
        flowed: set[int] = set()
        if digests is not None:
            old_digests = json.loads(store_db.get_meta(conn, "flow_digests") or "{}")
            flowed = {fid for fid in set(digests) | {int(k) for k in old_digests}
                      if digests.get(fid) != old_digests.get(str(fid)) and fid in world.files}
        resolve_set |= flowed | again  # a caller elsewhere now passes other values into their parameters
        if flowed:
            touched_names.update(name for fid in flowed for name in read.symbol_names_of_file(conn, fid))  # and so their returns
        if touched_names:
            few = len(touched_names) <= 16  # a substring test first: splitting every file's names costs more
            for fid, names in read.ref_names(conn):
                if fid in resolve_set or (few and not any(n in names for n in touched_names)):
                    continue
                if not touched_names.isdisjoint(names.split()):
                    resolve_set.add(fid)
        resolve_ids = sorted(resolve_set)
        write.delete_edges_of_files(conn, resolve_ids)
    if digests is not None:
        store_db.set_meta(conn, "flow_digests", json.dumps({str(k): v for k, v in sorted(digests.items())}))
    if kept is None:
        save_flow(conn, world.flow_solution(), world.subclass_index())
    report.reresolved_files = len(resolve_ids)
    if progress:
        progress("resolve", 0, len(resolve_ids))
    n = workers or min(os.cpu_count() or 1, 8)

    def sink(edges: Edges) -> None:
        write.insert_edges(conn, edges.refs, edges.types, edges.imports, edges.rels)

    if not opts.on_ray:
        remap, lowest = resolve_parallel(world, resolve_ids, str(db_path), n, progress, sink=sink)
    else:
        remap, lowest = resolve_ray(world, resolve_ids, opts.ray(), workers, progress, sink=sink)
    write.insert_externals(conn, world.new_externals)
    if remap:
        write.remap_targets(conn, remap, lowest)
    tally = held_tally(world)  # saved with the state below
    world.release()  # the world is rebuilt by every run: give its memory back before the indexes are built
    del world, symbols, files
    ing.fresh.clear()
    give_back()
    report.seconds["resolve"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    store_db.ensure_indexes(conn)  # after the bulk load of a full build; a no-op on a refresh
    if not report.full:
        write.delete_orphan_externals(conn)  # probes the target indexes
    previous = store_db.index_stamp(conn)
    report.generation = store_db.bump_generation(conn)
    graph_delta.record(conn, report.generation, None if report.full or remap else resolve_ids)  # patch the graph
    report.same_shape = kept is not None and ing.same_shape
    if report.same_shape:
        # every changed file reads the same to the resolver: the same symbols, the same edges (only
        # their lines moved), so the clusters of the last generation are those of this one
        clusters_store.carry_forward(conn, report.generation - 1, report.generation)
    else:
        clusters_store.clear_stale(conn, report.generation)  # cached clusters describe the old graph
    store_db.set_meta(conn, "root", escape_name(str(root_path)))  # a root that is not UTF-8, escaped
    store_db.set_meta(conn, "index_format", str(INDEX_FORMAT))
    kind = opts.edge_store or edge_parquet.recorded(conn)
    stamp = store_db.index_stamp(conn)
    finish_carried(conn, tally, stamp)
    if kind == "parquet":  # the shards of this generation exist before the commit that publishes it
        edge_parquet.write_state(conn, db_path, stamp)
    edge_parquet.set_recorded(conn, kind)
    conn.commit()
    store_db.shrink_wal(conn)  # readers that never pause would let rebuilds grow the WAL without bound
    edge_parquet.prune(db_path, (stamp, previous) if kind == "parquet" else ())  # a reader may still be on `previous`
    report.seconds["index_commit"] = round(time.perf_counter() - t, 3)


def _changed_none_that_flow(ing, world) -> bool:
    """Whether every file this refresh parsed again is of a language whose values do not travel (none of
    them follows values) and no file was added or removed: the stored flow solution, over the files of the
    languages that do, still holds."""
    if ing.added_modules or ing.removed_modules or ing.gone is None:
        return False
    for fid in ing.fresh:
        f = world.files.get(fid)
        if f is None or rules_for(f.language).follows_values:
            return False
    return True
