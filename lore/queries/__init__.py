"""What the facade (:mod:`lore.api`) runs: every question asked of an open index.

- :mod:`~lore.queries.graph`: ``lore_graph``, the one endpoint over every graph kind, and its envelope;
- :mod:`~lore.queries.navigate`: direct edges (call, callers, import, inheritance);
- :mod:`~lore.queries.related`: related symbols, ranked, each row's ``why`` gathered in one batched pass;
- :mod:`~lore.queries.clusters`: cluster runs (cached per generation), members, the list and its labels;
- :mod:`~lore.queries.symbols`: one symbol's details, listings, edge rows, stats and freshness;
- :mod:`~lore.queries.search`: ``lore_search`` over the search package;
- :mod:`~lore.queries.indexing`: the steps that keep documents and vectors in step with a code index run.

Rows come from :mod:`lore.store.read` as named tuples and are read by name; the SQL stays in
:mod:`lore.store`. Nothing here is imported by ``lore`` itself until a query needs it.
"""
