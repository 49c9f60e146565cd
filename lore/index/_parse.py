"""Parse workers: read one file within its budget, parse it, and send back rows ready to insert.

:func:`parse_job` runs in worker processes (or in-process for a few files, :func:`parse_iter`), or as Ray
tasks over batches of files the driver has read (:func:`parse_iter_ray`, ``lore index --executor ray``). It never
raises: a file that cannot be read, is not a regular file, or goes over its per-file budget comes back
with the skip reason as its status (see :mod:`lore.index._files`).
"""

from __future__ import annotations

import gc
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import accumulate
from types import ModuleType

from ..languages import parse_source
from ..languages.cpp import table_in_use as cpp_table_in_use
from ..languages.cpp import use_table as use_cpp_table
from ..parsers._ts import BudgetExceeded
from ..parsers.records import ParsedFile, encode
from ..text.tokens import body_text, index_text
from ._files import content_hash, file_budget, read_source
from ._workers import init_parse_worker
from .walk import is_binary

MAX_BODY_CHARS = 2000  # symbols_fts.body: the start of a body (what code vectors read too)
MAX_REST_CHARS = 65_536  # symbols_fts.rest: the rest of a body is searched too (issue 37: retry handling sat past 2,000)
# a class's own text past 2,000 characters (attributes, long docstrings) is left out: its methods are rows of
# their own, and on the search gate leaving it out lifted keyword+expand R@5 0.433 -> 0.437
REST_KINDS = frozenset({"function", "method"})
MAX_FILE_TEXT_CHARS = 1_048_576  # a file's searched content (files_fts.content)
PARALLEL_THRESHOLD = 24  # fewer changed files than this are parsed in-process (pool start-up costs ~50 ms)
CHUNK_SIZE = 16  # files per task sent to a parse worker
_PLUS_ONE = (1).__add__  # a line's length with its newline (map over a list of lengths, in C)

Progress = Callable[[str, int, int], None]  # (phase, done, total)
Job = tuple[str, str, str, str, bool, int]  # path, abspath, language, module, want interface items, max size


@dataclass(slots=True)
class Parsed:
    """What a parse worker sends back for one file: rows ready to insert (ids are assigned by the
    indexer) and the records as one compressed blob (decoded only where resolution needs them)."""

    path: str
    hash: str
    status: str  # ok | binary | unreadable
    module: str = ""
    # per symbol: name, qualified_name, kind, parent (local index), start_line, end_line, start_col,
    # end_col, signature, docstring, return_type, exported
    syms: list[tuple] = field(default_factory=list)
    fts: list[tuple[str, str, str, str, str, str, str]] = field(default_factory=list)  # per symbol, pre-tokenized
    file_fts: tuple[str, ...] = ("", "", "", "")  # path, exports, imports, content
    blob: bytes = b""
    ref_names: str = ""
    lines: int = 0
    syntax_errors: int = 0
    items: set[tuple] | None = None  # interface_items(), asked for on a refresh only
    error: str = ""
    # the records themselves when parsed in the indexer's own process (never sent through a pipe):
    # resolution then reads them as they are instead of decoding the blob again
    record: ParsedFile | None = None


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


def parse_job(job: Job, keep_record: bool = False) -> Parsed:
    """Worker: read, hash, parse one file and prepare its rows. Never raises: failures come back as a status
    (the skip reason: ``pipe``, ``vanished``, ``too big``, ``too slow``...; see :mod:`lore.index._files`).
    ``keep_record``: also hand back the parsed records as objects (in-process parsing only)."""
    status, data = read_source(job[1], job[5])
    return parse_read(job, status, data, keep_record)


def parse_read(job: Job, status: str, data: bytes, keep_record: bool = False) -> Parsed:
    """:func:`parse_job` after the read: ``status`` and ``data`` are what :func:`~lore.index._files.read_source`
    returned for the job's file (read by the driver when a Ray task on another machine parses it)."""
    rel, _abspath, language, module, want_items, _max_size = job
    if status != "ok":
        return Parsed(rel, "", status)
    digest = content_hash(data)
    if is_binary(data):
        return Parsed(rel, digest, "binary")
    try:
        with file_budget():
            return _parsed_rows(rel, data, digest, language, module, want_items, keep_record)
    except BudgetExceeded as exc:
        return Parsed(rel, digest, exc.reason)
    except MemoryError:
        return Parsed(rel, digest, "too big to parse")
    except Exception as exc:  # a parser bug must not kill the whole index run
        return Parsed(rel, digest, "unreadable", error=f"{type(exc).__name__}: {exc}")


def _parsed_rows(rel: str, data: bytes, digest: str, language: str, module: str, want_items: bool,
                 keep_record: bool = False) -> Parsed:
    pf = parse_source(rel, data, language, module)
    lines = data.split(b"\n")
    n_lines = len(lines)
    starts = list(accumulate(map(_PLUS_ONE, map(len, lines)), initial=0))  # where each line starts in data
    path_text = cached_index_text(rel)
    syms: list[tuple] = []
    fts: list[tuple[str, str, str, str, str, str, str]] = []
    symbols = pf.symbols
    # the text past a body's first MAX_BODY_CHARS is its own row's alone: the definitions nested in it
    # are rows of their own (a long class would otherwise repeat every method and compete with them)
    nested: dict[int, list[tuple[int, int]]] = {}
    for s in symbols:
        if s.parent is not None and s.kind != "module" and symbols[s.parent].kind != "module":
            nested.setdefault(s.parent, []).append((s.start_line, s.end_line))
    # symbols on the same lines with the same nested ranges have the same texts: a minified file's functions all
    # sit on one line of up to 64 KB each (Django's vendored xregexp.min.js: 45 MB of rest text, 3 MB of it distinct)
    texts: dict[tuple, tuple[str, str]] = {}
    for k, s in enumerate(symbols):
        syms.append((s.name, s.qualified_name, s.kind, s.parent, s.start_line, s.end_line, s.start_col, s.end_col,
                     s.signature, s.docstring, s.return_type, int(s.exported)))
        name_text = cached_index_text(s.name)
        parent = symbols[s.parent] if s.parent is not None else None
        if s.kind == "module":
            body = rest = ""  # a file's text is searched in files_fts.content; the module row keeps path and docstring
        else:
            has_rest = s.kind in REST_KINDS
            # _own_lines removes only the nested ranges that start below the first line
            inner = tuple(sorted(r for r in nested.get(k, ()) if r[0] > s.start_line)) if has_rest else ()
            key = (s.start_line, s.end_line, has_rest, inner)
            got = texts.get(key)
            if got is None:
                # the lines' bytes are one slice of the file: lines[a:b] joined by newlines end where line b starts
                a, b = max(0, s.start_line - 1), min(s.end_line, n_lines)
                first, end = (starts[a], starts[b] - 1) if a < b else (0, 0)
                body = body_text(data[first : min(end, first + MAX_BODY_CHARS * 2)].decode("utf-8", "replace")[:MAX_BODY_CHARS])
                rest = ""
                if has_rest and end - first > MAX_BODY_CHARS:  # the own lines are at most all of them
                    own = b"\n".join(_own_lines(lines, s.start_line, s.end_line, inner))
                    if len(own) > MAX_BODY_CHARS:
                        rest = body_text(own[: MAX_REST_CHARS * 2].decode("utf-8", "replace")[MAX_BODY_CHARS:MAX_REST_CHARS])
                got = texts[key] = (body, rest)
            body, rest = got
        if s.parent is not None and parent is not None and s.qualified_name == f"{parent.qualified_name}.{s.name}":
            qname_text = " ".join(t for t in (fts[s.parent][1], name_text) if t)  # tokens go word by word
        else:
            qname_text = cached_index_text(s.qualified_name)
        fts.append((name_text, qname_text, cached_index_text(s.signature), body_text(s.docstring), path_text, body,
                    rest))
    exports = " ".join(s.name for s in pf.symbols if s.parent == 0 and s.exported)
    imports = " ".join(sorted({i.module or (i.name or "") for i in pf.imports}))
    return Parsed(rel, digest, "ok", pf.module, syms, fts, (path_text, cached_index_text(exports), cached_index_text(imports),
                    body_text(data[: MAX_FILE_TEXT_CHARS * 2].decode("utf-8", "replace")[:MAX_FILE_TEXT_CHARS])),
                   encode(pf), ref_names(pf), len(lines), pf.syntax_errors,
                   interface_items(pf) if want_items else None, record=pf if keep_record else None)


def _own_lines(lines: list[bytes], start: int, end: int, inner: Iterable[tuple[int, int]]) -> list[bytes]:
    """Lines ``start..end`` (1-based, inclusive) without the lines of the nested ranges ``inner``."""
    out = lines[max(0, start - 1) : end]
    for a, b in sorted(inner, reverse=True):
        if a > start:  # a nested definition on the first line is the row's own text
            del out[a - start : b - start + 1]
    return out


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
            items.add((b.name.split(".")[-1], "bind", syms[b.owner].qualified_name, b.name, b.annotation, b.value, b.alias_of,
                       b.until, b.branch_end, b.shut))
    for owner, read in returned_bindings(pf).items():
        s = syms[owner]
        items.add((s.name, "ret", s.qualified_name, read))
    if pf.all_names is not None:
        items.add(("__all__", "all", tuple(pf.all_names)))
    return items


RESULT_NAMES = ("<return>", "<yield>")  # what a function gives its caller (pytest: what a fixture yields)


def returned_bindings(pf: ParsedFile) -> dict[int, tuple]:
    """Per function, what its result is read from: its ``<return>`` / ``<yield>`` bindings and the local
    bindings they name, transitively (``y = A(); return y``), without lines.

    Another file calling ``f().m()`` resolves through them, so a refresh that changes them must
    re-resolve the files naming ``f`` even when nothing else of the file's interface changed.

    Examples
    --------
    >>> from lore.languages import parse_source
    >>> a = parse_source("m.py", b"def f():\\n    y = A()\\n    z = 1\\n    return y\\n", "python", "m")
    >>> [b[0] for b in returned_bindings(a)[1]]
    ['<return>', 'y']
    """
    by_scope: dict[int, dict[str, list]] = {}
    for b in pf.bindings:
        if b.scope is None:
            by_scope.setdefault(b.owner, {}).setdefault(b.name, []).append(b)
    out: dict[int, tuple] = {}
    for owner, names in by_scope.items():
        todo = sorted(n for n in names if n in RESULT_NAMES or n.startswith("<return>["))  # and a tuple's elements
        if not todo:
            continue
        seen = set(todo)
        read: set[tuple] = set()
        while todo:
            for b in names.get(todo.pop(), ()):
                read.add((b.name, b.annotation, b.value, b.alias_of))
                for src in (b.value, b.alias_of):
                    head = src.split(".", 1)[0].split("[", 1)[0].split("(", 1)[0] if src else ""
                    if head and head not in seen:
                        seen.add(head)
                        # the name and its literal slots (``d = {}; d["k"] = A; return d["k"]``)
                        todo.extend(n for n in names if n == head or n.startswith(head + "["))
        out[owner] = tuple(sorted(read))
    return out


def ref_names(pf: ParsedFile) -> str:
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


def parse_batch(batch: list[tuple[Job, str, bytes]], cpp_table: dict[bytes, bytes] | None = None) -> list[Parsed]:
    """A Ray task: parse a batch of files the driver has read, in order (see :func:`parse_iter_ray`), with the
    driver's C++ macro table (a Ray worker is not forked from the driver, so it does not inherit it)."""
    if cpp_table is not None:
        use_cpp_table(cpp_table)
    was_enabled = gc.isenabled()
    gc.disable()  # as in the process pool: nothing long-lived, no cycles
    try:
        return [parse_read(job, status, data) for job, status, data in batch]
    finally:
        if was_enabled:
            gc.enable()


RAY_BATCH_FILES = 32  # files per Ray task: ~0.2-0.5 s of parsing against 0.66 ms of per-task overhead
RAY_BATCH_BYTES = 4 << 20  # ... and at most this much source per task (big files make their own batches)


def parse_iter_ray(jobs: list[Job], ray: ModuleType, progress: Progress | None = None, *,
                   in_flight: int | None = None) -> Iterator[Parsed]:
    """Parse results in job order, from Ray tasks over batches of files.

    The driver reads each file within its budget (:func:`~lore.index._files.read_source`, so a
    file that vanished or is a pipe gets the same status as in a local run) and ships the bytes, so
    workers on other machines need no copy of the repository. Batches hold up to
    :data:`RAY_BATCH_FILES` files and :data:`RAY_BATCH_BYTES` bytes; at most ``in_flight`` batches
    (default: twice the cluster's CPUs) are submitted ahead of the one being collected, and results
    are collected by batch index, never by completion, so the order (and therefore every id the
    indexer hands out) is that of the local pool.

    Parameters
    ----------
    jobs : list of Job
        One per file, as for :func:`parse_job`.
    ray : module
        The connected :mod:`ray` module (:func:`lore._ray.connect`).
    progress : callable, optional
        ``(phase, done, total)``.
    in_flight : int, optional
        Batches submitted ahead.
    """
    total = len(jobs)
    if not total:
        return
    task = ray.remote(num_cpus=1)(parse_batch)
    cpp_table = ray.put(cpp_table_in_use())  # once: every task reads the same table
    if in_flight is None:
        in_flight = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))

    def batches() -> Iterator[list[tuple[Job, str, bytes]]]:
        batch: list[tuple[Job, str, bytes]] = []
        size = 0
        for job in jobs:
            status, data = read_source(job[1], job[5])
            if batch and (len(batch) >= RAY_BATCH_FILES or size + len(data) > RAY_BATCH_BYTES):
                yield batch
                batch, size = [], 0
            batch.append((job, status, data))
            size += len(data)
        if batch:
            yield batch

    pending: deque = deque()
    done = 0

    def collect_oldest() -> Iterator[Parsed]:
        nonlocal done
        for res in ray.get(pending.popleft()):
            done += 1
            yield res
        if progress:
            progress("parse", done, total)

    try:
        for batch in batches():
            pending.append(task.remote(batch, cpp_table))
            if len(pending) >= in_flight:
                yield from collect_oldest()
        while pending:
            yield from collect_oldest()
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise


def parse_iter(jobs: list[Job], workers: int | None,
                progress: Progress | None) -> Iterator[Parsed]:
    """Parse results in job order, from worker processes when there is enough to do."""
    total = len(jobs)
    if total < PARALLEL_THRESHOLD or workers == 1:
        for i, job in enumerate(jobs):
            res = parse_job(job, keep_record=True)
            yield res
            if progress:
                progress("parse", i + 1, total)
        return
    n = min(workers or min(os.cpu_count() or 1, 8), max(1, total // 8))
    pool = ProcessPoolExecutor(max_workers=n, initializer=init_parse_worker, initargs=(os.getpid(),))  # they die with it
    try:
        for i, res in enumerate(pool.map(parse_job, jobs, chunksize=CHUNK_SIZE)):
            yield res
            if progress and (i % 16 == 0 or i + 1 == total):
                progress("parse", i + 1, total)
    except BaseException:
        _stop(pool)
        raise
    else:
        pool.shutdown()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now (Ctrl-C, an error): cancel what is queued and end its workers. ``shutdown`` alone
    sends a worker nothing when the interrupt came while the pool was still starting (its manager thread
    not yet running): the worker then waits for work forever, and the interpreter, joining its children
    at exit, waits for it -- ``lore index`` hung after Ctrl-C."""
    procs = list((getattr(pool, "_processes", None) or {}).values())  # no public way before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=5)
