r"""Which ``#define`` lines of a header a default build reads, for the project's macro table (round 11).

toml++ defines ``TOML_NAMESPACE_START`` twice, under ``#if TOML_ABI_NAMESPACES`` and its ``#else``; the flag is
``1`` unless ``TOML_DOXYGEN``, itself ``0`` unless a documentation tool's name is defined. A build without ``-D``
flags reads one branch; so does :func:`taken_defines`, as far as the header itself tells:

- ``#ifndef N`` is taken when the file has not surely defined ``N`` above it (no ``-D``: the default, and every
  include guard);
- ``#ifdef N`` / ``defined(N)`` is taken when the file surely defined ``N`` above, not taken when no header of
  the project defines ``N`` anywhere, else undecided;
- ``#if`` with integers, ``defined``, ``!``, ``&&``, ``||``, comparisons and names the file surely defined as
  integers above (a name defined nowhere is ``0``, as for the preprocessor) is evaluated; anything else is
  undecided, and so are the definitions under it (they are all kept, and must agree).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define)\b[ \t]*((?:[^\n\\]|\\\r?\n)*)",
                        re.MULTILINE)
_DEFINE = re.compile(rb"([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)", re.S)
_NAME_ONLY = re.compile(rb"([A-Za-z_]\w*)")
_DEFINED = re.compile(rb"\bdefined\b[ \t]*(?:\([ \t]*([A-Za-z_]\w*)[ \t]*\)|([A-Za-z_]\w*))")
_WORD = re.compile(rb"\b[A-Za-z_]\w*\b")
_NUMBER = re.compile(rb"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b")
_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
_BLOCK = re.compile(rb"/\*.*?\*/", re.S)
_UNKNOWN = b"\x00"


def uncommented(text: bytes) -> bytes:
    r"""``text`` without its block comments (each kept as its newlines): rapidjson's documentation shows
    ``#define RAPIDJSON_NAMESPACE_BEGIN namespace my { namespace rapidjson {`` in a ``/* ... */``.

    Examples
    --------
    >>> uncommented(b"/* \\code\n#define A 1\n*/\n#define B 2\n")
    b'\n\n\n#define B 2\n'
    """
    if b"/*" not in text:
        return text
    return _BLOCK.sub(lambda m: b"\n" * m.group(0).count(b"\n"), text)


def defined_names(text: bytes) -> Iterator[bytes]:
    """Every name ``text`` ``#define``\\ s (object- or function-like; ``text`` :func:`uncommented`)."""
    for m in _DIRECTIVE.finditer(text):
        if m.group(1) == b"define":
            n = _NAME_ONLY.match(m.group(2))
            if n:
                yield n.group(1)


def _evaluate(expr: bytes, values: dict[bytes, int], defined: set[bytes], anywhere: set[bytes]) -> bool | None:
    """``#if expr`` in a default build, ``None`` when the header does not tell.

    Examples
    --------
    >>> _evaluate(b"defined(DOXYGEN) || defined(__POXY__)", {}, set(), set())
    False
    >>> _evaluate(b"TOML_DOXYGEN", {b"TOML_DOXYGEN": 0}, {b"TOML_DOXYGEN"}, {b"TOML_DOXYGEN"})
    False
    >>> _evaluate(b"!LIB_FLAG && __cplusplus >= 201703L", {}, set(), {b"LIB_FLAG"}) is None
    True
    >>> _evaluate(b"LIB_HAS_INCLUDE(<version>) || 1 (2)", {}, set(), set()) is None
    True
    >>> _evaluate(b"1 << 4000000000", {}, set(), set()) is None
    True
    """
    def name_of(m: re.Match) -> bytes:
        n = m.group(1) or m.group(2)
        return b" 1 " if n in defined else b" 0 " if n not in anywhere else _UNKNOWN
    e = _DEFINED.sub(name_of, _COMMENT.sub(b" ", expr.replace(b"\\\n", b" ")))
    if _UNKNOWN in e:
        return None
    e = _NUMBER.sub(lambda m: b" %d " % int(m.group(1), 0), e)

    def word(m: re.Match) -> bytes:
        n = m.group(0)
        if e[m.end():m.end() + 1] == b"(" or e[m.end():].lstrip()[:1] == b"(":  # a function-like macro's call
            return _UNKNOWN
        if n in values:
            return b" %d " % values[n]
        return _UNKNOWN if n in anywhere or n.startswith(b"__") else b" 0 "  # a compiler's own name: not known
    e = _WORD.sub(word, e)
    if _UNKNOWN in e:
        return None
    text = e.decode("ascii", "replace").replace("&&", " and ").replace("||", " or ")
    text = " ".join(re.sub(r"!(?!=)", " not ", text).split())
    if not re.fullmatch(r"[0-9 ()<>=!]*|(?:[0-9 ()<>=!]|\band\b|\bor\b|\bnot\b)*", text) or not text.strip() \
            or "<<" in text or ">>" in text:  # a shift by a huge count would build a huge integer
        return None
    try:
        with warnings.catch_warnings():  # ``1 (2)`` compiles with a SyntaxWarning before it fails
            warnings.simplefilter("ignore")
            return bool(eval(text, {"__builtins__": {}}, {}))  # digits, comparisons and and/or/not only (checked above)
    except Exception:
        return None


def taken_defines(text: bytes, anywhere: set[bytes]) -> Iterator[tuple[bytes, bytes]]:
    r"""``(name, value)`` of the object-like ``#define`` lines of ``text`` a default build may read (see the module).

    Examples
    --------
    >>> h = (b"#ifndef ABI\n#if defined(DOXYGEN)\n#define ABI 0\n#else\n#define ABI 1\n#endif\n#endif\n"
    ...      b"#if ABI\n#define NS_START namespace lib { inline namespace v1 {\n#else\n#define NS_START namespace lib {\n"
    ...      b"#endif\n#ifdef _WIN32\n#define API __declspec(dllexport)\n#else\n#define API\n#endif\n")
    >>> [(n.decode(), v.decode()) for n, v in taken_defines(h, {b"ABI", b"NS_START", b"API"})]
    [('ABI', '1'), ('NS_START', 'namespace lib { inline namespace v1 {'), ('API', '')]
    """
    values: dict[bytes, int] = {}
    defined: set[bytes] = set()
    stack: list[list] = []  # per open #if: [this branch taken (True/False/None), one surely taken, one maybe taken]
    for m in _DIRECTIVE.finditer(text):
        word, rest = m.group(1), m.group(2)
        if word == b"define":
            if any(s[0] is False for s in stack):
                continue
            d = _DEFINE.match(rest)
            if d is None:
                continue
            name, value = d.group(1), d.group(2).strip()
            yield name, value
            if all(s[0] is True for s in stack):
                defined.add(name)
                n = _NUMBER.fullmatch(value)
                if n is not None:
                    values[name] = int(n.group(1), 0)
                elif value in values:  # ``#define TOML_HEADER_ONLY TOML_ALL_INLINE``
                    values[name] = values[value]
        elif word in (b"if", b"ifdef", b"ifndef"):
            n = _NAME_ONLY.match(rest)
            if word == b"if":
                c = _evaluate(rest, values, defined, anywhere)
            elif n is None:
                c = None
            elif word == b"ifndef":
                c = n.group(1) not in defined
            else:
                c = True if n.group(1) in defined else False if n.group(1) not in anywhere else None
            stack.append([c, c is True, c is not False])
        elif not stack:
            continue
        elif word == b"endif":
            stack.pop()
        else:
            top = stack[-1]
            if top[1]:
                c = False
            elif word == b"else":
                c = True if not top[2] else None
            else:
                c = _evaluate(rest, values, defined, anywhere)
                if top[2] and c is True:
                    c = None
            top[0] = c
            top[1] = top[1] or c is True
            top[2] = top[2] or c is not False
