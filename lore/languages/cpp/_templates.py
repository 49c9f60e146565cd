"""Class templates with their arguments: ``Grid<Point> g; g.at(i).x()`` calls ``Point::x``.

A class template lists its parameters in order as ``TYPE_PARAM`` bindings (:func:`class_params`; a non-type
parameter ``int N`` holds its place), and a variable, field, parameter or return type declared with a project
template and arguments (``Grid<Point>``, ``ns::Box<const Foo*>``) is annotated ``Grid[Point]``
(:func:`with_arguments`), and so is a base class (``class Sub : public Base<Foo>``: :func:`template_base`). The resolver's generic instances (:mod:`lore.index._generics`, shared with TypeScript
and Python) then read a member declared ``T&``, ``const T*`` or ``T`` as what the receiver's argument for ``T`` is.
An argument that is no type (``Buf<char, 250>``'s ``250``) or a standard type stands for nothing, so a member
typed by its parameter stays unbound there, never guessed. Standard templates (``std::vector<Foo>``) are not
touched here: their elements are :mod:`._elements`'.
"""

from __future__ import annotations

import re

from ...parsers import _ts
from ...parsers.records import TYPE_BASE, TYPE_PARAM

_PARAMS = frozenset({"type_parameter_declaration", "optional_type_parameter_declaration",
                     "variadic_type_parameter_declaration", "parameter_declaration",
                     "optional_parameter_declaration", "variadic_parameter_declaration",
                     "template_template_parameter_declaration"})


def _param_name(ex, p: _ts.Node) -> str:
    """The name a template parameter declares (``class T``, ``class T = int``, ``int N``), ``""`` for none."""
    name = p.child_by_field_name("name")
    if name is None and p.type in ("parameter_declaration", "optional_parameter_declaration"):
        name = ex.declarator_name(p.child_by_field_name("declarator"))
    if name is None:
        name = next((c for c in p.named_children if c.type in ("type_identifier", "identifier")), None)
    return ex.text(name) if name is not None else ""


def class_params(ex, local: int, plist: _ts.Node | None) -> None:
    """``template <class T, int N> class Grid``: ``TYPE_PARAM`` bindings ``T``, ``N`` of ``Grid``, in order."""
    if plist is None or ex.pf.symbols[local].kind not in ("class", "struct"):
        return
    for p in plist.named_children:
        if p.type in _PARAMS:
            ex.add_binding(local, TYPE_PARAM, p, value=_param_name(ex, p) or "?")


def _arguments(ex, node: _ts.Node) -> list[str]:
    """The type arguments of a ``template_type`` as annotations (``""`` for one that is no project type)."""
    args = node.child_by_field_name("arguments")
    out = []
    for a in args.named_children if args is not None else ():
        if a.type == "comment":
            continue
        t = a.child_by_field_name("type") if a.type == "type_descriptor" else None
        got = ex.direct_type(t) if t is not None else ""
        out.append("" if got.startswith("std.") else got)
    return out


def with_arguments(ex, node: _ts.Node | None, base: str) -> str:
    """``base`` (the template's name as the extractor spells it) with the project type arguments ``node``
    gives it: ``Grid<Point>`` -> ``Grid[Point]``; ``base`` alone when it gives none."""
    t = node
    while t is not None and t.type == "qualified_identifier":
        t = t.child_by_field_name("name")
    if t is None or t.type != "template_type" or not base or base.startswith("std.") or "[" in base:
        return base
    args = _arguments(ex, t)
    if not any(args):
        return base
    return f"{base}[{', '.join(args)}]"


def template_base(ex, local: int, node: _ts.Node | None, name: str) -> None:
    """``class Sub : public Base<Foo>``: a ``TYPE_BASE`` binding ``Base[Foo]`` of ``Sub``, so a member ``Sub``
    inherits from ``Base`` typed by ``Base``'s parameter is a ``Foo`` (the resolver reads the last such base)."""
    ann = with_arguments(ex, node, name)
    if ann != name:
        ex.add_binding(local, TYPE_BASE, node, annotation=ann)


def default_return(ex, local: int, node: _ts.Node, ret: _ts.Node | None, params: _ts.Node | None) -> None:
    """``template <typename T = Option_group> T* add_option_group(std::string name)``: a function template
    returning its own parameter ``T``, which no function parameter deduces, returns the default (``Option_group``)
    unless the call names another; its return type is recorded as the default (``Option_group``)."""
    tdecl = node.parent
    if tdecl is None or tdecl.type != "template_declaration" or ret is None or ret.type != "type_identifier":
        return
    name = ex.text(ret)
    plist = tdecl.child_by_field_name("parameters")
    for p in plist.named_children if plist is not None else ():
        if p.type == "optional_type_parameter_declaration" and _param_name(ex, p) == name:
            default = p.child_by_field_name("default_type")
            taken = params is not None and re.search(rb"\b%s\b" % re.escape(name.encode()),
                                                     ex.source[params.start_byte:params.end_byte]) is not None
            if default is not None and not taken:  # a parameter typed T (or T&, vector<T>) deduces it
                ex.pf.symbols[local].return_type = ex.direct_type(default)
            return


_ENABLE_IF = frozenset({"enable_if_t", "enable_if"})


def enabled_type(ex, node: _ts.Node | None) -> _ts.Node | None:
    """The type a SFINAE return type gives when it is enabled: ``std::enable_if_t<cond, T>``, ``cxx::enable_if_t<cond,
    T>`` and ``typename std::enable_if<cond, T>::type`` are ``T`` (the node of ``T``); ``None`` for any other type
    (and for ``enable_if<cond>``, which is ``void``)."""
    t = node
    if t is not None and t.type == "dependent_type":  # typename std::enable_if<...>::type
        t = t.named_children[0] if t.named_children else None
    member = ""
    while t is not None and t.type == "qualified_identifier":
        name = t.child_by_field_name("name")
        if name is not None and name.type == "type_identifier":  # enable_if<...>::type: the scope is the template
            member = ex.text(name)
            t = t.child_by_field_name("scope")
        else:
            t = name
    if t is None or t.type != "template_type" or ex.text(t.child_by_field_name("name")) not in _ENABLE_IF:
        return None
    if (ex.text(t.child_by_field_name("name")) == "enable_if") != (member == "type"):
        return None
    args = t.child_by_field_name("arguments")
    kids = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    if len(kids) != 2 or kids[1].type != "type_descriptor":
        return None
    return kids[1].child_by_field_name("type")
