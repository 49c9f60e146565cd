"""C++: ``.cc``, ``.cpp``, ``.cxx``, ``.c++`` sources, ``.hh``, ``.hpp``, ``.hxx``, ``.h++`` headers, the ``.inl`` / ``.ipp`` /
``.tpp`` files headers include (inline and template definitions), and the ``.h`` headers of C++ projects."""

from __future__ import annotations

from .._base import Language
from ._headers import cpp_headers
from ._parser import parse
from ._project_macros import fingerprint, project_table, table_in_use, use_table
from ._rules import CppRules

__all__ = ["LANGUAGE", "fingerprint", "project_table", "table_in_use", "use_table"]

LANGUAGE = Language(
    name="cpp",
    extensions=(".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp"),
    parse=parse,
    grammar="cpp",
    rules=CppRules(),
    claims=cpp_headers,
)
