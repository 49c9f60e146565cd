"""C++ overloads: which functions of one name a call's arguments fit (count, defaults and ``...``; the kinds
of literal arguments; ``const``), for :meth:`lore.languages.c._rules.CRules.choose_overload`."""

from __future__ import annotations

import re

from .._rules import enclosed, record_of, split_top_level, world_cache


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


def _params_start(sig: str, sym) -> int:
    """Where a signature's parameter list opens: the first ``(`` after the function's name, so that a macro
    written as the return type (libjpeg's ``GLOBAL(boolean) keymatch(char *arg, ...)``, expat's
    ``XMLPARSEAPI(void) XML_SetUserData(...)``) is not read as the parameters.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> sig = "GLOBAL(boolean) keymatch(char *arg, int n)"
    >>> sig[_params_start(sig, S(name="keymatch")):]
    '(char *arg, int n)'
    >>> sig = "int BZ_API(BZ2_bzRead)(int n)"
    >>> sig[_params_start(sig, S(name="BZ2_bzRead")):]
    '(int n)'
    """
    at = sig.find(sym.name) if sym is not None and sym.name else -1
    return sig.find("(", at + len(sym.name)) if at >= 0 else sig.find("(")


def _object_like(sig: str, sym) -> bool:
    """Whether a symbol is an object-like macro (``#define my_free xfree``: :mod:`._renaming`)."""
    return sig.startswith("#define ") and sym is not None and not sig[8:].lstrip().startswith(f"{sym.name}(")


def _arity(world, sid: int) -> tuple[int, int, bool]:
    """(parameters, of them with a default, variadic) read off a function's signature."""
    cache = world_cache(world, "c-arity", dict)
    got = cache.get(sid)
    if got is not None:
        return got
    _c, sym = record_of(world, sid)
    sig = sym.signature if sym is not None else ""
    if _object_like(sig, sym):  # a macro renaming a function: its calls take what that function takes
        got = cache[sid] = (0, 0, True)
        return got
    start = _params_start(sig, sym)
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
    start = _params_start(sig, sym)
    if start < 0 or _object_like(sig, sym):
        return []
    parts = split_top_level(enclosed(sig, start), "<([{", ">)]}")
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
    """The overloads among ``fits`` whose parameters the arguments match best (all when none is told): literal
    kinds, and the declared types of variables (``=T``, see :meth:`lore.languages.cpp._parser.CppExtractor.arg_type`)."""
    if len(fits) < 2 or not any(args):
        return fits
    scored = []
    for s in fits:
        params = _param_texts(world, s)
        templ = _template_names(world, s)
        deduced: dict[str, str] = {}
        score = 0
        for i, a in enumerate(args):
            if i >= len(params):
                break
            base = _shape(world, params[i])[0] if templ else ""
            if base in templ:  # a template parameter: any type, the same for every argument it deduces
                got = _LITERAL_TYPES.get(a) or (_shape(world, a[1:])[0] if a[:1] == "=" else "")
                if got:  # as much as the same type scores (1 for a type of unknown pointer levels, =T?)
                    score += (1 if a.endswith("?") else 2) if deduced.setdefault(base, got) == got else -9
                continue
            score += _fit_any(world, a, params[i])
        scored.append(((score, not templ), s))  # as good a match: the function that is no template wins
    best = max(score for score, _s in scored)
    return [s for score, s in scored if score == best]


_LITERAL_TYPES = {"#i": "int", "#f": "double", "#s": "char*", "#b": "bool", "#c": "char"}


def _template_names(world, sid: int) -> frozenset[str]:
    """The template parameters a function's signature opens with (``template <class T, int N>``: T and N)."""
    _c, sym = record_of(world, sid)
    sig = sym.signature if sym is not None else ""
    if not sig.startswith("template"):
        return frozenset()
    start = sig.find("<")
    depth, cur, parts = 0, "", []
    for ch in sig[start:]:
        depth += ch == "<"
        depth -= ch == ">"
        if depth == 0:
            break
        if ch == "," and depth == 1:
            parts.append(cur)
            cur = ""
        elif depth >= 1 and not (ch == "<" and depth == 1):
            cur += ch
    parts.append(cur)
    names = set()
    for p in parts:
        words = _WORD.findall(p.split("=", 1)[0])
        if len(words) >= 2:
            names.add(words[-1])
    return frozenset(names)


def typed_args(world, ctx, call) -> list[str]:
    """``call.args`` with each ``@x`` (a name the parser could not type) replaced by the type the resolver gives
    it: ``=T?`` for an instance of class ``T`` (pointer or not, unknown), else ``""``."""
    if not any(a[:1] == "@" for a in call.args):
        return call.args
    out = []
    for a in call.args:
        if a[:1] == "@":
            got = world.resolve_path(ctx, call.caller, a[1:], call.line)
            v = got[0] if got is not None else None
            if v is not None and v[0] == "inst":
                a = "=" + world.syms[v[1]].name + "?"
            elif v is not None and v[0] == "extinst":
                a = "=" + str(v[1]).rsplit(".", 1)[-1] + "?"
            else:
                a = ""
        out.append(a)
    return out


_NUMERIC = frozenset({"int", "long", "short", "unsigned", "signed", "char", "bool", "float", "double", "size_t",
                      "ssize_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
                      "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "wchar_t", "char16_t", "char32_t"})
_QUALIFIERS = frozenset({"const", "volatile", "struct", "class", "enum", "typename", "union", "mutable", "static",
                         "inline", "constexpr", "register"})
_SAME = {"basic_string": "string"}  # std::string is std::basic_string<char>
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*")
_WORD = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")


def _shape(world, text: str) -> tuple[str, int, bool]:
    """A type as written -> (its base name without qualifiers or namespaces, pointer levels, whether the levels
    are known); typedefs of the repository followed (``Int`` -> ``int``)."""
    known = not text.endswith("?")
    text = text.rstrip("?")
    for _ in range(4):
        depth, plain = 0, ""
        for ch in text:  # template arguments left out: vector<int> is a vector
            depth += ch == "<"
            if depth == 0:
                plain += ch
            depth -= ch == ">" and depth > 0
        plain = _COMMENT.sub(" ", plain)
        stars = plain.count("*") + plain.count("[")
        plain = plain.split("[", 1)[0]
        words = [_SAME.get(w, w) for w in (w.rsplit("::", 1)[-1] for w in _WORD.findall(plain)) if w not in _QUALIFIERS]
        if len(words) > 1 and words[-1] not in _NUMERIC:  # const char* name: the parameter's name goes
            words.pop()
        base = " ".join(words)
        target = _aliases(world).get(base) if len(words) == 1 and base not in _NUMERIC else None
        if not target:
            return base, stars, known
        text = target + "*" * stars
    return base, stars, known


def _aliases(world) -> dict[str, str]:
    """Name -> the type a C/C++ ``typedef`` / ``using`` of the repository names (names aliased to different types
    in different places are left out)."""

    def build() -> dict[str, str]:
        out: dict[str, str] = {}
        clash: set[str] = set()
        for srow in world.of_kinds(frozenset({"type_alias"})):
            _c, sym = record_of(world, srow.id)
            if sym is None or _c.pf.language not in ("c", "cpp"):
                continue
            sig = sym.signature.strip().rstrip(";")
            if sig.startswith("using ") and "=" in sig:
                target = sig.split("=", 1)[1].strip()
            elif sig.startswith("typedef ") and sig.endswith(srow.name) and "(" not in sig:
                target = sig[len("typedef "):-len(srow.name)].strip()
            else:
                continue
            if out.get(srow.name, target) != target:
                clash.add(srow.name)
            out[srow.name] = target
        return {k: v for k, v in out.items() if k not in clash}

    return world_cache(world, "c-aliases", build)


def _enums(world) -> frozenset[str]:
    """Names of the C/C++ enums of the repository."""
    return world_cache(world, "c-enums", lambda: frozenset(
        srow.name for srow in world.of_kinds(frozenset({"enum"}))))


def _fit_any(world, arg: str, param: str) -> int:
    if arg[:1] == "=":
        return _fit_type(world, arg[1:], param) if param else 0
    if arg and param:  # a literal against the parameter's type with the repository's typedefs followed (Int: int)
        base, stars, _known = _shape(world, param)
        exact = _LITERAL_TYPES.get(arg)
        if exact and not stars and base and arg != "#s" and all(w in _NUMERIC for w in base.split()):
            return 2 if base == exact else 1  # 1234 is an int: int exactly, unsigned or long by conversion
        param = base + " *" * stars if base else param
    return _fit(arg, param)


def _fit_type(world, arg: str, param: str) -> int:
    """How well an argument of declared type ``arg`` fits a parameter declared ``param`` (the scale of :func:`_fit`):
    the same type 2; numbers among themselves, a C string for a ``std::string`` 1; a pointer for a value (or the
    reverse), a class for a number -9; else 0 (a base class, a converting constructor: not told here)."""
    a_base, a_stars, known = _shape(world, arg)
    p_base, p_stars, _ = _shape(world, param)
    if not a_base or not p_base:
        return 0
    enums = _enums(world)
    a_num = all(w in _NUMERIC for w in a_base.split()) or a_base in enums  # an enum converts to a number
    p_num = all(w in _NUMERIC for w in p_base.split())
    if p_base in enums and a_base != p_base and not a_stars:  # nothing converts to an enum implicitly
        return -9
    if known and a_stars != p_stars:
        if a_base == "char" and a_stars == 1 and p_base == "string" and p_stars == 0:
            return 1
        return -9 if not (a_stars and p_stars) else 0
    if a_base == p_base:
        return 2 if known else 1
    if a_num and p_num and not a_stars:
        return 1
    if p_num and not a_num and not p_stars:
        return -9
    return 0


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
