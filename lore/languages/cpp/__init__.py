"""C++: ``.cc``, ``.cpp``, ``.cxx`` sources and ``.hh``, ``.hpp``, ``.hxx`` headers."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import CppRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="cpp",
    extensions=(".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"),
    parse=parse,
    grammar="cpp",
    rules=CppRules(),
)
