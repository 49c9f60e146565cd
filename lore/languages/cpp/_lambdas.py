"""Lambdas held in local variables: ``auto is_space = [](char c) { ... }; ... is_space(ch);``.

Such a lambda is a local function of the function that declares it (a ``function`` symbol named like its
variable, a child of that function, spanning the declaration), so ``is_space(ch)`` binds to it as a call of any
nested function does, and the calls its body makes are its own. That is also where clangd goes: to the
variable's declaration, the line the local function starts on. A lambda written in place (an argument, a
``return``) or held in a member stays part of the function around it; a variable of another type called with
``()`` (a functor, a ``std::function`` parameter) gets no symbol and stays unbound. The parameters of a lambda
written in place are typed on its lines only (``[&](string_view sv) { sv.begin(); }``: a binding of ``sv`` that
holds until the lambda's last line, as a narrowing does), never beyond them.
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding


def local_lambda(ex, node: _ts.Node, owner: int) -> int | None:
    """The local of a new ``function`` symbol for ``node`` when it declares one variable ``auto`` (or ``const
    auto``) initialized with a lambda inside a function body, else ``None`` (nothing recorded)."""
    if ex.pf.symbols[owner].kind not in ("function", "method"):
        return None
    tnode = node.child_by_field_name("type")
    decls = node.children_by_field_name("declarator")
    if tnode is None or tnode.type != "placeholder_type_specifier" or len(decls) != 1 or decls[0].type != "init_declarator":
        return None
    name = decls[0].child_by_field_name("declarator")
    value = decls[0].child_by_field_name("value")
    if name is None or name.type != "identifier" or value is None or value.type != "lambda_expression":
        return None
    local = ex.add_symbol(node, owner, ex.text(name), "function", body=value.child_by_field_name("body"),
                          exported=False)
    ex.named_lambdas.add(value.start_byte)
    fdecl = value.child_by_field_name("declarator")
    params = fdecl.child_by_field_name("parameters") if fdecl is not None else None
    for p in params.named_children if params is not None else ():
        if p.type in ("parameter_declaration", "optional_parameter_declaration"):
            pn = ex.declarator_name(p.child_by_field_name("declarator"))
            tnode = p.child_by_field_name("type")
            ex.pf.symbols[local].params.append((ex.text(pn) if pn is not None else "_", ex.direct_type(tnode)))
            if pn is not None and pn.type == "identifier":
                ex.declare_var(local, ex.text(pn), tnode, pn)
    return local


def lambda_parameters(ex, node: _ts.Node, owner: int) -> None:
    """Bindings of the typed parameters of the lambda ``node`` written in place, holding on its lines only (a lambda
    held in a variable has its own symbol and its parameters are declared there, see :func:`local_lambda`)."""
    if node.start_byte in ex.named_lambdas or ex.pf.symbols[owner].kind not in ("function", "method"):
        return
    fdecl = node.child_by_field_name("declarator")
    params = fdecl.child_by_field_name("parameters") if fdecl is not None else None
    last = node.end_point[0] + 1
    for p in params.named_children if params is not None else ():
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        pn = ex.declarator_name(p.child_by_field_name("declarator"))
        ann = ex.direct_type(p.child_by_field_name("type"))
        if pn is not None and pn.type == "identifier" and ann:
            ex.pf.bindings.append(Binding(owner, ex.text(pn), pn.start_point[0] + 1, annotation=ann, until=last))
