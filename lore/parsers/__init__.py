"""Parsers: source bytes -> :class:`~lore.parsers.records.ParsedFile` records, one module per language.

Parsers never touch the store. ``LANGUAGES`` maps file extensions to language names; each
language name maps to a module ``lore.parsers.<module>`` that defines ``parse(path, source, module)``.
"""

from __future__ import annotations

import importlib
from pathlib import PurePosixPath

from .records import ParsedFile

# extension -> language
LANGUAGES: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
}

# whole file names -> language (files whose extension says nothing)
FILE_NAMES: dict[str, str] = {
    "go.mod": "go",  # module path and requirements: how Go import paths map to directories
}

# language -> parser module under lore.parsers
PARSER_MODULES: dict[str, str] = {
    "python": "python",
    "javascript": "javascript",
    "typescript": "typescript",
    "tsx": "typescript",
    "go": "go",
    "java": "java",
    "rust": "rust",
    "c": "c",
    "cpp": "cpp",
}


def language_for(path: str) -> str | None:
    """The language of ``path`` by its extension, or ``None`` if lore does not index it.

    Examples
    --------
    >>> language_for("pkg/mod.py")
    'python'
    >>> language_for("README.md") is None
    True
    >>> language_for("svc/go.mod")
    'go'
    """
    pp = PurePosixPath(path)
    return LANGUAGES.get(pp.suffix.lower()) or FILE_NAMES.get(pp.name)


def parse_source(path: str, source: bytes, language: str, module: str) -> ParsedFile:
    """Parse ``source`` (the bytes of ``path``) with the parser of ``language``."""
    mod = importlib.import_module(f"{__name__}.{PARSER_MODULES[language]}")
    return mod.parse(path, source, module)
