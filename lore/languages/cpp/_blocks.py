"""Block scope: a C++ local declared inside a nested block is seen from its declaration to the block's end only."""

from __future__ import annotations

from ...parsers import _ts

# statements whose own parentheses declare names scoped to the statement (``for (auto& x : xs)``, ``if (T* p = f())``)
_STATEMENTS = frozenset({"for_statement", "for_range_loop", "if_statement", "while_statement", "switch_statement",
                         "catch_clause"})


def block_end(node: _ts.Node) -> int:
    """The last line (1-based) of the innermost block or statement around the declaration ``node`` when that is
    nested inside a function's body, else 0 (a declaration of the body itself holds to the function's end).

    A local of a nested block is no longer there after its block, and a call written before it in the function
    does not see it (``return fail(esc(ch))`` above ``{ string esc = ...; }`` calls the function ``esc``); the
    resolver reads such a binding as it reads a narrowing: on its lines only.

    Examples
    --------
    >>> root = _ts.parse("cpp", b"void f() { int a = 1; if (a) { Foo b; b.run(); } }").root_node
    >>> body = root.named_children[0].child_by_field_name("body")
    >>> inner = body.named_children[1].child_by_field_name("consequence")
    >>> block_end(body.named_children[0]), block_end(inner.named_children[0])
    (0, 1)
    """
    p = node.parent
    while p is not None:
        if p.type in _STATEMENTS:
            return p.end_point[0] + 1
        if p.type == "compound_statement":
            return 0 if p.parent is not None and p.parent.type == "function_definition" else p.end_point[0] + 1
        if p.type in ("function_definition", "lambda_expression"):
            return 0
        p = p.parent
    return 0
