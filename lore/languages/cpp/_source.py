"""C++ source clean-ups before the parse: what the preprocessor would have removed, blanked in place (same length,
so every line and column stays), on top of C's (:func:`lore.languages.c._macros.blank_macro_noise`)."""

from __future__ import annotations

import re

from ..c._macros import blank_macro_noise

# An export or attribute macro between a declaration's type and its name (``String JSON_API f(...)``,
# ``JSONCPP_NORETURN void f()``, ``class LEVELDB_EXPORT DB``): the grammar reads a second type and loses
# the declaration. Names ending in these words are what build systems define empty or as an attribute
# (``FMT_CONSTEXPR20``, ``LIB_INLINE``: ``constexpr``, ``inline`` where the compiler has them).
_EXPORT_MACRO = re.compile(rb"(?<![\w#:.>])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API|EXPORT|EXPORTS|DLL|PUBLIC|LIB|NORETURN|"
                           rb"INLINE|NOINLINE|DEPRECATED|NODISCARD|HIDDEN|CONSTEXPR\d*|CONSTEVAL|NOEXCEPT|UNUSED)\b(?![ \t]*\()")
# ``#if`` / ``#else`` / ``#endif`` in the middle of a construct (a member initializer list after a ``,``, an
# argument list after a ``(``, a declaration after ``template <...>``): the grammar cannot place the directive
# there and loses everything up to the end of the file. Such directive lines are blanked, both branches kept.
# a pragma-like macro alone on its line (``CXXOPTS_IGNORE_WARNING("-Weffc++")``, ``_Pragma("once")``): no statement
# (no ``;``) and no declaration wrapper (a string is its only argument); the grammar would join it to the next line
_PRAGMA_MACRO = re.compile(rb'^[ \t]*(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|_Pragma)[ \t]*\([ \t]*"[^"\n]*"[ \t]*\)[ \t]*\r?$',
                           re.MULTILINE)
# ``typename std::enable_if<C>::type* = nullptr`` as a template parameter: the grammar takes no unnamed pointer with a
# default there and loses the template; the ``*`` is blanked (a non-type parameter of the type itself parses)
_SFINAE_POINTER = re.compile(rb"(>(?:::type)?[ \t]*)\*(?=[ \t]*=[ \t]*(?:nullptr|0|NULL)\b)")
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
_TEMPLATE_HEAD = re.compile(rb"template\s*<.*>$")


def _blank_outside_directives(m: re.Match) -> bytes:
    """An export macro blanked, unless on a preprocessor line (``#define LIB_API __declspec(...)`` stays)."""
    text = m.string
    start = text.rfind(b"\n", 0, m.start()) + 1
    if text[start:m.start()].lstrip().startswith(b"#"):
        return m.group(0)
    return b" " * len(m.group(0))


def cpp_source(source: bytes) -> bytes:
    r"""``source`` cleaned for the C++ grammar, every position unchanged: :func:`blank_macro_noise`, export
    macros, pragma-like macro lines, SFINAE pointers in template parameters, and conditional directives that split
    a construct.

    Examples
    --------
    >>> cpp_source(b"template <class T, typename std::enable_if<B<T>::value>::type* = nullptr> void f();")
    b'template <class T, typename std::enable_if<B<T>::value>::type  = nullptr> void f();'
    >>> cpp_source(b'LIB_IGNORE_WARNING("-Weffc++")\nint f();\n')
    b'                              \nint f();\n'
    >>> cpp_source(b"String JSON_API f(int);\nA::A()\n    : a_(1),\n#ifdef X\n      b_(2),\n#endif\n      c_(3) {}\n")
    b'String          f(int);\nA::A()\n    : a_(1),\n        \n      b_(2),\n      \n      c_(3) {}\n'
    """
    source = blank_macro_noise(source)
    if b"_" in source:
        source = _EXPORT_MACRO.sub(_blank_outside_directives, source)
        source = _PRAGMA_MACRO.sub(lambda m: b" " * len(m.group(0).rstrip(b"\r")) + b"\r" * m.group(0).endswith(b"\r"),
                                   source)
    if b"nullptr" in source or b"NULL" in source:
        source = _SFINAE_POINTER.sub(lambda m: m.group(1) + b" ", source)
    if b"#" not in source:
        return source
    lines = source.split(b"\n")
    prev = b""
    opened: list[bool] = []  # per open #if: whether it was blanked (its #else and #endif go with it)
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith((b"//", b"/*", b"*")):
            continue
        m = _DIRECTIVE.match(line)
        if m is None:
            if not s.startswith(b"#"):
                prev = s
            continue
        word = m.group(1)
        if word.startswith(b"if"):
            opened.append(prev.endswith((b",", b"(")) or _TEMPLATE_HEAD.match(prev) is not None)
            blank = opened[-1]
        else:
            blank = bool(opened) and opened[-1]
            if word == b"endif" and opened:
                opened.pop()
        if blank:
            lines[i] = b" " * len(line.rstrip(b"\r")) + (b"\r" if line.endswith(b"\r") else b"")
    return b"\n".join(lines)
