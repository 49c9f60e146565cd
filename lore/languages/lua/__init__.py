"""Lua: ``.lua`` files; a table is a module or a class, ``require("a.b")`` binds what ``a/b.lua`` returns."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import LuaRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="lua",
    extensions=(".lua",),
    parse=parse,
    grammar="tree_sitter_lua:language",
    rules=LuaRules(),
)
