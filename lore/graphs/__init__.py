"""Store rows -> scipy CSR matrices per relation, a NodeIndex, and a cache keyed by index generation."""

from .build import CodeGraph, NodeIndex, load_graph

__all__ = ["CodeGraph", "NodeIndex", "load_graph"]
