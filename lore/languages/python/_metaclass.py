"""Metaclasses: the attributes a metaclass sets on the classes it builds.

A class written ``class Model(metaclass=ModelBase)`` is built by ``ModelBase``; what ``ModelBase``'s
methods set on the class they build (``setattr(cls, "objects", manager)``, or a method of the metaclass
that does that setattr for them: ``cls.add_to_class("objects", manager)``) is a class attribute of
``Model`` and of every class derived from it. The extractor records both facts as Python itself would
let a class body write them:

- ``metaclass=M`` is the binding ``__metaclass__ = M`` of the class (Python 2's spelling of it), which
  its subclasses inherit as any class attribute;
- an attribute the metaclass sets on the class it builds is an attribute of the metaclass's instances
  (``self.objects`` in the metaclass's scope): a metaclass's instances *are* the classes it builds.

The resolver reads ``C.x`` that ``C``'s own MRO lacks through ``C.__metaclass__`` (see
:meth:`lore.index._members.MembersMixin.member`).
"""

from __future__ import annotations

from ...parsers import _ts
from ._expr import dotted, text

METACLASS_ATTR = "__metaclass__"


def metaclass_of(supers: _ts.Node | None, src: str | None) -> str:
    """The dotted name given as ``metaclass=`` among a class's superclasses, else ``''``."""
    if supers is None:
        return ""
    for arg in supers.named_children:
        if arg.type == "keyword_argument" and text(arg.child_by_field_name("name"), src) == "metaclass":
            got = dotted(arg.child_by_field_name("value"), src)
            return got if got and "(" not in got and "<" not in got else ""
    return ""


def builds_classes(supers: _ts.Node | None, src: str | None) -> bool:
    """Whether a class derives from ``type`` directly (a metaclass: its instances are classes)."""
    if supers is None:
        return False
    return any(arg.type != "keyword_argument" and dotted(arg, src) in ("type", "builtins.type")
               for arg in supers.named_children)


def set_on_class(args: _ts.Node | None, callee: str, src: str | None) -> tuple[str, str, str, _ts.Node] | None:
    """``setattr(X, "name", v)`` -> ``("", X, "name", v)``; ``X.m("name", v)`` -> ``(m, X, "name", v)``:
    a literal attribute name set on ``X`` (directly, or through method ``m`` of ``X``'s metaclass, which
    the caller checks is a setter); ``None`` for any other call."""
    if args is None:
        return None
    pos = args.named_children
    if any(a.type in ("keyword_argument", "list_splat", "dictionary_splat") for a in pos):
        return None
    if callee == "setattr" and len(pos) == 3:
        receiver, key, value = dotted(pos[0], src), pos[1], pos[2]
        method = ""
    elif callee.count(".") == 1 and len(pos) == 2:
        receiver, method = callee.split(".")
        key, value = pos[0], pos[1]
    else:
        return None
    if key.type != "string" or not receiver or "(" in receiver:
        return None
    name = text(key, src).strip("'\"")
    if not name.isidentifier() or name == METACLASS_ATTR:
        return None
    return method, receiver, name, value


def forwards_to_setattr(callee: str, args: _ts.Node | None, params: list[str], src: str | None) -> bool:
    """Whether a call is ``setattr(p0, p1, p2)`` of a method's own first three parameters (the method is
    a setter: ``def add_to_class(cls, name, value): ... setattr(cls, name, value)``)."""
    if callee != "setattr" or args is None or len(params) < 3:
        return False
    pos = args.named_children
    return len(pos) == 3 and [text(a, src) for a in pos] == params[:3]


def on_call(ex, owner: int, callee: str, args: _ts.Node | None, line: int) -> None:
    """A call in method ``owner`` of a metaclass (``ex`` is the Python extractor): note a setter method,
    and bind what the call sets on the class the metaclass builds as an attribute of the metaclass's
    instances. The class is the method's first parameter (``def _prepare(cls)``), or in ``__new__`` a
    local name (``new_class = super().__new__(...)``: there the first parameter is the metaclass)."""
    meta = ex.class_of[owner]
    method = ex.pf.symbols[owner]
    params = [p for p, _a in method.params]
    if forwards_to_setattr(callee, args, params, ex.src):
        ex.setters.add((meta, method.name))
        return
    got = set_on_class(args, callee, ex.src)
    if got is None or not params:
        return
    via, receiver, name, value = got
    if method.name == "__new__":
        if receiver == params[0] or "." in receiver:
            return
    elif receiver != params[0]:
        return
    if via:
        ex.pending_sets.append((meta, via, name, value, line, owner))
    else:
        ex._bind_value(meta, f"self.{name}", value, line, owner)


def flush_sets(ex) -> None:
    """At the end of a file: the sets made through a method that proved to be a setter."""
    for meta, via, name, value, line, owner in ex.pending_sets:
        if (meta, via) in ex.setters:
            ex._bind_value(meta, f"self.{name}", value, line, owner)
