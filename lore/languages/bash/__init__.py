"""Bash: ``.sh``, ``.bash`` and ``.bats`` files; functions are global, ``source`` brings a file's into the shell."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import BashRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="bash",
    extensions=(".sh", ".bash", ".bats"),
    parse=parse,
    grammar="tree_sitter_bash:language",
    rules=BashRules(),
)
