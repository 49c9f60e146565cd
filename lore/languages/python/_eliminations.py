"""Narrowing by elimination in Python: where an ``isinstance`` test failed, the name holds no instance
of its classes. The parser records it as a binding whose annotation is ``!A`` (``!A,B``), which
``lore.index._eliminate`` evaluates.
"""

from __future__ import annotations

from collections.abc import Callable

from ...parsers import _ts
from ...parsers.records import Binding

Tests = Callable[[_ts.Node, "str | None"], list[tuple[str, list[str]]]]  # ``_expr.isinstance_tests``


def eliminations(owner: int, node: _ts.Node, cond: _ts.Node, src: str | None, tests_of: Tests) -> list[Binding]:
    """Narrowing by elimination: where ``isinstance(x, A)`` (the whole condition) is false, ``x`` is not
    an ``A``: in the ``else`` of ``if isinstance(x, A): ... elif isinstance(x, B): ... else: x.m()`` (no
    ``A`` nor ``B``), and in the branch of ``if not isinstance(x, A):``. A binding whose annotation is
    ``!A`` (``!A,B`` for several classes), from the ``else:`` (or ``if``) line ``until`` the block's last; the
    resolver takes ``A`` (and its subclasses) out of what ``x`` held before. A plain name only; a
    condition with ``and`` / ``or`` says nothing. (An ``elif``'s body is left alone: its own test narrows
    it, and one binding per line and name keeps the two apart.)

    >>> from lore.parsers import _ts
    >>> from lore.languages.python._expr import narrowings
    >>> code = b"if isinstance(x, (A, B)):\\n    pass\\nelif isinstance(x, C):\\n    pass\\nelse:\\n    x.f()\\nif not isinstance(y, C):\\n    y.g()\\n"
    >>> root = _ts.parse("python", code).root_node
    >>> [(b.name, b.annotation, b.line, b.until) for n in root.named_children for b in narrowings(0, n, code.decode())
    ...  if b.annotation.startswith("!")]
    [('x', '!A,B,C', 5, 6), ('y', '!C', 7, 8)]
    """
    out: dict[str, list[str]] = {}
    first = until = 0
    alternatives = node.children_by_field_name("alternative") if node.type == "if_statement" else []
    body = alternatives[-1].child_by_field_name("body") if alternatives and alternatives[-1].type == "else_clause" else None
    if body is not None:  # an ``elif``'s own test is read with its ``if`` statement
        for c in [cond, *(a.child_by_field_name("condition") for a in alternatives[:-1])]:
            for name, classes in _single_test(c, src, tests_of, negated=False):
                out.setdefault(name, []).extend(classes)
        first, until = alternatives[-1].start_point[0] + 1, body.end_point[0] + 1  # from the ``else:`` line
    negated = _single_test(cond, src, tests_of, negated=True)
    own = node.child_by_field_name("consequence")
    found = [Binding(owner, name, first, annotation="!" + ",".join(classes), until=until)
             for name, classes in out.items()] if first else []
    if negated and own is not None:  # the branch of ``if not isinstance(x, A):``
        found += [Binding(owner, name, cond.start_point[0] + 1, annotation="!" + ",".join(classes),
                          until=own.end_point[0] + 1) for name, classes in negated]
    return found


def _single_test(cond: _ts.Node | None, src: str | None, tests_of: Tests, *,
                 negated: bool) -> list[tuple[str, list[str]]]:
    """``[(x, classes)]`` when the whole condition is ``isinstance(x, ...)`` (``negated``: ``not
    isinstance(x, ...)``) of a plain name; else ``[]``."""
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    if cond is None or (cond.type == "not_operator") != negated:
        return []
    test = cond.child_by_field_name("argument") if negated else cond
    if test is None or test.type != "call":
        return []
    tests = tests_of(test, src)
    return tests if len(tests) == 1 and "." not in tests[0][0] else []
