"""C: ``.c`` and ``.h`` files (a header that holds C++ is read with the C++ grammar)."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import CRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="c",
    extensions=(".c", ".h"),
    parse=parse,
    grammar="c",
    rules=CRules(),
)
