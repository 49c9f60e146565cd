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
"""

from __future__ import annotations

import fcntl
import gc
import hashlib
import os
import re
import resource
import sqlite3
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import IndexBusyError, InvalidArgumentError, NotAnIndexError
from ..languages import get as get_language
from ..languages import parse_source
from ..parsers.records import ParsedFile, decode, encode
from ..store import clusters as clusters_store
from ..store import db as store_db
from ..store import read, write
from ..text.tokens import body_text, index_text
from .resolve import Edges, FileRow, SymRow, World
from .resolve_pool import MIN_FILES_PER_WORKER, RecordLoader, resolve_parallel
from .walk import DEFAULT_MAX_FILE_SIZE, SourceFile, is_binary, is_test_path, walk

MAX_BODY_CHARS = 2000
PARALLEL_THRESHOLD = 24  # fewer changed files than this are parsed in-process (pool start-up costs ~50 ms)
FLUSH_EVERY = 256  # files per batch of inserts while the workers parse
CHUNK_SIZE = 16  # files per task sent to a parse worker

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class IndexReport:
    """What an index run did; ``lore index`` prints it, ``--json`` dumps it.

    ``unchanged`` counts indexed files that were not re-parsed; ``seconds`` holds wall time per
    phase and ``cpu`` (this process and its workers, user + system).
    """

    root: str
    db: str
    generation: int
    full: bool
    files_seen: int = 0
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    reresolved_files: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    syntax_error_files: list[str] = field(default_factory=list)
    symbols: int = 0
    edges: dict[str, int] = field(default_factory=dict)
    rebuilt_reason: str = ""
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def changed_any(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(slots=True)
class _Parsed:
    """What a parse worker sends back for one file: rows ready to insert (ids are assigned by the
    indexer) and the records as one compressed blob (decoded only where resolution needs them)."""

    path: str
    hash: str
    status: str  # ok | binary | unreadable
    module: str = ""
    # per symbol: name, qualified_name, kind, parent (local index), start_line, end_line, start_col,
    # end_col, signature, docstring, return_type, exported
    syms: list[tuple] = field(default_factory=list)
    fts: list[tuple[str, str, str, str, str, str]] = field(default_factory=list)  # per symbol, pre-tokenized
    file_fts: tuple[str, str, str] = ("", "", "")  # path, exports, imports
    blob: bytes = b""
    ref_names: str = ""
    lines: int = 0
    syntax_errors: int = 0
    items: set[tuple] | None = None  # interface_items(), asked for on a refresh only
    error: str = ""


_WORD = re.compile(r"[A-Za-z0-9]+")
_TOKEN_CACHE: dict[str, str] = {}


def cached_index_text(text: str) -> str:
    """:func:`lore.text.tokens.index_text`, memoized per word (identifiers repeat a lot).

    ``index_text`` tokenizes word by word, so joining the tokens of each word gives the same text.

    Examples
    --------
    >>> cached_index_text("pkg.http_client.getUserById") == index_text("pkg.http_client.getUserById")
    True
    """
    cache = _TOKEN_CACHE
    out = []
    for w in _WORD.findall(text):
        t = cache.get(w)
        if t is None:
            if len(cache) > 500_000:
                cache.clear()
            t = cache[w] = index_text(w)
        out.append(t)
    return " ".join(out)


def _parse_job(job: tuple[str, str, str, str, bool]) -> _Parsed:
    """Worker: read, hash, parse one file and prepare its rows. Never raises: failures come back as a status."""
    rel, abspath, language, module, want_items = job
    try:
        with open(abspath, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return _Parsed(rel, "", "unreadable", error=str(exc))
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    if is_binary(data):
        return _Parsed(rel, digest, "binary")
    try:
        pf = parse_source(rel, data, language, module)
    except Exception as exc:  # a parser bug must not kill the whole index run
        return _Parsed(rel, digest, "unreadable", error=f"{type(exc).__name__}: {exc}")
    lines = data.split(b"\n")
    path_text = cached_index_text(rel)
    syms: list[tuple] = []
    fts: list[tuple[str, str, str, str, str, str]] = []
    symbols = pf.symbols
    for s in symbols:
        syms.append((s.name, s.qualified_name, s.kind, s.parent, s.start_line, s.end_line, s.start_col, s.end_col,
                     s.signature, s.docstring, s.return_type, int(s.exported)))
        name_text = cached_index_text(s.name)
        parent = symbols[s.parent] if s.parent is not None else None
        if s.kind == "module":
            body = ""  # the file's text is searched through its symbols; the module row keeps path and docstring
        else:
            chunk = b"\n".join(lines[max(0, s.start_line - 1) : s.end_line])[: MAX_BODY_CHARS * 2]
            body = body_text(chunk.decode("utf-8", "replace")[:MAX_BODY_CHARS])
        if parent is not None and s.qualified_name == f"{parent.qualified_name}.{s.name}":
            qname_text = " ".join(t for t in (fts[s.parent][1], name_text) if t)  # tokens go word by word
        else:
            qname_text = cached_index_text(s.qualified_name)
        fts.append((name_text, qname_text, cached_index_text(s.signature), body_text(s.docstring), path_text, body))
    exports = " ".join(s.name for s in pf.symbols if s.parent == 0 and s.exported)
    imports = " ".join(sorted({i.module or (i.name or "") for i in pf.imports}))
    return _Parsed(rel, digest, "ok", pf.module, syms, fts, (path_text, cached_index_text(exports), cached_index_text(imports)),
                   encode(pf), _ref_names(pf), len(lines), pf.syntax_errors,
                   interface_items(pf) if want_items else None)


def interface_items(pf: ParsedFile) -> set[tuple]:
    """What other files can observe of a file, as (name, detail) items: definitions and their
    signatures, base classes, and module- or class-level imports and bindings.

    Two versions of a file with equal items resolve every other file identically, so a refresh
    re-resolves other files only for the names in the symmetric difference.
    """
    syms = pf.symbols
    visible = {i for i, s in enumerate(syms) if s.kind in ("module", "class", "interface", "struct", "trait", "enum",
                                                               "namespace")}
    items: set[tuple] = set()
    for s in syms:
        parent = syms[s.parent].qualified_name if s.parent is not None else ""
        items.add((s.name, "def", s.qualified_name, s.kind, parent, tuple(s.params), s.return_type, tuple(s.decorators)))
    for r in pf.relations:
        items.add((syms[r.source].name, "rel", syms[r.source].qualified_name, r.target, r.kind))
    for i in pf.imports:
        if i.owner in visible:
            bound = i.alias or i.name or i.module.split(".")[0]
            items.add((bound, "imp", syms[i.owner].qualified_name, i.module, i.name, i.alias, i.level))
    for b in pf.bindings:
        if b.owner in visible:
            items.add((b.name.split(".")[-1], "bind", syms[b.owner].qualified_name, b.name, b.annotation, b.value, b.alias_of))
    if pf.all_names is not None:
        items.add(("__all__", "all", tuple(pf.all_names)))
    return items


def _ref_names(pf: ParsedFile) -> str:
    """Every name the file's records mention (dotted paths split, call parentheses dropped), sorted:
    a refresh re-resolves the files whose names meet what changed elsewhere."""
    texts = [c.callee for c in pf.calls]
    texts += [t.type_name for t in pf.type_refs]
    texts += [r.target for r in pf.relations]
    texts += [i.module for i in pf.imports]
    texts += [i.name for i in pf.imports if i.name]
    texts += [b.value for b in pf.bindings if b.value]
    texts += [b.alias_of for b in pf.bindings if b.alias_of]
    return " ".join(sorted(set(" ".join(texts).replace("()", "").replace(".", " ").split())))


class _Lock:
    """An exclusive, non-blocking lock file beside the index: one writer at a time."""

    def __init__(self, db_path: Path) -> None:
        self.path = db_path.with_suffix(".lock")
        self.fh = None

    def __enter__(self) -> _Lock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(self.path, "w")  # noqa: SIM115
        try:
            fcntl.flock(self.fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            self.fh.close()
            raise IndexBusyError(str(self.path.with_suffix(".db"))) from exc
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fh is not None:
            fcntl.flock(self.fh, fcntl.LOCK_UN)
            self.fh.close()


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def index_repo(
    root: str | os.PathLike[str] = ".",
    *,
    db: str | os.PathLike[str] | None = None,
    exclude: tuple[str, ...] | list[str] = (),
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    workers: int | None = None,
    rebuild: bool = False,
    progress: Progress | None = None,
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
    t0, c0 = time.perf_counter(), _cpu()
    root_path = Path(root).resolve()
    if not root_path.is_dir():
        raise InvalidArgumentError(f"{root} is not a directory; pass the root of the repository to index")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidArgumentError(f"workers must be a positive integer, got {workers!r}")
    db_path = Path(db) if db is not None else store_db.default_db_path(root_path)
    report = IndexReport(root=str(root_path), db=str(db_path), generation=0, full=False)
    with _Lock(db_path):
        state, version = store_db.index_state(db_path)
        if state == "foreign":
            raise NotAnIndexError(str(db_path))
        reset = rebuild or state in ("missing", "blank", "stale")
        if rebuild and state in ("current", "stale"):
            report.rebuilt_reason = "--rebuild"
        elif state == "stale":
            report.rebuilt_reason = f"schema version {version} -> {store_db.SCHEMA_VERSION}"
        conn = store_db.connect_writer(db_path)
        gc_was_enabled = gc.isenabled()
        gc.disable()  # millions of records and rows, no reference cycles: collection passes are pure cost
        try:
            _run(conn, root_path, db_path, report, exclude, max_file_size, workers, progress, reset)
        finally:
            conn.close()
            if gc_was_enabled:
                gc.enable()
    report.seconds["total"] = round(time.perf_counter() - t0, 3)
    report.seconds["cpu"] = round(_cpu() - c0, 3)
    return report


def _run(conn: sqlite3.Connection, root_path: Path, db_path: Path, report: IndexReport, exclude,
         max_file_size: int, workers: int | None, progress: Progress | None, reset: bool) -> None:
    t = time.perf_counter()
    walked = walk(root_path, exclude=tuple(exclude), max_file_size=max_file_size)
    report.files_seen = len(walked.files)
    skipped = Counter(walked.skipped)
    existing = {} if reset else read.file_states(conn)
    report.full = not existing
    # each language names the modules of its files knowing all of them (Python: the package directories)
    paths_of: dict[str, list[str]] = {}
    for f in walked.files:
        paths_of.setdefault(f.language, []).append(f.path)
    namers = {lang: get_language(lang).module_namer(paths, root_path.name) for lang, paths in paths_of.items()}
    seen: set[str] = set()
    todo: list[SourceFile] = []
    for f in walked.files:
        seen.add(f.path)
        old = existing.get(f.path)
        if old is not None and old[2] == f.size and old[3] == f.mtime_ns:
            continue
        todo.append(f)
    removed = [p for p in existing if p not in seen]
    report.seconds["walk"] = round(time.perf_counter() - t, 3)

    # parse in worker processes; rows are inserted while the workers go on parsing
    t = time.perf_counter()
    want_items = not report.full
    jobs = [(f.path, f.abspath, f.language, namers[f.language](f.path), want_items)
            for f in todo]
    ing = _Ingest(conn, db_path, report, existing, reset)
    ing.decode_now = len(jobs) >= 2 * MIN_FILES_PER_WORKER and (workers or os.cpu_count() or 1) > 1
    touched: list[tuple[int, int, int]] = []
    changed: list[str] = []
    added: list[str] = []
    syntax_errors: list[str] = []
    try:
        for f, res in zip(todo, _parse_iter(jobs, workers, progress), strict=True):
            old = existing.get(f.path)
            if res.status != "ok":
                skipped[res.status] += 1
                if old is not None:
                    removed.append(f.path)
                continue
            if old is not None and old[1] == res.hash:
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

        if not ing.begun and not removed and not reset:
            if touched:
                with store_db.write_transaction(conn, db_path):
                    write.touch_files(conn, touched)
            report.generation = store_db.generation(conn)
            _counts(conn, report)
            return
        ing.begin()
        write.touch_files(conn, touched)
        ing.remove(removed)
        ing.flush()
        report.seconds["store_symbols"] = round(time.perf_counter() - t - report.seconds["parse"], 3)
        _resolve_and_finish(ing, conn, root_path, db_path, report, workers, progress)
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    finally:
        if ing.begun and reset:
            store_db.set_foreign_keys(conn, True)
    _counts(conn, report)
    if report.full:
        store_db.analyze(conn)  # a fresh index: give the query planner its statistics


def _counts(conn: sqlite3.Connection, report: IndexReport) -> None:
    report.symbols = read.table_count(conn, "symbols")
    report.edges = {tb: read.table_count(conn, tb) for tb in ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")}


def _parse_iter(jobs: list[tuple[str, str, str, str, bool]], workers: int | None,
                progress: Progress | None) -> Iterator[_Parsed]:
    """Parse results in job order, from worker processes when there is enough to do."""
    total = len(jobs)
    if total < PARALLEL_THRESHOLD or workers == 1:
        for i, job in enumerate(jobs):
            yield _parse_job(job)
            if progress:
                progress("parse", i + 1, total)
        return
    n = min(workers or min(os.cpu_count() or 1, 8), max(1, total // 8))
    pool = ProcessPoolExecutor(max_workers=n, initializer=gc.disable)  # workers hold nothing long-lived
    try:
        for i, res in enumerate(pool.map(_parse_job, jobs, chunksize=CHUNK_SIZE)):
            yield res
            if progress and (i % 16 == 0 or i + 1 == total):
                progress("parse", i + 1, total)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown()


class _Ingest:
    """Writes parsed files into the store, batched, inside the indexer's one transaction (begun lazily,
    so a run that finds nothing to change writes nothing)."""

    def __init__(self, conn: sqlite3.Connection, db_path: Path, report: IndexReport, existing: dict,
                 reset: bool) -> None:
        self.conn, self.db_path, self.report, self.existing, self.reset = conn, db_path, report, existing, reset
        self.begun = False
        self.decode_now = False
        self.next_sid = self.next_fid = 0
        self.fresh: dict[int, tuple[ParsedFile | bytes, list[int]]] = {}  # file id -> (records, symbol ids)
        self.old_items: set[tuple] = set()
        self.new_items: set[tuple] = set()
        self.added_modules: set[str] = set()
        self.removed_modules: set[str] = set()
        self.changed_ids: list[int] = []
        self._files: list[tuple] = []
        self._syms: list[tuple] = []
        self._fts: list[tuple] = []
        self._file_fts: list[tuple] = []
        self._records: list[tuple] = []
        self._pending = 0

    def begin(self) -> None:
        if self.begun:
            return
        conn = self.conn
        if self.reset:
            store_db.set_foreign_keys(conn, False)  # DROP TABLE would otherwise delete row by row
        try:
            store_db.begin_immediate(conn)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise IndexBusyError(str(self.db_path)) from exc
            raise
        self.begun = True
        if self.reset:
            store_db.reset_schema(conn)
        if self.report.full:
            store_db.drop_core_indexes(conn)  # bulk load first, index after
        self.next_sid = read.max_symbol_id(conn) + 1
        self.next_fid = read.max_file_id(conn) + 1
        self.generation = store_db.generation(conn) + 1

    def add(self, f: SourceFile, res: _Parsed) -> None:
        self.begin()
        conn = self.conn
        old = self.existing.get(f.path)
        is_test = int(is_test_path(f.path))
        row = (f.path, f.language, res.module, res.hash, f.size, f.mtime_ns, res.lines, res.syntax_errors, is_test,
               self.generation)
        reuse: dict[tuple[str, str, int], int] = {}
        if old is not None:
            fid = old[0]
            self.flush()  # the file's old rows go before its new ones are inserted
            got = read.record_blob(conn, fid)
            if got is not None:
                self.old_items |= interface_items(decode(got[0]))
            occ: Counter = Counter()
            for sid, qn, kind in read.symbol_keys_of_file(conn, fid):
                key = (qn, kind, occ[(qn, kind)])
                occ[(qn, kind)] += 1
                reuse[key] = sid
            write.delete_symbols_of_file(conn, fid)
            write.delete_file_fts(conn, fid)
            write.upsert_file(conn, row, fid)
            self.changed_ids.append(fid)
        else:
            fid = self.next_fid
            self.next_fid += 1
            self._files.append((fid, *row))
            self.added_modules.add(res.module)
        ids: list[int] = []
        occ2: Counter = Counter()
        for t in res.syms:
            key = (t[1], t[2], occ2[(t[1], t[2])])
            occ2[(t[1], t[2])] += 1
            sid = reuse.get(key)
            if sid is None:
                sid = self.next_sid
                self.next_sid += 1
            ids.append(sid)
        syms, fts = self._syms, self._fts
        for i, t in enumerate(res.syms):
            parent = ids[t[3]] if t[3] is not None else None
            syms.append((ids[i], fid, t[0], t[1], t[2], parent, *t[4:], is_test))
            fts.append((ids[i], *res.fts[i]))
        self._file_fts.append((fid, *res.file_fts))
        self._records.append((fid, res.blob, array("q", ids).tobytes(), res.ref_names))
        # records of fresh files: decoded here, while the workers parse, when forked resolver workers will
        # inherit them (each would otherwise decode most files again); decoded on first use otherwise
        self.fresh[fid] = (decode(res.blob) if self.decode_now else res.blob, ids)
        if res.items is not None:
            self.new_items |= res.items
        self._pending += 1
        if self._pending >= FLUSH_EVERY:
            self.flush()

    def remove(self, paths: list[str]) -> None:
        """Delete the rows of files that are gone (or became unreadable / binary)."""
        ids = [self.existing[p][0] for p in paths]
        for fid in ids:
            got = read.record_blob(self.conn, fid)
            if got is not None:
                self.old_items |= interface_items(decode(got[0]))
        self.removed_modules.update(read.modules_of_files(self.conn, ids))
        write.delete_files(self.conn, ids)

    def flush(self) -> None:
        if not self._pending:
            return
        conn = self.conn
        write.insert_files(conn, self._files)
        write.insert_symbols(conn, self._syms)
        write.insert_symbol_fts(conn, self._fts)
        write.insert_file_fts(conn, self._file_fts)
        write.put_records(conn, self._records)
        for batch in (self._files, self._syms, self._fts, self._file_fts, self._records):
            batch.clear()
        self._pending = 0


def _resolve_and_finish(ing: _Ingest, conn: sqlite3.Connection, root_path: Path, db_path: Path,
                        report: IndexReport, workers: int | None, progress: Progress | None) -> None:
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
        if touched_names:
            for fid, names in read.ref_names(conn):
                if fid not in resolve_set and not touched_names.isdisjoint(names.split()):
                    resolve_set.add(fid)
        resolve_ids = sorted(resolve_set)
        write.delete_edges_of_files(conn, resolve_ids)
    report.reresolved_files = len(resolve_ids)

    symbols = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, path, lang, mod, msid, get_language(lang).is_package(path))
             for fid, path, lang, mod, msid in read.file_rows(conn)]
    world = World(symbols, files, RecordLoader(ing.fresh, conn), read.max_symbol_id(conn) + 1)
    if progress:
        progress("resolve", 0, len(resolve_ids))
    n = workers or min(os.cpu_count() or 1, 8)

    def sink(edges: Edges) -> None:
        write.insert_edges(conn, edges.refs, edges.types, edges.imports, edges.rels)

    remap, lowest = resolve_parallel(world, resolve_ids, str(db_path), n, progress, sink=sink)
    write.insert_externals(conn, world.new_externals)
    if remap:
        write.remap_targets(conn, remap, lowest)
    report.seconds["resolve"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    store_db.ensure_indexes(conn)  # after the bulk load of a full build; a no-op on a refresh
    if not report.full:
        write.delete_orphan_externals(conn)  # probes the target indexes
    report.generation = store_db.bump_generation(conn)
    clusters_store.clear_stale(conn, report.generation)  # cached clusters describe the old graph
    store_db.set_meta(conn, "root", str(root_path))
    conn.commit()
    report.seconds["index_commit"] = round(time.perf_counter() - t, 3)
