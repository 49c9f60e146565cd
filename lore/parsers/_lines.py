"""Regular expressions anchored at line starts (``^...`` under ``re.MULTILINE``), searched about 4x faster.

Python's ``re`` tries a pattern that begins with ``^`` at every position of the text: a source
clean-up that looks for a macro at the start of a line pays one failed attempt per byte. The same
pattern written after a literal newline (``\\n...``) lets ``re`` jump from newline to newline in C.
:class:`LinePattern` finds the candidates that way and confirms each with the original pattern at the
line's start, so every match (its span, groups and order) is the one the original pattern gives: a
drop-in for ``finditer``, ``search`` and ``sub`` with a function.

Used by the C family's source clean-ups (:mod:`lore.languages.c._macros`), which scan every byte of
every C file more than a dozen times (on the Linux kernel, about 13% of a fresh index's CPU).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

__all__ = ["LinePattern"]


class LinePattern:
    """``re.compile(b"^(?:" + body + b")", re.MULTILINE | flags)``, searched from newline to newline.

    ``body`` must not match the empty string and must not look behind its start (the patterns it
    is meant for begin with ``[ \\t]*`` or a literal).

    Examples
    --------
    >>> p = LinePattern(rb"[ \\t]*#[ \\t]*define[ \\t]+(\\w+)")
    >>> src = b"#define A 1\\nint x; #define NO\\n  # define B\\n"
    >>> [m.group(1) for m in p.finditer(src)] == [m.group(1) for m in p.pattern.finditer(src)]
    True
    >>> p.sub(lambda m: b"-" * len(m.group(0)), src) == p.pattern.sub(lambda m: b"-" * len(m.group(0)), src)
    True
    """

    __slots__ = ("fast", "pattern")

    def __init__(self, body: bytes, flags: int = 0) -> None:
        self.pattern = re.compile(b"^(?:" + body + b")", re.MULTILINE | flags)  # the original: confirms, and gives the match
        self.fast = re.compile(b"\\n(?:" + body + b")", re.MULTILINE | flags)  # finds candidates at C speed

    def finditer(self, source: bytes) -> Iterator[re.Match]:
        """The matches ``self.pattern.finditer(source)`` gives, in order."""
        match, search = self.pattern.match, self.fast.search
        m = match(source)
        pos = 0
        if m is not None:
            yield m
            pos = m.end() - 1  # a newline the match ended with still opens the next line
        while True:
            c = search(source, pos)
            if c is None:
                return
            start = c.start() + 1
            m = match(source, start)
            if m is None:  # cannot happen for a body that looks only forward; kept exact all the same
                pos = start
                continue
            yield m
            pos = m.end() - 1

    def search(self, source: bytes) -> re.Match | None:
        """``self.pattern.search(source)``."""
        return next(self.finditer(source), None)

    def sub(self, repl: Callable[[re.Match], bytes], source: bytes) -> bytes:
        """``self.pattern.sub(repl, source)`` for a function ``repl``."""
        out: list[bytes] = []
        last = 0
        for m in self.finditer(source):
            out.append(source[last:m.start()])
            out.append(repl(m))
            last = m.end()
        if not out:
            return source
        out.append(source[last:])
        return b"".join(out)
