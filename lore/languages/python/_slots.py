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

_NOT_A_VALUE = frozenset({"keyword_argument", "list_splat", "dictionary_splat", "parenthesized_list_splat"})
FILLS = (".update", ".append", ".appendleft", ".add", ".insert")  # the methods whose calls :func:`filled` reads


def slots(x, owner: int, name: str, literal: _ts.Node, line: int, scope: int | None, depth: int = 0) -> None:
    """``d = {"a": f}`` / ``xs = [f, g]``: bind each literal slot (``d['a']``, ``xs[1]``) to its value."""
    if depth > 3:
        return
    x.containers.add((owner, name))
    if literal.type == "dictionary":
        x.mappings.add((owner, name))
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
    """A call that fills a container: ``d.update({"a": f})`` rebinds ``d['a']``; ``xs.append(v)`` (``add``,
    ``appendleft``, ``insert(i, v)``) puts ``v`` at any slot, ``xs[*]``, of a container made here as a
    literal (``xs = []`` in this scope, ``self.xs = []`` in this class)."""
    if args is None:
        return
    if callee.endswith(".update"):
        if callee.count(".") == 1 and args.named_child_count == 1 and args.named_children[0].type == "dictionary":
            slots(x, owner, callee[: -len(".update")], args.named_children[0], line, None)
        return
    base, _, method = callee.rpartition(".")
    values = [c for c in args.named_children if c.type != "comment"]
    if len(values) != (2 if method == "insert" else 1) or values[-1].type in _NOT_A_VALUE:
        return
    if base.startswith("self.") and base.count(".") == 1 and owner in x.class_of:
        bind_owner, scope = x.class_of[owner], owner  # attributes belong to the class
    elif base.isidentifier():
        bind_owner, scope = owner, None
    else:
        return
    if (bind_owner, base) not in x.containers:  # a name we never saw made as a literal: not ours to type
        return
    value = values[-1]
    if value.type in ("dictionary", "list", "tuple"):
        slots(x, bind_owner, f"{base}[*]", value, line, scope)
    else:
        x._bind_value(bind_owner, f"{base}[*]", value, line, scope)
