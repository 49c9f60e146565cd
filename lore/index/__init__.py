"""Indexing: walk the repository, parse in worker processes, resolve names, write the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .indexer import IndexReport, index_repo

__all__ = ["IndexReport", "index_repo"]


def __getattr__(name: str) -> Any:
    # the indexer (every language's parser, the process pool) loads on first use: a query that only
    # imports lore.index.walk or lore.index.history does not pay for it (~55 ms of a cold CLI call)
    if name in __all__:
        from . import indexer

        return getattr(indexer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
