"""Parse workers: read one file within its budget, parse it, and send back rows ready to insert.

:func:`parse_job` runs in worker processes (or in-process for a few files, :func:`parse_iter`). It never
raises: a file that cannot be read, is not a regular file, or goes over its per-file budget comes back
with the skip reason as its status (see :mod:`lore.index._files`).
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..languages import parse_source
from ..parsers._ts import BudgetExceeded
from ..parsers.records import ParsedFile, encode
from ..text.tokens import body_text, index_text
from ._files import file_budget, read_source
from .walk import is_binary

MAX_BODY_CHARS = 2000
PARALLEL_THRESHOLD = 24  # fewer changed files than this are parsed in-process (pool start-up costs ~50 ms)
CHUNK_SIZE = 16  # files per task sent to a parse worker

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


def parse_job(job: Job) -> Parsed:
    """Worker: read, hash, parse one file and prepare its rows. Never raises: failures come back as a status
    (the skip reason: ``pipe``, ``vanished``, ``too big``, ``too slow``...; see :mod:`lore.index._files`)."""
    rel, abspath, language, module, want_items, max_size = job
    status, data = read_source(abspath, max_size)
    if status != "ok":
        return Parsed(rel, "", status)
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    if is_binary(data):
        return Parsed(rel, digest, "binary")
    try:
        with file_budget():
            return _parsed_rows(rel, data, digest, language, module, want_items)
    except BudgetExceeded as exc:
        return Parsed(rel, digest, exc.reason)
    except MemoryError:
        return Parsed(rel, digest, "too big to parse")
    except Exception as exc:  # a parser bug must not kill the whole index run
        return Parsed(rel, digest, "unreadable", error=f"{type(exc).__name__}: {exc}")


def _parsed_rows(rel: str, data: bytes, digest: str, language: str, module: str, want_items: bool) -> Parsed:
    pf = parse_source(rel, data, language, module)
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
    return Parsed(rel, digest, "ok", pf.module, syms, fts, (path_text, cached_index_text(exports), cached_index_text(imports)),
                   encode(pf), ref_names(pf), len(lines), pf.syntax_errors,
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


def parse_iter(jobs: list[Job], workers: int | None,
                progress: Progress | None) -> Iterator[Parsed]:
    """Parse results in job order, from worker processes when there is enough to do."""
    total = len(jobs)
    if total < PARALLEL_THRESHOLD or workers == 1:
        for i, job in enumerate(jobs):
            yield parse_job(job)
            if progress:
                progress("parse", i + 1, total)
        return
    n = min(workers or min(os.cpu_count() or 1, 8), max(1, total // 8))
    pool = ProcessPoolExecutor(max_workers=n, initializer=gc.disable)  # workers hold nothing long-lived
    try:
        for i, res in enumerate(pool.map(parse_job, jobs, chunksize=CHUNK_SIZE)):
            yield res
            if progress and (i % 16 == 0 or i + 1 == total):
                progress("parse", i + 1, total)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown()
