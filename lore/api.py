"""The facade: open an index, index a repository, and ask it questions.

Every public function returns JSON-ready data (dicts, lists, str, int, float, None): the CLI prints
it as a table or ``--json``, the MCP server returns it as tool output. The work is done below, in
:mod:`lore.queries` (navigate, related, clusters, search) and :mod:`lore.index.pipeline`; this module
only names the public surface that :mod:`lore` re-exports.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import IndexNotFoundError
from .queries import clusters as _clusters
from .queries._index import OpenIndex, one_generation, resolve_db
from .queries._shape import MAX_LIMIT, compact_row, fit_tokens
from .queries.clusters import cluster_label, list_clusters, majority_path
from .queries.graph import GRAPH_KINDS, lore_graph
from .queries.locate import locate
from .queries.search import lore_search
from .store.read import EDGE_TABLES

if TYPE_CHECKING:  # numpy, the indexer and the walker load lazily: every command starts faster without them
    import numpy as np

    from .index import IndexReport


class Index(OpenIndex):
    """An open index: symbols, edges, graph queries and search.

    Use :func:`open_index`. ``readonly`` indexes never write, not even derived caches (clusters
    are then cached in memory only).
    """

    @one_generation
    def stats(self) -> dict:
        """Counts by language, kind, table and resolution; see :func:`lore.queries.symbols.index_stats`."""
        from .queries import symbols as _symbols  # loads the walker (languages): only here

        return _symbols.index_stats(self)

    @one_generation
    def status(self) -> dict:
        """What is indexed and whether it is fresh (files changed on disk since the last index run)."""
        from .queries import symbols as _symbols  # loads the walker (languages): only here

        return _symbols.index_status(self)

    @one_generation
    def symbol(self, ref: int | str, *, snippet_lines: int = 0) -> dict:
        """Details of one symbol: location, signature, docstring, container, optional source snippet."""
        from .queries import symbols as _symbols  # loads the walker (languages): only here

        return _symbols.symbol_details(self, ref, snippet_lines=snippet_lines)

    def symbols(self, *, kind: str | None = None, include_external: bool = False) -> list[dict]:
        """Every symbol (of one ``kind``) as id, name, qualified_name, kind, path, line; by id."""
        from .queries import symbols as _symbols  # loads the walker (languages): only here

        return _symbols.list_symbols(self, kind=kind, include_external=include_external)

    def edges(self, table: str) -> list[dict]:
        """Every row of one edge table as dicts (``symbol_refs``, ``type_refs``, ``file_imports``, ``symbol_relationships``)."""
        from .queries import symbols as _symbols  # loads the walker (languages): only here

        return _symbols.edge_rows(self, table)

    def search(self, query: str, **options: Any) -> dict:
        """BM25 / hybrid search over symbols (or files with ``files=True``); see :func:`lore.search.api.search`."""
        return lore_search(self, query, **options)

    def clusters(self, *, mode: str = "lpa", seed: int = 0, min_size: int = 2, engine: str | None = None,
                 ray_address: str | None = None) -> tuple[dict, np.ndarray]:
        """(summary, labels per graph row), cached per generation in the store (or in memory when read-only)."""
        return _clusters.cluster_run(self, mode=mode, seed=seed, min_size=min_size, engine=engine,
                                     ray_address=ray_address)


def open_index(path: str | os.PathLike[str] = ".", *, readonly: bool = False, engine: str = "local",
               ray_address: str | None = None) -> Index:
    """Open the index of the repository at ``path`` (or the index file itself).

    Raises :class:`~lore.errors.IndexNotFoundError` if there is none yet. ``engine`` is where graph
    queries (``related``, ``cluster``, clusters) run their sparse products unless a query names
    another: ``local`` (this process, the default) or ``ray`` (Ray actors at ``ray_address``:
    ``auto``, ``ray://host:port``; default ``RAY_ADDRESS`` or a local Ray instance, started on the
    first query). The answers are byte-for-byte the same on both.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    g()\\n\\ndef g():\\n    pass\\n")
    >>> _ = index_repo(d)
    >>> idx = open_index(d)
    >>> idx.symbol("m.f")["kind"]
    'function'
    >>> [r["qualified_name"] for r in lore_graph(idx, kind="call", source_id="m.f")["results"]]
    ['m.g']
    """
    db = resolve_db(path)
    if not db.exists():
        raise IndexNotFoundError(str(db))
    return Index(db, readonly=readonly, engine=engine, ray_address=ray_address)


def index_repo(root: str | os.PathLike[str] = ".", *, embed: bool = False, embedder: str | None = None,
               embed_progress: Callable | None = None, clusters: bool = True, **options: Any) -> IndexReport:
    """Index (or refresh) the repository at ``root``; see :func:`lore.index.index_repo` for the options.

    One pipeline (:func:`lore.index.pipeline.run_index`): after a refresh that changed the code,
    documents added with ``lore docs add`` get their symbol mentions recomputed, so ``--with-docs``
    never points at symbols that are gone. A rebuild (``rebuild=True`` or a schema change) keeps the
    documents, their chunk ids and vectors. Code vectors (``lore index --embed``) are refreshed for
    the files that changed, or remade after a rebuild (:mod:`lore.search.upkeep`). The default clusters
    of the new state are computed and stored (:func:`lore.queries.clusters.clusters_step`), and the related
    ranker's features and fold saved beside the index (:func:`lore.queries._precompute.ranker_step`), so every
    process after, a read-only MCP server included, reads them back (``clusters=False`` leaves that to the
    first query that may write; ``report.seconds["clusters"]`` says what it cost). With ``embed=True``
    (implied by ``embedder``) what changed is embedded too and summarised in ``report.code_vectors``;
    ``embed_progress(phase, done, total)`` follows that step.
    """
    from .index.pipeline import run_index  # the indexer loads on first use
    from .queries._precompute import ranker_step
    from .queries.indexing import INDEX_STEPS, embed_step

    steps = list(INDEX_STEPS)
    if clusters:  # computed once here, read back by every process after
        steps.append(_clusters.clusters_step)
        steps.append(ranker_step)  # the fold and the hybrid features: the first related query costs what the tenth does
    if embed or embedder is not None:
        steps.append(embed_step(embedder, embed_progress))

    return run_index(root, steps=steps, **options)


__all__ = ["EDGE_TABLES", "GRAPH_KINDS", "MAX_LIMIT", "Index", "IndexReport", "cluster_label", "compact_row",
           "fit_tokens", "index_repo", "list_clusters", "locate", "lore_graph", "lore_search", "majority_path", "open_index"]


def __getattr__(name: str) -> Any:
    if name == "IndexReport":  # the indexer loads on first use (lore.index)
        from .index import IndexReport

        return IndexReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
