"""lore: what else in this codebase is like this symbol?

Index a repository with tree-sitter into SQLite, then rank related symbols by graph structure
(shared callers / callees / types, personalized PageRank, label-propagation clusters), beside
BM25 search.

>>> import lore
>>> sorted(lore.__all__) == lore.__all__
True
"""

from .api import (
    GRAPH_KINDS,
    Index,
    index_repo,
    list_clusters,
    locate,
    lore_graph,
    lore_search,
    open_index,
)
from .errors import (
    AmbiguousSymbolError,
    ConvergenceError,
    DamagedIndexError,
    IndexBusyError,
    IndexNotFoundError,
    IndexStorageError,
    IndexWriteError,
    InvalidArgumentError,
    LoreError,
    NewerSchemaError,
    NotAnIndexError,
    NothingToIndexError,
    QueryError,
    SchemaVersionError,
    UnknownAlgorithmError,
    UnknownChunkError,
    UnknownSymbolError,
)

__version__ = "0.1.0"

__all__ = [
    "AmbiguousSymbolError",
    "ConvergenceError",
    "DamagedIndexError",
    "GRAPH_KINDS",
    "Index",
    "IndexBusyError",
    "IndexNotFoundError",
    "IndexReport",
    "IndexStorageError",
    "IndexWriteError",
    "InvalidArgumentError",
    "LoreError",
    "NewerSchemaError",
    "NotAnIndexError",
    "NothingToIndexError",
    "QueryError",
    "SchemaVersionError",
    "UnknownAlgorithmError",
    "UnknownChunkError",
    "UnknownSymbolError",
    "__version__",
    "index_repo",
    "list_clusters",
    "locate",
    "lore_graph",
    "lore_search",
    "open_index",
]


def __getattr__(name: str):
    if name == "IndexReport":  # the indexer loads on first use (lore.api -> lore.index)
        from . import api

        return api.IndexReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
