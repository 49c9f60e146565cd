"""Number-typed fields and call results as overload arguments: ``q.move(h.count)`` with ``int count;`` in
``Holder`` calls ``move(int)``, not ``move(double)``.

The extractor types an argument that is a local of its own file (``=int``, :mod:`._arguments`); a field of a class
declared in another file (``h.count``, ``this->count``, a bare ``count`` in a method defined out of line) or what a
call returns (``h.size()``) reaches the resolver as ``@path``, and the resolver types only class instances. So the
extractor records the declared type of a number field (``int``, ``double``, ``size_t``, ``unsigned long``, with
``*`` per pointer level) as a binding ``<num>count`` of its class, and that of a function returning a number as a
binding ``<num>`` of the function (:func:`number_binding`); no other code reads these names, and their annotation
starts with ``=`` so no type is looked up for them. :func:`number_args` gives such arguments ``=int`` before C's
choice by argument types (:func:`lore.languages.c._overloads._best_by_arguments`): an exact match beats a
conversion, and a tie (``size_t`` against ``int`` and ``double``) keeps both overloads, as before. An argument
that is an instance of a class template with arguments (``Grid<Point> g``) is typed by its class here too, as C's
typing does for a plain instance.
"""

from __future__ import annotations

from ...parsers import _ts

NUMBER = "<num>"
_NUMBER_NODES = frozenset({"primitive_type", "sized_type_specifier"})


def number_binding(ex, owner: int, name: str, tnode: _ts.Node | None, typed: str, at: _ts.Node) -> None:
    """Record ``typed`` (the declared type as :meth:`~lore.languages.cpp._parser.CppExtractor.declare_var` spells
    it) under ``<num>NAME`` of ``owner`` when ``tnode`` is a number type (``void`` is none)."""
    if tnode is not None and tnode.type in _NUMBER_NODES and ex.text(tnode) != "void":
        ex.add_binding(owner, NUMBER + name, at, annotation="=" + typed)


def _declared(world, sid: int, name: str) -> str:
    srow = world.syms.get(sid)
    c = world.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
    local = c.local_of.get(sid) if c is not None else None
    binds = c.bindings_of(local).get(name, ()) if c is not None and local is not None else ()
    return binds[-1].annotation if binds else ""


def _field(world, class_id: int, field: str, twins) -> str:
    for t in [class_id, *twins(world, class_id)]:
        got = _declared(world, t, NUMBER + field)
        if got:
            return got
    return ""


def _number_type(world, ctx, call, path: str, twins) -> str:
    """``=T`` for an argument ``@path`` that is a number field or a call returning a number, else ``""``."""
    if path.endswith("()"):
        got = world.resolve_path(ctx, call.caller, path[:-2], call.line)
        return _declared(world, got[0][1], NUMBER) if got is not None and got[0][0] == "sym" else ""
    if "(" in path or "[" in path:
        return ""
    got = world.resolve_path(ctx, call.caller, path, call.line)
    if got is not None and got[0][0] == "gin":  # Grid<Point> g: a Grid (C's typing reads plain instances only)
        return "=" + world.syms[got[0][1][0]].name + "?"
    head, _, field = path.rpartition(".")
    if head:
        got = world.resolve_path(ctx, call.caller, head, call.line)
        return _field(world, got[0][1], field, twins) if got is not None and got[0][0] == "inst" else ""
    cls = ctx.enclosing_class(call.caller)  # a bare field of the class around the method
    return _field(world, ctx.ids[cls], field, twins) if cls is not None else ""


def number_args(world, ctx, call, twins) -> list[str] | None:
    """``call.args`` with each ``@path`` that is a number field or a number-returning call typed ``=T``; ``None``
    when none is. ``twins(world, class_id)``: the class's other declarations (header and placeholder)."""
    if not any(a[:1] == "@" for a in call.args):
        return None
    out = [(_number_type(world, ctx, call, a[1:], twins) or a) if a[:1] == "@" else a for a in call.args]
    return out if out != call.args else None
