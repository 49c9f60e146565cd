"""PHP: ``.php`` files; a namespace is made of the files that declare it (composer's PSR-4 layout or not)."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import PhpRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="php",
    extensions=(".php",),
    parse=parse,
    grammar="tree_sitter_php:language_php",
    rules=PhpRules(),
)
