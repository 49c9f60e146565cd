"""Swift: ``.swift`` files; a module is the folder ``Sources/<Module>/`` of a SwiftPM package."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import SwiftRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="swift",
    extensions=(".swift",),
    parse=parse,
    grammar="tree_sitter_swift:language",
    rules=SwiftRules(),
)
