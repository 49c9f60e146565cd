"""What a JavaScript / TypeScript function without a declared return type gives back.

``return this`` (a fluent method: ``app.use(a).use(b).listen()``), ``return new Router()``, ``return
make()``, ``return this.#store`` and an arrow function's expression body become ``<return>`` bindings of
the function, as Python's ``return`` statements do; the resolver reads them when no return type is
written and keeps the value only when every ``return`` agrees
(:meth:`lore.index._values.ValuesMixin.returns`). A ``return`` inside a closure the function holds is
the closure's, never the function's.
"""

from __future__ import annotations

from ...parsers import _ts
from ._nodes import FUNCTION_VALUES
from ._nodes import key as _key

RETURN = "<return>"
_FUNCTION_NODES = FUNCTION_VALUES | {"function_declaration", "generator_function_declaration", "method_definition"}
# ``x!``, ``(x)``, ``await x``, ``x as any``: the value under them (a cast to a named type is that type's)
_SEE_THROUGH = frozenset({"parenthesized_expression", "non_null_expression", "await_expression",
                          "satisfies_expression"})
_ANY = frozenset({"any", "unknown"})


class ReturnsMixin:
    """``on_return`` (``return_statement``) and the expression bodies of arrow functions."""

    def on_return(self, node: _ts.Node, owner: int) -> None:
        fn = node.parent
        while fn is not None and fn.type not in _FUNCTION_NODES:
            if fn.type in ("class_body", "class", "class_declaration"):
                return
            fn = fn.parent
        if fn is None or _key(fn) not in self.fn_nodes:  # type: ignore[attr-defined]
            return  # a closure's return: what the closure gives, not its holder
        if self.pf.symbols[owner].kind not in ("function", "method"):  # type: ignore[attr-defined]
            return
        expr = node.named_children[0] if node.named_child_count else None
        if expr is not None:
            self.bind_return(owner, node, expr)

    def bind_return(self, owner: int, at: _ts.Node, expr: _ts.Node) -> None:
        """A ``<return>`` binding of function ``owner`` for the returned expression ``expr``."""
        while expr.named_child_count and (expr.type in _SEE_THROUGH or (
                expr.type == "as_expression" and _ts.text(expr.named_children[-1]) in _ANY)):
            expr = expr.named_children[0]
        if expr.type == "object" and self.returned_literal(owner, at, expr):  # type: ignore[attr-defined]
            return  # return { find() {...} }: a namespace of the function (see ``_literals``)
        if expr.type == "as_expression" and expr.named_child_count == 2:
            ann = self.declared(expr.named_children[-1])  # type: ignore[attr-defined]
            if ann:  # return x as Router: a Router
                self.add_binding(owner, RETURN, at, annotation=ann)  # type: ignore[attr-defined]
            return
        self._bind_value(owner, RETURN, at, expr)  # type: ignore[attr-defined]

    def expression_body(self, local: int, fn: _ts.Node) -> None:
        """``() => this.#router`` / ``() => new Foo()``: the body is what the function returns."""
        body = fn.child_by_field_name("body")
        if fn.type == "arrow_function" and body is not None and body.type != "statement_block":
            self.bind_return(local, body, body)
