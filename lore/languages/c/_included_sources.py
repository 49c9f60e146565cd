"""A source file another includes by name (``#include "lz4.c"`` in ``lz4hc.c``):
its file-level definitions are part of the including translation unit, ``static`` functions, macros and
typedefs too, as a header's are. (A header's own source file, which lore pairs with the header for its
definitions, stays outside: only a ``.c`` the include names counts. :meth:`._rules.CRules.linkage` asks this.)"""

from __future__ import annotations

import posixpath

from .._rules import record_of, world_cache
from ._build import _exported
from ._includes import _C_SOURCE_EXTS
from ._overloads import _named

_VISIBLE_KINDS = ("function", "type_alias", "struct", "enum")


def _included_sources(rules, world, ctx) -> frozenset[int]:
    """The module ids of the source files ``ctx`` includes by name itself. (Not those a header it reaches includes:
    xxhash.h's ``#include "xxhash.c"`` sits in a branch only some units compile, which no include here records.)"""
    cache = world_cache(world, "c-included-sources", dict)
    got = cache.get(ctx.frow.id)
    if got is not None:
        return got
    out: set[int] = set()
    for imp in ctx.pf.imports:
        if not imp.module.endswith(_C_SOURCE_EXTS) or imp.module.startswith("<"):
            continue
        v = rules.module_value(world, ctx, imp.module)
        if v is None or v[0] != "pkg":
            continue
        base = posixpath.basename(imp.module)
        for mid in v[1]:
            fid = world.module_file.get(mid)
            f = world.files.get(fid) if fid is not None else None
            if f is not None and posixpath.basename(f.path) == base and fid != ctx.frow.id:
                out.add(mid)
    got = cache[ctx.frow.id] = frozenset(out)
    return got


def included_source_locals(rules, world, ctx, name: str, aliases=()) -> list[int]:
    """The file-level definitions named ``name`` that are local to a source file ``ctx``'s unit includes by name
    (``static`` functions, macros, typedefs: those the linker would not export), for the caller to treat as a
    header's definitions in reach; ``aliases``: the typedefs named ``name`` (the world's name index holds what
    can be called)."""
    included = _included_sources(rules, world, ctx)
    if not included:
        return []
    out = []
    for sid in sorted({*_named(world, name), *aliases}):
        srow = world.syms[sid]
        f = world.files.get(srow.file_id) if srow.file_id is not None else None
        if f is None or f.module_id not in included or srow.kind not in _VISIBLE_KINDS:
            continue
        parent = world.syms.get(srow.parent_id) if srow.parent_id is not None else None
        if parent is None or parent.kind != "module":
            continue
        if srow.kind == "function":  # an exported function is the linker's already (a global definition)
            _c, sym = record_of(world, sid)
            if sym is None or _exported(world, sym):  # static, or a macro that expands to it (ARC4RANDOM_EXPORT)
                continue
        out.append(sid)
    return sorted(out)
