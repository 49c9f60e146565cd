"""TypeScript's (and TSX's) resolution rules: JavaScript's, under their own names."""

from __future__ import annotations

from ..javascript._rules import JavaScriptRules
from ._augment import augmentation, augmented_target, merged_onto


class TypeScriptRules(JavaScriptRules):
    language = "typescript"

    def package_member(self, world, ctx, scope: int, name: str):
        """A runtime name the project augments (``declare global { interface Request {...} }``): that interface."""
        return augmentation(world, ctx, scope, self, name)

    def merged_onto(self, world, key: str | int) -> list[int]:
        """This language's ``declare module`` interfaces that merge onto ``key`` (:func:`._augment.merged_onto`)."""
        return merged_onto(world, self.language, key)

    def augmented_target(self, world, sid: int) -> str | int | None:
        """What the ``declare module`` interface ``sid`` merges onto (:func:`._augment.augmented_target`)."""
        return augmented_target(world, self.language, sid)


class TsxRules(TypeScriptRules):
    language = "tsx"
