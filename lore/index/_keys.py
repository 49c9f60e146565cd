"""Keys read from names: ``handlers[KEY]()`` where ``KEY`` is a constant selects one slot of a literal container.

The Python extractor writes a subscript whose key is a plain name as ``d[*k]`` and records each name bound
once in its scope to an int or str literal as a binding of ``=k`` whose annotation is the literal as a slot
key (``1``, ``'a'``; :mod:`lore.languages.python._constants`). :meth:`KeysMixin.keyed_path` reads such a
path: when ``k`` names a constant where it is read, the path reads that slot (``d['a']``), the way a
literal key does; otherwise, or when the slot is unknown, it reads any slot (``d[*]``), as before.

The constant counts only where nothing can change what it selects: the name is bound exactly once in the
scope that binds it (no loop target, no second assignment, no ``+=``, no ``global`` rebinding it), or
imported from a module where that holds; not a parameter (callers may pass anything); and the container
is not filled elsewhere in the file (``d[k] = f`` with a key we cannot read, ``xs.append(f)``, a slot
assigned in another function, ``xs += [...]``).
"""

from __future__ import annotations

import re

from ._flow import union_of
from ._keys_params import ParamKeysMixin
from ._world import MAX_DEPTH, FileCtx, Value

CONST_PREFIX = "="  # lore.languages.python._constants.CONST_PREFIX
ANY_KEY = re.compile(r"\[\*([A-Za-z_]\w*)\]")  # lore.languages.python._expr.ANY_KEY
_FILLS = frozenset({"append", "appendleft", "extend", "extendleft", "insert", "update", "setdefault",
                    "__setitem__"})


class KeysMixin(ParamKeysMixin):
    """The slot a constant key selects (see the module doc)."""

    def keyed_path(self, c: FileCtx, scope: int, path: str, line: int, depth: int) -> tuple[Value, str] | None:
        """Resolve ``path`` whose first name-keyed slot (``d[*k]``) reads the slot of ``k``'s constant, or
        any slot when ``k`` is not a constant there."""
        m = ANY_KEY.search(path)
        if m is None:  # pragma: no cover - the caller checked
            return None
        head = path[: m.start()]
        keys = self.constant_key(c, scope, m.group(1), depth) if c.rules.follows_values and self._stable(c, head) else None
        if keys:
            found = [self.resolve_path(c, scope, f"{head}[{key}]{path[m.end():]}", line, depth + 1)  # type: ignore[attr-defined]
                     for key in keys]
            if all(got is not None for got in found):
                got = found[0] if len(found) == 1 else union_of(found)  # type: ignore[arg-type]
                if got is not None:
                    return got
        return self.resolve_path(c, scope, f"{head}[*]{path[m.end():]}", line, depth + 1)  # type: ignore[attr-defined]

    def constant_key(self, c: FileCtx, scope: int, name: str, depth: int) -> tuple[str, ...] | None:
        """The slot keys ``name`` may hold where ``scope`` reads it: the literal it is bound to once, or
        for a parameter the constants its callers pass (:meth:`param_keys`); ``None`` if it is neither.

        Scopes are searched from ``scope`` outwards, skipping enclosing classes as Python does; the first
        scope that binds ``name`` in any way (a definition, an import, an assignment, a parameter) decides.
        """
        if depth > MAX_DEPTH:
            return None
        syms = c.pf.symbols
        i: int | None = scope
        while i is not None:
            sym = syms[i]
            if i == scope or sym.kind != "class":
                cands = c.cands[i]
                const = cands.get(CONST_PREFIX + name)
                other = cands.get(name)
                pos = next((k for k, (p, _a) in enumerate(sym.params) if p == name), -1)
                if const is not None or other is not None or pos >= 0:
                    if const is not None and other is None and len(const) == 1 and pos < 0:
                        lit = const[0][2].annotation  # type: ignore[union-attr]
                        return (lit,) if lit else None
                    if const is None and other is not None and len(other) == 1 and other[0][1] == "import":
                        return self._imported_key(c, other[0][2], depth)
                    if pos >= 0 and const is None and all(what == "param" for _l, what, _p in other or ()):
                        return self.param_keys(c.ids[i], pos)  # a parameter the body never rebinds
                    return None
            i = sym.parent
        return None

    def _imported_key(self, c: FileCtx, ib, depth: int) -> tuple[str, ...] | None:
        """``from m import K``: ``K``'s constant in module ``m`` (or where ``m`` imports it from)."""
        if ib.star or not ib.member:
            return None
        mod = c.rules.module_value(self, c, ib.module)
        if mod is None or mod[0] != "sym":
            return None
        srow = self.syms.get(mod[1])  # type: ignore[call-overload]
        other = self.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
        local = other.local_of.get(mod[1]) if other is not None else None  # type: ignore[arg-type]
        if other is None or local is None:
            return None
        return self.constant_key(other, local, ib.member, depth + 1)

    def _stable(self, c: FileCtx, head: str) -> bool:
        """Whether the container ``head`` (a name or ``self.x``) is filled only by its literal and by
        slots of keys we can read in its own scope: not ``head[*] = ...``, ``head.append(...)``, a slot
        assigned in another scope, ``head += [...]``."""
        memos = self.__dict__.setdefault("_unstable", {})
        memo = memos.get(c.frow.id)
        if memo is None:
            memo = memos[c.frow.id] = _unstable(c)
        return head not in memo


def _unstable(c: FileCtx) -> frozenset[str]:
    """The containers of a file that something other than their literal fills (see ``_stable``)."""
    out: set[str] = set()
    owners: dict[str, set[int]] = {}
    for b in c.pf.bindings:
        name = b.name
        if name.endswith("]") and "[" in name:
            base = name[: name.index("[")]
            owners.setdefault(base, set()).add(b.scope if b.scope is not None else b.owner)
            if name.endswith("[*]"):
                out.add(base)
    out.update(base for base, scopes in owners.items() if len(scopes) > 1)
    for call in c.pf.calls:
        base, dot, method = call.callee.rpartition(".")
        if dot and method in _FILLS:
            out.add(base)
    return frozenset(out)
