"""Narrowing by elimination: where an ``isinstance`` test failed, the name holds no instance of its classes.

A parser records ``x`` as not an ``A`` with a binding whose annotation is ``!A`` (``!A,B`` for several
classes), holding from ``line`` to ``until`` (Python's ``lore.languages.python._expr.eliminations``:
the ``else`` of ``if isinstance(x, A)``, the branch of ``if not isinstance(x, A)``). The value is what
the name held just before that line, without the instances of those classes and of their subclasses.
A class the resolver cannot name takes nothing away. When nothing would be left, nothing is taken
away either: by what the resolver knows the branch never runs (``x = A()`` then ``if isinstance(x, A):
... else: x.m()``), or what reaches the name came from somewhere it did not see; the values excluded
tell nothing about those, and a guess by name would be no better.

The positive test ``isinstance(x, type)`` (a narrowing to the metaclass ``type``) keeps the classes
``x`` held: calling ``x`` then constructs one of them, not ``type``. Its ``else`` holds no class: the
classes go, and when nothing else was known the name is unknown there, not those classes again (Django's
``widget() if isinstance(widget, type) else copy.deepcopy(widget)`` would otherwise hold every widget
class twice, as a class and as its instance, and the attribute it fills says too little).
"""

from __future__ import annotations

from ..parsers.records import Binding
from ._flow import elements, union
from ._world import TYPE_KINDS, FileCtx, Value


def eliminated(world, c: FileCtx, scope: int, b: Binding, depth: int) -> tuple[Value, str] | None:
    """What ``b.name`` holds on the lines of the elimination ``b`` (annotation ``!A,B``)."""
    got = _before(world, c, scope, b, max(depth - 1, 0))
    if b.annotation == "type":  # ``isinstance(x, type)``: x is one of the classes it held, not ``type``
        classes = [v for v in elements(got[0]) if v[0] == "sym" and world.syms[v[1]].kind in TYPE_KINDS] if got else []
        u = union(classes)
        return (u, got[1]) if u is not None and got is not None else world.type_value(c, scope, "type", depth + 1)
    if got is None:
        return None
    gone: list[Value] = []
    metaclass = ("extinst", f"{c.rules.builtin_prefix}.type")
    for name in b.annotation[1:].split(","):
        t = world.type_value(c, scope, name, depth + 1)
        if t is None or t[0][0] not in ("inst", "extinst"):
            return got  # a class we cannot name: nothing is certain to be gone
        gone.append(t[0])
    kept = [v for v in elements(got[0]) if not any(_is_a(world, v, g) for g in gone)
            and not (metaclass in gone and _is_class(world, v))]
    if not kept and metaclass in gone:
        return None  # every value it held is a class, and this branch holds no class: what it holds is unseen
    u = union(kept) if kept and len(kept) < len(elements(got[0])) else None
    return (u, got[1]) if u is not None else got


def _is_class(world, v: Value) -> bool:
    """Whether ``v`` is a class of the repository (an instance of the metaclass ``type``)."""
    return v[0] == "sym" and world.syms[v[1]].kind in TYPE_KINDS


def _before(world, c: FileCtx, scope: int, b: Binding, depth: int) -> tuple[Value, str] | None:
    """What the name held just before ``b``: not a step of its own, but the lookup that picked ``b`` (at
    its depth) made again on ``b``'s line, which reads the bindings of earlier lines only; with none
    there, the parameter of that name, else the name as an enclosing scope binds it."""
    earlier = [d for d in c.cands[scope].get(b.name, ())
               if d[0] < b.line and (d[1] != "narrow" or b.line <= d[2].until)]  # type: ignore[attr-defined]
    if earlier:
        return world._lookup_in_scope(c, scope, b.name, b.line, depth)
    sym = c.pf.symbols[scope]
    for idx, (pname, ann) in enumerate(sym.params if sym.kind in ("function", "method") else ()):
        if pname == b.name:
            return world._param_value(c, scope, idx, pname, ann, depth)
    return world.resolve_path(c, sym.parent, b.name, b.line, depth + 1) if sym.parent is not None else None


def _is_a(world, v: Value, cls: Value) -> bool:
    """Whether the value ``v`` is an instance of the class whose instance value is ``cls`` (or of a
    subclass of it)."""
    if v == cls:
        return True
    if v[0] != "inst" or cls[0] != "inst":
        return False
    return cls[1] != v[1] and ("sym", cls[1]) in world.mro(v[1])  # type: ignore[arg-type]
