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
from typing import Any

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


def _resolve_path(source_path: str, target: str, paths: dict[str, int], *, is_doc_role: bool) -> int | None:
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None
    base = posixpath.dirname(source_path)
    candidates: list[str] = []
    if target.startswith("/"):
        rel = target.lstrip("/")
        candidates = [p for p in paths if p == rel or p.endswith("/" + rel) or _stem_match(p, rel)]
    else:
        joined = posixpath.normpath(posixpath.join(base, target))
        candidates = [joined] + [joined + ext for ext in _DOC_SUFFIXES]
        if is_doc_role or not posixpath.splitext(joined)[1]:
            candidates += [joined + "/index" + ext for ext in _DOC_SUFFIXES]
    for cand in candidates:
        if cand in paths:
            return paths[cand]
    return None


def _stem_match(path: str, rel: str) -> bool:
    stem, ext = posixpath.splitext(path)
    return ext in _DOC_SUFFIXES and (stem == rel or stem.endswith("/" + rel))


def _labels(chunks_by_doc: dict[int, list[dict[str, Any]]]) -> dict[str, tuple[int, int]]:
    """rst label -> (document id, chunk id): the chunker puts a label in the section it names."""
    labels: dict[str, tuple[int, int]] = {}
    for doc_id, chunks in chunks_by_doc.items():
        for ch in chunks:
            for m in _RST_LABEL.finditer(ch["content"]):
                labels.setdefault(m.group(1).strip().lower(), (doc_id, ch["id"]))
    return labels


def _anchor_chunk(chunks: list[dict[str, Any]], anchor: str) -> int | None:
    for ch in chunks:
        last = ch["breadcrumb"].rsplit(" > ", 1)[-1] if ch["breadcrumb"] else ""
        if last and slug(last) == anchor.lower():
            return ch["id"]
    return None


def rebuild_links(conn: sqlite3.Connection) -> int:
    """Recompute ``document_links`` of every document from its stored chunks; returns the link count.

    Cheap (one regex pass over the chunk texts) and exact: links to documents added later resolve.
    """
    paths = store.document_paths(conn)
    by_id = {doc_id: path for path, doc_id in paths.items()}
    chunks_by_doc: dict[int, list[dict[str, Any]]] = {
        doc_id: store.document_chunks(conn, doc_id) for doc_id in by_id
    }
    labels = _labels(chunks_by_doc)
    total = 0
    for doc_id, chunks in chunks_by_doc.items():
        seen: set[int] = set()
        rows: list[tuple[int | None, int | None, int | None, str]] = []
        for ch in chunks:
            for kind, target, offset in extract_links(ch["content"]):
                absolute = ch["start_char"] + offset
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
                    target_doc = _resolve_path(by_id[doc_id], target, paths, is_doc_role=True)
                    if target_doc is not None and "#" in target:
                        target_chunk = _anchor_chunk(chunks_by_doc[target_doc], target.split("#", 1)[1])
                if target_doc == doc_id and target_chunk is None:
                    continue
                rows.append((ch["id"], target_doc, target_chunk, href))
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

    def __init__(self, symbols: Iterable[tuple[int, str, str]]) -> None:
        self.exact: dict[str, str] = {}
        tails: dict[str, set[str]] = defaultdict(set)
        names: dict[str, set[str]] = defaultdict(set)
        for _sid, name, qname in symbols:
            if not qname:
                continue
            self.exact[qname] = qname
            parts = qname.split(".")
            for i in range(1, len(parts) - 1):
                tails[".".join(parts[i:])].add(qname)
            if name:
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
    current code index. Returns the number of mentions written (0 when skipped).
    """
    symbols = store.indexed_symbol_names(conn)
    digest = _symbols_digest(symbols)
    same_names = store.mentions_digest(conn) == digest
    if chunks is None and same_names:
        return 0
    if not same_names:
        chunks = None
    matcher = SymbolMatcher(symbols)
    if chunks is None:
        chunks = [(cid, content) for cid, _doc, content in store.all_chunk_texts(conn)]
    rows = []
    if matcher:
        for chunk_id, content in chunks:
            rows.extend((chunk_id, q, mention) for q, mention in sorted(matcher.find(content)))
    store.replace_mentions(conn, [cid for cid, _ in chunks], rows)
    store.set_mentions_digest(conn, digest)
    return len(rows)


def current_mentions(conn: sqlite3.Connection, qualified_names: Sequence[str]) -> list[tuple[str, str, int]]:
    """(qualified name, mention, chunk id) of chunks mentioning any of the names, by chunk id.

    Read from the store when its mentions were matched against the current symbol names, else
    matched now without writing (a read-only index, or a code refresh that did not update them).
    """
    symbols = store.indexed_symbol_names(conn)
    if store.mentions_digest(conn) == _symbols_digest(symbols) or not store.count_chunks(conn):
        return store.mentions_of(conn, qualified_names)
    wanted = set(qualified_names)
    matcher = SymbolMatcher(symbols)  # every symbol: a tail or bare name must be unique among all of them
    out = []
    for chunk_id, _doc, content in store.all_chunk_texts(conn):
        out.extend((q, mention, chunk_id) for q, mention in sorted(matcher.find(content)) if q in wanted)
    return sorted(out, key=lambda r: (r[2], r[0], r[1]))
