"""The one code-search entry point that the CLI, the MCP server and :class:`lore.api.Index` call.

Symbols (default): rank with keyword / vector / hybrid (:mod:`lore.search.symbols`), keep hits
scoring at least ``min_score`` (scores are normalised so the best hit is 1), take the best
``top_k`` as seeds and expand them ``expand`` hops over the structural graph
(:mod:`lore.search.expand`), keep each symbol's best score, sort and cap at ``limit``.
Files (``files=True``): the same modes over paths, exported names and imports, no expansion.

Defaults: symbols ``top_k=5, expand=1, limit=5, min_score=0.5``; files ``top_k=10, expand=0,
limit=10, min_score=0.3``.

Examples
--------
>>> import tempfile, pathlib
>>> from lore.index import index_repo
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "net.py").write_text(
...     "class Client:\\n    def retry_request(self):\\n        '''Retry a failed request.'''\\n")
>>> _ = index_repo(d)
>>> out = search(d, "retry request", mode="keyword")
>>> [(r["qualified_name"], r["score"]) for r in out["results"]]
[('net.Client.retry_request', 1.0), ('net.Client', 0.95)]
>>> out["results"][1]["found_by"]["path"][0]["edge"]
'contains'
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from contextlib import closing, nullcontext
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError, QueryError
from ..store import search as store
from ..store.db import connect, default_db_path, generation, write_transaction
from .expand import MAX_HOPS, edge_decays, expand_hits
from .files import rank_files
from .graphfuse import graph_fused
from .longquery import is_long
from .match import match_quality, weak_note
from .symbols import check_mode, rank_symbols
from .vectors import refresh_code_vectors

SYMBOL_DEFAULTS = {"top_k": 5, "expand": 1, "limit": 5, "min_score": 0.5}
FILE_DEFAULTS = {"top_k": 10, "expand": 0, "limit": 10, "min_score": 0.3}
MAX_LIMIT = 1000


def _check_int(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise InvalidArgumentError(f"{name} must be between {lo} and {hi}, got {value}")
    return value


def _cap_int(name: str, value: Any, lo: int, cap: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    if value < lo:
        raise InvalidArgumentError(f"{name} must be {lo} or more, got {value}")
    return min(value, cap)


def check_options(
    *,
    mode: str,
    files: bool,
    kind: str | None,
    limit: int | None,
    expand: int | None,
    min_score: float | None,
    top_k: int | None,
    decay: float | None,
) -> dict[str, Any]:
    """Validate the options at the boundary and fill in the defaults; one clear sentence per error."""
    check_mode(mode)
    d = FILE_DEFAULTS if files else SYMBOL_DEFAULTS
    if limit is not None and not isinstance(limit, bool) and isinstance(limit, int) and limit < 0:
        raise InvalidArgumentError(f"limit must be 0 or more, got {limit}")
    opts = {
        # capped like every graph query's limit (queries._shape.check_limit): one rule for every command
        "limit": _cap_int("limit", d["limit"] if limit is None else limit, 0, MAX_LIMIT),
        "expand": _check_int("expand", d["expand"] if expand is None else expand, 0, MAX_HOPS),
        "top_k": _check_int("top_k", d["top_k"] if top_k is None else top_k, 1, MAX_LIMIT),
    }
    score = d["min_score"] if min_score is None else min_score
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 1:
        raise InvalidArgumentError(f"min_score must be a number between 0 and 1, got {min_score!r}")
    opts["min_score"] = float(score)
    if files and opts["expand"]:
        raise InvalidArgumentError(
            "file search does not expand along the graph; drop expand or search symbols"
        )
    if files and kind:
        raise InvalidArgumentError(
            "kind filters symbols; file search has no kinds, drop kind or search symbols"
        )
    if decay is not None:
        if isinstance(decay, bool) or not isinstance(decay, int | float):
            raise InvalidArgumentError(f"decay must be a number in (0, 1], got {decay!r}")
        edge_decays(float(decay))
    return opts


def _open(db: str | os.PathLike[str] | sqlite3.Connection):
    if isinstance(db, sqlite3.Connection):
        return nullcontext(db)
    path = Path(db)
    if path.is_dir():
        path = default_db_path(path)
    return closing(connect(path, readonly=True))


def search(
    db: str | os.PathLike[str] | sqlite3.Connection,
    query: str,
    *,
    mode: str = "hybrid",
    kind: str | None = None,
    path_prefix: str | None = None,
    limit: int | None = None,
    expand: int | None = None,
    min_score: float | None = None,
    top_k: int | None = None,
    files: bool = False,
    include_tests: bool = True,
    decay: float | None = None,
    any_terms: bool = False,
    embedder: str | None = None,
    graph: bool | None = None,
    db_path: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Search symbols (or files) of an index; returns a JSON-ready envelope.

    Parameters
    ----------
    db : path or sqlite3.Connection
        The index database, a repository root holding ``.lore/index.db``, or an open connection.
    query : str
        Words, ``"quoted phrases"`` or an identifier (``getUserById``, ``user_id``); FTS syntax
        characters are plain text. Every word is required in keyword mode unless ``any_terms``;
        when no row has them all, any of the informative words will do (``relaxed`` says so).
    mode : {"hybrid", "keyword", "vector"}
        Hybrid fuses BM25 and vector ranks by RRF (falls back to keyword when the index has no
        vectors, and says so in ``fallback``).
    kind : str, optional
        Keep only symbols of this kind (function, method, class, module, ...). Symbols only.
    path_prefix : str, optional
        Keep only results whose repository-relative path starts with this.
    limit : int, optional
        Maximum rows returned (0..1000); default 5 (symbols) or 10 (files).
    expand : int, optional
        Graph hops to expand the seeds along (0..3); default 1 for symbols, 0 (only) for files.
    min_score : float, optional
        Drop rows scoring below this (0..1, the best hit scores 1); default 0.5 / 0.3.
    top_k : int, optional
        How many of the best hits seed the expansion; default 5.
    files : bool
        Search files (path, exported names, imports) instead of symbols.
    include_tests : bool
        Keep symbols and files from test code (each row says ``is_test``).
    decay : float, optional
        One decay for every edge kind instead of the per-edge defaults.
    any_terms : bool
        Keyword hits need only one of the words instead of all of them.
    embedder : str, optional
        The embedding model to search vectors of (default: the one the vectors were made with).
    graph : bool, optional
        Fuse the graph around the best hits into the ranking (:mod:`lore.search.graphfuse`) instead of
        expanding them hop by hop; symbols only. Default (None): for a long query (a bug report,
        :mod:`lore.search.longquery`) only; True: for any query; False: never.
    db_path : path, optional
        Ignored (accepted for callers that pass the path beside an open connection).

    Returns
    -------
    dict
        ``query`` (what was asked, defaults filled in), ``generation``, ``model`` (vectors used, or
        None), ``total`` (rows above ``min_score`` before the limit), ``truncated``, ``results``, and
        a one-line note for each departure from the request: ``fallback`` (hybrid without vectors
        ranked by keywords), ``relaxed`` (no row had every word: ranked by any of them) and
        ``stale`` (rows changed since the vectors were made: ranked without their vectors); ``match``
        (keyword and hybrid modes: how well the best row matched, :mod:`lore.search.match`: ``share``,
        ``weak``, ``basis``, ``held`` and ``missing`` terms) and ``weak``, a one-line note when nothing
        matched well. Each row: id, name, qualified_name, kind,
        path, line, score, is_test and ``found_by`` (keyword / vector ranks, or for a row brought
        in by expansion the seed and the edge path).
    """
    del db_path
    if not isinstance(query, str) or not query.strip():
        raise QueryError("empty search query; pass some words or an identifier to search for")
    fuse_graph = bool(graph) if graph is not None else is_long(query)
    opts = check_options(
        mode=mode,
        files=files,
        kind=kind,
        limit=limit,
        # a report's best hits are fused with the graph (graphfuse) instead of expanded hop by hop
        expand=0 if expand is None and fuse_graph and not files else expand,
        min_score=min_score,
        top_k=top_k,
        decay=decay,
    )
    asked = {
        "text": query,
        "mode": mode,
        "files": bool(files),
        "kind": kind,
        "path_prefix": path_prefix,
        **opts,
        "decay": decay,
        "include_tests": bool(include_tests),
        "any_terms": bool(any_terms),
        "graph": fuse_graph and not files,
    }
    with _open(db) as conn:
        depth = max(50, 3 * opts["limit"], opts["top_k"])
        if files:
            rows, total, ranking = _file_rows(
                conn, query, mode, depth, opts, path_prefix, include_tests, any_terms, embedder
            )
        else:
            rows, total, ranking = _symbol_rows(
                conn, query, mode, depth, opts, kind, path_prefix, include_tests, any_terms, embedder, decay,
                graph=fuse_graph,
            )
        out: dict[str, Any] = {
            "query": asked,
            "generation": generation(conn),
            "model": ranking.model,
            "total": total,
            "truncated": total > len(rows),
            "results": rows,
        }
        if ranking.fallback:
            out["fallback"] = ranking.fallback
        if ranking.relaxed:
            out["relaxed"] = ranking.relaxed
        if ranking.stale:
            out["stale"] = ranking.stale
        if mode != "vector":
            # the scores rank (best = 1); match says whether the best is any good (lore.search.match)
            best = min((i for i, fb in ranking.found_by.items() if "keyword" in fb),
                       key=lambda i: ranking.found_by[i]["keyword"]["rank"], default=None)
            m = match_quality(conn, "files_fts" if files else "symbols_fts", query, best)
            out["match"] = m
            if m["weak"]:
                out["weak"] = weak_note(m, "file" if files else "symbol")
    return out


def build_code_vectors(
    db: str | os.PathLike[str] | sqlite3.Connection,
    *,
    embedder: str | None = None,
    only_if_present: bool = False,
    replace: bool = False,
    full: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Embed the index's symbols and files for vector / hybrid search (only what changed since last time).

    Parameters
    ----------
    db : path or sqlite3.Connection
        The index database or a repository root holding ``.lore/index.db`` (opened writable).
    embedder : {"hashing", "minilm"}, optional
        Default: the model already stored, else hashing (the no-model embedder; MiniLM embeds about
        20 symbols a second on two cores, so it is an explicit choice).
    only_if_present : bool
        Do nothing unless the index already holds code vectors (for ``lore index`` to keep them
        fresh after a refresh without making every index pay for embeddings).
    replace : bool
        Make ``embedder``'s model the index's only one: drop the code vectors of other models
        (``lore index --embed --embedder X``), so search and refreshes use that model alone.
    full : bool
        Compare every symbol and drop the vectors of symbols that are gone (about 1 s on Django);
        ``False`` looks only at the files written since the last refresh (what ``lore index``
        does after every run, :mod:`lore.search.upkeep`).
    progress : callable, optional
        ``(phase, done, total)`` while embedding (phases ``embed symbols``, ``embed files``).

    Returns
    -------
    dict
        ``model``, per owner kind (``symbol``, ``file``) the counts ``embedded``, ``unchanged`` and
        ``removed``, and ``seconds``; ``{"model": None}`` when ``only_if_present`` found nothing;
        with ``replace``, ``dropped``: the models whose vectors were deleted.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from lore.index import index_repo
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def parse_config(path):\\n    '''Read settings.'''\\n")
    >>> _ = index_repo(d)
    >>> build_code_vectors(d, only_if_present=True)
    {'model': None}
    >>> out = build_code_vectors(d)
    >>> out["model"], out["symbol"]["embedded"], out["file"]["embedded"]
    ('hashing-v1-384', 2, 1)
    >>> build_code_vectors(d)["symbol"]
    {'checked': 2, 'embedded': 0, 'unchanged': 2, 'removed': 0}
    """
    if isinstance(db, sqlite3.Connection):
        ctx = nullcontext(db)
        path = ""
    else:
        p = Path(db)
        p = default_db_path(p) if p.is_dir() else p
        ctx, path = closing(connect(p)), str(p)
    with ctx as conn:
        models = list(store.vector_model_generations(conn))
        if only_if_present and not models:
            return {"model": None}
        if embedder is None and len(models) == 1:
            embedder = models[0]
        elif embedder is None and models:
            # the model search picks (most vectors first), so a refresh keeps what is searched fresh
            embedder = next((m for m, _n in store.vector_models(conn, "symbol")), models[0])
        out = refresh_code_vectors(
            conn, embedder=embedder or "hashing", path=path, full=full, progress=progress
        )
        if replace:
            others = [m for m, _n in store.vector_models(conn, "symbol") if m != out["model"]]
            others += [m for m, _n in store.vector_models(conn, "file") if m != out["model"] and m not in others]
            if others:
                with write_transaction(conn, path):
                    for m in others:
                        store.drop_vector_model(conn, m)
            out["dropped"] = others
        return out


def _symbol_rows(
    conn, query, mode, depth, opts, kind, path_prefix, include_tests, any_terms, embedder, decay, *, graph=False
):
    ranking = rank_symbols(
        conn,
        query,
        mode=mode,
        depth=depth,
        kind=kind,
        path_prefix=path_prefix,
        include_tests=include_tests,
        any_terms=any_terms,
        embedder=embedder,
    )
    min_score = opts["min_score"]
    if graph and ranking.scores:
        fused, via = graph_fused(conn, ranking.scores)
        names = {s: r["qualified_name"] for s, r in store.symbol_rows(conn, list({v[0] for v in via.values()})).items()}
        for i, (seed, edge, direction) in via.items():
            # the vote that raised the row (a row with no keyword / vector rank was brought in by it)
            ranking.found_by.setdefault(i, {})["graph"] = {
                "seed": seed, "seed_qualified_name": names.get(seed, ""), "edge": edge, "direction": direction}
        ranking.scores = fused
    scores = {i: s for i, s in ranking.scores.items() if s >= min_score}
    found_by = {i: ranking.found_by.get(i, {}) for i in scores}
    if opts["expand"] and scores:
        seeds = {i: scores[i] for i in sorted(scores, key=lambda i: (-scores[i], i))[: opts["top_k"]]}
        for i, (s, prov) in expand_hits(
            conn, seeds, hops=opts["expand"], min_score=min_score, decay=decay
        ).items():
            if s > scores.get(i, 0.0):
                scores[i] = s
                # a direct hit re-scored through a better path keeps its own ranks beside the path
                found_by[i] = {**ranking.found_by.get(i, {}), **prov}
    meta = store.symbol_rows(conn, list(scores))
    keep = []
    for i, r in meta.items():
        if r["file_id"] is None or (kind and r["kind"] != kind) or (not include_tests and r["is_test"]):
            continue
        if path_prefix and not r["path"].startswith(path_prefix):
            continue
        keep.append(i)
    # equal scores (siblings reached from one seed through the same edge kind): the row with more
    # direct evidence of its own for the query first, then the id
    own = ranking.scores
    keep.sort(key=lambda i: (-scores[i], -own.get(i, 0.0), i))
    seeds_qn = {}
    rows = []
    for i in keep[: opts["limit"]]:
        r = meta[i]
        fb = found_by[i]
        if "seed" in fb:
            s = fb["seed"]
            if s not in seeds_qn:
                seeds_qn[s] = (meta.get(s) or store.symbol_rows(conn, [s]).get(s, {})).get(
                    "qualified_name", ""
                )
            fb = {**fb, "seed_qualified_name": seeds_qn[s]}
        rows.append(
            {
                "id": i,
                "name": r["name"],
                "qualified_name": r["qualified_name"],
                "kind": r["kind"],
                "path": r["path"],
                "line": r["line"],
                "end_line": r["end_line"],
                "score": round(scores[i], 4),
                "is_test": r["is_test"],
                "found_by": fb,
            }
        )
    return rows, len(keep), ranking


def _file_rows(conn, query, mode, depth, opts, path_prefix, include_tests, any_terms, embedder):
    ranking = rank_files(
        conn,
        query,
        mode=mode,
        depth=depth,
        path_prefix=path_prefix,
        include_tests=include_tests,
        any_terms=any_terms,
        embedder=embedder,
    )
    scores = {i: s for i, s in ranking.scores.items() if s >= opts["min_score"]}
    order = sorted(scores, key=lambda i: (-scores[i], i))
    meta = store.file_rows(conn, order[: opts["limit"]])
    rows = []
    for i in order[: opts["limit"]]:
        f = meta[i]
        rows.append(
            {
                "id": i,
                "name": os.path.basename(f["path"]),
                "qualified_name": f["module"],
                "kind": "file",
                "path": f["path"],
                "line": 1,
                "lines": f["lines"],
                "language": f["language"],
                "score": round(scores[i], 4),
                "is_test": f["is_test"],
                "exports": f["exports"][:20],
                "imports": f["imports"][:20],
                "found_by": ranking.found_by.get(i, {}),
            }
        )
    return rows, len(order), ranking
