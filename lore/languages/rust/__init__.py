"""Rust: ``.rs`` files; modules follow ``mod`` declarations and the crate layout."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import RustRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="rust",
    extensions=(".rs",),
    parse=parse,
    grammar="rust",
    rules=RustRules(),
)
