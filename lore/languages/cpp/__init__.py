"""C++: ``.cc``, ``.cpp``, ``.cxx`` sources, ``.hh``, ``.hpp``, ``.hxx`` headers, and the ``.h`` headers of C++ projects."""

from __future__ import annotations

from .._base import Language
from ._headers import cpp_headers
from ._parser import parse
from ._rules import CppRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="cpp",
    extensions=(".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"),
    parse=parse,
    grammar="cpp",
    rules=CppRules(),
    claims=cpp_headers,
)
