"""Interfaces a project adds to the runtime's or a module's: ``declare global { interface Request { user(): User } }``
gives every ``Request`` of the program the member ``user``; ``declare module 'fw' { interface App { plugin(): P } }``
gives the package's ``App`` the member ``plugin``, and ``declare module './local' { interface Ctx {...} }`` the
project's own ``Ctx`` (TypeScript merges the declarations).

The parser marks such an interface with :data:`GLOBAL` and gives it the runtime's class as its base, spelled
:data:`RUNTIME_MARK` + name (its own name would find itself); the rules read a type named ``Request`` that no
scope of the file binds as the project's augmentation when there is one, so ``req.user()`` binds the member
the project declares, ``req.json()`` still the runtime's. A construction (``new Request(u)``) and a member
read on the name (``Request.json``) are the runtime's value's, never the interface's.

An interface declared in ``declare module 'spec' { }`` is marked :data:`MODULE` + spec; :func:`merged_onto`
finds, for what it merges onto (the name ``spec.App`` of a package's type as imports spell it, or the id of the
project interface ``spec`` resolves to), such interfaces, and the resolver's member lookup reads a member the
type lacks (a project interface) or that they declare (a package's type) there. Only members the blocks
declare: the package's others stay the package's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from .._rules import record_of, world_cache

if TYPE_CHECKING:
    from ..javascript._parser import JsExtractor as _Base
else:
    _Base = object

GLOBAL = "<global>"  # the decorator mark of an interface declared in ``declare global { }``
RUNTIME_MARK = "globalThis$"  # a base spelled so is the runtime's class of that name
MODULE = "<module>"  # + the specifier: the mark of an interface declared in ``declare module 'spec' { }``


def in_declare_global(node: _ts.Node) -> bool:
    """Whether a declaration stands directly in a ``declare global { ... }`` block."""
    block = node.parent
    if block is not None and block.type == "export_statement":
        block = block.parent
    amb = block.parent if block is not None and block.type == "statement_block" else None
    return amb is not None and amb.type == "ambient_declaration" and \
        any(c.type == "global" or _ts.text(c) == "global" for c in amb.children if not c.is_named)


def in_declare_module(node: _ts.Node) -> str | None:
    """The specifier of the ``declare module 'spec' { ... }`` block a declaration stands directly in, else ``None``."""
    block = node.parent
    if block is not None and block.type == "export_statement":
        block = block.parent
    mod = block.parent if block is not None and block.type == "statement_block" else None
    if mod is None or mod.type != "module" or mod.parent is None or mod.parent.type != "ambient_declaration":
        return None
    name = mod.child_by_field_name("name")
    if name is None or name.type != "string":
        return None
    spec = _ts.text(name)[1:-1]
    return spec if spec and "*" not in spec else None


class AugmentMixin(_Base):
    """Marks the runtime interfaces a ``declare global`` block augments (see the module's docstring)."""

    def augment(self, node: _ts.Node, local: int, runtime_names) -> None:
        name = self.pf.symbols[local].name
        if name in runtime_names and in_declare_global(node):
            self.pf.symbols[local].decorators.append(GLOBAL)
            self.add_relation(local, RUNTIME_MARK + name, "extends", node)
            return
        spec = in_declare_module(node)
        if spec is not None:
            self.pf.symbols[local].decorators.append(MODULE + spec)


def augmentation(world, ctx, scope: int, rules, name: str):
    """``(value, resolution)`` for the type ``name`` seen from ``scope`` of file ``ctx``, which binds no such name: the
    project's ``declare global`` interface of that name (the lowest id when there are several), or ``None``
    (the runtime's, as before) also when that scope uses the name as a value: the lookup does not say whether
    it reads a type or a value, and ``new Request(u)`` must stay the runtime's constructor."""
    if name.startswith(RUNTIME_MARK):
        return ("ext", f"{rules.builtin_prefix}.{name[len(RUNTIME_MARK):]}"), "builtin"
    if name not in rules.builtin_functions:
        return None
    found = world_cache(world, ("ts-augmented", name), lambda: _augmenting(world, name))
    if found is None or name in _values(world, ctx).get(scope, ()):
        return None
    return ("sym", found), "import"


def _augmenting(world, name: str) -> int | None:
    for sid in sorted(world.by_name.get(name, ())):
        if world.syms[sid].kind == "interface":
            _c, rec = record_of(world, sid)
            if rec is not None and GLOBAL in rec.decorators:
                return sid
    return None


def _values(world, ctx) -> dict[int, set[str]]:
    """Per scope of file ``ctx``: the names it calls, constructs or reads a member of (``new Request()``,
    ``Request.json()``)."""
    def build() -> dict[int, set[str]]:
        out: dict[int, set[str]] = {}
        for call in ctx.pf.calls:
            out.setdefault(call.caller, set()).add(call.callee.split(".", 1)[0])
        return out
    return world_cache(world, ("ts-values", ctx.frow.id), build)


def merged_onto(world, language: str, key: str | int) -> list[int]:
    """The ``declare module`` interfaces of the project's files of ``language`` that merge onto ``key``, in id
    order: the id of a project interface or class (``declare module './local' { interface Ctx }``, or a
    package of the monorepo that the specifier resolves to), or an external type's name as imports spell
    it (``fw.App``). Only the interfaces of that name are read (no scan of the project)."""
    if isinstance(key, int):
        srow = world.syms.get(key)
        if srow is None or srow.kind not in ("interface", "class"):
            return []
        name = srow.name
    else:
        name = key.rpartition(".")[2]
    out = []
    for sid in sorted(world.by_name.get(name, ())):
        if sid == key or world.syms[sid].kind != "interface":
            continue
        if augmented_target(world, language, sid) == key:
            out.append(sid)
    return out


def augmented_target(world, language: str, sid: int) -> str | int | None:
    """What the ``declare module 'spec'`` interface ``sid`` of a file of ``language`` merges onto: the id of
    a project interface or class, or an external type's name as imports spell it (``fastify.FastifyInstance``);
    ``None`` for an interface of no such block."""
    c, rec = record_of(world, sid)
    spec = next((d[len(MODULE):] for d in rec.decorators if d.startswith(MODULE)), None) if rec else None
    if spec is None or c.frow.language != language:
        return None
    name = world.syms[sid].name
    mod = c.rules.module_value(world, c, spec)
    if mod is not None and mod[0] == "sym":
        kids = [k for k in world.children.get(mod[1], {}).get(name, ())
                if k != sid and world.syms[k].kind in ("interface", "class")]
        return kids[0] if kids else None
    return None if spec.startswith(".") else f"{spec}.{name}"  # a relative module the project lacks: none
