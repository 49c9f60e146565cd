"""JSON-ready endpoints of the document side, called by the CLI, the MCP server and Python users.

Each opens the index, calls one library function and returns an envelope: what was asked, ``total``
(results returned), ``has_more`` and the ``results``.

Examples
--------
>>> import tempfile, pathlib
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> _ = (tmp / "guide.md").write_text("# Guide\\n\\nRetry with exponential backoff.\\n")
>>> added = add_documents(tmp / ".lore" / "index.db", [tmp / "guide.md"], embedder="hashing")
>>> added["added"], added["chunks"], added["embedded"]
(1, 1, 1)
>>> found = search_docs(tmp / ".lore" / "index.db", "backoff", mode="keyword")
>>> found["total"], found["results"][0]["citations"][0]["source_file"]
(1, 'guide.md')
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from typing import Any

from ..store.db import connect
from ..store.docs import docs_generation
from .embed import Embedder, get_embedder
from .ingest import ingest, normalise_tags, project_root
from .related import related_chunks
from .search import clamp_limit, search_chunks

PathLike = str | os.PathLike[str]


def _tags(tags: Iterable[str] | str | None) -> list[str]:
    return normalise_tags(tags) if tags else []


def add_documents(
    db_path: PathLike,
    paths: Sequence[PathLike],
    *,
    library: str = "",
    topic: str = "",
    tags: Iterable[str] | str = (),
    version: str = "",
    embedder: str | Embedder | None = None,
    max_chars: int = 1500,
    overlap: int = 150,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Add or refresh documentation files and directories (markdown, rst, text) in the index.

    ``embedder`` is a provider name (``hashing``, ``minilm``), an embedder object or ``None`` (the
    model already used by the store, else :func:`~lore.docs.embed.default_embedder_name`).
    """
    started = time.perf_counter()
    conn = connect(db_path, create=True)
    try:
        if embedder is None or isinstance(embedder, str):
            from .search import pick_model

            embedder = get_embedder(embedder or pick_model(conn))
        report = ingest(
            conn, [str(p) for p in paths], embedder=embedder, root=project_root(db_path), library=library,
            topic=topic, tags=tags, version=version, max_chars=max_chars, overlap=overlap,
            progress=progress, db_path=str(db_path),
        )  # fmt: skip
        gen = docs_generation(conn)
    finally:
        conn.close()
    return {
        "db": str(db_path),
        "paths": [str(p) for p in paths],
        "library": library,
        "topic": topic,
        "tags": _tags(tags),
        "version": version,
        **report,
        "total": len(report["documents"]),
        "generation": gen,
        "seconds": round(time.perf_counter() - started, 3),
    }


def search_docs(
    db_path: PathLike,
    query: str,
    *,
    mode: str = "hybrid",
    limit: int = 10,
    min_score: float | None = None,
    topic: str | None = None,
    library: str | None = None,
    tags: Iterable[str] | str | None = None,
    expand: int = 0,
    decay: float = 0.5,
    any_terms: bool = False,
    embedder: str | None = None,
    count: bool = False,
) -> dict[str, Any]:
    """Search document chunks (``mode``: hybrid, vector or keyword); see :mod:`lore.docs.search`."""
    conn = connect(db_path)
    try:
        found = search_chunks(
            conn, query, mode=mode, limit=limit, min_score=min_score, topic=topic, library=library,
            tags=_tags(tags), expand=expand, decay=decay, any_terms=any_terms, embedder=embedder, count=count,
        )  # fmt: skip
        gen = docs_generation(conn)
    finally:
        conn.close()
    return {
        "query": query,
        "mode": mode,
        "limit": clamp_limit(limit),
        "min_score": min_score,
        "filters": {"topic": topic, "library": library, "tags": _tags(tags)},
        "expand": expand,
        "generation": gen,
        "total": len(found["results"]),
        **found,
    }


def get_related(
    db_path: PathLike,
    chunk_id: int,
    *,
    limit: int = 10,
    topic: str | None = None,
    library: str | None = None,
    tags: Iterable[str] | str | None = None,
    min_score: float | None = None,
    include_linked: bool = False,
    exclude_document: int | str | bool | None = None,
) -> dict[str, Any]:
    """Chunks most like ``chunk_id`` by its stored vector; see :mod:`lore.docs.related`."""
    conn = connect(db_path)
    try:
        found = related_chunks(
            conn, chunk_id, limit=limit, topic=topic, library=library, tags=_tags(tags), min_score=min_score,
            include_linked=include_linked, exclude_document=exclude_document,
        )  # fmt: skip
        gen = docs_generation(conn)
    finally:
        conn.close()
    return {
        "chunk_id": chunk_id,
        "limit": clamp_limit(limit),
        "filters": {"topic": topic, "library": library, "tags": _tags(tags)},
        "include_linked": include_linked,
        "generation": gen,
        "total": len(found["results"]),
        **found,
    }
