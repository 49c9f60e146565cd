"""Python generic classes: the type parameters a class declares and the arguments its base is given.

Functions of the extractor (:class:`lore.languages.python._parser._Extractor`, ``x``), recording what
:mod:`lore.index._generics` reads (as the TypeScript extractor writes ``class Box<T>`` and
``extends Base<Foo>``):

- ``class Box(Generic[T])`` (or ``Protocol[T]``) declares ``T``; without ``Generic[...]``, a class declares
  the type variables its subscripted bases use, in order of first use (``class Stream(Base[T_Item])``), as
  Python itself does. A type variable is a name this module binds with ``TypeVar(...)`` (or
  ``ParamSpec`` / ``TypeVarTuple``), or an imported one spelled as type variables are (``T``, ``T_co``,
  ``_T``, ``T_Item``). Each is a ``TYPE_PARAM`` binding of the class, in order.
- ``class Names(Base[str, Field])``: a ``TYPE_BASE`` binding ``Base[str, Field]``, so a member of ``Base``
  typed by its parameter is a ``Field`` on a ``Names``.
"""

from __future__ import annotations

import re

from ...parsers import _ts
from ...parsers.records import TYPE_BASE, TYPE_PARAM, Binding
from ._expr import dotted, text

_DECLARERS = frozenset({"Generic", "typing.Generic", "t.Generic", "Protocol", "typing.Protocol", "t.Protocol",
                        "typing_extensions.Protocol"})
_MAKERS = frozenset({"TypeVar", "typing.TypeVar", "t.TypeVar", "ParamSpec", "typing.ParamSpec",
                     "TypeVarTuple", "typing.TypeVarTuple", "typing_extensions.TypeVar",
                     "typing_extensions.ParamSpec", "typing_extensions.TypeVarTuple"})
# how an imported type variable is spelled: T, _T, T_co, KT, VT_co, T1, T_Item, _T_contra (not IO, OS)
_SPELLED = re.compile(r"_?(?:[A-Z]|[A-Z]T|T\d|T_\w+)(?:_co|_contra)?\Z")


def class_type_params(x, local: int, supers: _ts.Node, line: int) -> None:
    """Record the type parameters class ``local`` declares and the arguments of its first generic base."""
    declared: list[str] = []
    used: list[str] = []
    base_args: tuple[str, list[str]] | None = None
    for arg in supers.named_children:
        if arg.type not in ("subscript", "generic_type"):
            continue
        origin = dotted(arg.child_by_field_name("value") if arg.type == "subscript" else arg.named_child(0), x.src)
        args = [a for a in (arg.children_by_field_name("subscript") if arg.type == "subscript" else ()) if a.is_named]
        names = [text(a, x.src) for a in args]
        if origin in _DECLARERS:
            declared.extend(n for n in names if n.isidentifier())
            continue
        typevars = [n for n in names if _is_typevar(x, n)]
        used.extend(n for n in typevars if n not in used)
        if base_args is None and origin and "<" not in origin and len(typevars) < len(names):
            base_args = (origin, names)
    for name in declared or used:
        x.pf.bindings.append(Binding(local, TYPE_PARAM, line, value=name))
    if base_args is not None:
        x.pf.bindings.append(Binding(local, TYPE_BASE, line, annotation=f"{base_args[0]}[{', '.join(base_args[1])}]"))


def _is_typevar(x, name: str) -> bool:
    """Whether ``name`` is a type variable: made by ``TypeVar(...)`` in this module, or spelled as one."""
    if not name.isidentifier():
        return False
    if x.typevars is None:
        x.typevars = _module_typevars(x)
    return name in x.typevars or bool(_SPELLED.match(name))


def _module_typevars(x) -> frozenset[str]:
    """The names this module binds at its top level with ``TypeVar(...)`` (once per file, when first asked)."""
    out = set()
    for line in x.source.splitlines():
        if b"TypeVar(" in line or b"ParamSpec(" in line or b"TypeVarTuple(" in line:
            head, eq, value = line.partition(b"=")
            name = head.strip().split(b":", 1)[0].strip().decode("utf-8", "replace")
            callee = value.strip().split(b"(", 1)[0].strip().decode("utf-8", "replace")
            if eq and name.isidentifier() and callee in _MAKERS:
                out.add(name)
    return frozenset(out)
