"""TypeScript's (and TSX's) resolution rules: JavaScript's, under their own names."""

from __future__ import annotations

from ..javascript._rules import JavaScriptRules


class TypeScriptRules(JavaScriptRules):
    language = "typescript"


class TsxRules(TypeScriptRules):
    language = "tsx"
