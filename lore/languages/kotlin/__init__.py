"""Kotlin: ``.kt`` and ``.kts`` files; a package is made of the files that declare it."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import KotlinRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="kotlin",
    extensions=(".kt", ".kts"),
    parse=parse,
    grammar="kotlin",
    rules=KotlinRules(),
)
