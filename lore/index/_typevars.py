"""A value annotated with a type variable: an instance of the variable's bound, else nothing known.

``self.config: config_type`` where ``config_type = TypeVar("config_type", bound=Config)`` holds some
``Config`` (a type checker reads it so, and Jedi too); the name itself is bound to a ``typing.TypeVar``
object, whose members (``typing.TypeVar.update``) are never what the annotated value has. A variable
with no bound (or with constraints, ``TypeVar("K", A, B)``) is left as it was: ``typing.TypeVar``'s
members, external, which at least keeps a same-name method of the repository from being guessed (an
unknown value let the edge pass guess by name: tests/index/test_issue34_round4.py's ``plain: Stream``). A generic instance's type arguments (``App[MyConfig]``) decide before this is asked
(:mod:`lore.index._generics`). Called from :meth:`lore.index._values.ValuesMixin.type_value`.
"""

from __future__ import annotations

from ._world import MAX_DEPTH, FileCtx, Value

# what resolving a type variable's name gives: an instance of the class that makes it
TYPE_VARIABLES = frozenset({("extinst", "typing.TypeVar"), ("extinst", "typing_extensions.TypeVar")})
_MAKERS = ("TypeVar", "typing.TypeVar", "t.TypeVar", "typing_extensions.TypeVar")


def bound_value(world, c: FileCtx, scope: int, name: str, depth: int) -> tuple[Value, str] | None:
    """An instance of the bound of the type variable ``name`` as ``scope`` of ``c`` sees it (its
    ``TypeVar(..., bound=X)`` call in this module, or in the module it is imported from); ``None``
    when it has none or the call is not found (the caller then keeps what it had)."""
    if depth > MAX_DEPTH or not name.isidentifier():
        return None
    found = _defining_call(world, c, scope, name, depth)
    if found is None:
        return None
    where, owner, bound = found
    got = world.type_value(where, owner, bound, depth + 1)
    return got if got is not None and got[0][0] not in ("unknown", "opaque") else None


def _defining_call(world, c: FileCtx, scope: int, name: str, depth: int) -> tuple[FileCtx, int, str] | None:
    """(file, scope, bound annotation) of the ``TypeVar`` call that binds ``name``, scopes searched from
    ``scope`` outwards (an enclosing class skipped, as Python does); imports followed."""
    syms = c.pf.symbols
    i: int | None = scope
    while i is not None:
        if i == scope or syms[i].kind != "class":
            cands = c.cands[i].get(name)
            if cands:
                if len(cands) != 1:
                    return None
                _line, what, payload = cands[0]
                if what == "import":
                    return _imported(world, c, payload, depth)
                if what != "bind" or payload.value not in _MAKERS:  # type: ignore[attr-defined]
                    return None
                return _bound_of(c, i, payload)
        i = syms[i].parent
    return None


def _imported(world, c: FileCtx, ib, depth: int) -> tuple[FileCtx, int, str] | None:
    """``from m import T``: where module ``m`` binds ``T``."""
    if ib.star or not ib.member or depth > MAX_DEPTH:
        return None
    mod = c.rules.module_value(world, c, ib.module)
    if mod is None or mod[0] != "sym":
        return None
    srow = world.syms.get(mod[1])
    other = world.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
    local = other.local_of.get(mod[1]) if other is not None else None
    if other is None or local is None:
        return None
    return _defining_call(world, other, local, ib.member, depth + 1)


def _bound_of(c: FileCtx, owner: int, b) -> tuple[FileCtx, int, str] | None:
    """The ``bound=`` argument of the call binding ``b`` (``bound=Config``, ``bound="Config"``)."""
    for call in c.pf.calls:
        if call.line != b.line or call.caller != owner or call.callee != b.value:
            continue
        for arg in call.args:
            if arg.startswith("bound="):
                bound = arg[len("bound="):]
                if bound.startswith("='") and bound.endswith("'"):  # a string: the annotation it spells
                    bound = bound[2:-1]
                return (c, owner, bound) if bound and bound[0] != "=" and "<" not in bound else None
        return None
    return None
