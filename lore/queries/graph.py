"""``lore_graph``: the one endpoint over every graph kind, and the envelope every answer shares."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidArgumentError, UnknownAlgorithmError
from ..store import read
from . import navigate
from ._index import OpenIndex, one_generation
from ._shape import check_limit, compact_row, fit_tokens
from .clusters import cluster_members
from .related import related

GRAPH_KINDS = ("call", "callers", "import", "inheritance", "related", "cluster")


@one_generation
def lore_graph(
    index: OpenIndex,
    *,
    kind: str,
    source_id: int | str | list[int | str] | tuple[int | str, ...],
    algorithm: str = "hybrid",  # graphs.related.DEFAULT_ALGORITHM (not imported here: numpy loads lazily)
    limit: int = 20,
    result_kind: str | list[str] | None = None,
    include_tests: bool = False,
    direction: str | None = None,
    measure: str | None = None,
    alpha: float = 0.85,
    weights: dict[str, float] | None = None,
    n_walks: int = 10_000,
    seed: int = 0,
    compact: bool = False,
    max_tokens: int | None = None,
    with_docs: bool = False,
    engine: str | None = None,
    ray_address: str | None = None,
) -> dict:
    """Graph queries behind ``lore graph`` and the ``lore_graph`` MCP tool.

    Parameters
    ----------
    index : Index
    kind : {'call', 'callers', 'import', 'inheritance', 'related', 'cluster'}
    source_id : symbol id or qualified name, or a list of them (several seeds, ``related`` only)
    algorithm : ``related`` only: 'hybrid' (default: structure, place, words and role,
        fit weights; git history with ``weights={'history': ...}``), 'overlap', 'fusion' (overlap and push-PageRank
        ranks fused),
        'pagerank' (exact), 'pagerank_push', 'pagerank_mc' (Monte-Carlo, with standard errors), 'cluster'
    limit : maximum rows (1..1000)
    result_kind : keep only results of this symbol kind (or kinds)
    include_tests : keep symbols from test files (excluded by default)
    direction : 'out' / 'in' / 'both' (pagerank walk; import: imports vs importers; inheritance: bases vs subclasses)
    measure : overlap similarity: 'idf_cosine' (default), 'cosine', 'adamic_adar', 'resource_allocation',
        'jaccard', 'count'
    alpha, weights, n_walks, seed : algorithm parameters (weights per relation)
    compact : fewer fields per row (for agents)
    max_tokens : drop rows from the end until the JSON fits about this many tokens
    with_docs : add the document chunks that mention the source symbols (``docs``)
    engine, ray_address : where ``related`` and ``cluster`` run their sparse products: 'local' (this
        process) or 'ray' (a Ray cluster at ``ray_address``: 'auto', 'ray://host:port'; default
        ``RAY_ADDRESS`` or a local Ray instance); default: the index's (:func:`lore.open_index`).
        The answer is byte-for-byte the same on either engine, and does not say which ran.

    Returns
    -------
    dict with ``query`` (what was asked), ``generation``, ``total``, ``truncated``, ``results`` (rows of
    id, name, qualified_name, kind, path, line, score, why) and, for some kinds, ``note``.

    See Also
    --------
    lore.queries.related.related, lore.queries.navigate.calls, lore.queries.clusters.cluster_members
    """
    if kind not in GRAPH_KINDS:
        raise UnknownAlgorithmError(kind, GRAPH_KINDS, what="graph kind")
    limit = check_limit(limit)
    refs = list(source_id) if isinstance(source_id, list | tuple) else [source_id]
    if not refs:
        raise InvalidArgumentError("give at least one source symbol (an id or a qualified name)")
    seeds = [index.resolve_ref(r) for r in refs]
    if len(seeds) > 1 and kind not in ("related",):
        raise InvalidArgumentError(f"graph kind {kind!r} takes one source symbol; several seeds work with 'related'")
    kinds = (result_kind,) if isinstance(result_kind, str) else (tuple(result_kind) if result_kind else None)
    where, address = index.engine_choice(engine, ray_address)
    query: dict[str, Any] = {"kind": kind, "source_ids": seeds, "limit": limit}
    if kind == "related":
        query.update({"algorithm": algorithm})
        rows, total, note = related(index, seeds, algorithm, limit, kinds, include_tests, direction, measure, alpha,
                                    weights, n_walks, seed, query, engine=where, ray_address=address)
    elif kind == "cluster":
        rows, total, note = cluster_members(index, seeds[0], limit, kinds, include_tests, query, engine=where,
                                            ray_address=address)
    elif kind in ("call", "callers"):
        rows, total, note = navigate.calls(index, seeds[0], kind, limit, kinds, include_tests)
    elif kind == "import":
        query["direction"] = direction or "out"
        rows, total, note = navigate.imports(index, seeds[0], direction or "out", limit)
    else:
        query["direction"] = direction or "both"
        rows, total, note = navigate.inheritance(index, seeds[0], direction or "both", limit, kinds)
    out: dict[str, Any] = {
        "query": query,
        "generation": index.generation,
        "total": total,
        "truncated": total > len(rows),
        "results": rows,
    }
    if note:
        out["note"] = note
    if kind in ("call", "callers"):  # call sites of the same bare name that bound to nothing: maybe missing
        seed_row = read.symbols_by_ids(index.conn, seeds)[seeds[0]]
        out["unresolved_same_name"] = read.unresolved_same_name(index.conn, seed_row.name, file_id=seed_row.file_id)
    if with_docs:
        out["docs"] = docs_for(index, seeds)
    if compact:
        out["results"] = [compact_row(r) for r in out["results"]]
    if max_tokens is not None:
        fit_tokens(out, max_tokens)
    return out


def docs_for(index: OpenIndex, seeds: list[int]) -> list[dict]:
    """The document chunks that mention any of ``seeds`` by qualified name (``[]`` without the document side)."""
    try:
        from ..docs import chunks_mentioning
    except ImportError:  # document side not available
        return []
    info = read.symbols_by_ids(index.conn, seeds)
    return chunks_mentioning(index.conn, [info[s].qualified_name for s in seeds])
