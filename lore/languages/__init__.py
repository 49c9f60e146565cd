"""One home per language, and the registry that lists them.

Everything lore knows about a language lives in ``lore/languages/<lang>/``: its parser (tree-sitter
records via the shared extraction base in :mod:`lore.parsers`), its query (``.scm``), its resolution
rules, its module naming and its file extensions, gathered in one :class:`Language` object. This
module lists those objects in :data:`LANGUAGES`; nothing registers itself by being imported.

Adding a language: one folder and one line in :data:`LANGUAGES` (see ``CONTRIBUTING.md``).

Examples
--------
>>> language_for("pkg/mod.py").name, language_for("web/App.tsx").name, language_for("svc/go.mod").name
('python', 'tsx', 'go')
>>> language_for("README.md") is None
True
>>> get("rust").extensions
('.rs',)
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ..errors import UnknownAlgorithmError
from ..parsers.records import ParsedFile
from . import (
    bash,
    basic,
    c,
    cpp,
    csharp,
    go,
    java,
    javascript,
    kotlin,
    lua,
    php,
    python,
    ruby,
    rust,
    scala,
    swift,
    typescript,
)
from ._base import Language
from ._rules import ImportBinding, LanguageRules

__all__ = [
    "BUILTIN_RESULTS",
    "EXTENSIONS",
    "FILE_NAMES",
    "LANGUAGES",
    "ImportBinding",
    "Language",
    "LanguageRules",
    "get",
    "language_for",
    "module_name",
    "parse_source",
    "rules_for",
]

LANGUAGES: tuple[Language, ...] = (
    python.LANGUAGE,
    javascript.LANGUAGE,
    typescript.LANGUAGE,
    typescript.TSX,
    go.LANGUAGE,
    java.LANGUAGE,
    rust.LANGUAGE,
    c.LANGUAGE,
    cpp.LANGUAGE,
    csharp.LANGUAGE,
    ruby.LANGUAGE,
    php.LANGUAGE,
    kotlin.LANGUAGE,
    lua.LANGUAGE,
    bash.LANGUAGE,
    swift.LANGUAGE,
    scala.LANGUAGE,
    *basic.languages(),  # the basic tier: installed grammar wheels with a tags.scm (name-only edges)
)

_BY_NAME: dict[str, Language] = {lang.name: lang for lang in LANGUAGES}
# every language's :attr:`LanguageRules.builtin_results`, for the resolver (names carry their language's prefix)
BUILTIN_RESULTS: dict[str, str] = {k: v for lang in LANGUAGES for k, v in lang.rules.builtin_results.items()}
# extension (lower case, with the dot) -> language name; whole file name -> language name
EXTENSIONS: dict[str, str] = {ext: lang.name for lang in LANGUAGES for ext in lang.extensions}
FILE_NAMES: dict[str, str] = {fn: lang.name for lang in LANGUAGES for fn in lang.file_names}


def get(name: str) -> Language:
    """The language called ``name`` (as stored in the index: ``python``, ``tsx``, ``cpp`` ...).

    Raises
    ------
    UnknownAlgorithmError
        When lore has no such language (an ``InvalidArgumentError``, so also a ``ValueError``).
    """
    lang = _BY_NAME.get(name)
    if lang is None:
        raise UnknownAlgorithmError(name, tuple(_BY_NAME), what="language")
    return lang


def rules_for(name: str) -> LanguageRules:
    """The resolution rules of the language called ``name`` (``get(name).rules``)."""
    return get(name).rules


def language_for(path: str) -> Language | None:
    """The language of ``path`` by its extension (or whole file name), or ``None`` if lore does not index it."""
    pp = PurePosixPath(path)
    name = EXTENSIONS.get(pp.suffix.lower()) or FILE_NAMES.get(pp.name)
    return _BY_NAME[name] if name is not None else None


def parse_source(path: str, source: bytes, language: str, module: str) -> ParsedFile:
    """Parse ``source`` (the bytes of ``path``) with the parser of the language called ``language``."""
    return get(language).parse(path, source, module)


def module_name(path: str, language: str) -> str:
    """The module name of ``path`` seen alone (no other file of the repository known), in ``language``.

    The indexer names every file knowing all the files of its language (:attr:`Language.module_namer`);
    this is the one-file shortcut for tools and tests.

    Examples
    --------
    >>> module_name("lib/util.js", "javascript"), module_name("pkg/__init__.py", "python")
    ('lib.util', 'pkg')
    """
    return get(language).module_namer([path], "")(path)
