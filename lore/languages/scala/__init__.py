"""Scala: ``.scala`` and ``.sc`` files; a package is made of the files that declare it."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import ScalaRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="scala",
    extensions=(".scala", ".sc"),
    parse=parse,
    grammar="tree_sitter_scala:language",
    rules=ScalaRules(),
)
