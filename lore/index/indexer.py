"""Full and incremental indexing: walk, parse in worker processes, resolve, write in one transaction.

A refresh re-parses only files whose content hash changed, deletes rows of removed files, keeps the
ids of symbols whose qualified name survives, re-resolves the edges of changed files and of the
files that mention any name they define, and bumps ``meta.generation`` once. Everything is written
in a single transaction: a crash or Ctrl-C leaves the previous index readable and intact.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from array import array
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import IndexBusyError, SchemaVersionError
from ..parsers import parse_source
from ..parsers.records import ParsedFile, decode, encode
from ..search.tokens import body_text, index_text
from ..store import clusters as clusters_store
from ..store import db as store_db
from ..store import read, write
from . import modules as modnames
from .resolve import FileRow, SymRow, World
from .resolve_pool import RecordLoader, resolve_parallel
from .walk import DEFAULT_MAX_FILE_SIZE, SourceFile, is_binary, is_test_path, walk

MAX_BODY_CHARS = 2000
PARALLEL_THRESHOLD = 24  # fewer changed files than this are parsed in-process (pool start-up costs ~50 ms)

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class IndexReport:
    """What an index run did; ``lore index`` prints it, ``--json`` dumps it."""

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
    path: str
    hash: str
    status: str  # ok | binary | unreadable
    pf: ParsedFile | None = None
    fts: list[tuple[str, str, str, str, str, str]] | None = None  # per symbol, pre-tokenized
    blob: bytes = b""  # compressed pickle of pf (stored so edges can be re-resolved without re-parsing)
    ref_names: str = ""
    lines: int = 0
    syntax_errors: int = 0
    error: str = ""


def _parse_job(job: tuple[str, str, str, str]) -> _Parsed:
    """Worker: read, hash, parse one file and prepare its search text. Never raises: failures come back as a status."""
    rel, abspath, language, module = job
    try:
        data = Path(abspath).read_bytes()
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
    path_text = index_text(rel)
    fts = []
    for s in pf.symbols:
        if s.kind == "module":
            body = ""  # the file's text is searched through its symbols; the module row keeps path and docstring
        else:
            chunk = b"\n".join(lines[max(0, s.start_line - 1) : s.end_line])[: MAX_BODY_CHARS * 2]
            body = body_text(chunk.decode("utf-8", "replace")[:MAX_BODY_CHARS])
        fts.append((index_text(s.name), index_text(s.qualified_name), index_text(s.signature),
                    body_text(s.docstring), path_text, body))
    # only bytes cross the process boundary: the indexer decodes them once (pickling records costs more)
    return _Parsed(rel, digest, "ok", None, fts, encode(pf), _ref_names(pf), len(lines), syntax_errors=pf.syntax_errors)


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
    names: set[str] = set()
    for c in pf.calls:
        names.update(p.rstrip("()") for p in c.callee.split("."))
    for t in pf.type_refs:
        names.update(t.type_name.split("."))
    for r in pf.relations:
        names.update(r.target.split("."))
    for i in pf.imports:
        names.update(i.module.split("."))
        if i.name:
            names.add(i.name)
    for b in pf.bindings:
        for v in (b.value, b.alias_of):
            if v:
                names.update(p.rstrip("()") for p in v.split("."))
    names.discard("")
    return " ".join(sorted(names))


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


def _remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()


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
    rebuild : drop the existing index and build from scratch.
    progress : callback ``(phase, done, total)``.

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
    t0 = time.perf_counter()
    root_path = Path(root).resolve()
    db_path = Path(db) if db is not None else store_db.default_db_path(root_path)
    report = IndexReport(root=str(root_path), db=str(db_path), generation=0, full=False)
    with _Lock(db_path):
        if rebuild and db_path.exists():
            _remove_db(db_path)
            report.rebuilt_reason = "--rebuild"
        try:
            conn = store_db.connect(db_path, create=True, indexes=False)
        except SchemaVersionError as exc:
            _remove_db(db_path)
            report.rebuilt_reason = f"schema version {exc.found} -> {exc.expected}"
            conn = store_db.connect(db_path, create=True, indexes=False)
        try:
            _run(conn, root_path, db_path, report, exclude, max_file_size, workers, progress)
        finally:
            conn.close()
    report.seconds["total"] = round(time.perf_counter() - t0, 3)
    return report


def _run(conn, root_path: Path, db_path: Path, report: IndexReport, exclude, max_file_size: int,
         workers: int | None, progress: Progress | None) -> None:
    t = time.perf_counter()
    walked = walk(root_path, exclude=tuple(exclude), max_file_size=max_file_size)
    report.files_seen = len(walked.files)
    skipped = Counter(walked.skipped)
    existing = read.file_states(conn)
    report.full = not existing
    py_paths = [f.path for f in walked.files if f.language == "python"]
    pkg_dirs = modnames.python_package_dirs(py_paths)
    root_name = root_path.name if "" in pkg_dirs else ""
    seen: set[str] = set()
    todo: list[SourceFile] = []
    for f in walked.files:
        seen.add(f.path)
        old = existing.get(f.path)
        if old is not None and old[2] == f.size and old[3] == f.mtime_ns:
            continue
        todo.append(f)
    removed = sorted(p for p in existing if p not in seen)
    report.seconds["walk"] = round(time.perf_counter() - t, 3)

    # parse (in worker processes when there is enough to do)
    t = time.perf_counter()
    jobs = [(f.path, f.abspath, f.language, modnames.module_name(f.path, f.language, pkg_dirs, root_name)) for f in todo]
    results = _parse_all(jobs, workers, progress)
    report.seconds["parse"] = round(time.perf_counter() - t, 3)

    parsed: list[tuple[SourceFile, _Parsed]] = []
    touched: list[tuple[int, int, int]] = []
    for f, res in zip(todo, results, strict=True):
        old = existing.get(f.path)
        if res.status != "ok":
            skipped[res.status] += 1
            if old is not None:
                removed.append(f.path)
            continue
        if old is not None and old[1] == res.hash:
            touched.append((f.size, f.mtime_ns, old[0]))
            continue
        parsed.append((f, res))
    removed = sorted(set(removed))
    report.skipped = dict(sorted(skipped.items()))
    report.added = [f.path for f, _ in parsed if f.path not in existing]
    report.changed = [f.path for f, _ in parsed if f.path in existing]
    report.removed = removed
    report.unchanged = len(walked.files) - len(parsed)
    report.syntax_error_files = sorted(f.path for f, r in parsed if r.syntax_errors)

    if not parsed and not removed:
        if touched:
            with store_db.write_transaction(conn, db_path):
                write.touch_files(conn, touched)
        report.generation = store_db.generation(conn)
        report.symbols = read.table_count(conn, "symbols")
        report.edges = {tb: read.table_count(conn, tb) for tb in ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")}
        return

    t = time.perf_counter()
    with store_db.write_transaction(conn, db_path):
        gen = store_db.generation(conn) + 1
        _write(conn, db_path, report, existing, parsed, removed, touched, gen, workers, progress)
        store_db.ensure_indexes(conn)
        report.generation = store_db.bump_generation(conn)
        clusters_store.clear_stale(conn, report.generation)  # cached clusters describe the old graph
        store_db.set_meta(conn, "root", str(root_path))
    report.seconds["write"] = round(time.perf_counter() - t, 3)
    report.symbols = read.table_count(conn, "symbols")
    report.edges = {tb: read.table_count(conn, tb) for tb in ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")}
    if report.full:
        conn.execute("ANALYZE")
        conn.commit()


def _parse_all(jobs: list[tuple[str, str, str, str]], workers: int | None, progress: Progress | None) -> list[_Parsed]:
    total = len(jobs)
    if total < PARALLEL_THRESHOLD or workers == 1:
        out = []
        for i, job in enumerate(jobs):
            out.append(_parse_job(job))
            if progress:
                progress("parse", i + 1, total)
        return out
    n = workers or min(os.cpu_count() or 1, 8)
    chunksize = max(1, min(64, total // (n * 8) or 1))
    out = []
    with ProcessPoolExecutor(max_workers=n) as pool:
        for i, res in enumerate(pool.map(_parse_job, jobs, chunksize=chunksize)):
            out.append(res)
            if progress and (i % 16 == 0 or i + 1 == total):
                progress("parse", i + 1, total)
    return out


def _write(conn, db_path: Path, report: IndexReport, existing: dict, parsed: list[tuple[SourceFile, _Parsed]],
           removed: list[str], touched: list, gen: int, workers: int | None, progress: Progress | None) -> None:
    t = time.perf_counter()
    changed_ids = [existing[f.path][0] for f, _ in parsed if f.path in existing]
    removed_ids = [existing[p][0] for p in removed]
    # names defined before the change (to find files whose edges may now resolve differently)
    # what other files can see of the changed and removed files, before the change
    old_items: set[tuple] = set()
    for fid in changed_ids + removed_ids:
        got = read.record_blob(conn, fid)
        if got is not None:
            old_items |= interface_items(decode(got[0]))
    removed_modules = {existing_module for existing_module in read.modules_of_files(conn, removed_ids)}
    write.delete_files(conn, removed_ids)
    write.touch_files(conn, touched)
    next_id = read.max_symbol_id(conn) + 1
    fresh: dict[int, tuple[ParsedFile, list[int]]] = {}
    sym_rows: list[tuple] = []
    fts_rows: list[tuple] = []
    file_fts: list[tuple] = []
    rec_rows: list[tuple] = []
    new_items: set[tuple] = set()
    added_modules: set[str] = set()
    for f, res in parsed:
        pf = res.pf if res.pf is not None else decode(res.blob)
        assert res.fts is not None
        old = existing.get(f.path)
        is_test = int(is_test_path(f.path))
        fid = write.upsert_file(
            conn,
            (f.path, f.language, pf.module, res.hash, f.size, f.mtime_ns, res.lines, pf.syntax_errors, is_test, gen),
            old[0] if old else None,
        )
        reuse: dict[tuple[str, str, int], int] = {}
        if old is not None:
            occ: Counter = Counter()
            for sid, qn, kind in read.symbol_keys_of_file(conn, fid):
                key = (qn, kind, occ[(qn, kind)])
                occ[(qn, kind)] += 1
                reuse[key] = sid
            write.delete_symbols_of_file(conn, fid)
        occ2: Counter = Counter()
        ids: list[int] = []
        for s in pf.symbols:
            key = (s.qualified_name, s.kind, occ2[(s.qualified_name, s.kind)])
            occ2[(s.qualified_name, s.kind)] += 1
            sid = reuse.get(key)
            if sid is None:
                sid = next_id
                next_id += 1
            ids.append(sid)
        for i, s in enumerate(pf.symbols):
            sid = ids[i]
            parent = ids[s.parent] if s.parent is not None else None
            sym_rows.append((sid, fid, s.name, s.qualified_name, s.kind, parent, s.start_line, s.end_line, s.start_col,
                             s.end_col, s.signature, s.docstring, s.return_type, int(s.exported), is_test))
            fts_rows.append((sid, *res.fts[i]))
        exports = " ".join(s.name for s in pf.symbols if s.parent == 0 and s.exported)
        imports = " ".join(sorted({i.module or (i.name or "") for i in pf.imports}))
        file_fts.append((fid, index_text(f.path), index_text(exports), index_text(imports)))
        rec_rows.append((fid, res.blob, array('q', ids).tobytes(), res.ref_names))
        fresh[fid] = (pf, ids)
        new_items |= interface_items(pf)
        if old is None:
            added_modules.add(pf.module)
    if changed_ids:
        conn.executemany("DELETE FROM files_fts WHERE rowid = ?", ((i,) for i in changed_ids))
    write.insert_symbols(conn, sym_rows)
    write.insert_symbol_fts(conn, fts_rows)
    write.insert_file_fts(conn, file_fts)
    write.put_records(conn, rec_rows)
    report.seconds["store_symbols"] = round(time.perf_counter() - t, 3)

    # which files to re-resolve: the changed ones, and every file that mentions a name they define
    t = time.perf_counter()
    if report.full:
        resolve_ids = sorted(fresh)
    else:
        # only names whose definition, signature, base classes, imports or bindings changed can
        # change how other files resolve; editing a function body touches none of them
        touched_names = {item[0] for item in old_items ^ new_items}
        for mod in added_modules | removed_modules:
            touched_names.update(mod.split("."))
        resolve_ids = set(fresh)
        for fid, names in read.ref_names(conn):
            if fid in resolve_ids:
                continue
            if touched_names.intersection(names.split()):
                resolve_ids.add(fid)
        resolve_ids = sorted(resolve_ids)
        write.delete_edges_of_files(conn, resolve_ids)
    report.reresolved_files = len(resolve_ids)

    symbols = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, path, lang, mod, msid, modnames.is_package_file(path))
             for fid, path, lang, mod, msid in read.file_rows(conn)]
    world = World(symbols, files, RecordLoader(fresh, conn), next_id)
    if progress:
        progress("resolve", 0, len(resolve_ids))
    n = workers or min(os.cpu_count() or 1, 8)
    edges = resolve_parallel(world, resolve_ids, str(db_path), n, progress)
    report.seconds["resolve"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    write.insert_externals(conn, world.new_externals)
    write.insert_edges(conn, edges.refs, edges.types, edges.imports, edges.rels)
    write.delete_orphan_externals(conn)
    report.seconds["store_edges"] = round(time.perf_counter() - t, 3)
