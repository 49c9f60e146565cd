"""Bash's resolution rules (drawing stage: a command whose name is a function of the same file)."""

from __future__ import annotations

from ...parsers.records import Import
from .._rules import ImportBinding, LanguageRules


class BashRules(LanguageRules):
    language = "bash"
    first_param_is_receiver = False
    uppercase_calls_construct = False
    guesses_by_name = False
    builtin_prefix = "bash"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return None
