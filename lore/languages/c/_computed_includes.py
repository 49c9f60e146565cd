"""Computed includes: ``#include FT_CONFIG_OPTIONS_H`` after ``#define FT_CONFIG_OPTIONS_H
<freetype/config/ftoption.h>`` (freetype's ``ftheader.h``, and old portable libraries' ``#include CONFIG_H``).

The header a macro names is what the preprocessor includes. A file's ``#define NAME <path>`` / ``"path"`` is kept
as an ``"=inc NAME SPEC"`` entry of its ``defines``; the project's macro tally (:mod:`._macro_tally`) holds them,
and an ``#include NAME`` follows ``SPEC`` when the project's files agree on it (:func:`include_spec`)."""

from __future__ import annotations

import re

from ...parsers._lines import LinePattern

_INCLUDE_MACRO = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(<[^>\s]+>|\"[^\"\s]+\")[ \t]*"
                             rb"(?:/\*[^\n]*\*/|//[^\n]*)?\r?$")
IDENT = re.compile(r"[A-Za-z_]\w*")


def include_macros(source: bytes) -> list[str]:
    """The ``=inc`` entries of ``source``: each object-like macro whose value is a header name.

    Examples
    --------
    >>> include_macros(b'#define FT_CONFIG_CONFIG_H  <freetype/config/ftconfig.h>\\n#define X "x.h" /* local */\\n'
    ...                b'#define N 3\\n#define S "a b"\\n')
    ['=inc FT_CONFIG_CONFIG_H <freetype/config/ftconfig.h>', '=inc X "x.h"']
    """
    if b"define" not in source or (b"<" not in source and b'"' not in source):
        return []
    return [f"=inc {m.group(1).decode('utf-8', 'replace')} {m.group(2).decode('utf-8', 'replace')}"
            for m in _INCLUDE_MACRO.finditer(source)]


def include_spec(world, name: str) -> str | None:
    """The header ``#include NAME`` names: the one value the project's files give ``NAME`` (``None`` when
    none does or they disagree)."""
    from ._build import tally_of

    return tally_of(world).include_macro(name)
