"""The slots of Python containers: what a literal (``{"a": f}``, ``[f, g]``) or a call that fills a
container (``d.update({...})``) puts at each key.

Functions of the extractor (:class:`lore.languages.python._parser._Extractor`, ``x``): each records
the bindings of slots (``d['a']``, ``xs[1]``, ``d[*]`` for a key we cannot read) and which names are
literal containers in a scope (``x.containers``), which loops over them read slot by slot.
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding
from ._expr import dotted, literal_slots, value_path

FILLS = (".update",)  # the methods whose calls :func:`filled` reads


def slots(x, owner: int, name: str, literal: _ts.Node, line: int, scope: int | None, depth: int = 0) -> None:
    """``d = {"a": f}`` / ``xs = [f, g]``: bind each literal slot (``d['a']``, ``xs[1]``) to its value."""
    if depth > 3:
        return
    x.containers.add((owner, name))
    for key, value in literal_slots(literal):
        if value is None:
            continue
        slot = f"{name}[{key or '*'}]"  # a key we cannot read ({CLIENT: c}): any slot, as d[k] = c is
        vt = value.type
        if vt == "call":
            callee = dotted(value.child_by_field_name("function"), x.src)
            if callee:
                x.pf.bindings.append(Binding(owner, slot, line, value=callee, scope=scope))
        elif vt in ("identifier", "attribute", "lambda"):
            src = value_path(value, x.src)
            if src:
                x.pf.bindings.append(Binding(owner, slot, line, alias_of=src, scope=scope))
        elif vt in ("dictionary", "list", "tuple"):
            slots(x, owner, slot, value, line, scope, depth + 1)


def filled(x, owner: int, callee: str, args: _ts.Node | None, line: int) -> None:
    """A call that fills a container: ``d.update({"a": f})`` rebinds ``d['a']``."""
    if callee.endswith(".update") and callee.count(".") == 1:
        if args is not None and args.named_child_count == 1 and args.named_children[0].type == "dictionary":
            slots(x, owner, callee[: -len(".update")], args.named_children[0], line, None)
