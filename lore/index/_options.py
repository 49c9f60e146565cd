"""Where an index run's work runs and what it writes beside the store (:func:`lore.index.indexer.index_repo`'s
``executor``, ``ray_address``, ``edge_store`` and ``memory``)."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from .._ray import connect as ray_connect


@dataclass(frozen=True)
class Options:
    """What changes where the work runs and what is written beside the store."""

    executor: str = "local"
    ray_address: str | None = None
    edge_store: str | None = None  # None: keep the index's own
    memory: int | None = None  # bytes the run may hold at once (lore.index._memory); None: unbounded

    @property
    def on_ray(self) -> bool:
        return self.executor == "ray"

    def ray(self) -> ModuleType:
        """The connected :mod:`ray` module (connected on first use: an up-to-date index never starts Ray)."""
        return ray_connect(self.ray_address, feature="--executor ray")
