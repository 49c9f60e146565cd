"""TypeScript's (and TSX's) resolution rules: JavaScript's, under their own names."""

from __future__ import annotations

from ..javascript._rules import JavaScriptRules
from ._augment import augmentation


class TypeScriptRules(JavaScriptRules):
    language = "typescript"

    def package_member(self, world, ctx, scope: int, name: str):
        """A runtime name the project augments (``declare global { interface Request {...} }``): that interface."""
        return augmentation(world, ctx, scope, self, name)


class TsxRules(TypeScriptRules):
    language = "tsx"
