"""JavaScript: ``.js``, ``.jsx``, ``.mjs``, ``.cjs`` files, named by their paths."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import JavaScriptRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    parse=parse,
    grammar="javascript",
    rules=JavaScriptRules(),
)
