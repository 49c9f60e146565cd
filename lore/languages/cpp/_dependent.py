"""Calls whose receiver is typed by a template parameter: every project function of that name, up to five.

``template <class Handler> void parse(Handler& h) { h.on_text(); }``: no type decides ``on_text`` until the
template is instantiated, and the compiler's own answer (clangd's go-to-definition, which lore is measured
against) is then a lookup of the bare name in its index: every symbol of exactly that name, in any scope, when
there are at most five of them (more: no answer; constructors never count). lore reads such a call the same way:
the receiver (a parameter, local or field of the caller or of what encloses it, or the parameter itself in
``T::make()``) is declared with a bare template parameter of the caller, its class, or the class an out-of-line
member names (``void Box<T>::run()``), or is an ``auto`` parameter (a generic lambda's ``[](auto& x)``, which is
a template's parameter too), and the name's project definitions are all functions or methods (a class,
field or macro of the name is something clangd answers too and lore cannot bind a call to: left unbound), at most
five of them once declarations are joined to their definitions. The names of the standard containers' members
(``size``, ``push_back``) are left alone: the library declares many of each, and clangd answers none.
"""

from __future__ import annotations

import re

from ...parsers.records import TYPE_PARAM
from ...store.schema import CONFIDENCE

MAX_TEXTUAL = 5  # clangd's locateSymbolTextually: more candidates than this and it answers nothing
_GUESSES = frozenset({"unresolved", "unique_name", "ambiguous_name", "same_file_name"})
_HEAD_PARAM = re.compile(r"(?:class|typename)\s*(?:\.\.\.)?\s*([A-Za-z_]\w*)")
_SCOPE_ARGS = re.compile(r"<([^<>()]*)>\s*::")
_DECORATION = re.compile(r"\b(?:const|volatile|typename)\b|[&*\s]")


def _head(signature: str) -> str:
    """The parameter list of a leading ``template <...>`` (``""`` for none), nested ``<>`` included."""
    if not signature.startswith("template"):
        return ""
    start = signature.find("<")
    depth = 0
    for i in range(start, len(signature)):
        ch = signature[i]
        depth += ch == "<"
        depth -= ch == ">"
        if depth == 0:
            return signature[start + 1:i]
    return ""


def template_params(ctx, local: int) -> set[str]:
    """The template parameter names visible in symbol ``local``: its own ``template <...>`` and its enclosing
    symbols', the ``TYPE_PARAM`` bindings of a class template around it, and the arguments an out-of-line
    member's scope names (``void Box<T>::run()``: ``T``).

    Examples
    --------
    >>> _head("template <class H, typename... A, int N = f<1>()> void p(H& h)")
    'class H, typename... A, int N = f<1>()'
    """
    out: set[str] = set()
    syms = ctx.pf.symbols
    i: int | None = local
    while i is not None:
        sig = syms[i].signature
        out.update(_HEAD_PARAM.findall(_head(sig)))
        for m in _SCOPE_ARGS.finditer(sig.split("(", 1)[0]):
            out.update(a.strip() for a in m.group(1).split(",") if a.strip().isidentifier())
        out.update(b.value for b in ctx.bindings_of(i).get(TYPE_PARAM, ()))
        i = syms[i].parent
    return out


def _declared(ctx, local: int, name: str, line: int) -> str:
    """The type a name is declared with where ``local`` reads it: a parameter, local or field of ``local`` or of
    a symbol around it (a lambda's capture, a class's field), the last declaration before ``line``; ``""``."""
    syms = ctx.pf.symbols
    i: int | None = local
    while i is not None:
        for pname, ann in syms[i].params:
            if pname == name:  # a generic lambda's or an abbreviated template's auto parameter: a template's own
                inside = syms[i].signature.partition("(")[2]
                return ann or ("auto" if re.search(rf"\bauto\b[\s&*]*\b{re.escape(name)}\b", inside) else "")
        binds = ctx.bindings_of(i)
        got = [b for key in (name, f"self.{name}") for b in binds.get(key, ()) if b.line <= line or key != name]
        if got:
            return got[-1].annotation
        i = syms[i].parent
    return ""


def dependent_targets(world, ctx, call, targets: list[tuple], std_members: frozenset[str]) -> list[tuple] | None:
    """Every project function or method named like ``call``'s member when its receiver is typed by a template
    parameter and lore bound it by no rule (``targets`` unresolved or a name guess), as clangd answers it; ``None``
    otherwise (see the module docstring)."""
    if not targets or any(t[1] not in _GUESSES for t in targets) or "(" in call.callee or "[" in call.callee:
        return None
    parts = call.callee.split(".")
    if parts[0] in ("this", "self") and len(parts) > 2:
        parts = parts[1:]  # this->t_.m(): the field t_
    if len(parts) != 2 or parts[1] in std_members or not parts[1].isidentifier():
        return None
    root, name = parts
    tparams = template_params(ctx, call.caller) | {"auto"}  # [](auto& x) { x.m(); }: x's type is a parameter
    if root not in tparams and _DECORATION.sub("", _declared(ctx, call.caller, root, call.line)) not in tparams:
        return None
    found: list[int] = []
    for s in world.by_name.get(name, ()):
        srow = world.syms[s]
        f = world.files.get(srow.file_id)
        if f is None or f.language not in ("c", "cpp"):
            continue
        if srow.kind not in ("function", "method"):
            return None  # a class or macro of the name: clangd answers it too
        found.extend(ctx.rules.definitions(world, s) or (s,))
    found = sorted(set(found))
    if not found or len(found) > MAX_TEXTUAL:
        return None
    if len(found) == 1:
        return [(found[0], "unique_name", CONFIDENCE["unique_name"])]
    return [(s, "ambiguous_name", CONFIDENCE["ambiguous_name"] / len(found)) for s in found]
