"""C#: ``.cs`` files; a namespace is made of the files that declare it, wherever they sit."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import CSharpRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="csharp",
    extensions=(".cs",),
    parse=parse,
    grammar="tree_sitter_c_sharp:language",
    rules=CSharpRules(),
)
