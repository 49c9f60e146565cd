"""C++ overloads: which functions of one name a call's arguments fit (count, defaults and ``...``; the kinds
of literal arguments; ``const``), for :meth:`lore.languages.c._rules.CRules.choose_overload`."""

from __future__ import annotations

from .._rules import record_of, world_cache


def _overloads(world, sid: int) -> list[int] | None:
    """The functions sharing ``sid``'s name inside its class or namespace (across a header and its source), when
    they differ in the arguments they take; ``None`` otherwise (one function, or C's configurations)."""
    cache = world_cache(world, "c-overloads", dict)
    if sid in cache:
        return cache[sid]
    got = None
    srow = world.syms.get(sid)
    if srow is not None and srow.kind in ("function", "method"):
        rel = _relative_name(world, sid)
        fam = []
        for cand in _named(world, srow.name):
            crow = world.syms[cand]
            cf = world.files.get(crow.file_id) if crow.file_id is not None else None
            if crow.kind not in ("function", "method") or cf is None or cf.language not in ("c", "cpp"):
                continue
            if _relative_name(world, cand) != rel:
                continue
            _c, csym = record_of(world, cand)
            if csym is None or (not csym.exported and crow.file_id != srow.file_id):
                continue
            fam.append(cand)
        methods = "." in rel  # C++ members and namespaced functions; C's same-named functions are configurations
        if len(fam) > 1 and (methods or len({_arity(world, s) for s in fam}) > 1):
            got = sorted(fam)
    cache[sid] = got
    return got


def _arity(world, sid: int) -> tuple[int, int, bool]:
    """(parameters, of them with a default, variadic) read off a function's signature."""
    cache = world_cache(world, "c-arity", dict)
    got = cache.get(sid)
    if got is not None:
        return got
    _c, sym = record_of(world, sid)
    sig = sym.signature if sym is not None else ""
    start = sig.find("(")
    depth, total, defaults, variadic, seen_any = 0, 0, 0, False, False
    inner = ""
    if start >= 0:
        for ch in sig[start:]:
            if ch in "(<[{":
                depth += 1
                if depth == 1:
                    continue
            elif ch in ")>]}":
                depth -= 1
                if depth == 0:
                    break
            if depth == 1:
                inner += ch
                if ch == ",":
                    total += 1
                elif ch == "=":
                    defaults += 1
    stripped = inner.strip()
    seen_any = bool(stripped) and stripped != "void"
    variadic = "..." in inner
    total = total + 1 if seen_any else 0
    if variadic:
        total -= 1
    got = cache[sid] = (total, defaults, variadic)
    return got


def _takes(world, sid: int, n: int, family: list[int]) -> bool:
    """Whether ``sid`` takes ``n`` arguments (a definition also by the defaults its declarations give)."""
    total, defaults, variadic = _arity(world, sid)
    if not defaults:  # defaults are written on the declaration: a definition with the same count borrows them
        defaults = max((_arity(world, s)[1] for s in family if _arity(world, s)[0] == total), default=0)
    return total - defaults <= n and (variadic or n <= total)


_INTEGERS = frozenset({"int", "long", "short", "unsigned", "signed", "size_t", "ssize_t", "int8_t", "int16_t",
                       "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t"})
_FLOATS = frozenset({"float", "double"})


def _param_texts(world, sid: int) -> list[str]:
    _c, sym = record_of(world, sid)
    sig = sym.signature if sym is not None else ""
    start = sig.find("(")
    if start < 0:
        return []
    parts, depth, cur = [], 0, ""
    for ch in sig[start + 1:]:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.split("=")[0].strip() for p in parts if p.strip() and p.strip() != "void"]


def _fit(kind: str, param: str) -> int:
    """How well a literal argument of ``kind`` fits a parameter declared ``param``: 2 exact, 1 by conversion,
    0 unknown, -9 not at all (an integer is no enum, a string no number)."""
    if not kind or not param:
        return 0
    words = set(param.replace("*", " * ").replace("&", " & ").split())
    pointer = "*" in words
    if kind == "#n":
        return 2 if pointer else -9
    if kind == "#s":
        return 2 if pointer and "char" in words else 1 if not pointer and not words & (_INTEGERS | _FLOATS | {"bool", "char"}) else -9
    if pointer:
        return 1 if kind == "#i" else -9
    if kind == "#b":
        return 2 if "bool" in words else 1 if words & (_INTEGERS | _FLOATS) else -9
    if kind in ("#i", "#c"):
        exact = "char" if kind == "#c" else "int"
        return 2 if exact in words else 1 if words & (_INTEGERS | _FLOATS | {"bool", "char"}) else -9
    if kind == "#f":
        return 2 if words & _FLOATS else 1 if words & (_INTEGERS | {"bool"}) else -9
    return 0


def _best_by_arguments(world, fits: list[int], args: list[str]) -> list[int]:
    """The overloads among ``fits`` whose parameters the literal arguments match best (all when none is told)."""
    if len(fits) < 2 or not any(args):
        return fits
    scored = []
    for s in fits:
        params = _param_texts(world, s)
        scored.append((sum(_fit(a, params[i]) if i < len(params) else 0 for i, a in enumerate(args)), s))
    best = max(score for score, _s in scored)
    return [s for score, s in scored if score == best]


def _is_const(world, sid: int) -> bool:
    """Whether a member function is ``const`` (the qualifier after its parameters)."""
    _c, sym = record_of(world, sid)
    return _signature_const(sym.signature if sym is not None else "")


def _signature_const(signature: str) -> bool:
    sig = signature.rstrip()
    return ")" in sig and sig[sig.rindex(")"):].replace(" ", "").startswith(")const")


def _named(world, name: str) -> list[int]:
    """Every symbol called ``name``: ``world.by_name`` keeps one per qualified name (the last definition
    runs), but a C header and its source share a module name (``cJSON.h``, ``cJSON.c``) and both count."""
    out: set[int] = set()
    for sid in world.by_name.get(name, ()):
        out.update(world.by_qname.get(world.syms[sid].qualified_name, (sid,)))
    return sorted(out)


def _relative_name(world, sid: int) -> str:
    """A symbol's qualified name inside its file (``ui.Widget.draw`` of ``src.widget.ui.Widget.draw``)."""
    srow = world.syms[sid]
    f = world.files.get(srow.file_id)
    q = srow.qualified_name
    if f is not None and q.startswith(f.module + "."):
        return q[len(f.module) + 1:]
    return q
