"""TypeScript's (and TSX's) resolution rules: JavaScript's, under their own names."""

from __future__ import annotations

from ..javascript._rules import JavaScriptRules
from ._augment import augmentation, merged_onto


class TypeScriptRules(JavaScriptRules):
    language = "typescript"

    def package_member(self, world, ctx, scope: int, name: str):
        """A runtime name the project augments (``declare global { interface Request {...} }``): that interface."""
        return augmentation(world, ctx, scope, self, name)

    def merged_onto(self, world, key: str | int) -> list[int]:
        """This language's ``declare module`` interfaces that merge onto ``key`` (:func:`._augment.merged_onto`)."""
        return merged_onto(world, self.language, key)


class TsxRules(TypeScriptRules):
    language = "tsx"
