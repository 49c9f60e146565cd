"""File names as the index stores them: printable on one line, and the exact OS name back.

A walked name that is not UTF-8, holds a control character or a backslash is escaped (:func:`escape_name`)
before it becomes a path in the index; :func:`unescape_name` gives the OS name back. Moved out of
:mod:`lore.index.walk` (which re-exports them) to keep that module under the size limit.
"""

from __future__ import annotations


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def needs_escape(name: str) -> bool:
    r"""Whether :func:`escape_name` changes ``name`` (not UTF-8, a backslash, a control character).

    Examples
    --------
    >>> needs_escape("café.py"), needs_escape("lit\\x41.py"), needs_escape("a\nb.py")
    (False, True, True)
    """
    if name.isascii():  # the usual name: two C-level scans instead of a Python loop over its characters
        return "\\" in name or not name.isprintable()  # (ASCII's unprintable: below 0x20, and 0x7F)
    return not _is_utf8(name) or any(ch == "\\" or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in name)


def escape_name(name: str) -> str:
    r"""A file name as the index stores it: printable on one line, and the exact name back with :func:`unescape_name`.

    Undecodable bytes (the OS hands them to Python as surrogate escapes, which SQLite cannot store)
    and control characters (a newline would split an error line, an escape sequence would reach the
    terminal) become ``\xNN``; a backslash becomes ``\\``, so a name that spells an escape
    (``lit\x41.py``) is never read back as another one. Every other name, the usual case, is stored
    as it is.

    Examples
    --------
    >>> import os
    >>> name = os.fsdecode(b"latin\xe9.py")
    >>> escape_name(name), escape_name("lit\\x41.py"), escape_name("a\nb.py"), escape_name("café.py")
    ('latin\\xe9.py', 'lit\\\\x41.py', 'a\\x0ab.py', 'café.py')
    >>> all(unescape_name(escape_name(n)) == n for n in (name, "lit\\x41.py", "a\nb.py", "\\"))
    True
    """
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def unescape_name(text: str) -> str:
    r"""The OS name (with surrogate escapes) of a name :func:`escape_name` escaped; the inverse of it.

    ``\xNN`` below ``\x80`` is that character (a control character), from ``\x80`` up the undecodable
    byte; a backslash that starts neither form is kept as it is.
    """
    if "\\" not in text:
        return text
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1 : i + 2] == "\\":
            out.append("\\")
            i += 2
            continue
        if ch == "\\" and text[i + 1 : i + 2] == "x":
            try:
                code = int(text[i + 2 : i + 4], 16) if len(text) >= i + 4 else -1
            except ValueError:
                code = -1
            if 0 <= code < 0x80:
                out.append(chr(code))
                i += 4
                continue
            if code >= 0x80:
                out.append(chr(0xDC00 + code))
                i += 4
                continue
        out.append(ch)
        i += 1
    return "".join(out)
