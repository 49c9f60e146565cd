"""Document search: BM25 over chunks, vector search, and their fusion by Reciprocal Rank Fusion.

Modes
-----
``keyword``
    FTS5 BM25 over (title, breadcrumb, content) with the porter stemmer. Every word is required
    (``any_terms=True`` accepts any); ``"quoted phrases"`` match as phrases. User text is never read
    as FTS syntax: each word is quoted, so ``AND``, ``NEAR``, ``*``, ``:`` or ``-`` are plain text.
    Score: BM25 divided by the best BM25 of the query (best = 1).
``vector``
    Cosine between the query's embedding (by the model that embedded the store) and every chunk.
    Score: the cosine; ``min_score`` defaults to the model's random-pair level.
``hybrid`` (default)
    RRF (k = 60) of the keyword and vector rankings, divided by the best fused score (best = 1).
    Its keyword ranking lists the chunks with every word first, then those with only some of
    them (on the Flask docs benchmark this relaxation lifted hybrid MRR by about 0.04).

In keyword and hybrid modes a result whose document title contains every query word (stemmed,
case-insensitive) is multiplied by ``title_boost`` (default ``TITLE_BOOST`` = 1.5; 1 turns it off)
and its explanation carries the factor; vector mode is left a pure cosine (its ``min_score`` is a
cosine floor; x 1.5 on compressed cosines cost vector-minilm 0.025 Recall@5). Only a full match counts: on the Flask docs benchmark, boosting partial matches
in proportion (x 1.5 with all words, x 1.25 with half) cost hybrid-hashing 0.026 Recall@5 and 0.043
MRR, because one common word ("flask", "application") in a title lifted every chunk of that document.
``expand`` follows links out of the top hits
for that many hops; a linked chunk scores its parent's score times ``decay`` per hop. Every result
explains which ranker contributed what and cites its source.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError, MissingExtraError, QueryError, UnknownAlgorithmError
from ..store import docs as store
from ..text.embed import default_min_score, get_embedder, minilm_available, stem
from ..text.fusion import RRF_K, normalise, rrf, rrf_contributions
from .vectors import stored_models, top_k, vector_index

MODES = ("hybrid", "vector", "keyword")
MAX_LIMIT = 100
TITLE_BOOST = 1.5  # the factor when every query word is in the title (retrieval-quality-plan: "~1.5x")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_PHRASE = re.compile(r'"([^"]*)"')


def clamp_limit(limit: int) -> int:
    """``limit`` clamped to 1..100."""
    return max(1, min(MAX_LIMIT, int(limit)))


def check_title_boost(title_boost: float) -> float:
    """``title_boost`` must be a finite factor from 1 (off) to 10."""
    if not isinstance(title_boost, int | float) or not 1 <= title_boost <= 10:
        raise InvalidArgumentError(f"title_boost must be a factor from 1 (off) to 10, got {title_boost}")
    return float(title_boost)


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise UnknownAlgorithmError(mode, MODES, what="mode")
    return mode


def fts_query(query: str, *, any_terms: bool = False) -> str:
    """An FTS5 MATCH expression in which every user word is a quoted string.

    Examples
    --------
    >>> fts_query('retry "exponential backoff" NEAR(x) -y')
    '"exponential backoff" AND "retry" AND "NEAR" AND "x" AND "y"'
    >>> fts_query("a OR b", any_terms=True)
    '"a" OR "OR" OR "b"'
    """
    if not query or not query.strip():
        raise QueryError("empty search query; pass some words to search for")
    parts: list[str] = []
    for phrase in _PHRASE.findall(query):
        words = _WORD.findall(phrase)
        if words:
            parts.append('"' + " ".join(words) + '"')
    rest = _PHRASE.sub(" ", query)
    parts.extend(f'"{w}"' for w in _WORD.findall(rest))
    parts = list(dict.fromkeys(parts))
    if not parts:
        raise QueryError(f"search query {query!r} has no words to search for; use letters or digits")
    return (" OR " if any_terms else " AND ").join(parts)


def query_terms(query: str) -> set[str]:
    return {stem(w.lower()) for w in _WORD.findall(query)}


def citation(ch: dict[str, Any]) -> dict[str, Any]:
    """Where a chunk comes from: file, type, position, page and document metadata."""
    return {
        "source_file": ch["path"],
        "source_type": ch["source_type"],
        "chunk_index": ch["chunk_index"],
        "total_chunks": ch["total_chunks"],
        "page": ch["page"],
        "start_char": ch["start_char"],
        "end_char": ch["end_char"],
        "breadcrumb": ch["breadcrumb"],
        "metadata": {
            "title": ch["title"],
            "library": ch["library"],
            "version": ch["version"],
            "topic": ch["topic"],
            "tags": [t for t in ch["tags"].split(",") if t],
        },
    }


def chunk_result(
    ch: dict[str, Any], score: float | None = None, explanation: dict | None = None
) -> dict[str, Any]:
    """The JSON-ready form of one chunk, as every document endpoint returns it."""
    out: dict[str, Any] = {
        "chunk_id": ch["id"],
        "document": {"id": ch["document_id"], "path": ch["path"], "title": ch["title"]},
        "breadcrumb": ch["breadcrumb"],
        "content": ch["content"],
    }
    if score is not None:
        out["score"] = round(float(score), 6)
    if explanation is not None:
        out["explanation"] = explanation
    out["citations"] = [citation(ch)]
    return out


def pick_model(conn: sqlite3.Connection, embedder: str | None = None) -> str | None:
    """The model to search with: ``embedder``'s if given, else the store's most used loadable model."""
    models = [m for m, _n in stored_models(conn)]
    if embedder is not None:
        return get_embedder(embedder).model_id
    for m in models:
        if m.startswith("hashing") or minilm_available():
            return m
    if models:
        raise MissingExtraError(f"searching vectors made by {models[0]}", "embed")
    return None


def search_chunks(
    conn: sqlite3.Connection,
    query: str,
    *,
    mode: str = "hybrid",
    limit: int = 10,
    min_score: float | None = None,
    topic: str | None = None,
    library: str | None = None,
    tags: Sequence[str] | None = None,
    expand: int = 0,
    decay: float = 0.5,
    any_terms: bool = False,
    embedder: str | None = None,
    count: bool = False,
    title_boost: float = TITLE_BOOST,
) -> dict[str, Any]:
    """Search the document store; see the module docstring. Returns ``results``, ``has_more``, ``model``."""
    check_mode(mode)
    check_title_boost(title_boost)
    limit = clamp_limit(limit)
    if not 0 <= expand <= 3:
        raise InvalidArgumentError(f"expand must be between 0 and 3 hops, got {expand}")
    if not 0 < decay <= 1:
        raise InvalidArgumentError(f"decay must be in (0, 1], got {decay}")
    match = fts_query(query, any_terms=any_terms)
    depth = max(50, 3 * limit + 1)
    filters = {"library": library, "topic": topic, "tags": list(tags or ())}
    note = ""

    keyword: list[tuple[int, float]] = []
    if mode in ("hybrid", "keyword"):
        keyword = store.fts_search(conn, match, limit=depth, **filters)
        if mode == "hybrid" and not any_terms and len(keyword) < depth:
            # hybrid relaxes the keyword ranker: chunks with every word first, then chunks with some of them
            seen = {cid for cid, _ in keyword}
            loose = store.fts_search(conn, fts_query(query, any_terms=True), limit=depth, **filters)
            keyword += [(cid, s) for cid, s in loose if cid not in seen][: depth - len(keyword)]

    vector: list[tuple[int, float]] = []
    model = None
    qvec = None
    index = None
    mask = None
    if mode in ("hybrid", "vector"):
        try:
            model = pick_model(conn, embedder)
        except MissingExtraError:
            if mode == "vector" or embedder is not None:
                raise
            model, note = None, "the store's vectors need the embed extra: keyword ranking only"
        if model is None and not note:
            if mode == "vector":
                raise QueryError(
                    "the document store has no vectors; add documents with `lore docs add` first"
                )
            note = "no vectors in the store: keyword ranking only"
        elif model is not None:
            index = vector_index(conn, model)
            qvec = get_embedder(model).embed([query])[0]
            if library or topic or tags:
                mask = index.document_mask(store.filtered_document_ids(conn, **filters))
            floor = default_min_score(model) if (mode == "hybrid" or min_score is None) else min_score
            ids, cos = index.search(qvec, k=depth, mask=mask, min_score=floor)
            vector = list(zip(ids.tolist(), cos.tolist(), strict=True))

    if mode == "keyword":
        scores = normalise(dict(keyword))
    elif mode == "vector":
        scores = dict(vector)
    else:
        scores = normalise(rrf([[i for i, _ in keyword], [i for i, _ in vector]], k=RRF_K))
    contrib = rrf_contributions({"keyword": [i for i, _ in keyword], "vector": [i for i, _ in vector]})
    raw = {"keyword": dict(keyword), "vector": dict(vector)}

    rows = store.get_chunks(conn, scores)
    terms = query_terms(query)
    explanations: dict[int, dict[str, Any]] = {}
    for cid in list(scores):
        exp: dict[str, Any] = {}
        for ranker, (rank, share) in contrib.get(cid, {}).items():
            key = "bm25" if ranker == "keyword" else "cosine"
            exp[ranker] = {"rank": rank, key: round(raw[ranker][cid], 6)}
            if mode == "hybrid":
                exp[ranker]["rrf"] = round(share, 6)
        title_terms = {stem(w.lower()) for w in _WORD.findall(rows[cid]["title"])}
        if mode != "vector" and terms and terms <= title_terms and title_boost != 1:
            exp["title_boost"] = round(title_boost, 4)
            scores[cid] *= title_boost
        explanations[cid] = exp

    if mode != "vector" and min_score is not None:
        scores = {c: s for c, s in scores.items() if s >= min_score}
    order = sorted(scores, key=lambda c: (-scores[c], c))
    has_more = len(order) > limit
    top = order[:limit]

    if expand and top:
        extra = _expand(conn, top, scores, hops=expand, decay=decay, index=index, qvec=qvec, filters=filters)
        for cid, (score, exp) in extra.items():
            scores[cid] = score
            explanations[cid] = exp
        rows.update(store.get_chunks(conn, extra))
        top = sorted(set(top) | set(extra), key=lambda c: (-scores[c], c))[:limit]

    results = [chunk_result(rows[c], scores[c], explanations[c]) for c in top]
    out: dict[str, Any] = {"model": model, "has_more": has_more, "results": results}
    if note:
        out["note"] = note
    if count:
        out["keyword_matches"] = store.fts_count(conn, match)
    return out


def _expand(
    conn: sqlite3.Connection,
    top: list[int],
    scores: dict[int, float],
    *,
    hops: int,
    decay: float,
    index: Any,
    qvec: np.ndarray | None,
    filters: dict[str, Any],
) -> dict[int, tuple[float, dict[str, Any]]]:
    """Chunks reached from ``top`` along document links, scored parent score x decay per hop."""
    allowed = None  # documents passing the filters
    if filters["library"] or filters["topic"] or filters["tags"]:
        allowed = set(store.filtered_document_ids(conn, **filters).tolist())
    found: dict[int, tuple[float, dict[str, Any]]] = {}
    seeds = set(top)
    frontier = {c: scores[c] for c in top}
    for hop in range(1, hops + 1):
        nxt: dict[int, float] = {}
        for source, target_doc, target_chunk in store.chunk_links(conn, list(frontier)):
            if allowed is not None and target_doc not in allowed:
                continue
            cid = target_chunk if target_chunk is not None else _best_chunk(conn, target_doc, index, qvec)
            if cid is None or cid in seeds:
                continue
            score = frontier[source] * decay
            if score > max(found.get(cid, (0.0, {}))[0], scores.get(cid, 0.0)):
                found[cid] = (score, {"expanded_from": source, "hops": hop, "decay": decay})
                nxt[cid] = score
        frontier = nxt
        if not frontier:
            break
    return found


def _best_chunk(
    conn: sqlite3.Connection, document_id: int, index: Any, qvec: np.ndarray | None
) -> int | None:
    """The chunk of a linked document closest to the query (its first chunk without vectors)."""
    ids = store.chunk_ids_of_documents(conn, [document_id])
    if len(ids) == 0:
        return None
    if index is None or qvec is None or len(index) == 0:
        return int(ids.min())
    best, _ = top_k(index.ids, index.scores(qvec), k=1, mask=index.document_mask([document_id]))
    return int(best[0]) if len(best) else int(ids.min())
