"""File-level search: path (slashes and dots as separators), exported names and imports of each file.

The same three modes and word rules as symbol search (:mod:`lore.search.symbols`) over
``files_fts`` and the ``file`` vectors. A query that names a file exactly (``embedder.ts``, ``lore/search/api.py``: no
spaces, a dot or a slash) puts the files with that path or that last path part on top in every
mode, with score 1; the other hits are then scaled to at most 0.99 so the named file stays first.
"""

from __future__ import annotations

import posixpath
import sqlite3

from ..store import search as store
from ..text.fusion import RRF_K, normalise, rrf
from .bm25 import (
    FILE_WEIGHTS,
    LONG_FILE_WEIGHTS,
    Term,
    match_expression,
    normalised_name,
    parse_query,
    relaxed_terms,
)
from .longquery import demote_tests, informative_terms, is_long, weighted_expression, weighted_terms
from .symbols import Ranking, check_mode, relaxed_note, vector_ranking

EXACT_BELOW = 0.99
SYMBOL_FILE_WEIGHTS = (1.0, 2.0)  # (files' own BM25, files of the best symbols): RRF weights on lore bench localize


def looks_like_path(query: str) -> bool:
    """A single token with a dot or a slash: ``embedder.ts``, ``src/app``.

    >>> looks_like_path("embedder.ts"), looks_like_path("auth helpers")
    (True, False)
    """
    q = query.strip()
    return bool(q) and not any(c.isspace() for c in q) and ("." in q or "/" in q)


def exact_files(conn: sqlite3.Connection, query: str) -> list[int]:
    """Files the query names exactly (full path or last path parts), shortest path first."""
    q = query.strip().strip("/")
    return store.files_named(conn, q) if looks_like_path(query) and q else []


def keyword_files(
    conn: sqlite3.Connection,
    terms: list[Term],
    *,
    depth: int,
    any_terms: bool = False,
    relax: bool = False,
    path_prefix: str | None = None,
    include_tests: bool = True,
    long_query: str | None = None,
) -> tuple[list[tuple[int, float]], list[Term] | None]:
    """BM25 over ``files_fts`` with the word rules of symbol search
    (:func:`lore.search.symbols.keyword_ranking`): all words, relaxed to any of the informative
    ones when no file has them all; any of them in hybrid. Returns (hits, relaxed terms or None)."""
    filters = {"path_prefix": path_prefix, "include_tests": include_tests}

    def run(ts: list[Term], any_: bool) -> list[tuple[int, float]]:
        return store.fts_files(
            conn, match_expression(ts, any_terms=any_), weights=FILE_WEIGHTS, limit=depth, **filters
        )

    if long_query is not None:
        weighted = informative_terms(conn, "files_fts", weighted_terms(long_query))
        hits = store.fts_files(conn, weighted_expression(weighted), weights=LONG_FILE_WEIGHTS, limit=2 * depth,
                               path_prefix=path_prefix, include_tests=include_tests) if weighted else []
        return demote_tests(hits, store.file_rows(conn, [i for i, _ in hits]))[:depth], None
    if any_terms or len(terms) < 2:
        return run(terms, any_terms), None
    if relax:
        return run(relaxed_terms(conn, "files_fts", terms) or terms, True), None
    hits = run(terms, False)
    if hits:
        return hits, None
    relaxed = relaxed_terms(conn, "files_fts", terms)
    hits = run(relaxed, True) if relaxed else []
    return hits, (relaxed if hits else None)


def rank_files(
    conn: sqlite3.Connection,
    query: str,
    *,
    mode: str = "hybrid",
    depth: int = 50,
    path_prefix: str | None = None,
    include_tests: bool = True,
    any_terms: bool = False,
    embedder: str | None = None,
) -> Ranking:
    """Rank files for ``query``; see the module docstring."""
    check_mode(mode)
    terms = parse_query(query)
    out = Ranking()
    vector: list[tuple[int, float]] = []
    if mode in ("vector", "hybrid"):
        vector, mode = vector_ranking(conn, "file", query, out, mode=mode, embedder=embedder, depth=depth,
                                      filters={"path_prefix": path_prefix, "include_tests": include_tests})
    keyword: list[tuple[int, float]] = []
    if mode in ("keyword", "hybrid"):
        keyword, relaxed = keyword_files(
            conn,
            terms,
            depth=depth,
            any_terms=any_terms,
            relax=mode == "hybrid",
            path_prefix=path_prefix,
            include_tests=include_tests,
            long_query=query if is_long(query) else None,
        )
        if relaxed:
            out.relaxed = relaxed_note(relaxed, "file")
        if is_long(query) and keyword:
            keyword = _with_symbol_files(conn, query, keyword, depth=depth, path_prefix=path_prefix,
                                         include_tests=include_tests)

    for name, ranking, raw in (("keyword", keyword, "bm25"), ("vector", vector, "cosine")):
        for rank, (i, s) in enumerate(ranking, start=1):
            out.found_by.setdefault(i, {})[name] = {"rank": rank, raw: round(float(s), 4)}
    if mode == "keyword":
        out.scores = normalise(dict(keyword))
    elif mode == "vector":
        out.scores = normalise(dict(vector))
    else:
        out.scores = normalise(rrf([[i for i, _ in keyword], [i for i, _ in vector]], k=RRF_K))

    exact = exact_files(conn, query)
    if not exact and len(terms) == 1 and out.scores:
        # a bare name without extension ("embedder") names the files whose last part is that name
        rows = store.file_rows(conn, list(out.scores)[:depth])
        want = normalised_name(query)
        exact = [i for i, r in rows.items() if normalised_name(_stem(r["path"])) == want]
    if exact:
        allowed_exact = exact
        if path_prefix or not include_tests:
            ok = set(
                store.filtered_ids(
                    conn, "file", path_prefix=path_prefix, include_tests=include_tests
                ).tolist()
            )
            allowed_exact = [i for i in exact if i in ok]
        out.scores = {i: s * EXACT_BELOW for i, s in out.scores.items()}
        for i in allowed_exact:
            out.scores[i] = 1.0
            out.found_by.setdefault(i, {})["exact_path"] = True
    return out


def _stem(path: str) -> str:
    base = posixpath.basename(path)
    return base.split(".", 1)[0] if "." in base else base


def _with_symbol_files(
    conn: sqlite3.Connection,
    query: str,
    keyword: list[tuple[int, float]],
    *,
    depth: int,
    path_prefix: str | None,
    include_tests: bool,
) -> list[tuple[int, float]]:
    """A report's file ranking: the files' own BM25 fused (RRF) with the files of its best symbols, in
    the order of their first symbol: a file whose one function matches the report well is as good a
    place to start as a file whose whole text does."""
    from .symbols import keyword_ranking

    hits, _relaxed = keyword_ranking(conn, query, depth=depth, path_prefix=path_prefix, include_tests=include_tests)
    rows = store.symbol_rows(conn, [i for i, _ in hits])
    by_symbols = list(dict.fromkeys(rows[i]["file_id"] for i, _ in hits if i in rows and rows[i]["file_id"] is not None))
    fused = rrf([[i for i, _ in keyword], by_symbols], k=RRF_K, weights=SYMBOL_FILE_WEIGHTS)
    return sorted(fused.items(), key=lambda h: (-h[1], h[0]))
