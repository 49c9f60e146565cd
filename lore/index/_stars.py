"""Which star imports of a scope may bind a name: an index built once per (file, scope).

A name bound in no scope of a file is tried in every module its star imports name (Python's ``from x
import *``, C#'s ``using N;``, Kotlin's and Java's ``import p.*``), latest first: in C# every unbound
name of a method is looked for in each ``using`` namespace, each made of many files. The names a star
import can bind are known from the symbols alone (what the modules declare, bind at their top level and
hold as sub-modules), so they are read once and the lookup skips the imports that cannot answer. The
index depends on nothing the lookup stack holds, so the memo rules of :mod:`lore.index._world` are
kept: a skipped import is one whose lookup would have returned ``None`` on any stack.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..languages import ImportBinding
    from ._world import FileCtx

_ANY = None  # a module whose names cannot be bounded (its top level re-exports its own imports)


def star_candidates(world, c: FileCtx, scope: int) -> dict[str, tuple[ImportBinding, ...]] | None:
    """Name -> the star imports of ``scope`` in file ``c`` that may bind it, latest first; ``None`` when
    one of them may bind any name (then every import is tried, as without the index)."""
    memo = world.__dict__.setdefault("_star_index", {})
    key = (c.frow.id, scope)
    try:
        return memo[key]
    except KeyError:
        pass
    out: dict[str, list[ImportBinding]] | None = defaultdict(list)
    for ib in reversed(c.stars[scope]):
        names = _binding_names(world, c, ib)
        if names is _ANY:
            out = None
            break
        for name in names:
            out[name].append(ib)  # type: ignore[index]
    got = memo[key] = {k: tuple(v) for k, v in out.items()} if out is not None else None
    return got


def _binding_names(world, c: FileCtx, ib: ImportBinding) -> frozenset[str] | None:
    """The names ``member`` of star import ``ib`` may resolve to something (a superset), as
    ``LookupMixin._import_value`` looks them up; ``None`` for any name."""
    mod = c.rules.module_value(world, c, ib.module)
    if mod is None:
        return frozenset()
    tag, payload = mod
    if tag == "sym":
        return _module_names(world, payload)
    if tag == "ns":
        return _sub_names(world).get(ib.module, frozenset())
    if tag == "pkg":
        found: set[str] = set()
        for mid in payload:
            names = _module_names(world, mid)
            if names is _ANY:
                return _ANY
            found |= names
        return frozenset(found)
    return frozenset()  # an external module: a star import of it binds nothing the lookup can name


def _module_names(world, mod_id: int) -> frozenset[str] | None:
    """What ``LookupMixin._module_member`` can find in ``mod_id``: its children, what its top level binds,
    the modules and namespaces under its name; ``None`` when its top level re-exports its imports."""
    memo = world.__dict__.setdefault("_star_module_names", {})
    try:
        return memo[mod_id]
    except KeyError:
        pass
    names = set(world.children.get(mod_id, {}))
    file_id = world.module_file.get(mod_id)
    if file_id is None and world.syms[mod_id].kind == "namespace":
        file_id = world.syms[mod_id].file_id
    ctx = world.ctx(file_id)
    got: frozenset[str] | None
    if ctx is not None and ctx.rules.imports_reexported:
        got = _ANY
    else:
        if ctx is not None:
            names.update(ctx.cands[ctx.local_of.get(mod_id, 0)])
        names.update(_sub_names(world).get(world.syms[mod_id].qualified_name, ()))
        got = frozenset(names)
    memo[mod_id] = got
    return got


def _sub_names(world) -> dict[str, frozenset[str]]:
    """Dotted name -> the last parts of the modules and namespaces right under it."""
    got = world.__dict__.get("_star_sub_names")
    if got is None:
        subs: dict[str, set[str]] = defaultdict(set)
        for full in (*world.modules, *world.namespaces):
            head, dot, last = full.rpartition(".")
            if dot:
                subs[head].add(last)
        got = world.__dict__["_star_sub_names"] = {k: frozenset(v) for k, v in subs.items()}
    return got
