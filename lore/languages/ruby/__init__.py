"""Ruby: ``.rb`` files (and ``.rake``, ``Rakefile``, ``Gemfile``); constants are global, files are required by path."""

from __future__ import annotations

from .._base import Language
from ._parser import parse
from ._rules import RubyRules

__all__ = ["LANGUAGE"]

LANGUAGE = Language(
    name="ruby",
    extensions=(".rb", ".rake"),
    parse=parse,
    grammar="ruby",
    rules=RubyRules(),
    file_names=("Rakefile", "Gemfile"),
)
