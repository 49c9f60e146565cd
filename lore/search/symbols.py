"""Symbol search: keyword (BM25), vector (cosine) and hybrid (Reciprocal Rank Fusion) rankings.

Modes
-----
``keyword``
    FTS5 BM25 (:mod:`lore.search.bm25`); every term required unless ``any_terms``. When no symbol
    has all the words, the ranking relaxes to any of the informative ones (as in hybrid, below) and
    says so (``relaxed``): an empty answer helps nobody, and the all-words rule stays the default
    whenever it can be met. A symbol whose name *is* the query (up to case and separators:
    ``get_user`` = ``getUser`` = ``get user``) ranks above every other keyword hit.
    Score: BM25 / best BM25.
``vector``
    Cosine between the query's embedding and the stored symbol vectors of one model
    (:mod:`lore.search.vectors`). Score: cosine / best cosine.
``hybrid`` (default)
    RRF, ``sum 1 / (60 + rank)`` over the two rankings, divided by the best fused score. Its
    keyword ranking needs any one of the query's informative words (words in more than 20% of
    the symbols are left out), so a long natural-language query still contributes keyword
    evidence: on the networkx benchmark this beat "all words first, then some" (MRR 0.387 vs
    0.359). Without stored vectors it falls back to the keyword ranking (all words required,
    relaxed as above when that finds nothing) and says so (``fallback``).

Every mode returns, per symbol, how it was found: ``{"keyword": {"rank", "bm25"}, "vector":
{"rank", "cosine"}}``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import QueryError, UnknownAlgorithmError
from ..store import search as store
from ..text.embed import default_min_score
from ..text.fusion import RRF_K, normalise, rrf
from .bm25 import (
    LONG_SYMBOL_WEIGHTS,
    SYMBOL_WEIGHTS,
    Term,
    match_expression,
    name_matches,
    parse_query,
    relaxed_terms,
)
from .longquery import demote_tests, informative_terms, is_long, weighted_expression, weighted_terms
from .vectors import changed_since_vectors, pick_model, vector_search

MODES = ("hybrid", "vector", "keyword")


@dataclass
class Ranking:
    """Scores (best = 1) and provenance of one ranked search, best first."""

    scores: dict[int, float] = field(default_factory=dict)
    found_by: dict[int, dict[str, Any]] = field(default_factory=dict)
    model: str | None = None
    fallback: str | None = None
    relaxed: str | None = None
    stale: str | None = None

    def ordered(self) -> list[int]:
        return sorted(self.scores, key=lambda i: (-self.scores[i], i))


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise UnknownAlgorithmError(mode, MODES, what="search mode")
    return mode


def keyword_ranking(
    conn: sqlite3.Connection,
    query: str,
    *,
    depth: int,
    any_terms: bool = False,
    relax: bool = False,
    kind: str | None = None,
    path_prefix: str | None = None,
    include_tests: bool = True,
) -> tuple[list[tuple[int, float]], list[Term] | None]:
    """BM25 hits ``[(symbol id, score)]`` best first, exact name matches on top, and the terms of
    the any-word query when the all-words one was relaxed (else ``None``).

    With ``relax`` (hybrid), any of the informative words is enough (:func:`~lore.search.bm25.relaxed_terms`);
    without it every word is required, and when no symbol has them all, the informative words
    are tried with OR.
    """
    terms = parse_query(query)
    filters = {"kind": kind, "path_prefix": path_prefix, "include_tests": include_tests}
    relaxed: list[Term] | None = None
    if is_long(query):
        # a report, not a search box: weighted evidence, any of it (lore.search.longquery)
        weighted = informative_terms(conn, "symbols_fts", weighted_terms(query))
        if not weighted:
            return [], None
        hits = store.fts_symbols(
            conn, weighted_expression(weighted), weights=LONG_SYMBOL_WEIGHTS, limit=2 * depth, kind=kind,
            path_prefix=path_prefix, include_tests=include_tests,
        )
        return demote_tests(hits, store.symbol_rows(conn, [i for i, _ in hits]))[:depth], None
    if relax and not any_terms and len(terms) > 1:
        # one any-word query over the informative words; BM25 itself ranks rows with more of them higher
        terms, any_terms = relaxed_terms(conn, "symbols_fts", terms) or terms, True
    hits = store.fts_symbols(
        conn, match_expression(terms, any_terms=any_terms), weights=SYMBOL_WEIGHTS, limit=depth, **filters
    )
    if not hits and not any_terms and len(terms) > 1:
        relaxed = relaxed_terms(conn, "symbols_fts", terms)
        if relaxed:
            hits = store.fts_symbols(
                conn, match_expression(relaxed, any_terms=True), weights=SYMBOL_WEIGHTS, limit=depth, **filters
            )
        if not hits:
            relaxed = None
    if not hits:
        return hits, relaxed
    rows = store.symbol_rows(conn, [i for i, _ in hits])
    exact = {i for i, _ in hits if i in rows and name_matches(query, rows[i]["name"])}
    if exact:
        top = hits[0][1]
        hits = [(i, s + top if i in exact else s) for i, s in hits]
        hits.sort(key=lambda h: (-h[1], h[0]))
    return hits, relaxed


def stale_note(n: int, what: str = "symbol") -> str:
    """The envelope's ``stale`` message: how many rows the vector ranking left out.

    >>> stale_note(3)
    '3 symbols changed since the code vectors were made: ranked by keywords only (refresh with `lore index --embed`)'
    """
    return (
        f"{n} {what}{'s' if n != 1 else ''} changed since the code vectors were made: ranked by keywords only "
        "(refresh with `lore index --embed`)"
    )


def relaxed_note(terms: Sequence[Term], what: str = "symbol") -> str:
    """The envelope's ``relaxed`` message: which words an any-word ranking used.

    >>> relaxed_note([("retry",), ("get", "user")])
    'no symbol has all the words; ranked by any of: retry, "get user"'
    """
    words = ", ".join(t[0] if len(t) == 1 else '"' + " ".join(t) + '"' for t in terms)
    return f"no {what} has all the words; ranked by any of: {words}"


def vector_ranking(
    conn: sqlite3.Connection,
    table: str,
    query: str,
    out: Ranking,
    *,
    mode: str,
    embedder: str | None,
    depth: int,
    filters: dict,
) -> tuple[list[tuple[int, float]], str]:
    """The vector half of a symbol or file ranking (``table``: "symbol" | "file"): (hits, mode).

    Without vectors in the index, "vector" mode is an error and "hybrid" falls back to "keyword"
    (the returned mode) with a note in ``out``; rows changed since they were embedded are left out
    and counted in ``out.stale``.
    """
    noun = "code" if table == "symbol" else "file"
    model = pick_model(conn, table, embedder)
    if model is None:
        if mode == "vector":
            raise QueryError(
                f"the index has no {noun} vectors for vector search; build them with "
                "`lore index --embed` or use mode 'keyword'"
            )
        out.fallback = f"no {noun} vectors in the index: keyword ranking only (build them with `lore index --embed`)"
        return [], "keyword"
    out.model = model
    narrowed = filters.get("kind") or filters.get("path_prefix") or not filters.get("include_tests", True)
    allowed = store.filtered_ids(conn, table, **filters) if narrowed else None
    floor = default_min_score(model) if mode == "hybrid" else None
    stale = changed_since_vectors(conn, table, model)
    if stale:
        out.stale = stale_note(len(stale), table)
    hits = vector_search(conn, table, model, query, k=depth, allowed=allowed, min_score=floor, exclude=stale)
    return hits, mode


def rank_symbols(
    conn: sqlite3.Connection,
    query: str,
    *,
    mode: str = "hybrid",
    depth: int = 50,
    kind: str | None = None,
    path_prefix: str | None = None,
    include_tests: bool = True,
    any_terms: bool = False,
    embedder: str | None = None,
) -> Ranking:
    """Rank symbols for ``query`` in ``mode``; see the module docstring."""
    check_mode(mode)
    filters = {"kind": kind, "path_prefix": path_prefix, "include_tests": include_tests}
    out = Ranking()
    parse_query(query)  # the same checks on the query text in every mode
    vector: list[tuple[int, float]] = []
    if mode in ("vector", "hybrid"):
        vector, mode = vector_ranking(conn, "symbol", query, out, mode=mode, embedder=embedder, depth=depth,
                                      filters=filters)
    keyword: list[tuple[int, float]] = []
    if mode in ("keyword", "hybrid"):
        keyword, relaxed = keyword_ranking(
            conn, query, depth=depth, any_terms=any_terms, relax=mode == "hybrid", **filters
        )
        if relaxed:
            out.relaxed = relaxed_note(relaxed)

    for name, ranking, raw in (("keyword", keyword, "bm25"), ("vector", vector, "cosine")):
        for rank, (i, s) in enumerate(ranking, start=1):
            out.found_by.setdefault(i, {})[name] = {"rank": rank, raw: round(float(s), 4)}
    if mode == "keyword":
        out.scores = normalise(dict(keyword))
    elif mode == "vector":
        out.scores = normalise(dict(vector))
    else:
        out.scores = normalise(rrf([[i for i, _ in keyword], [i for i, _ in vector]], k=RRF_K))
    return out
