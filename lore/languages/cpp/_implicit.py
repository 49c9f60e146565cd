"""A copy of a class that declares no copy or move constructor: the class (its implicit constructor), as clangd
answers it.

``Validator newval(*this);`` inside ``Validator``'s methods, ``Validator a(o)`` with ``const Validator& o``: the
compiler's implicit copy constructor runs, which has no place in the source; clangd answers the class. lore had
chosen a declared constructor by arity (``Validator(std::string)``), a constructor that cannot take a
``Validator``: a wrong edge. A construction of one argument typed by the class itself (``*this`` in its own
members, or a variable declared with it, ``const`` and ``&`` aside, not a pointer) binds the class when none of its
constructors takes the class; one that does (``Copyable(const Copyable&)``) is left to the overload choice.
"""

from __future__ import annotations

import re

from .._rules import record_of
from ._dependent_constructions import constructor_owners, main_class
from ._own_file import param_types

_DECORATION = re.compile(r"\b(?:const|volatile|struct|class)\b|&")


def _bare(annotation: str) -> str:
    """``=const ns::Validator&`` -> ``Validator``; a pointer keeps its ``*`` (no copy)."""
    t = _DECORATION.sub(" ", annotation.removeprefix("=")).strip()
    return t.rsplit("::", 1)[-1].strip()


def _self_class(ctx, local: int) -> str:
    """The name of the class a member function sits in (its class, or its out-of-line placeholder), or ``""``."""
    syms = ctx.pf.symbols
    i = syms[local].parent
    while i is not None:
        if syms[i].kind in ("class", "struct"):
            return syms[i].name
        i = syms[i].parent
    return ""


def implicit_copy(world, ctx, call, targets: list[tuple], twins) -> list[tuple] | None:
    """The class, for a copy of it none of whose constructors takes the class (see above); ``None`` otherwise.
    ``twins(world, class_id)``: the other classes holding its members (a header's and its out-of-line placeholder)."""
    args = [a for a in call.args if not a.startswith("~")]
    if call.kind not in ("new", "call") or len(args) != 1 or not targets:
        return None
    owners = constructor_owners(world, targets)
    if owners is None:
        return None
    names = {getattr(world.syms.get(o), "name", "") for o in owners}
    if len(names) != 1:
        return None
    name = names.pop()
    arg = args[0]
    if arg == "@this":
        same = _self_class(ctx, call.caller) == name
    else:
        same = arg.startswith("=") and "*" not in arg and _bare(arg) == name
    if not same:
        return None
    for o in owners:  # every constructor of the class (and its twins'), not only the ones the arity kept
        for t in [o, *twins(world, o)]:
            for kid in world.children.get(t, {}).get("<init>", ()):
                _c, sym = record_of(world, kid)
                params = param_types(sym.signature, name) if sym is not None else None
                if params is None or any(re.search(rf"\b{re.escape(name)}\b", p) for p in params):
                    return None
    return [(main_class(world, owners), targets[0][1], 1.0)]
