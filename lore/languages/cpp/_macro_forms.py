"""Macros that stand where the grammar needs a piece of syntax, read as that piece (blanks in place, same length:
every line and column stays). Each loses a definition, and in a class every member after it, when left.

A macro in a declaration's return-type position whose last argument is the return type in parentheses
(``RAPIDJSON_DISABLEIF_RETURN((internal::IsPointer<T>), (GenericValue&)) operator[](T* name) {``, the
``enable_if`` idiom behind a macro): the grammar reads a call and loses the function and, in a class, the rest of
the class. What the macro expands to is the type (with a condition that only chooses an overload), so the macro
is blanked to that type.

C's :func:`lore.languages.c._macros.blank_macro_noise` already reads ``MACRO(type) name(`` (one argument, no
parentheses inside); this is the nested form, the name on the same line or on the next."""

from __future__ import annotations

import re

# the macro at the start of a line, after an optional ``template <...>`` and specifiers: upper case with an ``_``
_HEAD = re.compile(rb"^[ \t]*(?:template[ \t]*<[^\n]*?>[ \t]*)?(?:(?:friend|static|inline|constexpr|virtual)[ \t]+)*"
                   rb"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[ \t]*\(", re.MULTILINE)
# what follows the macro: the declared name (qualified, a destructor or an operator) and its ``(``, on the same line
# or the next
_NAME = re.compile(rb"[ \t]*(?:\r?\n[ \t]*)?(?:operator[ \t]*(?:\(\)|[^\s(]+)|~?[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)*)"
                   rb"[ \t]*\(")


def _close(text: bytes, at: int) -> int:
    """Index of the ``)`` closing the ``(`` just before ``at`` on the same line, or -1."""
    depth = 1
    for i in range(at, len(text)):
        c = text[i]
        if c == 40:  # (
            depth += 1
        elif c == 41:  # )
            depth -= 1
            if depth == 0:
                return i
        elif c == 10:  # a newline: the macro's arguments span lines, not this form
            return -1
    return -1


def return_type_macros(source: bytes) -> bytes:
    r"""``source`` with each ``MACRO((cond), (Type)) name(`` read as ``Type name(``, blanks in place.

    Only when the last argument is parenthesized and a name with its ``(`` follows: a macro statement
    (``CHECK((a), (b));``, ``LOG(x) << y;``) and a one-argument macro stay as they are.

    Examples
    --------
    >>> return_type_macros(b"template <typename T> RAPIDJSON_DISABLEIF_RETURN((IsPointer<T>), (bool)) operator==(T x) {")
    b'template <typename T>                                             bool   operator==(T x) {'
    >>> return_type_macros(b"  LIB_ENABLEIF_RETURN((IsX<T>), (typename T::Value&))\n  Get(T& r) const;")
    b'                                 typename T::Value&  \n  Get(T& r) const;'
    >>> return_type_macros(b"  CHECK((a), (b));\n  LOG_IF((a), (b)) << f(x);\n")
    b'  CHECK((a), (b));\n  LOG_IF((a), (b)) << f(x);\n'
    """
    out = None
    for m in _HEAD.finditer(source):
        end = _close(source, m.end())
        if end < 0 or source[end - 1] != 41:  # ``)``: the last argument is parenthesized
            continue
        depth, open_at = 0, -1
        for i in range(end - 1, m.end() - 1, -1):  # the ``(`` of that last argument
            c = source[i]
            if c == 41:
                depth += 1
            elif c == 40:
                depth -= 1
                if depth == 0:
                    open_at = i
                    break
        if open_at < 0 or not source[m.end():open_at].rstrip().endswith(b","):
            continue
        if _NAME.match(source, end + 1) is None:
            continue
        if out is None:
            out = bytearray(source)
        start = m.start(1)
        out[start:open_at + 1] = b" " * (open_at + 1 - start)
        out[end - 1:end + 1] = b"  "
    return bytes(out) if out is not None else source


# ``RAPIDJSON_IF_CONSTEXPR (sizeof(Ch) == 1) {``, ``TOML11_CONSTEXPR_IF(cond)``: a macro for ``if constexpr`` (``if``
# where the compiler lacks it) opening a statement, also after an ``else`` (on the line of its ``}`` or alone); the
# grammar reads a call with a block after it and loses the function around it, and then the namespace
_IF_MACRO = re.compile(rb"^([ \t]*(?:\}[ \t]*)?(?:else[ \t]+)?)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:IF_CONSTEXPR|CONSTEXPR_IF))"
                       rb"(?=[ \t]*\()", re.MULTILINE)
# ``if TOML_UNLIKELY(c == 0)``, ``} else if LIB_LIKELY(n > 1) {``, ``while LIB_LIKELY(x)``: a macro that writes a
# statement's condition with its parentheses (``#define TOML_UNLIKELY(...) (__VA_ARGS__) [[unlikely]]``); the grammar
# reads ``if`` with no ``(`` and loses the rest of the function (toml++ writes 57 of them). Upper case with an ``_``,
# right after the statement word; a directive's (``#if LIB_AT_LEAST(3)``) is left alone
_CONDITION_MACRO = re.compile(rb"(?<![\w.>:#])((?:if|while)[ \t]+)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?=[ \t]*\()")
# an attribute or export macro between a declaration's type and its name (``bool PUGIXML_FUNCTION operator&&(``,
# ``std::string LIB_CALL as_utf8(``): upper case with an ``_``, after a type at the start of the line (a statement
# word such as ``return`` or ``new`` is no type), before a name or ``operator`` and its ``(``
_TYPE = (rb"(?:(?:static|inline|virtual|constexpr|explicit|friend|extern|const|unsigned|signed|long)[ \t]+)*"
         rb"[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?")
_MIDDLE_MACRO = re.compile(rb"^[ \t]*(" + _TYPE + rb")[ \t*&]+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?=[ \t]+[*&]*(?:operator\b|"
                           rb"~?[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)*[ \t]*\())", re.MULTILINE)
_NOT_TYPES = frozenset({b"return", b"throw", b"case", b"else", b"new", b"delete", b"goto", b"co_return", b"co_yield",
                        b"co_await", b"sizeof", b"do", b"using", b"typedef", b"namespace", b"template", b"public",
                        b"private", b"protected", b"default", b"if", b"while", b"for", b"switch", b"operator"})

_SPECIFIERS = frozenset({b"static", b"inline", b"virtual", b"constexpr", b"explicit", b"friend", b"extern", b"const",
                         b"unsigned", b"signed", b"long"})


def if_macros(source: bytes) -> bytes:
    r"""``source`` with a macro for ``if constexpr`` opening a statement read as ``if``.

    Examples
    --------
    >>> if_macros(b"    LIB_IF_CONSTEXPR (sizeof(T) == 1) {\n")
    b'    if               (sizeof(T) == 1) {\n'
    >>> if_macros(b"  else LIB_CONSTEXPR_IF(B) {\n  } else LIB_CONSTEXPR_IF(C)\n  x = LIB_CONSTEXPR_IF(D);\n")
    b'  else if              (B) {\n  } else if              (C)\n  x = LIB_CONSTEXPR_IF(D);\n'
    """
    return _IF_MACRO.sub(lambda m: m.group(1) + b"if" + b" " * (len(m.group(2)) - 2), source)


def condition_macros(source: bytes) -> bytes:
    r"""``source`` with a macro that writes an ``if`` or ``while`` condition blanked, its parentheses kept.

    Examples
    --------
    >>> condition_macros(b"  if TOML_UNLIKELY(c == 0)\n    f();\n  } else if LIB_LIKELY(n) {\n")
    b'  if              (c == 0)\n    f();\n  } else if           (n) {\n'
    >>> condition_macros(b"#if LIB_AT_LEAST(3)\n  if (LIB_LIKELY(x)) g();\n  x.if LIB_A(y);\n  if CONSTANT(y)\n")
    b'#if LIB_AT_LEAST(3)\n  if (LIB_LIKELY(x)) g();\n  x.if LIB_A(y);\n  if CONSTANT(y)\n'
    """
    return _CONDITION_MACRO.sub(_condition, source)


def _condition(m: re.Match) -> bytes:
    line = m.string[m.string.rfind(b"\n", 0, m.start()) + 1:m.start()]
    if line.lstrip().startswith(b"#"):  # ``# if LIB_AT_LEAST(3)``
        return m.group(0)
    return m.group(1) + b" " * len(m.group(2))


def _middle(m: re.Match) -> bytes:
    """The macro of a :data:`_MIDDLE_MACRO` match blanked, unless its "type" is a statement word."""
    words = m.group(1).split()
    if words[-1] in _NOT_TYPES or words[0] in _NOT_TYPES or words[-1] in _SPECIFIERS:
        return m.group(0)  # a statement, or the macro among the specifiers before the type (left to the grammar)
    cut = m.start(2) - m.start(0)
    return m.group(0)[:cut] + b" " * (m.end(2) - m.start(2))


def middle_macros(source: bytes) -> bytes:
    r"""``source`` with an upper-case macro between a declaration's type and its name blanked.

    Examples
    --------
    >>> middle_macros(b"bool LIB_FUNCTION operator&&(const node& a, bool b)\nstd::string LIB_CALL as_utf8(const wchar_t* s);")
    b'bool              operator&&(const node& a, bool b)\nstd::string          as_utf8(const wchar_t* s);'
    >>> middle_macros(b"  return LIB_VALUE f(x);\n  x = NEW_LINE g(y);\n#define A_B C_D e(x)\nextern LIB_DECL void (*f)(int);\n")
    b'  return LIB_VALUE f(x);\n  x = NEW_LINE g(y);\n#define A_B C_D e(x)\nextern LIB_DECL void (*f)(int);\n'
    """
    return _MIDDLE_MACRO.sub(_middle, source)
