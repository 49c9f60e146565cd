"""TypeScript's (and TSX's) resolution rules: JavaScript's, under their own names."""

from __future__ import annotations

from ..javascript._rules import JavaScriptRules
from ._augment import augmentation, merged_types


class TypeScriptRules(JavaScriptRules):
    language = "typescript"

    def package_member(self, world, ctx, scope: int, name: str):
        """A runtime name the project augments (``declare global { interface Request {...} }``): that interface."""
        return augmentation(world, ctx, scope, self, name)

    def merged_types(self, world):
        """What this language's ``declare module`` interfaces merge onto (:func:`._augment.merged_types`)."""
        return merged_types(world, self.language)


class TsxRules(TypeScriptRules):
    language = "tsx"
