"""MSVC's inline assembly blocks (``__asm { mov eax, a ... }``), which the C grammar cannot read: one in a
branch another compiler takes (freetype's ``ftcalc.h``: ``#if defined( __CC_ARM )`` / ``__asm { smull ... }``)
made the whole header one error node, and its ``#if`` chains were lost with it (both ``FT_MulFix`` macros read as
compiled). An assembly block holds no call and no definition: it becomes spaces, newlines kept, every other
position unchanged (:func:`lore.languages.c._parser.parse` calls this first)."""

from __future__ import annotations

import re

# ``__asm {`` / ``_asm {`` (MSVC, RVCT) up to the first ``}``: their bodies hold no braces
_ASM_BLOCK = re.compile(rb"\b_{1,2}asm[ \t]*\r?\n?[ \t]*\{[^{}]*\}")


def blank_asm_blocks(source: bytes) -> bytes:
    """``source`` with each brace-delimited inline assembly block blanked (GCC's ``__asm__ (...)`` stays: the
    grammar reads it).

    Examples
    --------
    >>> src = b"int f(int a) {\\n  __asm\\n  {\\n    mov eax, a\\n  }\\n  return a;\\n}\\n"
    >>> out = blank_asm_blocks(src)
    >>> out.split(b"\\n")[1:5], len(out) == len(src)
    ([b'       ', b'   ', b'              ', b'   '], True)
    >>> blank_asm_blocks(b'__asm__ __volatile__ ("nop");') == b'__asm__ __volatile__ ("nop");'
    True
    """
    if b"asm" not in source:
        return source
    return _ASM_BLOCK.sub(lambda m: re.sub(rb"[^\r\n]", b" ", m.group(0)), source)
