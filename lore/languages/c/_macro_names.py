"""Names a macro writes: a function whose declarator is ``MACRO(name)`` (an export or calling-convention wrapper
such as bzip2's ``int BZ_API(BZ2_bzWrite)(...)``, or a prefix pasted on, pcre2's ``PRIV(strcmp_c8)``), and the
definitions a function-like macro's body writes with token pasting at each top-level use
(libevent's ``#define IMPL_CTYPE_FN(name) int EVUTIL_##name##_(char c) {...}`` then ``IMPL_CTYPE_FN(ISALPHA)``).
Macros are not expanded otherwise: only a file's own ``#define``\\ s are read here (the extractor of one file sees
no other), and a wrapper whose body the file does not hold names the function by its argument, the name a reader
writes and the one the wrapper passes through. Also the function-like macros a file with syntax errors lost in an
error node. (:mod:`._extract` asks these while it reads declarators and when it finishes a file.)
"""

from __future__ import annotations

import re

from ...parsers._lines import LinePattern
from ...parsers.records import Symbol

# ``#define NAME(a, b) body`` with its continuation lines (the body keeps its backslash-newlines)
_FN_MACRO = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\)((?:[^\n]*\\\r?\n)*[^\n]*)")
# ``#define NAME(params) body`` with its continuation lines
_FN_DEFINE = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)\n]*)\)(?:[^\n]*\\\r?\n)*[^\n]*")
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
    writers: dict[str, tuple[list[str], str, bool, str, str]] = {}
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
    for use in pattern.finditer(source):
        params, expr, static, head, declared = writers[use.group(1).decode()]
        args = [a.strip() for a in use.group(2).decode("utf-8", "replace").split(",")]
        if len(args) != len(params):
            continue
        written = _substitute(expr, params, args)
        if written is not None:
            signature = f"{' '.join(head.split())} {written}({' '.join(declared.split())})"
            out.append((use.start(), written, static, _parameters(declared), signature))
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


def add_lost_macros(ex) -> None:
    """The function-like macros of a file with syntax errors that the grammar lost in an error node (a comment
    inside a continued body): each ``#define NAME(params)`` line without a symbol gets one, spanning its
    continuation lines, as the extractor's ``on_macro`` makes it."""
    have = {(s.name, s.start_line) for s in ex.pf.symbols if s.kind == "function"}
    for m in _FN_DEFINE.finditer(ex.source):
        name = m.group(1).decode("utf-8", "replace")
        line = ex.source.count(b"\n", 0, m.start(1)) + 1
        if (name, line) in have:
            continue
        state = ex.state_at(m.start(1))
        if state == "0":
            continue
        end_line = line + m.group(0).count(b"\n")
        first = m.group(0).split(b"\n", 1)[0].decode("utf-8", "replace").strip().rstrip("\\").rstrip()
        params = [(p.strip(), "") for p in m.group(2).decode("utf-8", "replace").split(",") if p.strip()]
        sym = Symbol(name=name, qualified_name=f"{ex.pf.symbols[0].qualified_name}.{name}", kind="function",
                     parent=0, start_line=line, end_line=end_line, signature=first, params=params, exported=False,
                     condition=state)
        if state.startswith("?") and ex.branches is not None:
            expr = ex.branches.expr(m.start(1))
            sym.condition = f"{state}|{expr}" if expr else state
        ex.pf.symbols.append(sym)
        # the grammar read the macro's own name in the error node as a call of it: none is made there
        col = m.start(1) - (ex.source.rfind(b"\n", 0, m.start(1)) + 1)
        ex.pf.calls = [c for c in ex.pf.calls if not (c.line == line and c.col == col and c.callee == name)]


def add_written_definition(ex, byte: int, name: str, static: bool, params: list[tuple[str, str]],
                           signature: str) -> None:
    """A function a macro's use at ``byte`` defines (``IMPL_CTYPE_FN(ISALPHA)``: :func:`pasted_definitions`),
    spanning the use's line, in the preprocessor branch the use sits in."""
    if ex.branches is None and getattr(ex, "root", None) is not None:
        ex._branches_of(ex.root)
    line = ex.source.count(b"\n", 0, byte) + 1
    col = byte - (ex.source.rfind(b"\n", 0, byte) + 1)
    end = ex.source.find(b"\n", byte)
    width = (end if end >= 0 else len(ex.source)) - byte
    sym = Symbol(name=name, qualified_name=f"{ex.pf.symbols[0].qualified_name}.{name}", kind="function", parent=0,
                 start_line=line, end_line=line, start_col=col, end_col=col + width, signature=signature,
                 params=params, exported=not static)
    if ex.branches is not None:
        state = sym.condition = ex.branches.state(byte)
        if state.startswith("?"):
            expr = ex.branches.expr(byte)
            sym.condition = f"{state}|{expr}" if expr else state
    ex.pf.symbols.append(sym)
    ex.defined.add((0, name, ""))
