"""Overloads told apart by value category: ``f(const T&)`` beside ``f(T&&)``.

The extractor marks an argument that is an rvalue (``std::move(x)``, ``std::forward<T>(x)``, a cast, a
conversion, ``sizeof``, a braced temporary) with the call attribute ``~rvI`` (``I`` its position): the ``T&&``
overload is the one called. A variable or a member path (``=T``, ``@this.x_``) is an lvalue, which ``T&&`` does not
take: the ``const T&`` overload. Anything else (a call's result, a name the parser cannot type) is not told.
Function templates are left alone (``template <class U> f(U&&)`` takes lvalues too).
"""

from __future__ import annotations

from ...parsers import _ts
from .._rules import record_of
from ..c._overloads import _param_texts

_MOVES = frozenset({"std::move", "move", "std::forward", "forward"})


def moved(ex, arg: _ts.Node) -> _ts.Node | None:
    """The argument of ``std::move(x)`` / ``std::forward<T>(x)`` when ``arg`` is one, else ``None``."""
    if arg.type != "call_expression":
        return None
    fn = arg.child_by_field_name("function")
    if fn is not None and fn.type == "template_function":
        fn = fn.child_by_field_name("name")
    if fn is None or ex.text(fn).replace(" ", "") not in _MOVES:
        return None
    args = arg.child_by_field_name("arguments")
    inner = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    return inner[0] if len(inner) == 1 else None


def is_rvalue(ex, arg: _ts.Node, recorded: str) -> bool:
    """Whether the argument ``arg`` (recorded as ``recorded``) is an rvalue the parser can tell: a move or forward,
    a cast or a conversion to a type, ``sizeof``, a braced temporary (``T{...}``)."""
    if arg.type in ("cast_expression", "sizeof_expression", "compound_literal_expression"):
        return True
    if arg.type == "pointer_expression" and ex.text(arg)[:1] == "&":  # &x: a pointer made
        return True
    if moved(ex, arg) is not None:
        return True
    return arg.type == "call_expression" and recorded[:1] == "="  # static_cast<int>(x), int(x), std::string(s)


def _split(param: str) -> tuple[str, str] | None:
    """``const Foo &value`` -> ("lvalue", "Foo"), ``Foo &&value`` -> ("rvalue", "Foo"), else ``None``."""
    text = param.replace("&&", " && ").replace("&", " & ").replace(" &  & ", " && ")
    words = text.split()
    if "&&" in words:
        i = words.index("&&")
        base = [w for w in words[:i] if w != "const"]
        return ("rvalue", " ".join(base)) if base and "const" not in words[:i] else None
    if "&" in words and words[0] == "const":
        i = words.index("&")
        return ("lvalue", " ".join(words[1:i]))
    return None


def by_category(world, call, got: list[tuple]) -> list[tuple]:
    """Of overloads ``got`` that differ only in taking one parameter as ``const T&`` or as ``T&&``, those the
    argument's value category calls; ``got`` as it is when that is not told (see the module's docstring)."""
    if len(got) < 2 or any(t[0] is None or t[0] not in world.syms for t in got):  # outside the project: none
        return got
    sigs = []
    for t in got:
        _c, sym = record_of(world, t[0])
        if sym is None or sym.signature.startswith("template"):
            return got
        sigs.append([" ".join(p.split()) for p in _param_texts(world, t[0])])
    if len({len(s) for s in sigs}) != 1:
        return got
    differ = [i for i in range(len(sigs[0])) if len({s[i] for s in sigs}) > 1]
    if len(differ) != 1:
        return got
    i = differ[0]
    kinds = [_split(s[i]) for s in sigs]
    if any(k is None for k in kinds) or len({k[1] for k in kinds if k}) != 1:
        return got
    arg = call.args[i] if i < len(call.args) else ""
    if f"~rv{i}" in call.args or arg[:1] == "#":
        want = "rvalue"
    elif arg[:1] == "=" or arg[:1] == "@" and "." in arg and not arg.endswith(")"):
        want = "lvalue"
    else:
        return got
    keep = [t for t, k in zip(got, kinds, strict=True) if k and k[0] == want]
    if not keep or len(keep) == len(got):
        return got
    return [(tid, res, conf * len(got) / len(keep)) for tid, res, conf in keep]
