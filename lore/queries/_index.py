"""The state of an open index, shared by every query: connection, graph, cached cluster runs."""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..store import db as store_db

if TYPE_CHECKING:  # numpy / scipy load lazily: `lore index` and `lore show` start faster without them
    from ..graphs import CodeGraph


F = TypeVar("F", bound=Callable[..., Any])


def one_generation(fn: F) -> F:
    """Run a query whose first argument is an :class:`OpenIndex` inside one read snapshot of it.

    Graph, names, rows and caches then all come from the generation the answer reports, even while
    ``lore index --rebuild`` commits in a loop (see :func:`lore.store.db.read_snapshot`).
    """

    @functools.wraps(fn)
    def wrapper(index: OpenIndex, *args: Any, **kwargs: Any) -> Any:
        with store_db.read_snapshot(index.conn):
            return fn(index, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def resolve_db(path: str | os.PathLike[str]) -> Path:
    """The index file for ``path``: the file itself, or the index of the repository root ``path``."""
    p = Path(path)
    if p.is_dir():
        candidate = store_db.default_db_path(p)
        if candidate.exists() or not (p / store_db.DEFAULT_DB).exists():
            return candidate
        return p / store_db.DEFAULT_DB
    return p


class OpenIndex:
    """An open index file: its connection, its graph and the cluster runs cached in memory.

    ``readonly`` indexes never write, not even derived caches (clusters are then cached in memory
    only). ``engine`` (``local`` or ``ray``) and ``ray_address`` are where the graph queries run their
    sparse products by default (:mod:`lore.graphs.engines`); answers are the same on either.
    :class:`lore.api.Index` adds the facade methods on top.
    """

    def __init__(self, db_path: Path, *, readonly: bool = False, engine: str = "local",
                 ray_address: str | None = None) -> None:
        if engine != "local":  # a typo fails at open, not at the first graph query
            from ..graphs.engines import check_engine_name

            check_engine_name(engine)
        self.db_path = db_path
        self.readonly = readonly
        self.engine = engine
        self.ray_address = ray_address
        self.conn: sqlite3.Connection = store_db.connect(db_path, readonly=readonly)
        # (run key, graph stamp) -> (summary, labels): cluster runs of this process (see queries.clusters)
        self.cluster_cache: dict[tuple[str, str], tuple[dict, Any]] = {}

    @property
    def generation(self) -> int:
        """The code generation the index is at (bumped by every write of code data)."""
        return store_db.generation(self.conn)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> OpenIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def engine_choice(self, engine: str | None = None, ray_address: str | None = None) -> tuple[str, str | None]:
        """(engine name, Ray address) of one query: the arguments where given, else the index's defaults."""
        name = engine or self.engine
        if name != "local":
            from ..graphs.engines import check_engine_name

            check_engine_name(name)
        return name, ray_address if ray_address is not None else self.ray_address

    def graph(self) -> CodeGraph:
        """The CSR graph of the index in its current state (cached per index identity and generation)."""
        from ..graphs import load_graph

        return load_graph(self.conn, self.db_path, save=not self.readonly)

    def resolve_ref(self, ref: int | str) -> int:
        """The symbol id ``ref`` names: an id, ``path:line``, a qualified name, a public re-export, a
        unique suffix, a C global name or ``ns::Class::method`` (see :mod:`lore.queries._naming`).

        Raises :class:`~lore.errors.AmbiguousSymbolError` (listing the candidates) when several
        symbols answer to it, :class:`~lore.errors.UnknownSymbolError` (with the closest names) when none.
        """
        from ._naming import resolve_symbol

        return resolve_symbol(self.conn, ref)
