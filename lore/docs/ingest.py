"""Add or refresh documents: read, hash, chunk, embed only what changed, resolve links and mentions.

A document whose file hash and metadata are unchanged is skipped. A document stored under a
directory being added whose file is gone from disk is removed (with its chunks, vectors, links and
mentions). A changed document gets new chunks; a chunk keeps its old vector when its embedding text (metadata prefix + breadcrumb + text)
hashes the same for the same model, so editing one section re-embeds one or two chunks. When the
new chunks need at most one batch of vectors (a refresh), they are embedded and written in the same
transaction as the chunks, FTS rows, links and mentions: readers see the old state or the new one.
More vectors are computed in batches (a rich progress bar on a terminal only) and written one
transaction per batch, so an interrupted run keeps what it finished and the next run embeds the rest.
Links are resolved again for every document but written only where they changed, and mentions are
matched for the changed chunks only, so the rows of unchanged documents are left as they were.
Document writes bump ``docs_generation`` only (see :mod:`lore.store.docs`).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError
from ..store import docs as store
from ..store.db import write_transaction
from ..text.embed import Embedder, check_batch_size
from .chunking import (
    CHUNKER_VERSION,
    DEFAULT_MAX_CHARS,
    DEFAULT_OVERLAP,
    DOC_EXTENSIONS,
    check_chunk_sizes,
    chunk_text,
    detect_source_type,
    document_title,
    source_type_for,
)
from .links import rebuild_links, record_mentions
from .pdf import PdfText, chunk_pages, read_pdf

EMBED_BATCH = 64
_SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    ".lore",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    "_build",
}


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def normalise_tags(tags: Iterable[str] | str) -> list[str]:
    """Lower-cased, stripped, de-duplicated, sorted tags; ``"a, B"`` and ``["b", "a"]`` both give ``['a', 'b']``.

    >>> normalise_tags("api, HTTP,api")
    ['api', 'http']
    """
    if isinstance(tags, str):
        tags = tags.split(",")
    out = {t.strip().lower() for tag in tags for t in str(tag).split(",")}
    out.discard("")
    return sorted(out)


def embedding_text(chunk: dict[str, Any]) -> str:
    """What is embedded for a chunk: title / library / version / topic, the breadcrumb, then the text.

    >>> embedding_text({"title": "Guide", "library": "lore", "version": "1.0", "topic": "",
    ...                 "breadcrumb": "Guide > Install", "content": "Run pip."})
    'Guide | lore 1.0\\nGuide > Install\\n\\nRun pip.'
    """
    head = " | ".join(
        p
        for p in (
            chunk.get("title", ""),
            " ".join(x for x in (chunk.get("library", ""), chunk.get("version", "")) if x),
            chunk.get("topic", ""),
        )
        if p
    )
    parts = [p for p in (head, chunk.get("breadcrumb", "")) if p]
    prefix = "\n".join(parts)
    return f"{prefix}\n\n{chunk['content']}" if prefix else chunk["content"]


def collect_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """Files to index: given files as they are, directories walked for documentation extensions."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
                for name in sorted(filenames):
                    if Path(name).suffix.lower() in DOC_EXTENSIONS:
                        out.append(Path(dirpath) / name)
        elif p.is_file():
            out.append(p)
        else:
            raise InvalidArgumentError(f"no such file or directory: {raw}; pass existing documentation paths")
    return list(dict.fromkeys(out))


def stored_path(path: Path, root: Path) -> str:
    """``path`` relative to the project root (posix) when inside it, else absolute."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(root.resolve()).as_posix()
    except ValueError:
        return resolved.as_posix()


def project_root(db_path: str | os.PathLike[str]) -> Path:
    """The directory holding ``.lore/`` for a database at ``<root>/.lore/index.db``, else the db's folder."""
    p = Path(db_path).resolve()
    return p.parent.parent if p.parent.name == ".lore" else p.parent


def _vanished_documents(conn: sqlite3.Connection, dirs: list[Path], root: Path) -> list[tuple[str, int]]:
    """(stored path, id) of documents under one of ``dirs`` whose file no longer exists."""
    if not dirs:
        return []
    out = []
    for path, doc_id in sorted(store.document_paths(conn).items()):
        full = Path(path) if Path(path).is_absolute() else root / path
        if full.exists():
            continue
        resolved = full.resolve()
        if any(resolved.is_relative_to(d) for d in dirs):
            out.append((path, doc_id))
    return out


def _progress(total: int, enabled: bool | None) -> Any:
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled or total == 0:
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
    )


def ingest(
    conn: sqlite3.Connection,
    paths: Sequence[str | os.PathLike[str]],
    *,
    embedder: Embedder,
    root: str | os.PathLike[str] = ".",
    library: str | None = None,
    topic: str | None = None,
    tags: Iterable[str] | str | None = None,
    version: str | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    overlap: int = DEFAULT_OVERLAP,
    progress: bool | None = None,
    db_path: str = "",
    on_batch: Callable[[int], None] | None = None,
    batch_size: int = EMBED_BATCH,
) -> dict[str, Any]:
    """Add or refresh the documents under ``paths`` and embed their new chunks with ``embedder``.

    ``library``, ``topic``, ``tags`` and ``version`` set the documents' metadata; ``None`` keeps what
    a document already has (empty for a new one), so refreshing a directory does not need them again.

    Returns counts: ``added``, ``updated``, ``unchanged``, ``removed`` (files gone from a directory
    given in ``paths``), ``skipped`` (PDFs that give no text: encrypted, scanned, unreadable; each
    document entry says why in ``reason``), ``chunks`` (written), ``embedded`` (model calls), ``reused`` (vectors kept),
    ``links``, ``mentions``, and per document its status.
    """
    files = collect_files(paths)
    dirs = [Path(p).resolve() for p in paths if Path(p).is_dir()]
    check_chunk_sizes(max_chars, overlap)
    tag_text = None if tags is None else ",".join(normalise_tags(tags))
    root_path = Path(root)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    docs_out: list[dict[str, Any]] = []
    counts = {"added": 0, "updated": 0, "unchanged": 0, "removed": 0, "skipped": 0, "chunks": 0, "embedded": 0,
              "reused": 0}
    changed_chunks: list[tuple[int, str]] = []
    model = embedder.model_id
    with write_transaction(conn, db_path):
        gone = _vanished_documents(conn, dirs, root_path)
        for path, doc_id in gone:
            store.delete_document(conn, doc_id)
            docs_out.append({"path": path, "document_id": doc_id, "status": "removed"})
        counts["removed"] = len(gone)
        for f in files:
            path = stored_path(f, root_path)
            source_type = source_type_for(f)
            pdf: PdfText | None = None
            if source_type == "pdf":  # hash the bytes: an unchanged PDF is not parsed again
                raw = f.read_bytes()
                text = ""
                body = hashlib.sha256(raw).hexdigest()
            else:
                text = f.read_text(encoding="utf-8", errors="replace")
                body = text
            # the chunking settings are part of the hash: new sizes (or a new chunker) re-chunk the file
            digest = sha256_text(f"{CHUNKER_VERSION}:{max_chars}:{overlap}\n{body}")
            old = store.get_document(conn, path)
            kept = old or {"library": "", "version": "", "topic": "", "tags": ""}
            meta = {
                "library": kept["library"] if library is None else library,
                "version": kept["version"] if version is None else version,
                "topic": kept["topic"] if topic is None else topic,
                "tags": kept["tags"] if tag_text is None else tag_text,
            }
            if old and old["hash"] == digest and all(old[k] == v for k, v in meta.items()):
                counts["unchanged"] += 1
                docs_out.append({"path": path, "document_id": old["id"], "status": "unchanged"})
                continue
            if source_type != "pdf":  # sniffed only for a changed file: Django's docs are reST in .txt files
                source_type = detect_source_type(text, f)
            if source_type == "pdf":
                pdf = read_pdf(f)
                if pdf.skip_reason:  # nothing is stored (an older readable version stays as it was)
                    counts["skipped"] += 1
                    docs_out.append({"path": path, "status": "skipped", "reason": pdf.skip_reason})
                    continue
                text = pdf.text
            title = (pdf.title if pdf else "") or document_title(text, source_type=source_type, fallback=f.stem)
            old_vectors = store.document_vectors(conn, old["id"]) if old else {}
            reusable: dict[str, list[tuple[str, bytes]]] = {}
            for (old_hash, old_model), blob in old_vectors.items():
                reusable.setdefault(old_hash, []).append((old_model, blob))
            doc_id = store.upsert_document(
                conn, path=path, source_type=source_type, title=title, hash=digest, added_at=now, **meta
            )
            if pdf is not None:
                chunks = chunk_pages(pdf.pages, max_chars=max_chars, overlap=overlap)
            else:
                chunks = chunk_text(text, source_type=source_type, max_chars=max_chars, overlap=overlap)
            rows = [
                {
                    "chunk_index": c.chunk_index,
                    "total_chunks": c.total_chunks,
                    "breadcrumb": c.breadcrumb,
                    "content": c.content,
                    "start_char": c.start_char,
                    "end_char": c.end_char,
                    "page": c.page,
                    "content_hash": sha256_text(c.content),
                }
                for c in chunks
            ]
            ids = store.replace_chunks(conn, doc_id, title, rows)
            reuse = []
            current = []
            for chunk_id, row in zip(ids, rows, strict=True):
                changed_chunks.append((chunk_id, row["content"]))
                full = {**row, "title": title, **meta}
                h = sha256_text(embedding_text(full))
                current.append((chunk_id, h))
                reuse.extend((chunk_id, old_model, h, blob) for old_model, blob in reusable.get(h, ()))
            store.drop_stale_vectors(conn, current)
            store.insert_vectors(conn, reuse)
            counts["reused"] += sum(1 for r in reuse if r[1] == model)
            counts["chunks"] += len(rows)
            counts["updated" if old else "added"] += 1
            docs_out.append(
                {
                    "path": path,
                    "document_id": doc_id,
                    "status": "updated" if old else "added",
                    "chunks": len(rows),
                }
            )
        # a document written (even one left without chunks) or removed; else every link is as resolved before
        wrote = bool(counts["added"] or counts["updated"] or gone)
        links = rebuild_links(conn) if wrote else store.count_links(conn)
        mentions = record_mentions(conn, changed_chunks) if changed_chunks else 0
        todo = store.chunks_without_vector(conn, model)
        # a refresh's few new chunks are embedded in this same transaction: readers see the new
        # chunks with their vectors or the old ones, never chunks waiting for a vector
        inline = len(todo) <= batch_size
        if inline and todo:
            counts["embedded"] = _embed_batch(conn, embedder, todo)
            if on_batch:
                on_batch(len(todo))
        if wrote or (inline and todo):
            store.bump_docs_generation(conn)
    if not inline:
        counts["embedded"] = embed_missing(
            conn, embedder, batch_size=batch_size, progress=progress, db_path=db_path, on_batch=on_batch, todo=todo
        )
    return {**counts, "links": links, "mentions": mentions, "model": model, "documents": docs_out}


def _vector_rows(embedder: Embedder, batch: list[dict[str, Any]]) -> list[tuple[int, str, str, bytes]]:
    """(chunk id, model, embedding-text hash, float32 blob) for ``batch`` (chunk rows): the model call."""
    texts = [embedding_text(ch) for ch in batch]
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    return [
        (ch["id"], embedder.model_id, sha256_text(t), vec.tobytes())
        for ch, t, vec in zip(batch, texts, vectors, strict=True)
    ]


def _embed_batch(conn: sqlite3.Connection, embedder: Embedder, batch: list[dict[str, Any]]) -> int:
    """Embed ``batch`` and write its vectors inside the caller's transaction."""
    rows = _vector_rows(embedder, batch)
    store.insert_vectors(conn, rows)
    return len(rows)


def embed_missing(
    conn: sqlite3.Connection,
    embedder: Embedder,
    *,
    batch_size: int = EMBED_BATCH,
    progress: bool | None = None,
    db_path: str = "",
    on_batch: Callable[[int], None] | None = None,
    todo: list[dict[str, Any]] | None = None,
) -> int:
    """Embed every chunk without a vector of ``embedder.model_id``; one transaction per batch.

    ``todo``: those chunks when the caller has just read them.
    """
    check_batch_size(batch_size)
    if todo is None:
        todo = store.chunks_without_vector(conn, embedder.model_id)
    bar = _progress(len(todo), progress)
    task = bar.add_task("embed", total=len(todo)) if bar else None
    done = 0
    if bar:
        bar.start()
    try:
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            rows = _vector_rows(embedder, batch)  # the model runs outside the write lock
            with write_transaction(conn, db_path):
                store.insert_vectors(conn, rows)
                store.bump_docs_generation(conn)
            done += len(batch)
            if bar:
                bar.update(task, advance=len(batch))
            if on_batch:
                on_batch(done)
    finally:
        if bar:
            bar.stop()
    return done
