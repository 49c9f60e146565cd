"""``instanceof`` narrowing: ``if (err instanceof HttpError) { err.getResponse() }`` reads ``err`` as an
``HttpError`` on the lines of the branch (a binding with ``until``, as Python's ``isinstance`` tests,
:func:`lore.languages.python._expr.narrowings`), and ``if (!(err instanceof HttpError)) throw err;``
(or ``return``) for the rest of the function (of the block, for a guard inside one). A runtime class
(``Error``, ``Response``) narrows nothing: TypeScript keeps a declared subclass, and lore cannot tell. A name is
narrowed by a test that holds for the whole branch: the condition itself or a term of its ``&&``, never of
``||``. A property path (``if (this.error instanceof HTTPException) this.error.getResponse()``, ``ctx.err``)
is narrowed on the lines of the branch only, up to the branch's first assignment of the path (as Python's
``self.rhs``, :func:`lore.languages.python._branches.narrowed_paths`): without it the declared ``error?:
Error`` answered ``Error.getResponse``, a member the runtime's class does not have.
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding
from ._nodes import JS_GLOBALS

_EXITS = frozenset({"return_statement", "throw_statement", "continue_statement", "break_statement"})
_FUNCTIONS = frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition",
                        "generator_function_declaration", "generator_function", "function"})


def instanceof_tests(node: _ts.Node | None, negated: bool = False) -> list[tuple[str, str]]:
    """``(name, class)`` for each ``name instanceof Class`` a condition holds true (``negated``: for a
    condition ``!(name instanceof Class)``, what holds when it is false).

    Examples
    --------
    >>> code = b"(a instanceof A && (b > 0 && b instanceof m.B)) || c"
    >>> expr = _ts.parse("javascript", code).root_node.named_children[0].named_children[0]
    >>> instanceof_tests(expr.child_by_field_name("left"))
    [('a', 'A'), ('b', 'm.B')]
    >>> instanceof_tests(expr)
    []
    >>> code = b"this.err instanceof A && c.req.e instanceof B && a[0] instanceof C && f().x instanceof D"
    >>> instanceof_tests(_ts.parse("javascript", code).root_node.named_children[0].named_children[0])
    [('this.err', 'A'), ('c.req.e', 'B')]
    """
    if node is None:
        return []
    t = node.type
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return instanceof_tests(node.named_children[0], negated)
    if negated:
        if t == "unary_expression" and _ts.text(node.child_by_field_name("operator")) == "!":
            return instanceof_tests(node.child_by_field_name("argument"))
        return []
    if t != "binary_expression":
        return []
    op = _ts.text(node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op == "&&":
        return instanceof_tests(left) + instanceof_tests(right)
    if op != "instanceof" or left is None or right is None or not _path(left):
        return []
    cls = _ts.text(right) if right.type in ("identifier", "member_expression") else ""
    if not cls or not all(p.replace("$", "_").isidentifier() for p in cls.split(".")) or cls in JS_GLOBALS:
        return []  # e instanceof Error: TypeScript keeps a declared subclass (HttpError), so lore keeps it too
    return [(_ts.text(left), cls)]


def _path(node: _ts.Node) -> bool:
    """Whether ``node`` is a name or a plain property path of names (``this.error``, ``ctx.req.err``; no
    call, index or ``?.``, whose value may differ from one read to the next)."""
    while node.type == "member_expression":
        prop = node.child_by_field_name("property")
        if prop is None or prop.type != "property_identifier" or "?" in _ts.text(node):
            return False
        node = node.child_by_field_name("object")  # type: ignore[assignment]
        if node is None:
            return False
    return node.type in ("identifier", "this")


def _first_assigned(node: _ts.Node, path: str) -> int:
    """The first line under ``node`` that assigns ``path`` itself (``this.error = e``, ``+=``), or 0."""
    for child in node.named_children:
        if child.type in ("assignment_expression", "augmented_assignment_expression"):
            left = child.child_by_field_name("left")
            if left is not None and _ts.text(left) == path:
                return child.start_point[0] + 1
        got = _first_assigned(child, path)
        if got:
            return got
    return 0


class NarrowingMixin:
    """``on_branch`` (``if_statement``)."""

    def on_branch(self, node: _ts.Node, owner: int) -> None:
        cond = node.child_by_field_name("condition")
        body = node.child_by_field_name("consequence")
        if cond is None or body is None or "instanceof" not in _ts.text(cond):
            return
        line, end = cond.start_point[0] + 1, body.end_point[0] + 1
        out = self.pf.bindings  # type: ignore[attr-defined]
        for name, cls in instanceof_tests(cond):
            until = end if "." not in name else (_first_assigned(body, name) or end)
            out.append(Binding(owner, name, line, annotation=cls, until=until))
        last = body.named_children[-1] if body.type == "statement_block" and body.named_child_count else body
        if node.child_by_field_name("alternative") is None and last.type in _EXITS:
            block = node.parent  # the rest of the block the guard is in: of the function, or until the block ends
            outer = block.parent if block is not None and block.type == "statement_block" else None
            until = 0 if outer is not None and outer.type in _FUNCTIONS else (
                block.end_point[0] + 1 if block is not None else end)
            for name, cls in instanceof_tests(cond, negated=True):  # if (!(e instanceof A)) throw e: then an A
                if "." in name:  # a path only in the branch: after it, any call may have assigned it
                    continue
                out.append(Binding(owner, name, end, annotation=cls, until=until))
