"""The ``lore`` command: parse arguments, call the library, print a table or ``--json``.

One module per command group, each a thin shell over the library with a ``register(app)``
function; the app is assembled here, in the order ``lore --help`` lists the commands:

- :mod:`lore.cli.graph`: ``lore graph call|callers|import|inheritance|related|cluster|clusters``
- :mod:`lore.cli.index`: ``lore index``, ``lore stats``, ``lore show``
- :mod:`lore.cli.docs`: ``lore docs add|search|similar|related`` (and the hidden, moved ``lore related``)
- :mod:`lore.cli.serve`: ``lore serve``, ``lore tools``
- :mod:`lore.cli.search`: ``lore search``
- :mod:`lore.cli.config`: ``lore config``
- :mod:`lore.cli.export`: ``lore export``
- :mod:`lore.cli.view`: ``lore view``
- :mod:`lore.cli.bench`: ``lore bench structural|callgraph|cochange|questions|search|fit|clusters``
- :mod:`lore.cli.completion`: ``lore completion bash|zsh|fish``

:mod:`lore.cli._app` holds what they share: the root app, the consoles, the one place where a
:class:`~lore.errors.LoreError` becomes one line on stderr (with ``--json``, one JSON object on stdout)
and exit code 2, ``--db`` lookup and output helpers; :mod:`lore.cli._format` fits tables to the terminal. The CLI imports only the library (and starts the MCP server for ``lore serve``);
nothing in the library imports it.

Start-up: importing this package loads nothing but the standard library. :func:`main` imports
the parser (typer) and only the command module the arguments name (``lore graph related`` never
loads the indexer, the MCP SDK, rich or the benchmarks); ``lore``, ``lore --help`` and anything
that names no known command get the whole app, as does ``lore.cli.app``.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

# the command modules in `lore --help` order, and the top-level commands each one registers
GROUPS: dict[str, tuple[str, ...]] = {
    "graph": ("graph",),
    "index": ("index", "stats", "show"),
    "docs": ("docs", "related"),
    "serve": ("serve", "tools"),
    "search": ("search", "locate"),
    "bench": ("bench",),
    "config": ("config",),
    "export": ("export",),
    "view": ("view",),
    "completion": ("completion",),
}
COMMAND_MODULE = {name: module for module, names in GROUPS.items() for name in names}

_full: typer.Typer | None = None


def build_app(modules: tuple[str, ...] | None = None) -> typer.Typer:
    """A root app with the command groups of ``modules`` registered (default: every group, in help order).

    Parameters
    ----------
    modules : tuple of str, optional
        Keys of :data:`GROUPS`; only their modules are imported.

    Returns
    -------
    typer.Typer
        A new root app (``--version`` and the commands of ``modules``).
    """
    from ._app import make_app

    root = make_app()
    for name in GROUPS if modules is None else modules:
        importlib.import_module(f"{__name__}.{name}").register(root)
    return root


def app_for(argv: list[str]) -> typer.Typer:
    """The app to parse ``argv`` (the arguments after the program name): just the group its first
    argument names, else the whole app (``lore``, ``--help``, ``--version``, a mistyped command)."""
    module = COMMAND_MODULE.get(argv[0]) if argv else None
    return build_app((module,)) if module else __getattr__("app")


def main() -> None:
    """Console entry point (``lore``): see :func:`lore.cli._app.main`."""
    from . import _app

    _app.main(app_for(sys.argv[1:]))


def __getattr__(name: str) -> Any:
    global _full
    if name == "app":  # the whole app, built once: for tests, docs and embedding
        if _full is None:
            from . import _app

            root = _app.app
            for module in GROUPS:
                importlib.import_module(f"{__name__}.{module}").register(root)
            _full = root
        return _full
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "build_app", "main"]

if __name__ == "__main__":  # pragma: no cover
    main()
