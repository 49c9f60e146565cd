"""JSON-ready endpoints of the document side, called by the CLI, the MCP server and Python users.

Each takes the index as an open :class:`lore.Index` (from :func:`lore.open_index`), a repository
root (its ``.lore/index.db``) or the database file, calls one library function and returns an
envelope: what was asked, ``total`` (results returned), ``has_more`` and the ``results``.

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
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import MissingExtraError
from ..store.db import connect, default_db_path
from ..store.docs import docs_generation
from ..text.embed import Embedder, deferred_embedder
from .ingest import ingest, normalise_tags, project_root
from .related import related_chunks
from .search import TITLE_BOOST, clamp_limit, search_chunks
from .similar import DEFAULT_LIMIT as SIMILAR_LIMIT
from .similar import search_similar_on

PathLike = str | os.PathLike[str]
IndexLike = Any  # a lore.Index, a repository root or an index file


def db_path_of(index: IndexLike) -> Path:
    """The database file of ``index``: an open :class:`lore.Index`, a repository root or the file itself."""
    if hasattr(index, "db_path") and hasattr(index, "conn"):
        return Path(index.db_path)
    p = Path(index)
    return default_db_path(p) if p.is_dir() else p


@contextmanager
def _reading(index: IndexLike) -> Iterator[sqlite3.Connection]:
    """A connection to read from: the open index's own, or a new one closed afterwards."""
    if hasattr(index, "db_path") and hasattr(index, "conn"):
        yield index.conn
        return
    conn = connect(db_path_of(index))
    try:
        yield conn
    finally:
        conn.close()


def _tags(tags: Iterable[str] | str | None) -> list[str]:
    return normalise_tags(tags) if tags else []


def add_documents(
    index: IndexLike,
    paths: Sequence[PathLike],
    *,
    library: str | None = None,
    topic: str | None = None,
    tags: Iterable[str] | str | None = None,
    version: str | None = None,
    embedder: str | Embedder | None = None,
    max_chars: int = 1500,
    overlap: int = 150,
    progress: bool | None = None,
    batch_size: int = 64,
) -> dict[str, Any]:
    """Add or refresh documentation files and directories (markdown, rst, text) in the index.

    ``embedder`` is a provider name (``hashing``, ``minilm``), an embedder object or ``None`` (the
    model already used by the store, else :func:`~lore.text.embed.default_embedder_name`). Chunks
    are embedded ``batch_size`` at a time, one transaction per batch, with a progress bar on a
    terminal (``progress``: ``None`` decides by whether stderr is a terminal). ``library``,
    ``topic``, ``tags`` and ``version`` left ``None`` keep a document's stored values.
    """
    started = time.perf_counter()
    db_path = db_path_of(index)
    conn = connect(db_path, create=True)
    try:
        if embedder is None:
            from ..store.docs import vector_models
            from .search import pick_model

            try:
                embedder = deferred_embedder(pick_model(conn))  # loaded only if a chunk needs a vector
            except MissingExtraError as exc:
                model = vector_models(conn)[0][0]
                raise MissingExtraError(f"embedding new chunks like the store's {model} vectors", "embed") from exc
        elif isinstance(embedder, str):
            embedder = deferred_embedder(embedder)
        report = ingest(
            conn, [str(p) for p in paths], embedder=embedder, root=project_root(db_path), library=library,
            topic=topic, tags=tags, version=version, max_chars=max_chars, overlap=overlap,
            progress=progress, db_path=str(db_path), batch_size=batch_size,
        )  # fmt: skip
        gen = docs_generation(conn)
    finally:
        conn.close()
    return {
        "db": str(db_path),
        "paths": [str(p) for p in paths],
        "library": library,
        "topic": topic,
        "tags": None if tags is None else _tags(tags),
        "version": version,
        **report,
        "total": len(report["documents"]),
        "generation": gen,
        "seconds": round(time.perf_counter() - started, 3),
    }


def search_docs(
    index: IndexLike,
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
    title_boost: float = TITLE_BOOST,
) -> dict[str, Any]:
    """Search document chunks (``mode``: hybrid, vector or keyword); see :mod:`lore.docs.search`.

    ``title_boost`` multiplies the score of a chunk whose document title holds every query word
    (partially for some of them); 1 turns it off.
    """
    with _reading(index) as conn:
        found = search_chunks(
            conn, query, mode=mode, limit=limit, min_score=min_score, topic=topic, library=library,
            tags=_tags(tags), expand=expand, decay=decay, any_terms=any_terms, embedder=embedder, count=count,
            title_boost=title_boost,
        )  # fmt: skip
        gen = docs_generation(conn)
    return {
        "query": query,
        "mode": mode,
        "limit": clamp_limit(limit),
        "min_score": min_score,
        "filters": {"topic": topic, "library": library, "tags": _tags(tags)},
        "expand": expand,
        "title_boost": title_boost,
        "generation": gen,
        "total": len(found["results"]),
        **found,
    }


def get_related(
    index: IndexLike,
    chunk_id: int,
    *,
    limit: int = 10,
    topic: str | None = None,
    library: str | None = None,
    tags: Iterable[str] | str | None = None,
    min_score: float | None = 0.0,
    include_linked: bool = False,
    exclude_document: int | str | bool | None = None,
) -> dict[str, Any]:
    """Chunks most like ``chunk_id``, ranked by cosine with its stored vector (no model call).

    Parameters
    ----------
    index : lore.Index, repository root or index file
    chunk_id : int
        A chunk id, as ``search_docs`` or ``lore docs search`` return it.
    limit : int
        Results to return, clamped to 1..100; filters never leave fewer while enough chunks match.
    topic, library, tags : optional
        Keep only chunks of documents with this topic, this library and all these tags.
    min_score : float
        Cosine floor, default 0.0 (``None`` means the same).
    include_linked : bool
        Also return, once per document linked to or from the source document and not yet among the
        results, its chunk most like the source, scored ``max(cosine, 0.6)`` and kept even below
        ``min_score``; the results are then ranked again and cut to ``limit``.
    exclude_document : None, int, str or False
        ``None`` leaves the source chunk's document out, an id or stored path leaves that document
        out instead, ``False`` leaves out only the chunk itself.

    Returns
    -------
    dict
        ``source`` (the chunk asked about), ``results`` (chunk results with ``score`` and
        ``explanation``), ``model``, ``min_score``, ``matching``, ``has_more``, ``total`` and the filters.

    Raises
    ------
    UnknownChunkError
        ``chunk_id`` is not in the document store.

    See Also
    --------
    lore.docs.related.related_chunks : the same on an open connection.

    Examples
    --------
    >>> import tempfile, pathlib, lore
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "a.md").write_text("# Retries\\n\\nRetry failed calls with exponential backoff.\\n")
    >>> _ = (root / "b.md").write_text("# Backoff\\n\\nExponential backoff between retried calls.\\n")
    >>> _ = add_documents(root, [root], embedder="hashing")
    >>> with lore.open_index(root) as idx:
    ...     src = search_docs(idx, "retry", mode="keyword")["results"][0]["chunk_id"]
    ...     more = get_related(idx, src)
    >>> [r["document"]["path"] for r in more["results"]]
    ['b.md']
    """
    with _reading(index) as conn:
        found = related_chunks(
            conn, chunk_id, limit=limit, topic=topic, library=library, tags=_tags(tags), min_score=min_score,
            include_linked=include_linked, exclude_document=exclude_document,
        )  # fmt: skip
        gen = docs_generation(conn)
    return {
        "chunk_id": chunk_id,
        "limit": clamp_limit(limit),
        "filters": {"topic": topic, "library": library, "tags": _tags(tags)},
        "include_linked": include_linked,
        "generation": gen,
        "total": len(found["results"]),
        **found,
    }


def search_similar(index: IndexLike, query: str, *, limit: int = SIMILAR_LIMIT) -> dict[str, Any]:
    """Chunks most similar to ``query`` by cosine, in the ``search_similar`` envelope; never raises.

    Parameters
    ----------
    index : lore.Index, repository root or index file
    query : str
        Text to embed with the model that embedded the store (required, non-empty).
    limit : int
        Documents to return, default 5, clamped into 1..100 (out-of-range values are not refused).

    Returns
    -------
    dict
        ``{"success": True, "count": n, "documents": [...]}``, each document with ``id``, ``content``,
        ``similarity``, ``created_at``, ``source_file``, ``source_type``, ``chunk_index``,
        ``page_number``, ``total_chunks`` and ``metadata`` (a JSON string); on any failure
        ``{"success": False, "error": "...", "count": 0, "documents": []}``.

    See Also
    --------
    lore.docs.similar : the contract, field by field.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "a.md").write_text("# Retries\\n\\nRetry failed calls with exponential backoff.\\n")
    >>> _ = add_documents(root, [root], embedder="hashing")
    >>> found = search_similar(root, "exponential backoff", limit=500)
    >>> found["success"], found["count"], found["documents"][0]["source_type"]
    (True, 1, 'md')
    >>> search_similar(root, "  ")
    {'success': False, 'error': 'Query parameter is required', 'count': 0, 'documents': []}
    """
    return search_similar_on(lambda: _reading(index), query, limit)
