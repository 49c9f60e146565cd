"""Python expressions as the resolver reads them: dotted paths, container slot keys, values, call
arguments, the type names inside annotations, docstrings and the targets of unpacking assignments.

Pure functions over tree-sitter nodes, shared by the extractor (:mod:`._parser`).
"""

from __future__ import annotations

import inspect
import re

from ...parsers import _ts
from ...parsers.records import Binding
from ._branches import narrowed_paths
from ._eliminations import eliminations

MAX_DOCSTRING = 4000
_SIMPLE_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\Z")
_SIMPLE_PATH_BYTES = re.compile(_SIMPLE_PATH.pattern.encode())
_TYPE_WRAPPERS = frozenset({"Optional", "typing.Optional", "Annotated", "typing.Annotated", "Final", "ClassVar"})


def dotted(node: _ts.Node | None, src: str | None = None) -> str:
    """The dotted path an expression names: ``a.b.c``, ``super().m``, ``f().g``; ``''`` if none.

    Parts that are not names are kept as markers so the resolver can tell them apart:
    ``x[0].f`` becomes ``<expr>.f``; a call in a chain keeps its parentheses (``f().g``).
    ``src`` is the file's text when it is all ASCII (see :func:`text`).
    """
    # the hot path of the extractor (half a million calls on Django): names first, their text inline
    if node is None:
        return ""
    t = node.type
    if t == "identifier":
        if src is not None:
            return src[node.start_byte : node.end_byte]
        raw = node.text
        return raw.decode("utf-8", "replace") if raw is not None else ""
    if t == "attribute":
        if src is not None:
            path = src[node.start_byte : node.end_byte]
            if _SIMPLE_PATH.match(path):  # the common a.b.c: its text is the path
                return path
        else:
            raw = node.text
            if raw is not None and _SIMPLE_PATH_BYTES.match(raw):
                return raw.decode("ascii")
        obj = dotted(node.child_by_field_name("object"), src)
        attr = text(node.child_by_field_name("attribute"), src)
        return f"{obj or '<expr>'}.{attr}"
    if t == "call":
        inner = dotted(node.child_by_field_name("function"), src)
        if inner == "next":  # next(it) is it.__next__(): the iterator's next element
            it = first_arg(node, src)
            if it and "<" not in it:
                return f"{it}.__next__()"
        return f"{inner}()" if inner else "<expr>()"
    if t == "subscript":  # a container slot: d["a"] -> d['a'], xs[0] -> xs[0]; d[k] -> d[*k]; any other key: d[*]
        sub = node.child_by_field_name("subscript")
        key = slot_key(sub, src) or ("*" if sub is not None and sub.type != "slice" else "")
        if key == "*" and sub.type == "identifier" and (k := text(sub, src)).isascii():  # type: ignore[union-attr]
            key = "*" + k  # a name: maybe a constant (_constants)
        obj = dotted(node.child_by_field_name("value"), src) if key else ""
        return f"{obj}[{key}]" if obj and not obj.startswith("<") and "[*" not in obj else ""
    if t in ("parenthesized_expression", "await") and node.named_child_count == 1:
        return dotted(node.named_child(0), src)  # await f(): what the coroutine f() gives, f's result
    if t in ("string", "concatenated_string"):
        return "<str>"
    return ""


def text(node: _ts.Node | None, src: str | None = None) -> str:
    """The text of ``node`` (``''`` for ``None``), undecodable bytes replaced.

    ``src``, when given, is the whole file's text and the file is all ASCII, so byte offsets are
    character offsets: a slice of it is the text, without ``Node.text``'s copy and a decode (which
    cost twice as much, on every name the extractor reads).
    """
    if node is None:
        return ""
    if src is not None:
        return src[node.start_byte : node.end_byte]
    raw = node.text
    return raw.decode("utf-8", "replace") if raw is not None else ""


_KEY = re.compile(r"[A-Za-z0-9_]+\Z")
_TRIPLE = ('"""', "'''")
_QUOTES = ('"', "'", *_TRIPLE)
ANY_KEY = re.compile(r"\[\*[A-Za-z_]\w*\]")  # d[*k]: a key read from the name k (see dotted)


def literal_slots(literal: _ts.Node) -> list[tuple[str, _ts.Node | None]]:
    """The (slot key, value node) pairs of a dict / list / tuple / set literal: ``{"a": f}`` ->
    ``[("'a'", f)]``, ``[f, g]`` -> ``[("0", f), ("1", g)]``; none after a splat (``[*a, f]``: the
    positions are unknown). A key :func:`slot_key` cannot read is ``''``.

    Examples
    --------
    >>> tree = _ts.parse("python", b"{'a': f, k: g}; [f, g]; [*a, f]")
    >>> [[(k, _ts.text(v)) for k, v in literal_slots(s.named_children[0])] for s in tree.root_node.named_children]
    [[("'a'", 'f'), ('', 'g')], [('0', 'f'), ('1', 'g')], []]
    """
    if literal.type == "dictionary":
        return [(slot_key(p.child_by_field_name("key")), p.child_by_field_name("value"))
                for p in literal.named_children if p.type == "pair"]
    if any(c.type in ("list_splat", "dictionary_splat") for c in literal.named_children):
        return []
    return [(str(i), c) for i, c in enumerate(c for c in literal.named_children if c.type != "comment")]


def slot_key(node: _ts.Node | None, src: str | None = None) -> str:
    """The key of a container slot as it appears in a path: ``'name'`` for a plain string literal,
    ``3`` for a non-negative integer literal, ``''`` for anything else (a computed key: the path says
    ``d[*]``, any slot; a slice says nothing). ``src`` as in :func:`dotted`.

    A string is read from its text (prefix letters, then its quotes): every argument and assignment of
    a literal asks, and reading the string's child nodes cost several times as much. Text with an
    escape or an interpolation is no key, as before.

    Examples
    --------
    >>> tree = _ts.parse("python", b"d['a']; d[0]; d[k]; d[k.a]; d[1:]; d[b'a']; d[r'''a''']; d['a b']; d[f'{a}']")
    >>> [dotted(s.named_children[0]) for s in tree.root_node.named_children]
    ["d['a']", 'd[0]', 'd[*k]', 'd[*]', '', "d['a']", "d['a']", 'd[*]', 'd[*]']
    """
    if node is None:
        return ""
    kind = node.type
    if kind == "integer":
        t = text(node, src)
        return t if t.isdigit() else ""
    if kind == "string":
        t = text(node, src)
        i = 0
        while i < 3 and i < len(t) and t[i] in "rRbBuUfF":
            i += 1
        quote = t[i:i + 3] if t[i:i + 3] in _TRIPLE else t[i:i + 1]
        if quote not in _QUOTES or len(t) < i + 2 * len(quote) or not t.endswith(quote):
            return ""
        content = t[i + len(quote):len(t) - len(quote)]
        return f"'{content}'" if content and _KEY.match(content) else ""
    return ""


MAX_ALTERNATIVES = 4  # values one right-hand side may stand for (``a or b or c``), beyond which none is kept


def alternatives(node: _ts.Node) -> list[_ts.Node]:
    """The expressions whose value an expression may take: both sides of ``a or b``, the right side of
    ``a and b``, both branches of ``a if c else b``, parentheses removed; else the expression itself.

    Examples
    --------
    >>> tree = _ts.parse("python", b"x = (h or g) if c else k and f")
    >>> right = tree.root_node.named_children[0].named_children[0].child_by_field_name("right")
    >>> [_ts.text(n) for n in alternatives(right)]
    ['h', 'g', 'f']
    """
    out: list[_ts.Node] = []
    todo = [node]
    while todo and len(out) <= MAX_ALTERNATIVES:
        n = todo.pop()
        t = n.type
        if t == "parenthesized_expression" and n.named_child_count == 1:
            todo.append(n.named_children[0])
        elif t == "boolean_operator":
            op = n.child_by_field_name("operator")
            right, left = n.child_by_field_name("right"), n.child_by_field_name("left")
            if right is not None:
                todo.append(right)
            if left is not None and op is not None and op.type == "or":
                todo.append(left)
        elif t == "conditional_expression" and n.named_child_count == 3:
            todo.append(n.named_children[2])
            todo.append(n.named_children[0])
        else:
            out.append(n)
    return out if len(out) <= MAX_ALTERNATIVES else []


ANNOTATED = ("Annotated[", "typing.Annotated[", "t.Annotated[", "typing_extensions.Annotated[")


def unannotated(annotation: _ts.Node, src: str | None) -> str:
    """The text of ``T`` in an annotation ``Annotated[T, ...]`` (PEP 593: the metadata is for other tools,
    and may hold any text: ``Doc("# Example")``); ``''`` when there is none."""
    inner = annotation.named_child(0) if annotation.type == "type" and annotation.named_child_count else annotation
    first = None
    if inner.type == "generic_type":
        params = next((c for c in inner.named_children if c.type == "type_parameter"), None)
        first = params.named_child(0) if params is not None and params.named_child_count else None
    elif inner.type == "subscript":
        first = inner.child_by_field_name("subscript")
    return text(first, src) if first is not None else ""


def cast_type(call: _ts.Node) -> str:
    """The type text of ``cast(T, value)`` (its first positional argument), ``''`` if there is none.

    Examples
    --------
    >>> tree = _ts.parse("python", b"t.cast('Foo', x)")
    >>> cast_type(tree.root_node.named_children[0].named_children[0])
    "'Foo'"
    """
    args = call.child_by_field_name("arguments")
    first = next((a for a in args.named_children if a.type != "comment"), None) if args is not None else None
    if first is None or first.type in ("keyword_argument", "list_splat", "dictionary_splat"):
        return ""
    return _ts.text(first)


# the node types other than names and lambdas whose :func:`dotted` path may be a value
_VALUE_TYPES = frozenset({"attribute", "call", "subscript", "parenthesized_expression"})


def value_path(node: _ts.Node | None, src: str | None = None) -> str:
    """The path of an expression the resolver can follow as a value: a dotted path (``a.b``, ``f()``,
    ``d['k']``) or a lambda (``<lambda:L:C>``, by its position); ``''`` for anything else. ``src`` as
    in :func:`dotted`.

    Examples
    --------
    >>> tree = _ts.parse("python", b"f(a.b, lambda: 1, 'x', k=g)")
    >>> call = tree.root_node.named_children[0].named_children[0]
    >>> [value_path(a) for a in call.child_by_field_name("arguments").named_children]
    ['a.b', '<lambda:1:7>', '', '']
    """
    if node is None:
        return ""
    t = node.type
    if t == "identifier":  # most values: no "<" in a name
        return text(node, src)
    if t == "lambda":
        row, col = node.start_point
        return f"<lambda:{row + 1}:{col}>"
    if t not in _VALUE_TYPES:  # literals and operators: no path (a string's ``<str>`` is none either)
        return ""
    path = dotted(node, src)
    return path if path and "<" not in path else ""


def call_args(node: _ts.Node | None, src: str | None = None) -> list[str]:
    """A call's arguments as the resolver follows them (see :class:`~lore.parsers.records.Call`);
    ``[]`` when none of them names anything. ``src`` as in :func:`dotted`. An int or str literal that
    can be a slot key is ``=`` and the key (``=1``, ``='a'``: :mod:`lore.index._keys`).

    Examples
    --------
    >>> tree = _ts.parse("python", b"f(a, 1, -1, *xs, key=lambda: 0, **kw)")
    >>> call_args(tree.root_node.named_children[0].named_children[0].child_by_field_name("arguments"))
    ['a', '=1', '', '*xs', 'key=<lambda:1:21>', '**kw']
    """
    if node is None or node.type != "argument_list":
        return []
    out: list[str] = []
    named = False
    for a in node.named_children:
        t = a.type
        if t == "identifier":  # the commonest argument
            path = text(a, src)
            out.append(path)
        elif t == "keyword_argument":
            value = a.child_by_field_name("value")
            if value is not None and value.type in ("integer", "string"):
                lit = slot_key(value, src)
                path = f"={lit}" if lit else ""
            else:
                path = value_path(value, src)
            out.append(f"{text(a.child_by_field_name('name'), src)}={path}" if path else "")
        elif t == "comment":
            continue
        elif t == "list_splat":
            path = value_path(a.named_child(0), src) if a.named_child_count else ""
            out.append(f"*{path}")
        elif t == "dictionary_splat":
            path = value_path(a.named_child(0), src) if a.named_child_count else ""
            out.append(f"**{path}")
        elif t == "integer" or t == "string":  # a constant: ``=1``, ``='a'`` (a parameter used as a key)
            lit = slot_key(a, src)
            path = f"={lit}" if lit else ""
            out.append(path)
        else:
            path = value_path(a, src) if t in _VALUE_TYPES or t == "lambda" else ""  # a literal names nothing
            out.append(path)
        if path:
            named = True
    return out if named else []


def first_arg(call: _ts.Node, src: str | None = None) -> str:
    """The path of a call's first argument when it is positional and names a value, else ``''``.

    Examples
    --------
    >>> tree = _ts.parse("python", b"copy.copy(self.a, memo)")
    >>> first_arg(tree.root_node.named_children[0].named_children[0])
    'self.a'
    """
    args = call.child_by_field_name("arguments")
    if args is not None and args.type in COMPREHENSIONS:  # next(x for x in xs): the only argument
        return each_path(args, src)
    if args is None or args.type != "argument_list":
        return ""
    for a in args.named_children:
        if a.type == "comment":
            continue
        if a.type in COMPREHENSIONS:
            return each_path(a, src)
        if a.type == "call" and text(a.child_by_field_name("function"), src) in ("iter", "reversed", "sorted"):
            return first_arg(a, src)  # next(iter(xs)): the elements of xs
        return value_path(a, src) if a.type in ("identifier", "attribute", "subscript") else ""
    return ""


# a comprehension -> the builtin whose result holds the same elements
COMPREHENSIONS = {"generator_expression": "iter", "list_comprehension": "list", "set_comprehension": "set"}


def each_path(comp: _ts.Node, src: str | None = None) -> str:
    """``(x.name for x in xs)`` -> ``'<each>x.name'``: the path of a comprehension's element (evaluated on
    the comprehension's lines, where its loop variables hold), or ``''``.

    Examples
    --------
    >>> tree = _ts.parse("python", b"[Node(x) for x in xs]")
    >>> each_path(tree.root_node.named_children[0].named_children[0])
    '<each>Node()'
    """
    body = comp.child_by_field_name("body")
    if body is None or body.type not in ("identifier", "attribute", "subscript", "call"):
        return ""
    path = value_path(body, src) if body.type != "call" else dotted(body, src)
    return f"<each>{path}" if path and "<" not in path else ""


def type_names(node: _ts.Node | None) -> list[tuple[str, _ts.Node, bool]]:
    """Dotted type names inside an annotation, with whether each is the primary (outermost) one."""
    out: list[tuple[str, _ts.Node, bool]] = []
    if node is None:
        return out

    def visit(n: _ts.Node, primary: bool) -> None:
        t = n.type
        if t in ("identifier", "attribute"):
            name = dotted(n)
            if name and "<" not in name:
                out.append((name, n, primary))
            return
        if t == "string":
            content = _ts.text(n).strip("'\"")
            for part in content.replace("|", ",").replace("[", ",").replace("]", ",").split(","):
                part = part.strip()
                if part.replace(".", "").replace("_", "").isalnum() and part not in ("None",):
                    out.append((part, n, primary))
                    primary = False
            return
        if t == "generic_type" or t == "subscript":
            head = n.named_children[0] if n.named_children else None
            head_name = dotted(head) if head is not None else ""
            wrapper = head_name in _TYPE_WRAPPERS
            if head is not None and not wrapper:
                visit(head, primary)
            for child in n.named_children[1:]:
                visit(child, primary and wrapper)
            return
        if t == "binary_operator":  # X | None
            for child in n.named_children:
                visit(child, primary)
            return
        for child in n.named_children:
            visit(child, primary and t in ("type", "type_parameter"))

    visit(node, True)
    return out


def docstring(body: _ts.Node | None) -> str:
    if body is None or body.named_child_count == 0:
        return ""
    first = body.named_child(0)  # not named_children[0]: a class body's list of statements is long
    if first.type != "expression_statement" or first.named_child_count != 1:
        return ""
    s = first.named_child(0)
    if s.type != "string":
        return ""
    parts = [_ts.text(c) for c in s.named_children if c.type == "string_content"]
    raw = "".join(parts)
    return inspect.cleandoc(raw)[:MAX_DOCSTRING]


def pairs(left: _ts.Node, right: _ts.Node | None) -> list[tuple[_ts.Node, _ts.Node | None]]:
    """Targets with the values they receive: ``a, (b, c) = f, (g, h)`` pairs a-f, b-g, c-h.

    Unpacking is followed only when both sides are literal tuples of the same length without a
    starred target (``a, *b = ...``); otherwise a tuple target gets nothing.
    """
    tuple_targets = ("pattern_list", "tuple_pattern", "list_pattern")
    if left.type == "parenthesized_expression" and left.named_child_count == 1:
        left = left.named_children[0]
    if left.type not in tuple_targets:
        return [(left, right)]
    if right is not None and right.type == "parenthesized_expression" and right.named_child_count == 1:
        right = right.named_children[0]
    if right is None or right.type not in ("expression_list", "tuple", "list"):
        return []
    targets = [c for c in left.named_children if c.type != "comment"]
    values = [c for c in right.named_children if c.type != "comment"]
    if len(targets) != len(values) or any(t.type == "list_splat_pattern" for t in targets) \
            or any(v.type == "list_splat" for v in values):
        return []
    out: list[tuple[_ts.Node, _ts.Node | None]] = []
    for t, v in zip(targets, values, strict=True):
        out.extend(pairs(t, v))
    return out


def result_bindings(owner: int, expr: _ts.Node, line: int, src: str | None, name: str) -> list[Binding]:
    """The ``name`` (``<return>`` / ``<yield>``) bindings of ``owner`` for the expression it returns or
    yields: one per value it may take (``return a or b``), ``None`` aside. A returned tuple
    (``return a, b``) also binds each element, ``<return>[0]``, ``<return>[1]``, for ``x, y = f()``."""
    alts = alternatives(expr) or [expr]
    out = []
    for alt in alts:
        if alt.type == "none" and len(alts) > 1:
            continue
        while alt.type in ("parenthesized_expression", "await") and alt.named_child_count == 1:
            alt = alt.named_child(0)  # return await f(): what f gives
        out.append(_result_binding(owner, name, alt, line, src))
        if alt.type in ("expression_list", "tuple") and name == "<return>":
            items = [c for c in alt.named_children if c.type != "comment"]
            if not any(c.type in ("list_splat", "parenthesized_list_splat") for c in items):
                out += [_result_binding(owner, f"{name}[{i}]", item, line, src) for i, item in enumerate(items)]
    return out


def _result_binding(owner: int, name: str, expr: _ts.Node, line: int, src: str | None) -> Binding:
    if expr.type == "call":
        callee = dotted(expr.child_by_field_name("function"), src)
        return Binding(owner, name, line, value=callee if "<" not in callee else "", arg=first_arg(expr, src))
    path = value_path(expr, src) if expr.type in ("identifier", "attribute", "subscript", "lambda") else ""
    return Binding(owner, name, line, alias_of=path)


def unpacked_call(owner: int, left: _ts.Node, right: _ts.Node, line: int, src: str | None) -> list[Binding]:
    """``a, b = f()``: each plain name target bound to the element of what ``f`` returns at its position
    (``alias_of="f()[0]"``), read from ``f``'s returned tuples or its ``Tuple[...]`` annotation.

    Examples
    --------
    >>> from lore.parsers import _ts
    >>> code = b"a, (b, c), d = m.f(1)"
    >>> node = _ts.parse("python", code).root_node.named_children[0].named_children[0]
    >>> left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    >>> [(b.name, b.alias_of) for b in unpacked_call(0, left, right, 1, code.decode())]
    [('a', 'm.f()[0]'), ('d', 'm.f()[2]')]
    """
    while left.type == "parenthesized_expression" and left.named_child_count == 1:
        left = left.named_children[0]
    callee = dotted(right.child_by_field_name("function"), src)
    targets = [t for t in left.named_children if t.type != "comment"]
    if not callee or "<" in callee or "[" in callee or any(t.type == "list_splat_pattern" for t in targets):
        return []
    return [Binding(owner, text(t, src), line, alias_of=f"{callee}()[{i}]")
            for i, t in enumerate(targets) if t.type == "identifier"]


def isinstance_tests(node: _ts.Node | None, src: str | None, negated: bool = False) -> list[tuple[str, list[str]]]:
    """``(name, classes)`` for each ``isinstance(name, C)`` (or ``(C, D)``) a condition holds true: the
    condition itself or a term of its ``and``. ``negated``: the tests of a condition that is
    ``not isinstance(...)`` (an ``if`` that leaves the scope unless the name has the type).

    Examples
    --------
    >>> from lore.parsers import _ts
    >>> code = b"isinstance(x, A) and (y > 0 and isinstance(y, (B, m.C))) or z"
    >>> cond = _ts.parse("python", code).root_node.named_children[0].named_children[0]
    >>> isinstance_tests(cond.child_by_field_name("left"), code.decode())
    [('x', ['A']), ('y', ['B', 'm.C'])]
    >>> isinstance_tests(cond, code.decode())  # ``or``: nothing is certain
    []
    >>> code = b"isinstance(self.rhs, Query) and isinstance(a.b.c, A)"  # a name or a ``name.attr`` path
    >>> isinstance_tests(_ts.parse("python", code).root_node.named_children[0].named_children[0], code.decode())
    [('self.rhs', ['Query'])]
    >>> code = b"not isinstance(node, ast.Name)"
    >>> isinstance_tests(_ts.parse("python", code).root_node.named_children[0].named_children[0], code.decode(), True)
    [('node', ['ast.Name'])]
    """
    if node is None:
        return []
    t = node.type
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return isinstance_tests(node.named_children[0], src, negated)
    if negated:
        return isinstance_tests(node.child_by_field_name("argument"), src) if t == "not_operator" else []
    if t == "boolean_operator":
        op = node.child_by_field_name("operator")
        if op is None or op.type != "and":
            return []
        return (isinstance_tests(node.child_by_field_name("left"), src)
                + isinstance_tests(node.child_by_field_name("right"), src))
    if t != "call" or text(node.child_by_field_name("function"), src) != "isinstance":
        return []
    arglist = node.child_by_field_name("arguments")
    args = [a for a in arglist.named_children if a.type != "comment"] if arglist is not None else []
    if len(args) != 2 or not (args[0].type == "identifier" or args[0].type == "attribute" and _two_names(args[0])):
        return []
    kinds = args[1].named_children if args[1].type == "tuple" else [args[1]]
    classes = [dotted(k, src) for k in kinds if k.type != "comment"]
    if not classes or any(not c or "<" in c or "(" in c or "[" in c for c in classes):
        return []
    return [(text(args[0], src), classes)]


def _two_names(node: _ts.Node) -> bool:
    """``a.b``: an attribute of a plain name."""
    obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
    return obj is not None and attr is not None and obj.type == "identifier" and attr.type == "identifier"


_EXITS = frozenset({"raise_statement", "return_statement", "continue_statement", "break_statement"})


def narrowings(owner: int, node: _ts.Node, src: str | None) -> list[Binding]:
    """What an ``if`` / ``elif`` / ``assert`` of ``isinstance`` tells: ``x`` is an ``A`` in the branch of
    ``if isinstance(x, A):`` (a binding ``until`` its last line), after ``assert isinstance(x, A)``, and
    after ``if not isinstance(x, A): raise ...`` (a branch that leaves: the rest of the scope).
    An attribute path (``self.rhs``) is narrowed in the branch only, up to the branch's first
    assignment of it (:func:`._branches.narrowed_paths`).

    Examples
    --------
    >>> from lore.parsers import _ts
    >>> code = b"if isinstance(x, A):\\n    x.f()\\nif not isinstance(y, B):\\n    raise TypeError\\ny.g()\\n"
    >>> root = _ts.parse("python", code).root_node
    >>> [(b.name, b.annotation, b.line, b.until) for n in root.named_children for b in narrowings(0, n, code.decode())]
    [('x', 'A', 1, 2), ('y', 'B', 4, 0), ('y', '!B', 3, 4)]
    """
    def typed(cond: _ts.Node | None, line: int, until: int = 0, negated: bool = False) -> list[Binding]:
        return [Binding(owner, name, line, annotation=c, until=until)
                for name, classes in isinstance_tests(cond, src, negated) if "." not in name for c in classes]

    if node.type == "assert_statement":
        cond = node.named_children[0] if node.named_child_count else None
        return typed(cond, node.start_point[0] + 1) if "isinstance" in text(cond, src) else []
    cond = node.child_by_field_name("condition")
    if "isinstance" not in text(cond, src):  # most conditions: nothing to read
        return []
    body = node.child_by_field_name("consequence")
    if cond is None or body is None:
        return []
    end = body.end_point[0] + 1
    out = typed(cond, cond.start_point[0] + 1, until=end) + narrowed_paths(
        owner, isinstance_tests(cond, src), cond.start_point[0] + 1, body, src)
    last = body.named_children[-1] if body.named_child_count else None
    if node.type == "if_statement" and node.child_by_field_name("alternative") is None and last is not None \
            and last.type in _EXITS:
        out += typed(cond, end, negated=True)
    return out + eliminations(owner, node, cond, src, isinstance_tests)



def mark_branches(bindings: list[Binding], branches: list[tuple[int, int, int]]) -> None:
    """Give each binding of a scope made inside an ``if`` / ``elif`` / ``else`` / ``try`` / ``except`` /
    ``case`` block of that scope the last line of the innermost such block (``branch_end``): after it,
    the binding may not have happened. ``branches`` holds (scope, first line, last line) per block.
    A declared type (``x: A = ...``, ``assert isinstance(x, A)``, a guard that leaves) is no such
    binding: it holds for the rest of the scope, and a narrowing holds in its own branch only.

    Examples
    --------
    >>> bs = [Binding(1, "x", 2), Binding(1, "x", 4), Binding(1, "x", 7), Binding(2, "y", 4)]
    >>> mark_branches(bs, [(1, 3, 8), (1, 4, 5)])
    >>> [b.branch_end for b in bs]
    [0, 5, 8, 0]
    """
    if not branches:
        return
    by_scope: dict[int, list[tuple[int, int]]] = {}
    for scope, first, last in branches:
        by_scope.setdefault(scope, []).append((first, last))
    todo: dict[int, list[Binding]] = {}
    for b in bindings:
        if b.scope is None and b.owner in by_scope and not b.until and not b.annotation:
            todo.setdefault(b.owner, []).append(b)
    for scope, binds in todo.items():
        blocks = sorted(by_scope[scope])  # nested or apart: a sweep keeps the open ones, innermost last
        open_: list[int] = []
        k = 0
        for b in sorted(binds, key=lambda b: b.line):
            while k < len(blocks) and blocks[k][0] <= b.line:
                while open_ and open_[-1] < blocks[k][0]:
                    open_.pop()
                open_.append(blocks[k][1])
                k += 1
            while open_ and open_[-1] < b.line:
                open_.pop()
            if open_:
                b.branch_end = open_[-1]
