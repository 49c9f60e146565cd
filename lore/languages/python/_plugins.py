"""``pytest_plugins = [...]``: the modules whose fixtures a test module or conftest.py makes available.

pytest imports each module a ``pytest_plugins`` variable names (a string, or a list or tuple of strings)
and registers the fixtures defined there (aiohttp's ``tests/conftest.py`` names
``"aiohttp.pytest_plugin"``, where the ``aiohttp_client`` fixture lives). The extractor records each
name as a binding :data:`PLUGINS` of the module; :mod:`lore.index._fixtures` looks a test's fixture up
in those modules after the conftest.py files, as pytest does.
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding
from ._expr import text

PLUGINS = "<pytest_plugins>"  # the binding name: alias_of is a module's dotted name


def plugin_bindings(owner: int, right: _ts.Node, line: int, src: str | None) -> list[Binding]:
    """The bindings of ``pytest_plugins = right`` at module level: one per module name it lists.

    Examples
    --------
    >>> code = b"pytest_plugins = ['a.plugin', \\"pytester\\", x]\\n"
    >>> right = _ts.parse("python", code).root_node.named_children[0].named_children[0].child_by_field_name("right")
    >>> [b.alias_of for b in plugin_bindings(0, right, 1, None)]
    ['a.plugin', 'pytester']
    """
    items = right.named_children if right.type in ("list", "tuple") else [right]
    names = [text(el, src)[1:-1] for el in items if el.type == "string"]
    return [Binding(owner, PLUGINS, line, alias_of=n) for n in names if n and n.replace(".", "").replace("_", "").isalnum()]
