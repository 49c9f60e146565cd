"""The basic tier's resolution rules: no language semantics at all. A call binds by its name alone to the
definitions of that name in the caller's own language and tree (its top-level folder), each edge marked ``name_only``
with the confidence shared among the candidates; a definition of the caller's own file comes first.
"""

from __future__ import annotations

from ...parsers.records import Import
from ...store.schema import CONFIDENCE
from .._rules import ImportBinding, LanguageRules


class BasicRules(LanguageRules):
    first_param_is_receiver = False
    uppercase_calls_construct = False
    overloads = True  # every bound call goes through choose_overload, which marks it name_only

    def __init__(self, language: str) -> None:
        self.language = language

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return None

    def choose_overload(self, world, ctx, call, targets):
        bound = [t for t in targets if t[0] is not None and t[1] not in ("external", "builtin")]
        if not bound:
            return targets
        k = len(bound)
        return [(t[0], "name_only", CONFIDENCE["name_only"] / k) for t in bound]

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        top = ctx.frow.path.split("/", 1)[0] if "/" in ctx.frow.path else ""
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and f.language == self.language and (f.path.split("/", 1)[0] if "/" in f.path else "") == top:
                out.append(s)
        return out
