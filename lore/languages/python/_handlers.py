"""What an ``except`` clause records: the classes it catches, and the fallbacks of a failed import.

Functions of the extractor (:class:`lore.languages.python._parser._Extractor`, ``x``).

``except E:`` is an ``isinstance`` test of the exception against ``E``. A handler after a ``try:`` body
that imports a name, and that defines the same name again, is a fallback::

    try:
        from .http2 import HTTP2Connection
    except ImportError:
        class HTTP2Connection: ...  # only when the import fails

Its definition binds the name only when the try body failed, as a preprocessor branch a default build skips
binds it only in another build: it is recorded with the condition ``"0"`` (``Symbol.condition``), and a
scope that also imports the name binds the import (see :meth:`lore.index._world._ScopeTable._built`).
"""

from __future__ import annotations

from typing import Any

from ...parsers import _ts
from ...parsers.records import TypeRef
from ._expr import dotted, text

_DEFINITIONS = frozenset({"function_definition", "class_definition", "decorated_definition"})


def except_clause(x: Any, node: _ts.Node, owner: int) -> None:
    """``except E as e:``: a type reference to each caught class; fallbacks of a failed import marked."""
    _mark_fallbacks(x, node, owner)
    value = node.child_by_field_name("value")
    if value is None:
        return
    expr = value.named_child(0) if value.type == "as_pattern" and value.named_child_count else value
    nodes = expr.named_children if expr.type == "tuple" else [expr]
    for t in nodes:
        name = dotted(t, x.src)
        if name and "<" not in name and "(" not in name:
            x.pf.type_refs.append(TypeRef(owner, name, "isinstance", t.start_point[0] + 1, t.start_point[1]))


def _mark_fallbacks(x: Any, clause: _ts.Node, owner: int) -> None:
    """Mark the definitions of ``clause``'s block whose name its ``try:`` body imported (``x.fallbacks``)."""
    trial = clause.parent
    body = trial.child_by_field_name("body") if trial is not None and trial.type == "try_statement" else None
    if body is None:
        return
    first, last = body.start_point[0] + 1, body.end_point[0] + 1
    imported: set[str] = set()
    for imp in reversed(x.pf.imports):  # the body's imports were recorded just before this clause
        if imp.line < first:
            break
        if imp.owner == owner and imp.line <= last and imp.name != "*":
            imported.add(imp.alias or imp.name or imp.module.split(".")[0])
    if not imported:
        return
    for block in clause.named_children:
        if block.type != "block":
            continue
        for stmt in block.named_children:
            if stmt.type not in _DEFINITIONS:
                continue
            definition = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            name = definition.child_by_field_name("name") if definition is not None else None
            if name is not None and text(name, x.src) in imported:
                x.fallbacks.add(stmt.start_byte)
