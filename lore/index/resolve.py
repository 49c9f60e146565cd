"""Binding raw names to symbols: the heart of lore's correctness.

Each call site, type mention, import and base class that a parser recorded as text is resolved
here, in the scope it was written in, to a symbol id, and the rule that bound it is recorded
(``resolution``, strongest first in :data:`lore.store.schema.RESOLUTIONS`):

* scopes: enclosing function scopes, then the module (class bodies are not visible from methods);
* imports: aliases, relative imports, re-exports through ``__init__`` modules, star imports;
* ``self.m()`` / ``cls.m()`` / ``super().m()``: the class hierarchy in MRO order (inherited methods);
* ``Cls()``: ``Cls.__init__`` (or the inherited one) plus an ``instantiation`` type reference;
* receivers typed by annotations (parameters, variables, attributes) or by the constructor or
  annotated function they were assigned from (``s = Session(); s.get()``);
* values followed where they are certain: assignments (chained ``a = b = f``, tuple unpacking),
  literal container slots (``d["k"] = f; d["k"]()``, ``fs[0]()``), what an unannotated function
  returns when all its ``return`` statements agree, ``f()()``, ``raise E`` (an instantiation) and
  the protocol methods a ``for`` loop or ``with`` statement calls (only when they are repository code);
* external targets (stdlib, third-party) become ``external`` symbols named by import path;
* only when all of that fails: name heuristics (``same_file_name``, ``unique_name``, and
  ``ambiguous_name`` with confidence ``1/k`` for each of ``k`` candidates), never silently.

The world (every symbol of the index, by id) is loaded from the store; raw records of other files
are loaded lazily when a name leads into them (a re-export chain, a base class, a return type).

The engine is language-neutral; what differs between languages comes from their rules
(:mod:`lore.languages`). It is split by concern, and this module joins the pieces:

* :mod:`._world`: the shared state (symbols, files, per-file scope tables, memoized-step guard);
* :mod:`._lookup`: names, scopes, imports, module and namespace members, dotted paths;
* :mod:`._hierarchy`: bases, MRO, class members, attribute types;
* :mod:`._values`: annotations, bindings, call results, return values;
* :mod:`._flow`: values that travel (what callers pass into parameters, decorators), solved once;
* :mod:`._fixtures`: what pytest passes into the parameters of tests and fixtures;
* :mod:`._edges`: :class:`FileResolver` / :func:`resolve_files`, records -> :class:`Edges` rows.
"""

from __future__ import annotations

from ._annotations import primary_type
from ._edges import Edges, FileResolver, resolve_files
from ._fixtures import FixtureMixin
from ._flow import FlowMixin
from ._given import GivenMixin
from ._hierarchy import HierarchyMixin
from ._keys import KeysMixin
from ._lookup import LookupMixin
from ._values import ValuesMixin, instance_of, typed_by
from ._world import FileCtx, FileRow, SymRow, Value, local_parent, split_path, weaker

__all__ = [
    "Edges",
    "FileCtx",
    "FileResolver",
    "FileRow",
    "SymRow",
    "Value",
    "World",
    "instance_of",
    "local_parent",
    "primary_type",
    "resolve_files",
    "split_path",
    "typed_by",
    "weaker",
]


class World(LookupMixin, HierarchyMixin, ValuesMixin, FlowMixin, KeysMixin, GivenMixin, FixtureMixin):
    """Every symbol of the index plus lazily loaded per-file scope tables, with every lookup of the engine.

    Built once per index run from the store's symbol and file rows (``load_records`` fetches the raw
    records of one file when a lookup first needs them; ``next_id`` numbers new external symbols).
    """
