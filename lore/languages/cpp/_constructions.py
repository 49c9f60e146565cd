"""Constructions and calls the C++ grammar reads as something else, for the extractor (:mod:`._parser`).

``T x(name);`` in a body (the most vexing parse: a function declaration to the grammar) constructs ``T``;
``Derived() : Base(1)`` constructs the base; ``f(i) = 0;`` in a body (a pure virtual function to the grammar)
calls ``f``.
"""

from __future__ import annotations

from ...parsers import _ts
from ._dependent_constructions import mark_dependent


def vexing_constructions(ex, node: _ts.Node, owner: int) -> None:
    """In a function body, ``T x(name);`` with only names inside the parentheses (which the grammar reads as a
    function declaration, as the language's most vexing parse would): a construction of ``T`` at ``T``, and ``x`` a
    local of type ``T``."""
    tnode = node.child_by_field_name("type")
    for d in node.children_by_field_name("declarator"):
        params = d.child_by_field_name("parameters") if d.type == "function_declarator" else None
        if params is None:
            continue
        names = [n for p in params.named_children if (n := p.child_by_field_name("type")) is not None]
        name_node = ex.declarator_name(d.child_by_field_name("declarator"))
        if not names or len(names) != params.named_child_count or name_node is None \
                or name_node.type != "identifier" or tnode is None or any(
                p.type != "parameter_declaration" or p.child_by_field_name("declarator") is not None
                for p in params.named_children) or any(n.type != "type_identifier" for n in names):
            continue
        t = ex._written_type(tnode)
        if t:
            ex.add_call(owner, t, tnode, "new")
            ex.pf.calls[-1].args = [ex.arg_type(owner, n) for n in names]
            mark_dependent(ex, tnode, owner)
            ex.local_binding(owner, ex.text(name_node), name_node, tnode, None)


def base_initializer(ex, node: _ts.Node, owner: int) -> None:
    """``Derived::Derived() : Base(1), s_(x)``: an initializer named like a type (upper case first, or qualified,
    or with template arguments) constructs that base; a member's (``s_``, ``m_pNode``) is left alone."""
    name = node.named_children[0] if node.named_child_count else None
    args = next((c for c in node.named_children if c.type == "argument_list"), None)
    if name is None or args is None or ex.pf.symbols[owner].kind not in ("function", "method"):
        return
    if name.type == "field_identifier" and (not ex.text(name)[:1].isupper() or ex.text(name).endswith("_")):
        return
    base = ex.dotted(name) if name.type != "field_identifier" else ex.text(name)
    if base and not base.startswith("std."):
        ex.add_call(owner, base, node, "new")  # at the name, where the oracle looks for it
        ex.record_arity(args)


def assigned_call(ex, node: _ts.Node, owner: int) -> None:
    """``f(i) = 0;`` inside a function body, which the grammar reads as a pure virtual function: the call ``f(i)``
    (a reference it returns is assigned), its arguments the names the grammar took for parameter types."""
    fdecl = ex.function_declarator(node.child_by_field_name("declarator"))
    name = fdecl.child_by_field_name("declarator") if fdecl is not None else None
    callee = ex.dotted(name) if name is not None and name.type in ("identifier", "qualified_identifier") else ""
    if callee:
        ex.add_call(owner, callee, name)
        params = fdecl.child_by_field_name("parameters")
        ex.pf.calls[-1].args = [ex.arg_type(owner, t) if (t := p.child_by_field_name("type")) is not None else ""
                                for p in (params.named_children if params is not None else ())]
