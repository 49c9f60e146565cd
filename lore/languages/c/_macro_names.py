"""Names a macro writes: a function whose declarator is ``MACRO(name)`` (an export or calling-convention wrapper
such as bzip2's ``int BZ_API(BZ2_bzWrite)(...)``, or a prefix pasted on, pcre2's ``PRIV(strcmp_c8)``), and the
definitions a function-like macro's body writes with token pasting at each top-level use
(libevent's ``#define IMPL_CTYPE_FN(name) int EVUTIL_##name##_(char c) {...}`` then ``IMPL_CTYPE_FN(ISALPHA)``).
Macros are not expanded otherwise: only a file's own ``#define``\\ s are read here (the extractor of one file sees
no other), and a wrapper whose body the file does not hold names the function by its argument, the name a reader
writes and the one the wrapper passes through. (:mod:`._extract` asks these while it reads declarators.)
"""

from __future__ import annotations

import re

from ...parsers._lines import LinePattern

# ``#define NAME(a, b) body`` with its continuation lines (the body keeps its backslash-newlines)
_FN_MACRO = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\)((?:[^\n]*\\\r?\n)*[^\n]*)")
_UPPER = re.compile(r"[A-Z][A-Z0-9_]+")
_IDENT = re.compile(r"[A-Za-z_]\w*")
# in a macro body: ``[static] [inline] type words NAME_EXPR(`` where NAME_EXPR pastes (``EVUTIL_##name##_``),
# then a parameter list and ``{``: the body writes a function definition
_PASTED_DEFINITION = re.compile(
    r"^\s*((?:[A-Za-z_]\w*[\s*]+)+?)((?:[A-Za-z_]\w*\s*##\s*)+[A-Za-z_]\w*|(?:##\s*[A-Za-z_]\w*\s*)+)\s*\(([^{}()]*)\)\s*\{")


def function_macros(source: bytes) -> dict[str, tuple[list[str], str]]:
    """The function-like macros ``source`` defines: name -> (parameter names, body as one line); the last
    definition wins.

    Examples
    --------
    >>> function_macros(b"#define PRIV(name) _pcre2_##name\\n#define F(a, b) \\\\\\n  a + b\\n")
    {'PRIV': (['name'], '_pcre2_##name'), 'F': (['a', 'b'], 'a + b')}
    """
    out: dict[str, tuple[list[str], str]] = {}
    if b"define" not in source:
        return out
    for m in _FN_MACRO.finditer(source):
        params = [p.strip() for p in m.group(2).decode("utf-8", "replace").split(",") if p.strip()]
        body = re.sub(r"\\\r?\n", " ", m.group(3).decode("utf-8", "replace")).strip()
        body = re.sub(r"\s*##\s*", "##", body)
        out[m.group(1).decode()] = (params, body)
    return out


def _substitute(expr: str, params: list[str], args: list[str]) -> str | None:
    """``expr`` (identifiers joined by ``##``) with ``params`` replaced by ``args`` and the pasting done: one
    identifier, else ``None``."""
    bound = dict(zip(params, args, strict=True))  # callers pass as many arguments as parameters
    parts = [bound.get(w.strip(), w.strip()) for w in expr.split("##")]
    name = "".join(parts)
    return name if _IDENT.fullmatch(name) else None


def wrapped_name(macro: str, arg: str, macros: dict[str, tuple[list[str], str]]) -> str | None:
    """The function ``MACRO(arg)`` names in a declarator: ``arg`` through the file's own definition of the
    macro when its body is the argument, words then the argument (``WINAPI func``) or a pasting of it
    (``_pcre2_##name``); ``arg`` when the file does not define the macro; ``None`` when ``macro`` is no
    upper-case name or the file's definition writes something else.

    Examples
    --------
    >>> wrapped_name("PRIV", "strcmp_c8", {"PRIV": (["name"], "_pcre2_##name")})
    '_pcre2_strcmp_c8'
    >>> wrapped_name("BZ_API", "BZ2_bzWrite", {})
    'BZ2_bzWrite'
    >>> wrapped_name("BZ_API", "BZ2_bzWrite", {"BZ_API": (["func"], "WINAPI func")})
    'BZ2_bzWrite'
    >>> wrapped_name("CALL", "f", {"CALL": (["x"], "(x)->run")}) is None
    True
    """
    if not _UPPER.fullmatch(macro) or not _IDENT.fullmatch(arg):
        return None
    known = macros.get(macro)
    if known is None:
        return arg
    params, body = known
    if len(params) != 1:
        return None
    words = body.split()
    if words and all(_UPPER.fullmatch(w) for w in words[:-1]):  # calling-convention words before the name
        return _substitute(words[-1], params, [arg])
    return None


def pasted_definitions(source: bytes) -> list[tuple[int, str, bool, list[tuple[str, str]], str]]:
    """The functions written by top-level uses of the file's macros whose body defines a function with a pasted
    name: (byte offset of the use, the function's name, whether it is ``static``, its parameters as
    ``(name, type)``, its signature as the macro writes it), in source order.

    Examples
    --------
    >>> src = (b"#define IMPL(name) \\\\\\n  int EVUTIL_##name##_(char c) { return c; }\\n"
    ...        b"IMPL(ISALPHA)\\nIMPL(ISDIGIT)\\nint f(void) { IMPL(no); return 0; }\\n")
    >>> [(name, static, params) for _, name, static, params, _ in pasted_definitions(src)]
    [('EVUTIL_ISALPHA_', False, [('c', 'char')]), ('EVUTIL_ISDIGIT_', False, [('c', 'char')])]
    >>> pasted_definitions(src)[0][-1]
    'int EVUTIL_ISALPHA_(char c)'

    """
    if b"##" not in source:
        return []
    writers = {}
    for name, (params, body) in function_macros(source).items():
        m = _PASTED_DEFINITION.match(body)  # the pasting is written without spaces (function_macros)
        if m is not None and params:
            static = bool(re.match(r"\s*static\b", m.group(1)))
            writers[name] = (params, m.group(2), static, m.group(1), m.group(3))
    if not writers:
        return []
    pattern = re.compile(rb"^(" + b"|".join(re.escape(w.encode()) for w in writers) + rb")[ \t]*\(([^()\n]*)\)",
                         re.MULTILINE)
    out = []
    for m in pattern.finditer(source):
        params, expr, static, head, declared = writers[m.group(1).decode()]
        args = [a.strip() for a in m.group(2).decode("utf-8", "replace").split(",")]
        if len(args) != len(params):
            continue
        name = _substitute(expr, params, args)
        if name is not None:
            signature = f"{' '.join(head.split())} {name}({' '.join(declared.split())})"
            out.append((m.start(), name, static, _parameters(declared), signature))
    return out


def _parameters(text: str) -> list[tuple[str, str]]:
    """``char c, const char *s`` -> ``[("c", "char"), ("s", "char")]`` (``void`` and ``...`` take none)."""
    out = []
    for p in text.split(","):
        words = [w for w in re.findall(r"[A-Za-z_]\w*", p)
                 if w not in ("const", "volatile", "struct", "union", "enum", "register")]
        if words and words != ["void"]:
            out.append((words[-1], words[-2] if len(words) > 1 else ""))
    return out
