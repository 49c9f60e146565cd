"""Starred unpacking: ``a, *b, c = f, g, h, k`` binds ``a`` and ``c`` to the ends and the slots of ``b``
(``b[0]``, ``b[1]``) to the middle.

A function of the extractor (:class:`lore.languages.python._parser._Extractor`, ``x``).
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding
from ._expr import dotted, text, value_path

UNPACKED = ("pattern_list", "tuple_pattern", "list_pattern")  # targets that unpack their value


def starred(x, owner: int, left: _ts.Node, right: _ts.Node | None, line: int) -> None:
    """``a, *b, c = f, g, h, k``: ``a`` and ``c`` take their ends, the slots of ``b`` the middle."""
    if right is None or left.type not in UNPACKED \
            or right.type not in ("expression_list", "tuple", "list"):
        return
    targets = [t for t in left.named_children if t.type != "comment"]
    values = [v for v in right.named_children if v.type != "comment"]
    stars = [i for i, t in enumerate(targets) if t.type == "list_splat_pattern"]
    if len(stars) != 1 or any(v.type == "list_splat" for v in values) or len(values) < len(targets) - 1:
        return
    k = stars[0]
    after = len(targets) - k - 1
    for t, v in list(zip(targets[:k], values[:k], strict=True)) + list(
            zip(targets[k + 1:], values[len(values) - after:], strict=True)):
        x._bind(owner, t, v, None, line)
    name = text(targets[k].named_children[0], x.src) if targets[k].named_children else ""
    if name.isidentifier():
        for i, v in enumerate(values[k:len(values) - after]):
            path = value_path(v, x.src) if v.type != "call" else ""
            if v.type == "call":
                callee = dotted(v.child_by_field_name("function"), x.src)
                if callee and "<" not in callee:
                    x.pf.bindings.append(Binding(owner, f"{name}[{i}]", line, value=callee))
            elif path:
                x.pf.bindings.append(Binding(owner, f"{name}[{i}]", line, alias_of=path))
        x.containers.add((owner, name))

