"""Indexing: walk the repository, parse in worker processes, resolve names, write the store."""

from .indexer import IndexReport, index_repo

__all__ = ["IndexReport", "index_repo"]
