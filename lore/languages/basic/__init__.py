"""The basic tier: languages lore has no rules for, read through their grammar wheel's ``queries/tags.scm``.

A language here is offered when its wheel is installed and ships a tags query; nothing of the wheel is
imported to find that out (``importlib.util.find_spec`` reads where it is), so its grammar loads only when
a file of the language is parsed. Every call edge is ``name_only`` (``lore stats`` counts them, every
``why`` shows them).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from .._base import Language
from ._parser import make_parser
from ._rules import BasicRules

__all__ = ["CANDIDATES", "languages"]

# (language name, wheel module, extensions, grammar function): grammar wheels on the package index that ship a
# tags.scm. A language leaves this list when it gets a folder of its own (Lua, Scala and Swift did).
CANDIDATES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("elixir", "tree_sitter_elixir", (".ex", ".exs"), "language"),
    ("dart", "tree_sitter_dart", (".dart",), "language"),
    ("ocaml", "tree_sitter_ocaml", (".ml",), "language_ocaml"),
)


def _tags_file(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for where in spec.submodule_search_locations:
        tags = Path(where) / "queries" / "tags.scm"
        if tags.is_file():
            return tags
    return None


def languages() -> tuple[Language, ...]:
    """The basic-tier languages whose wheel is installed and ships a tags query."""
    out = []
    for name, module, extensions, function in CANDIDATES:
        tags = _tags_file(module)
        if tags is None:
            continue
        grammar = f"{module}:{function}"
        out.append(Language(name=name, extensions=extensions, parse=make_parser(name, grammar, tags),
                            grammar=grammar, rules=BasicRules(name)))
    return tuple(out)
