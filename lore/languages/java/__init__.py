"""Java: ``.java`` files; a package is a directory."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import JavaRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="java",
    extensions=(".java",),
    parse=parse,
    grammar="java",
    rules=JavaRules(),
)
