"""Methods that give back ``this`` under a type that wraps it: ``default(v): HasDefault<this> { ...; return
this as HasDefault<this>; }`` where ``type HasDefault<T> = T & { ... }`` (also ``NotNull<HasDefault<this>>``,
``PgSelectWithout<this, D, 'where'>``, a conditional type whose branches do so).

Such an alias keeps its argument: TypeScript finds a member of ``x.default(0)`` on ``this``, the
receiver's class. The parser cannot see the alias's definition (it is in another file, and lore's
resolver reads an alias as the named parts it extends), but it sees the body: when every ``return`` of
the method gives ``this`` itself (seen through ``(...)``, ``!``, ``as T``, ``satisfies T``), the value a
call gives is the receiver, whatever the declared type calls it, so the method returns ``this`` as
``m(): this`` does (a chain keeps the caller's subclass: ``double().primaryKey().autoincrement()``).
A type naming ``this`` whose method returns something else (``optional(): ZodOptional<this> { return
ZodOptional.create(this) }``, a new wrapper object) is read as before.
"""

from __future__ import annotations

from ...parsers import _ts

_SEE_THROUGH = frozenset({"parenthesized_expression", "non_null_expression", "as_expression",
                          "satisfies_expression", "type_assertion"})
# nodes whose ``return`` statements are their own, not the method's
_OWN_SCOPES = frozenset({"function_declaration", "function_expression", "function", "arrow_function",
                         "generator_function", "generator_function_declaration", "method_definition",
                         "class", "class_declaration", "class_body"})


def names_this(node: _ts.Node | None) -> bool:
    """Whether a type expression mentions ``this`` below its top (``X<this>``, ``A<B<this>>``, a branch of a
    conditional type); a plain ``: this`` is not this rule's (the parser reads it already)."""
    return node is not None and any(_mentions_this(c) for top in node.named_children for c in top.named_children)


def is_this(expr: _ts.Node | None) -> bool:
    """``this``, ``(this)``, ``this!``, ``this as T``, ``<T>this``, ``this satisfies T``."""
    while expr is not None and expr.type in _SEE_THROUGH and expr.named_child_count:
        expr = expr.named_children[-1] if expr.type == "type_assertion" else expr.named_children[0]
    return expr is not None and expr.type == "this"


def returns_only_this(body: _ts.Node | None) -> bool:
    """Whether a function body has a ``return`` and every ``return`` of its own gives ``this``."""
    if body is None or body.type != "statement_block":
        return False
    stack, found = list(body.named_children), False
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            if not n.named_child_count or not is_this(n.named_children[0]):
                return False
            found = True
        elif n.type not in _OWN_SCOPES:
            stack.extend(n.named_children)
    return found


def cast_of_this(expr: _ts.Node | None) -> bool:
    """``this as HasDefault<this>`` (``<X<this>>this``, ``this satisfies X<this>``): ``this`` under casts to
    types that name ``this``; a cast to another type (``this as unknown as Other``) is that type."""
    casts = 0
    while expr is not None and expr.type in _SEE_THROUGH and expr.named_child_count:
        if expr.type in ("as_expression", "satisfies_expression", "type_assertion"):
            typ = expr.named_children[0] if expr.type == "type_assertion" else expr.named_children[-1]
            if not _mentions_this(typ):
                return False
            casts += 1
        expr = expr.named_children[-1] if expr.type == "type_assertion" else expr.named_children[0]
    return casts > 0 and expr is not None and expr.type == "this"


def _mentions_this(node: _ts.Node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "this_type":
            return True
        stack.extend(n.named_children)
    return False
