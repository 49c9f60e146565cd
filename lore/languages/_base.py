"""The :class:`Language` record: everything lore knows about one language, in one object.

A language folder (``lore/languages/<lang>/``) builds one ``Language`` from its parser, its query,
its resolution rules and its module naming; the registry in ``lore.languages`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from ..parsers.records import ParsedFile
from ._rules import LanguageRules

# parse(path, source, module) -> records of one file
Parser = Callable[[str, bytes, str], ParsedFile]
# module_namer(paths of the language's files, root directory name) -> path -> module name
ModuleNamer = Callable[[Sequence[str], str], Callable[[str], str]]


def path_module_name(path: str) -> str:
    """The module name of a file named by its path: the path without extension, ``/`` read as ``.``.

    Examples
    --------
    >>> path_module_name("lib/util.js"), path_module_name("src/net/http.go"), path_module_name("Makefile")
    ('lib.util', 'src.net.http', 'Makefile')
    """
    pp = PurePosixPath(path)
    stem_path = str(pp.with_suffix("")) if pp.suffix else str(pp)
    return stem_path.replace("/", ".")


def path_module_namer(paths: Sequence[str], root_name: str) -> Callable[[str], str]:
    """The default :data:`ModuleNamer`: every file is named by its own path (:func:`path_module_name`)."""
    return path_module_name


def never_a_package(path: str) -> bool:
    """The default ``is_package``: no file of the language stands for its directory."""
    return False


@dataclass(frozen=True, slots=True)
class Language:
    """One language lore indexes.

    Parameters
    ----------
    name
        The language name stored in the index (``files.language``).
    extensions
        File extensions (lower case, with the dot) that select this language.
    parse
        ``parse(path, source, module)``: the records of one file (never raises on bad input).
    rules
        What the language-neutral resolver needs to know about the language.
    grammar
        The tree-sitter grammar, as :func:`lore.parsers._ts.get_language` names it (``"go"``,
        ``"tree_sitter_typescript:language_tsx"``).
    file_names
        Whole file names that select this language whatever their extension (``go.mod``).
    module_namer
        ``module_namer(paths, root_name)`` -> a function naming each of ``paths`` (the files of this
        language in the repository) by its module: the qualified-name prefix of its symbols.
    is_package
        Whether a file stands for its directory (Python ``__init__.py``: relative imports start there).
    claims
        ``claims(paths)`` -> those of the repository's ``paths`` (every language's) that this language reads
        although their extension names another: C++ claims the ``.h`` headers of C++ projects. The walker
        asks once per walk.
    """

    name: str
    extensions: tuple[str, ...]
    parse: Parser
    rules: LanguageRules
    grammar: str
    file_names: tuple[str, ...] = ()
    module_namer: ModuleNamer = path_module_namer
    is_package: Callable[[str], bool] = never_a_package
    claims: Callable[[Sequence[str]], Iterable[str]] | None = None
