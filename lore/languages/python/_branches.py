"""What the branches of an ``if`` statement tell about names and paths.

Sibling branches: an assignment made in one branch of ``if`` / ``elif`` /
``else`` never reaches a read in another branch of the same statement, since Python runs one branch
only. Only the reads after the whole statement see every branch's value (``Binding.branch_end``).

Inside a loop a branch's assignment may reach another branch in the next iteration. The parser records
the innermost loop of the scope around the statement; the resolver keeps the assignment out of the
sibling branches only when the name is assigned again, on every path, between the loop's start and the
statement (Django's ``for p in params: order_field = ...; if isinstance(order_field, OrderBy): ...``;
:func:`lore.index._siblings.reaches`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from lore.parsers import _ts
from lore.parsers.records import Binding

_LOOPS = frozenset({"for_statement", "while_statement"})
_SCOPES = frozenset({"function_definition", "class_definition", "lambda", "module"})


def if_clauses(node: _ts.Node) -> tuple[int, int, int, list[int]] | None:
    """``(first line, last line, first line of the innermost loop of the scope or 0, the last line of
    each clause)`` of an ``if_statement`` with at least one ``elif`` / ``else``; ``None`` without one.

    Examples
    --------
    >>> code = b"for y in ys:\\n    if a:\\n        x = 1\\n    elif b:\\n        pass\\n    else:\\n        x.f()\\n"
    >>> root = _ts.parse("python", code).root_node
    >>> if_clauses(root.named_children[0].child_by_field_name("body").named_children[0])
    (2, 7, 1, [3, 5, 7])
    """
    body = node.child_by_field_name("consequence")
    alts = node.children_by_field_name("alternative")
    if body is None or not alts:
        return None
    ends = [body.end_point[0] + 1] + [a.end_point[0] + 1 for a in alts]
    loop = 0
    p = node.parent
    while p is not None and p.type not in _SCOPES:
        if p.type in _LOOPS:
            loop = p.start_point[0] + 1
            break
        p = p.parent
    return node.start_point[0] + 1, node.end_point[0] + 1, loop, ends


def mark_siblings(bindings: list[Binding], ifs: list[tuple[int, tuple[int, int, int, list[int]]]]) -> None:
    """Give each assignment of a scope made in a branch of an ``if`` statement that has later branches
    (``ifs``: (scope, :func:`if_clauses`) per statement) the lines it cannot reach: ``Binding.shut``
    holds ``(first line of the later branches, last line of the statement, first line of the loop
    around it or 0, first line of the statement)`` per such statement, flattened.

    Examples
    --------
    >>> bs = [Binding(1, "x", 3), Binding(1, "x", 5), Binding(1, "x", 8), Binding(2, "x", 3)]
    >>> mark_siblings(bs, [(1, (2, 7, 0, [3, 5, 7]))])
    >>> [b.shut for b in bs]
    [(4, 7, 0, 2), (6, 7, 0, 2), (), ()]
    """
    if not ifs:
        return
    by_scope: dict[int, list[Binding]] = {}
    for b in bindings:
        if b.scope is None and not b.until:
            by_scope.setdefault(b.owner, []).append(b)
    for binds in by_scope.values():
        binds.sort(key=lambda b: b.line)
    lines = {scope: [b.line for b in binds] for scope, binds in by_scope.items()}
    for scope, (first, last, loop, ends) in ifs:
        scoped = by_scope.get(scope)
        if not scoped:
            continue
        at = lines[scope]
        for b in scoped[bisect_left(at, first):bisect_right(at, last)]:
            k = bisect_left(ends, b.line)  # the clause the binding is in
            if k < len(ends) - 1:
                b.shut += (ends[k] + 1, last, loop, first)



_ASSIGNS = frozenset({"assignment", "augmented_assignment", "delete_statement"})


def narrowed_paths(owner: int, tests: list[tuple[str, list[str]]], line: int, body: _ts.Node,
                   src: str | None) -> list[Binding]:
    """``if isinstance(self.rhs, Query):``: ``self.rhs`` is a ``Query`` on the lines of the branch
    (``tests``: what the condition holds true, :func:`._expr.isinstance_tests`; only its attribute
    paths are read here), up to the branch's first assignment of the path, whose own line still reads
    the narrowed value (``self.rhs = math.ceil(self.rhs)``).

    Examples
    --------
    >>> code = "if isinstance(self.rhs, (A, B)) and isinstance(x, C):\\n    self.rhs.f()\\n    self.rhs = 2\\n    g()\\n"
    >>> node = _ts.parse("python", code.encode()).root_node.named_children[0]
    >>> tests = [("self.rhs", ["A", "B"]), ("x", ["C"])]
    >>> [(b.name, b.annotation, b.line, b.until) for b in narrowed_paths(0, tests, 1, node.child_by_field_name("consequence"), code)]
    [('self.rhs', 'A', 1, 3), ('self.rhs', 'B', 1, 3)]
    """
    out: list[Binding] = []
    for path, classes in tests:
        if "." not in path:
            continue
        until = _first_assigned(body, path, src) or body.end_point[0] + 1
        out += [Binding(owner, path, line, annotation=c, until=until) for c in classes]
    return out


def _first_assigned(node: _ts.Node, path: str, src: str | None) -> int:
    """The first line under ``node`` that assigns (or deletes) ``path`` itself, or 0."""
    for child in node.named_children:
        if child.type in _ASSIGNS:
            target = child.child_by_field_name("left") if child.type != "delete_statement" else child
            if target is not None and _names(target, path, src):
                return child.start_point[0] + 1
        if child.type not in ("function_definition", "class_definition", "lambda"):
            got = _first_assigned(child, path, src)
            if got:
                return got
    return 0


def _names(target: _ts.Node, path: str, src: str | None) -> bool:
    """Whether an assignment's target (a path, or a tuple / list of them) is ``path``."""
    if target.type == "attribute":
        got = src[target.start_byte:target.end_byte] if src is not None else _ts.text(target)
        return got == path
    return any(_names(t, path, src) for t in target.named_children if t.type != "comment")
