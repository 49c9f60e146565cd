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


def instanceof_tests(node: _ts.Node | None, negated: bool = False,
                     guards: dict[str, tuple[int, str]] | None = None) -> list[tuple[str, str]]:
    """``(name, class)`` for each ``name instanceof Class`` a condition holds true (``negated``: for a
    condition ``!(name instanceof Class)``, what holds when it is false). ``guards``: the file's type guards
    (:func:`type_guards`), whose call ``isHttpError(err)`` holds as ``err instanceof HttpError``.

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
        return instanceof_tests(node.named_children[0], negated, guards)
    if negated:
        if t == "unary_expression" and _ts.text(node.child_by_field_name("operator")) == "!":
            return instanceof_tests(node.child_by_field_name("argument"), False, guards)
        return []
    if t == "call_expression" and guards:
        return guarded(node, guards)
    if t != "binary_expression":
        return []
    op = _ts.text(node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op == "&&":
        return instanceof_tests(left, False, guards) + instanceof_tests(right, False, guards)
    if op != "instanceof" or left is None or right is None or not _path(left):
        return []
    cls = _ts.text(right) if right.type in ("identifier", "member_expression") else ""
    if not _narrowable(cls):
        return []  # e instanceof Error: TypeScript keeps a declared subclass (HttpError), so lore keeps it too
    return [(_ts.text(left), cls)]


def _narrowable(cls: str) -> bool:
    """Whether ``cls`` (a name or dotted path) may narrow: a runtime class (``Error``) narrows nothing."""
    return bool(cls) and all(p.replace("$", "_").isidentifier() for p in cls.split(".")) and cls not in JS_GLOBALS


def type_guards(root: _ts.Node) -> dict[str, tuple[int, str]]:
    """The file's top-level functions whose return type is a type predicate (``function isHttpError(e:
    unknown): e is HttpError``, ``asserts e is HttpError``): name -> (index of the tested parameter, type).

    Examples
    --------
    >>> code = (b"export function isA(x: number, e: unknown): e is A { return 1 }\\n"
    ...         b"function ok(e: unknown): asserts e is m.B {}\\nfunction no(e: unknown): e is Error { return 1 }\\n"
    ...         b"function th(this: X): this is A { return 1 }")
    >>> type_guards(_ts.parse("tree_sitter_typescript:language_typescript", code).root_node)
    {'isA': (1, 'A'), 'ok': (0, 'm.B')}
    """
    out: dict[str, tuple[int, str]] = {}
    for top in root.named_children:
        fn = top.child_by_field_name("declaration") if top.type == "export_statement" else top
        if fn is None or fn.type != "function_declaration":
            continue
        ret = fn.child_by_field_name("return_type")
        pred = ret.named_children[0] if ret is not None and ret.named_child_count else None
        if pred is not None and pred.type == "asserts" and pred.named_child_count:
            pred = pred.named_children[0]
        if pred is None or pred.type != "type_predicate":
            continue
        name, typ = pred.child_by_field_name("name"), pred.child_by_field_name("type")
        params = fn.child_by_field_name("parameters")
        if name is None or typ is None or params is None or typ.type not in ("type_identifier", "nested_type_identifier"):
            continue
        names = [_ts.text(p.child_by_field_name("pattern")) for p in params.named_children]
        cls, fname = _ts.text(typ), _ts.text(fn.child_by_field_name("name"))
        if _ts.text(name) in names and _ts.text(name) != "this" and "this" not in names and _narrowable(cls) and fname:
            out[fname] = (names.index(_ts.text(name)), cls)
    return out


def guarded(call: _ts.Node, guards: dict[str, tuple[int, str]]) -> list[tuple[str, str]]:
    """``[(path, type)]`` for a call of a type guard of ``guards`` whose tested argument is a name or a
    plain property path (``isHttpError(err)`` -> ``[("err", "HttpError")]``)."""
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    got = guards.get(_ts.text(fn)) if fn is not None and fn.type == "identifier" else None
    if got is None or args is None or len(args.named_children) <= got[0]:
        return []
    arg = args.named_children[got[0]]
    return [(_ts.text(arg), got[1])] if _path(arg) else []


def _reads(node: _ts.Node, name: str) -> bool:
    """Whether ``node`` mentions ``name`` (or a path of it: ``e``, ``e.m``)."""
    head = name.split(".")[0]
    if node.type in ("identifier", "this") and _ts.text(node) == head:
        return True
    return any(_reads(c, name) for c in node.named_children)


def _is_assertion(root: _ts.Node, fname: str) -> bool:
    """Whether the file's function ``fname`` is declared ``asserts e is T`` (not ``e is T``)."""
    for top in root.named_children:
        fn = top.child_by_field_name("declaration") if top.type == "export_statement" else top
        if fn is not None and fn.type == "function_declaration" and _ts.text(fn.child_by_field_name("name")) == fname:
            ret = fn.child_by_field_name("return_type")
            return ret is not None and ret.type == "asserts_annotation"
    return False


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


def _root(node: _ts.Node) -> _ts.Node:
    while node.parent is not None:
        node = node.parent
    return node


class NarrowingMixin:
    """``on_branch`` (``if_statement``), ``on_asserted`` (a statement calling an assertion function),
    ``on_conjunction`` (``e instanceof A && e.m()`` as a statement, a return or a value), ``on_ternary``,
    ``on_cases`` (``switch (true) { case e instanceof A: ... }``)."""

    def _guards(self, node: _ts.Node) -> dict[str, tuple[int, str]]:
        """The file's type guards (:func:`type_guards`), read once per parsed file."""
        cached = getattr(self, "_guard_table", None)
        pf = self.pf  # type: ignore[attr-defined]
        if cached is None or cached[0] is not pf:
            cached = (pf, type_guards(_root(node)) if b" is " in self.source else {})  # type: ignore[attr-defined]
            self._guard_table = cached
        return cached[1]

    def _narrow(self, owner: int, tests: list[tuple[str, str]], line: int, until: int) -> None:
        for name, cls in tests:
            self.pf.bindings.append(Binding(owner, name, line, annotation=cls, until=until))  # type: ignore[attr-defined]

    def on_asserted(self, node: _ts.Node, owner: int) -> None:
        """``assertHttpError(err);``: ``err`` is an ``HttpError`` for the rest of the block (a name, not a path:
        any call after it may assign a path)."""
        call = node.named_children[0] if node.named_child_count else None
        guards = self._guards(node) if call is not None and call.type == "call_expression" else {}
        fn = call.child_by_field_name("function") if guards else None  # type: ignore[union-attr]
        if fn is None or _ts.text(fn) not in guards:
            return
        tests = [(n, c) for n, c in guarded(call, guards) if "." not in n] if guards else []  # type: ignore[arg-type]
        if not tests or not _is_assertion(_root(node), _ts.text(fn)):
            return
        block = node.parent
        outer = block.parent if block is not None and block.type == "statement_block" else None
        until = 0 if outer is not None and outer.type in _FUNCTIONS else (
            block.end_point[0] + 1 if block is not None else node.end_point[0] + 1)
        self._narrow(owner, tests, node.end_point[0] + 1, until)

    def on_conjunction(self, node: _ts.Node, owner: int) -> None:
        """``e instanceof A && e.m()`` as a whole statement, return value or variable value: ``e`` is an ``A``
        on the lines of the right side when the test is the chain's first term."""
        expr = node.named_children[0] if node.type in ("expression_statement", "return_statement") \
            and node.named_child_count else node.child_by_field_name("value") if node.type == "variable_declarator" else None
        if expr is None or expr.type != "binary_expression" or "&&" not in _ts.text(expr.child_by_field_name("operator")):
            return
        first = expr
        while first.type == "binary_expression" and _ts.text(first.child_by_field_name("operator")) == "&&":
            first = first.child_by_field_name("left")  # type: ignore[assignment]
        tests = instanceof_tests(first, False, self._guards(node))
        self._narrow(owner, tests, first.start_point[0] + 1, expr.end_point[0] + 1)

    def on_ternary(self, node: _ts.Node, owner: int) -> None:
        """``e instanceof A ? e.m() : other``: ``e`` is an ``A`` on the lines of the consequence, when no line of
        it is the alternative's that reads ``e`` (the narrowing is by lines)."""
        cond, yes, no = (node.child_by_field_name(f) for f in ("condition", "consequence", "alternative"))
        if cond is None or yes is None or no is None:
            return
        tests = instanceof_tests(cond, False, self._guards(node))
        same_line = yes.end_point[0] >= no.start_point[0]
        tests = [(n, c) for n, c in tests if not (same_line and _reads(no, n))]
        self._narrow(owner, tests, cond.start_point[0] + 1, yes.end_point[0] + 1)

    def on_cases(self, node: _ts.Node, owner: int) -> None:
        """``switch (true) { case e instanceof A: e.m(); break; }``: ``e`` is an ``A`` in the case's body, when
        no case falls into it."""
        value, body = node.child_by_field_name("value"), node.child_by_field_name("body")
        if value is None or body is None or _ts.text(value).replace(" ", "") != "(true)":
            return
        guards = self._guards(node)
        falls = False
        for case in body.named_children:
            if case.type != "switch_case":
                falls = True
                continue
            stmts = case.children_by_field_name("body")
            if not falls:
                self._narrow(owner, instanceof_tests(case.child_by_field_name("value"), False, guards),
                             case.start_point[0] + 1, case.end_point[0] + 1)
            falls = not stmts or stmts[-1].type not in _EXITS


    def on_branch(self, node: _ts.Node, owner: int) -> None:
        cond = node.child_by_field_name("condition")
        body = node.child_by_field_name("consequence")
        if cond is None or body is None:
            return
        guards = self._guards(node)
        if not guards and "instanceof" not in _ts.text(cond):
            return
        line, end = cond.start_point[0] + 1, body.end_point[0] + 1
        out = self.pf.bindings  # type: ignore[attr-defined]
        for name, cls in instanceof_tests(cond, False, guards):
            until = end if "." not in name else (_first_assigned(body, name) or end)
            out.append(Binding(owner, name, line, annotation=cls, until=until))
        last = body.named_children[-1] if body.type == "statement_block" and body.named_child_count else body
        if node.child_by_field_name("alternative") is None and last.type in _EXITS:
            block = node.parent  # the rest of the block the guard is in: of the function, or until the block ends
            outer = block.parent if block is not None and block.type == "statement_block" else None
            until = 0 if outer is not None and outer.type in _FUNCTIONS else (
                block.end_point[0] + 1 if block is not None else end)
            for name, cls in instanceof_tests(cond, True, guards):  # if (!(e instanceof A)) throw e: then an A
                if "." in name:  # a path only in the branch: after it, any call may have assigned it
                    continue
                out.append(Binding(owner, name, end, annotation=cls, until=until))
