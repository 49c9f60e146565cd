"""The ``lore`` command: parse arguments, call the library, print a table or ``--json``.

One module per command group, each a thin shell over the library with a ``register(app)``
function; the app is assembled here, in the order ``lore --help`` lists the commands:

- :mod:`lore.cli.graph`: ``lore graph call|callers|import|inheritance|related|cluster|clusters``
- :mod:`lore.cli.index`: ``lore index``, ``lore stats``, ``lore show``
- :mod:`lore.cli.docs`: ``lore docs add|search``, ``lore related``
- :mod:`lore.cli.serve`: ``lore serve``, ``lore tools``
- :mod:`lore.cli.search`: ``lore search``
- :mod:`lore.cli.config`: ``lore config``
- :mod:`lore.cli.export`: ``lore export``
- :mod:`lore.cli.view`: ``lore view``
- :mod:`lore.cli.bench`: ``lore bench structural|callgraph|cochange|questions|search``

:mod:`lore.cli._app` holds what they share: the root app, the consoles, the one place where a
:class:`~lore.errors.LoreError` becomes one line on stderr and exit code 2, ``--db`` lookup and
output helpers. The CLI imports only the library (and starts the MCP server for ``lore serve``);
nothing in the library imports it.
"""

from __future__ import annotations

from . import bench, config, docs, export, graph, index, search, serve, view
from ._app import app, main

for _group in (graph, index, docs, serve, search, bench):
    _group.register(app)
config.register(app)
export.register(app)
view.register(app)

__all__ = ["app", "main"]

if __name__ == "__main__":  # pragma: no cover
    main()
