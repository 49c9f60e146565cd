"""Links between indexed documents and mentions of indexed code symbols inside chunks.

Links found (outside fenced code blocks is not checked: a link-shaped string in code is rare):

- markdown ``[text](other.md#anchor)`` (relative to the linking file; URLs with a scheme are skipped),
- rst ``:doc:`path``` (relative, or ``/``-rooted at any indexed docs root), `` `text <other.rst>`_ ``,
- rst ``:ref:`label``` to a ``.. _label:`` target defined in any indexed rst document.

A link whose target is not indexed is kept with a NULL target and resolved when the target is added.
An anchor or label also resolves the target chunk (the section it names).

Symbol mentions: a dotted identifier in a chunk equal to an indexed symbol's qualified name, or to its
last two or more components when those are unique (``Flask.run`` for ``flask.app.Flask.run``), or a
bare name written as inline code (```` `run_app` ````) when exactly one symbol has that name.

Examples
--------
>>> extract_links("See [install](guide/install.md#pip) and :ref:`cli-options`.")
[('path', 'guide/install.md#pip', 4), ('ref', 'cli-options', 40)]
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..store import docs as store

_MD_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_RST_DOC = re.compile(r":doc:`(?:[^`<]*<([^>`]+)>|([^`]+))`")
_RST_REF = re.compile(r":ref:`(?:[^`<]*<([^>`]+)>|([^`]+))`")
_RST_EXT = re.compile(r"`[^`<]+<([^>`]+)>`__?")
_RST_LABEL = re.compile(r"^\.\. _([^:`\n]+):[ \t]*$", re.MULTILINE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w])")
_INLINE_CODE = re.compile(r"`{1,2}([A-Za-z_]\w*)(?:\(\))?`{1,2}")
_DOC_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".rest", ".txt", ".text")


def extract_links(text: str) -> list[tuple[str, str, int]]:
    """(kind, target, offset) of links in ``text``: kind ``path`` (href or doc path) or ``ref`` (label)."""
    found: list[tuple[str, str, int]] = []
    for m in _MD_LINK.finditer(text):
        href = m.group(1)
        if not _SCHEME.match(href) and not href.startswith("#"):
            found.append(("path", href, m.start()))
    for m in _RST_DOC.finditer(text):
        found.append(("doc", (m.group(1) or m.group(2)).strip(), m.start()))
    for m in _RST_EXT.finditer(text):
        href = m.group(1).strip()
        if not _SCHEME.match(href) and href.lower().endswith(_DOC_SUFFIXES):
            found.append(("path", href, m.start()))
    for m in _RST_REF.finditer(text):
        found.append(("ref", (m.group(1) or m.group(2)).strip().lower(), m.start()))
    found.sort(key=lambda f: f[2])
    return [("path" if k == "doc" else k, t, o) for k, t, o in found]


def slug(heading: str) -> str:
    """GitHub-style anchor of a heading: ``Install & Run`` -> ``install--run``.

    >>> slug("Install & Run")
    'install--run'
    """
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def _suffixes(path: str) -> list[str]:
    """``path`` and every part of it after a ``/``: ``a/b/c`` -> ``['a/b/c', 'b/c', 'c']``."""
    return [path] + [path[i + 1 :] for i, ch in enumerate(path) if ch == "/"]


def path_lookup(paths: dict[str, int]) -> dict[str, int]:
    """Every name a ``/``-rooted link can use for a document -> the first document (in ``paths`` order) it names.

    A rooted target ``/x/y`` names a stored path equal to ``x/y`` or ending in ``/x/y``, with or
    without its documentation extension. One dictionary built once replaces a scan of every path for
    every link (0.6 s of a refresh of Django's 610 documents and 2,745 links).

    >>> path_lookup({"docs/intro.md": 1, "intro.md": 2})["intro"]
    1
    """
    out: dict[str, int] = {}
    for path, doc_id in paths.items():
        keys = _suffixes(path)
        stem, ext = posixpath.splitext(path)
        if ext in _DOC_SUFFIXES:
            keys += _suffixes(stem)
        for key in keys:
            out.setdefault(key, doc_id)
    return out


def _resolve_path(
    source_path: str, target: str, paths: dict[str, int], *, is_doc_role: bool, rooted: dict[str, int] | None = None
) -> int | None:
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None
    if target.startswith("/"):
        rel = target.lstrip("/")
        return (rooted if rooted is not None else path_lookup(paths)).get(rel) if rel else None
    base = posixpath.dirname(source_path)
    joined = posixpath.normpath(posixpath.join(base, target))
    candidates = [joined] + [joined + ext for ext in _DOC_SUFFIXES]
    if is_doc_role or not posixpath.splitext(joined)[1]:
        candidates += [joined + "/index" + ext for ext in _DOC_SUFFIXES]
    for cand in candidates:
        if cand in paths:
            return paths[cand]
    return None


class _Chunk(NamedTuple):
    id: int
    document_id: int
    start_char: int
    breadcrumb: str
    content: str


def _labels(chunks_by_doc: dict[int, list[_Chunk]]) -> dict[str, tuple[int, int]]:
    """rst label -> (document id, chunk id): the chunker puts a label in the section it names."""
    labels: dict[str, tuple[int, int]] = {}
    for doc_id, chunks in chunks_by_doc.items():
        for ch in chunks:
            if ".. _" not in ch.content:
                continue
            for m in _RST_LABEL.finditer(ch.content):
                labels.setdefault(m.group(1).strip().lower(), (doc_id, ch.id))
    return labels


def _anchor_chunk(chunks: list[_Chunk], anchor: str) -> int | None:
    for ch in chunks:
        last = ch.breadcrumb.rsplit(" > ", 1)[-1] if ch.breadcrumb else ""
        if last and slug(last) == anchor.lower():
            return ch.id
    return None


def _may_link(text: str) -> bool:
    """Whether ``text`` can hold a link at all (a cheap test before the regular expressions)."""
    return "](" in text or ":doc:" in text or ":ref:" in text or ">`" in text


def rebuild_links(conn: sqlite3.Connection) -> int:
    """Recompute ``document_links`` of every document from its stored chunks; returns the link count.

    Every document's links are resolved again (links to documents added later resolve, links into
    a section that moved follow it), from one read of the chunks, but only the documents whose links
    came out different are written: refreshing one file leaves every other document's rows as they
    were (about 0.1 s on Django's 7,300 chunks).
    """
    paths = store.document_paths(conn)
    rooted = path_lookup(paths)
    by_id = {doc_id: path for path, doc_id in paths.items()}
    chunks_by_doc: dict[int, list[_Chunk]] = {doc_id: [] for doc_id in by_id}
    for row in store.chunk_link_rows(conn):
        if row[1] in chunks_by_doc:
            chunks_by_doc[row[1]].append(_Chunk._make(row))
    labels = _labels(chunks_by_doc)
    stored = store.stored_links(conn)
    total = 0
    for doc_id, chunks in chunks_by_doc.items():
        seen: set[int] = set()
        rows: list[tuple[int | None, int | None, int | None, str]] = []
        for ch in chunks:
            if not _may_link(ch.content):
                continue
            for kind, target, offset in extract_links(ch.content):
                absolute = ch.start_char + offset
                if absolute in seen:  # the same link repeated in the overlap of two chunks
                    continue
                seen.add(absolute)
                target_doc: int | None
                target_chunk: int | None = None
                if kind == "ref":
                    target_doc, target_chunk = labels.get(target, (None, None))
                    href = f":ref:{target}"
                else:
                    href = target
                    target_doc = _resolve_path(by_id[doc_id], target, paths, is_doc_role=True, rooted=rooted)
                    if target_doc is not None and "#" in target:
                        target_chunk = _anchor_chunk(chunks_by_doc[target_doc], target.split("#", 1)[1])
                if target_doc == doc_id and target_chunk is None:
                    continue
                rows.append((ch.id, target_doc, target_chunk, href))
        if stored.get(doc_id, []) != rows:
            store.replace_document_links(conn, doc_id, rows)
        total += len(rows)
    return total


# ---------------------------------------------------------------- symbol mentions


class SymbolMatcher:
    """Finds exact mentions of indexed symbols in text (see the module docstring).

    >>> m = SymbolMatcher([(1, "run", "flask.app.Flask.run"), (2, "make_app", "pkg.make_app")])
    >>> sorted(m.find("Call `make_app` then flask.app.Flask.run or Flask.run; run is common."))
    [('flask.app.Flask.run', 'Flask.run'), ('flask.app.Flask.run', 'flask.app.Flask.run'), ('pkg.make_app', 'make_app')]
    """

    def __init__(self, symbols: Iterable[tuple[int, str, str]], *, only: set[str] | None = None) -> None:
        # ``only``: the tokens that will be looked up (see :func:`candidate_tokens`); the dictionaries
        # then hold just those keys, which answer those tokens exactly as the full ones would
        self.exact: dict[str, str] = {}
        tails: dict[str, set[str]] = defaultdict(set)
        names: dict[str, set[str]] = defaultdict(set)
        last_parts = None if only is None else {t.rsplit(".", 1)[-1] for t in only if "." in t}
        for _sid, name, qname in symbols:
            if not qname:
                continue
            if only is None or qname in only:
                self.exact[qname] = qname
            if only is None or qname.rsplit(".", 1)[-1] in last_parts:  # type: ignore[operator]
                parts = qname.split(".")
                for i in range(1, len(parts) - 1):
                    tail = ".".join(parts[i:])
                    if only is None or tail in only:
                        tails[tail].add(qname)
            if name and (only is None or name in only):
                names[name].add(qname)
        self.tails = {t: next(iter(q)) for t, q in tails.items() if len(q) == 1 and t not in self.exact}
        self.names = {n: next(iter(q)) for n, q in names.items() if len(q) == 1 and len(n) >= 4}

    def __bool__(self) -> bool:
        return bool(self.exact)

    def find(self, text: str) -> set[tuple[str, str]]:
        """(qualified name, mention as written) pairs in ``text``."""
        found: set[tuple[str, str]] = set()
        for m in _DOTTED.finditer(text):
            token = m.group(0)
            qname = self.exact.get(token) or self.tails.get(token)
            if qname:
                found.add((qname, token))
        for m in _INLINE_CODE.finditer(text):
            token = m.group(1)
            qname = self.exact.get(token) or self.names.get(token)
            if qname:
                found.add((qname, token))
        return found


def candidate_tokens(texts: Iterable[str]) -> set[str]:
    """Every token of ``texts`` that :meth:`SymbolMatcher.find` looks up (dotted names, inline code).

    >>> sorted(candidate_tokens(["Call `make_app` then flask.Flask.run."]))
    ['flask.Flask.run', 'make_app']
    """
    out: set[str] = set()
    for text in texts:
        out.update(m.group(0) for m in _DOTTED.finditer(text))
        out.update(m.group(1) for m in _INLINE_CODE.finditer(text))
    return out


def _symbols_digest(symbols: Sequence[tuple[int, str, str]]) -> str:
    """A digest of the (name, qualified name) set that mentions are matched against."""
    h = hashlib.blake2b(digest_size=16)
    for name, qname in sorted({(n or "", q or "") for _sid, n, q in symbols}):
        h.update(f"{name}\t{qname}\n".encode())
    return h.hexdigest()


def record_mentions(conn: sqlite3.Connection, chunks: Sequence[tuple[int, str]] | None = None) -> int:
    """Recompute symbol mentions for (chunk id, content) pairs, or for every chunk when ``None``.

    Mentions depend only on the set of indexed symbol names, recorded as a digest in the store:
    a full refresh with the same names (a refresh that only edited function bodies) is skipped, and
    a partial one against changed names recomputes every chunk so all mentions agree with the
    current code index. A partial refresh when no code was written since the digest was taken (the
    index stamp it recorded is current: a docs-only refresh) does not digest the names again, and
    matches its chunks against only the symbols their tokens can name. Returns the number of
    mentions written (0 when skipped).
    """
    same_names = chunks is not None and store.mentions_stamp_current(conn)
    digest = None
    symbols = store.indexed_symbol_names(conn)
    if not same_names:
        digest = _symbols_digest(symbols)
        same_names = store.mentions_digest(conn) == digest
    if chunks is None and same_names:
        if digest is not None:
            store.set_mentions_digest(conn, digest)  # records the current stamp: the next check is free
        return 0
    if not same_names:
        chunks = None
    if chunks is None:
        chunks = [(cid, content) for cid, _doc, content in store.all_chunk_texts(conn)]
        matcher = SymbolMatcher(symbols)
    else:
        matcher = SymbolMatcher(symbols, only=candidate_tokens(content for _cid, content in chunks))
    rows = []
    if symbols:
        for chunk_id, content in chunks:
            rows.extend((chunk_id, q, mention) for q, mention in sorted(matcher.find(content)))
    store.replace_mentions(conn, [cid for cid, _ in chunks], rows)
    if digest is not None:  # else the stored digest (and its stamp) still describe these names
        store.set_mentions_digest(conn, digest)
    return len(rows)


def current_mentions(conn: sqlite3.Connection, qualified_names: Sequence[str]) -> list[tuple[str, str, int]]:
    """(qualified name, mention, chunk id) of chunks mentioning any of the names, by chunk id.

    Read from the store when its mentions were matched against the current symbol names, else
    matched now without writing (a read-only index, or a code refresh that did not update them).
    """
    if store.mentions_stamp_current(conn) or not store.count_chunks(conn):
        return store.mentions_of(conn, qualified_names)
    symbols = store.indexed_symbol_names(conn)
    if store.mentions_digest(conn) == _symbols_digest(symbols):
        return store.mentions_of(conn, qualified_names)
    wanted = set(qualified_names)
    matcher = SymbolMatcher(symbols)  # every symbol: a tail or bare name must be unique among all of them
    out = []
    for chunk_id, _doc, content in store.all_chunk_texts(conn):
        out.extend((q, mention, chunk_id) for q, mention in sorted(matcher.find(content)) if q in wanted)
    return sorted(out, key=lambda r: (r[2], r[0], r[1]))
