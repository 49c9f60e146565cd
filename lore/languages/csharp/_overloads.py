"""C# overloads told apart by their arguments' types: which of the methods of one name (already cut to those that
take the call's number of arguments, :mod:`lore.languages.csharp._rules`) the arguments rule out.

An argument counts as the parser wrote it (``Call.args``): ``#lambda:N`` a lambda of N parameters, ``#T:Name``
a type the syntax shows (``new T()``, a literal, a cast), ``#null``, else a path the resolver types. A
parameter's type is read off the method's signature as written (``Func<T, bool>``). An argument whose type
is unknown, or a parameter of a type parameter or an outside type, rules nothing out.
"""

from __future__ import annotations

from .._rules import enclosed, record_of, split_top_level, world_cache

_TYPES = ("class", "struct", "interface", "enum", "type_alias")  # the kinds of a C# type (as in _rules)
_KEYWORDS = {"object": "Object", "string": "String", "bool": "Boolean", "int": "Int32", "long": "Int64",
             "double": "Double", "float": "Single", "decimal": "Decimal", "char": "Char", "byte": "Byte",
             "short": "Int16", "uint": "UInt32", "ulong": "UInt64", "ushort": "UInt16", "sbyte": "SByte"}
_MODIFIERS = frozenset({"this", "params", "ref", "out", "in", "scoped", "readonly"})


def _param_types(world, sid: int) -> list[str]:
    """The declared parameter types of method ``sid`` as written (``Func<T, bool>``), read off its signature."""
    cache = world_cache(world, "csharp-param-types", dict)
    got = cache.get(sid)
    if got is None:
        _c, sym = record_of(world, sid)
        got = cache[sid] = _split_params(sym.signature, sym.name) if sym is not None else []
    return got


def _split_params(sig: str, name: str) -> list[str]:
    at = sig.find(f" {name}(") if name != "<init>" else -1
    if at < 0:
        at = sig.find(f" {name}<") if name != "<init>" else -1
    depth, start = 0, -1
    for i in range(max(at, 0), len(sig)):
        ch = sig[i]
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            start = i
            break
    if start < 0:
        return []
    out = []
    for piece in split_top_level(enclosed(sig, start), "<([{", ">)]}"):
        piece = piece.split("=", 1)[0].strip()
        while piece.startswith("["):  # [NotNull] T x
            piece = piece[piece.find("]") + 1:].strip()
        words = piece.rsplit(" ", 1)
        typ = words[0] if len(words) == 2 else ""
        parts = typ.split(" ")
        while parts and parts[0] in _MODIFIERS:
            parts.pop(0)
        out.append(" ".join(parts).strip())
    return out


def _generic_args(text: str) -> list[str]:
    lt = text.find("<")
    return split_top_level(text[lt + 1: text.rfind(">")], "<([{", ">)]}") if lt >= 0 and text.endswith(">") else []


def _base_name(text: str) -> str:
    text = text.strip().rstrip("?")
    head = text.split("<", 1)[0].strip()
    head = _KEYWORDS.get(head, head)
    return head.rsplit(".", 1)[-1]


def _type_names(world, value) -> set[str] | None:
    """The names of a value's type and everything it derives from, or ``None`` when they are not all known."""
    tag, what = value
    if tag in ("extinst", "ext"):
        return {str(what).rsplit(".", 1)[-1], "Object"}
    if tag != "inst" or not isinstance(what, int):
        return None
    names = {"Object"}
    complete = True
    for v in world.mro(what):
        if v[0] == "sym":
            names.add(world.syms[v[1]].name)
        else:
            complete = False
            names.add(str(v[1]).rsplit(".", 1)[-1])
    return names if complete else names | {"?"}


def _arg_names(world, ctx, call, arg: str) -> set[str] | None:
    if arg.startswith("#T:"):
        cache = world_cache(world, "csharp-shown-types", dict)
        if arg not in cache:
            name = arg[3:].rsplit(".", 1)[-1]
            kinds = [k for k in world.by_name.get(name, ()) if world.syms[k].kind in _TYPES]
            cache[arg] = _type_names(world, ("inst", kinds[0])) if len(kinds) == 1 else (
                {name, "Object", "?"} if not kinds else None)
        return cache[arg]
    if not arg or arg.startswith("#"):
        return None
    got = world.resolve_path(ctx, call.caller, arg, call.line)
    return _type_names(world, got[0]) if got is not None else None


def _fits(world, ctx, call, arg: str, ptype: str, seen: dict[str, set[str] | None]) -> bool | None:
    """Whether argument ``arg`` can be passed as a parameter of type ``ptype`` (``None``: cannot tell);
    ``seen``: the type names of the call's arguments read so far (each overload asks about the same ones)."""
    if not ptype:
        return None
    base = _base_name(ptype)
    if arg.startswith("#lambda:"):
        n = int(arg[8:])
        if base == "Expression":
            inner = _generic_args(ptype)
            if not inner:
                return None
            ptype, base = inner[0], _base_name(inner[0])
        if base == "Func":
            return n == len(_generic_args(ptype)) - 1
        if base == "Action":
            return n == len(_generic_args(ptype))
        if base in ("Object", "String", "Int32", "Boolean", "Type"):
            return False
        return None
    if arg == "#null":
        return base not in ("Int32", "Int64", "Boolean", "Double", "Single", "Char", "Byte", "Decimal")
    if arg in seen:
        names = seen[arg]
    else:
        names = seen[arg] = _arg_names(world, ctx, call, arg)
    if names is None:
        return None
    if base in names or base == "Object":
        return True
    known = _known_type(world, base)
    if not known:
        return None  # a type parameter (TProperty) or a type from outside: anything may fit
    return False if "?" not in names or base in _KEYWORDS.values() or base in ("Func", "Action", "Type") else None


def _known_type(world, base: str) -> bool:
    """Whether ``base`` names a type of the repository or one of System's lore knows (else it may be a type
    parameter or an outside type): once per world and name."""
    cache = world_cache(world, "csharp-known-types", dict)
    got = cache.get(base)
    if got is None:
        got = cache[base] = any(world.syms[k].kind in _TYPES for k in world.by_name.get(base, ())) \
            or base in _KEYWORDS.values() or base in ("Func", "Action", "Expression", "Type")
    return got


def by_types(world, ctx, call, ids: list[int], skip: int = 0) -> list[int]:
    """Of the overloads ``ids``, those no argument rules out (``skip``: leading parameters the call does not
    pass, an extension method's ``this``); the ones more arguments confirm first. Empty when none is left."""
    if not any(call.args):
        return []
    # what the syntax shows first (lambdas, constructions, literals); paths, which need the resolver, only
    # when those leave several
    cache = world_cache(world, "csharp-shown-scores", dict)  # what the syntax shows depends on no scope
    key = (tuple(ids), skip, tuple(call.args))
    shown = cache.get(key)
    if shown is None:
        shown = cache[key] = _score_types(world, ctx, call, ids, skip, typed_only=True)
    if len(shown) == 1 or not any(a and not a.startswith("#") for a in call.args):
        return shown
    return _score_types(world, ctx, call, shown or ids, skip, typed_only=False)


def _score_types(world, ctx, call, ids: list[int], skip: int, typed_only: bool) -> list[int]:
    scored = []
    seen: dict[str, set[str] | None] = {}
    for k in ids:
        ptypes = _param_types(world, k)[skip:]
        ok, good = True, 0
        for i, arg in enumerate(call.args):
            if not arg or (typed_only and not arg.startswith("#")):
                continue
            p = ptypes[i] if i < len(ptypes) else (ptypes[-1] if ptypes and ptypes[-1].endswith("[]") else "")
            got = _fits(world, ctx, call, arg, p, seen)
            if got is False:
                ok = False
                break
            good += got is True
        if ok:
            scored.append((good, k))
    if not scored:
        return []
    best = max(g for g, _k in scored)
    return [k for g, k in scored if g == best]
