"""Python: ``.py`` / ``.pyi`` files, dotted module paths from package directories."""

from __future__ import annotations

from .._base import Language
from ._modules import is_package_file, module_namer
from ._parser import parse
from ._rules import PythonRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="python",
    extensions=(".py", ".pyi"),
    parse=parse,
    grammar="python",
    rules=PythonRules(),
    module_namer=module_namer,
    is_package=is_package_file,
)
