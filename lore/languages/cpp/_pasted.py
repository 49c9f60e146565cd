"""Functions a macro of the same file defines under a name built by token pasting (``#define STRING_(name, ...)
static const V& Get##name##String() {...}``, then ``STRING_(Null, 'n', 'u', 'l', 'l')`` in a class): each use is
written out as the function's head with an empty body, so ``GetNullString`` is a definition at that line (where
clangd places it) and a call of it binds. What the body calls is not recorded (the macro's text is not parsed).

Only a macro whose own text is a function definition is read so, and only its uses alone on a line (a macro that
defines a function cannot stand inside a statement). The written-out line may be longer or shorter; the lines stay.
"""

from __future__ import annotations

import re

_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^()\n]*)\)[ \t]*((?:[^\n\\]|\\\r?\n)*)",
                     re.MULTILINE)
# the macro's text up to the body's ``{``: the return type and specifiers, a name with ``##``, the parameters
_HEAD = re.compile(rb"\s*((?:(?:static|inline|virtual|constexpr|const|unsigned)\s+)*[A-Za-z_][\w:]*(?:<[^;{}()]*>)?"
                   rb"[\s*&]+)([A-Za-z_]\w*(?:\s*##\s*\w+)+|\w+(?:\s*##\s*\w+)+)\s*\(([^()]*)\)\s*(const\s*)?\{")


def _heads(source: bytes) -> list[tuple[int, bytes, list[bytes], tuple[bytes, bytes, bytes, bytes]]]:
    """(position, macro name, its parameters, the head's parts) of each function-defining macro, in file order."""
    out = []
    for m in _DEFINE.finditer(source):
        body = re.sub(rb"\\\r?\n", b" ", m.group(3))
        h = _HEAD.match(body)
        if h is None:
            continue
        params = [p.strip() for p in m.group(2).split(b",")]
        out.append((m.start(), m.group(1), params, (h.group(1), h.group(2), h.group(3), h.group(4) or b"")))
    return out


def pasted_functions(source: bytes) -> bytes:
    r"""``source`` with each use of a function-defining macro that pastes the name written out as that function.

    Examples
    --------
    >>> src = b"#define S_(name, ...) \\\n  static const V& Get##name##String() { \\\n    return v; }\n  S_(Null, 'n')\n"
    >>> pasted_functions(src).split(b"\n")[3]
    b'  static const V& GetNullString() {}'
    >>> pasted_functions(b"#define P_(name) print_##name(x)\nvoid f() {\n  P_(a);\n}\n") == b"#define P_(name) print_##name(x)\nvoid f() {\n  P_(a);\n}\n"
    True
    """
    heads = _heads(source)
    if not heads:
        return source
    names = {h[1] for h in heads}
    use = re.compile(rb"^([ \t]*)(" + b"|".join(re.escape(n) for n in sorted(names)) + rb")[ \t]*\(([^()\n]*)\)[ \t]*;?[ \t]*(\r?)$",
                     re.MULTILINE)

    def write(m: re.Match) -> bytes:
        at = [h for h in heads if h[1] == m.group(2) and h[0] < m.start()]
        if not at:
            return m.group(0)
        _, _, params, (ret, name, fparams, const) = at[-1]
        args = [a.strip() for a in m.group(3).split(b",")]
        named = [p for p in params if p != b"..."]
        if len(args) < len(named) or (b"..." not in params and len(args) != len(named)):
            return m.group(0)
        values = dict(zip(named, args[:len(named)], strict=True))
        pieces = [values.get(p.strip(), p.strip()) for p in name.split(b"##")]
        if not all(re.fullmatch(rb"\w+", p) for p in pieces):
            return m.group(0)
        sub = b" ".join(re.sub(rb"\b\w+\b", lambda w: values.get(w.group(0), w.group(0)), fparams).split())
        return (m.group(1) + b" ".join(ret.split()) + b" " + b"".join(pieces) + b"(" + sub + b") " + const.strip()
                + (b" " if const.strip() else b"") + b"{}" + m.group(4))

    return use.sub(write, source)
