"""Go: ``.go`` files and the ``go.mod`` files that map import paths to directories."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import GoRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="go",
    extensions=(".go",),
    parse=parse,
    grammar="go",
    rules=GoRules(),
    file_names=("go.mod",),  # module path and requirements: how Go import paths map to directories
)
