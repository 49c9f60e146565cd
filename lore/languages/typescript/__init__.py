"""TypeScript (``.ts``, ``.mts``, ``.cts``) and TSX (``.tsx``): one parser, one set of rules, two names."""

from __future__ import annotations

from .._base import Language
from ._parser import GRAMMAR, TSX_GRAMMAR, parse
from ._rules import TsxRules, TypeScriptRules

__all__ = ["LANGUAGE", "TSX"]

LANGUAGE = Language(
    name="typescript",
    extensions=(".ts", ".mts", ".cts"),
    parse=parse,
    rules=TypeScriptRules(),
    grammar=GRAMMAR,
)

TSX = Language(
    name="tsx",
    extensions=(".tsx",),
    parse=parse,
    rules=TsxRules(),
    grammar=TSX_GRAMMAR,
)
