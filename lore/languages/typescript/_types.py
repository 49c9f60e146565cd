"""TypeScript type expressions read from their syntax: the runtime class a type's values are
(``string`` -> ``String``, ``Foo[]`` -> ``Array``), the generic type under wrappers and ``| undefined``,
an indexed access type's member, a function type written for a property."""

from __future__ import annotations

from collections.abc import Callable

from ...parsers import _ts

FUNCTION_TYPES = frozenset({"function_type", "constructor_type"})
# types whose values are the runtime's own: ``path: string`` is a String (``path.split()`` is String's)
PREDEFINED = {"string": "String", "number": "Number", "boolean": "Boolean", "bigint": "BigInt", "symbol": "Symbol"}
GENERIC_BUILTINS = {"Array": "Array", "ReadonlyArray": "Array", "Map": "Map", "ReadonlyMap": "Map", "Set": "Set",
                    "ReadonlySet": "Set", "WeakMap": "WeakMap", "WeakSet": "WeakSet"}
NOTHING = "-"  # null / undefined in a union: no type of its own


def lookup_member(node: _ts.Node | None) -> tuple[_ts.Node, str] | None:
    """``(T, 'name')`` of an indexed access type ``T['name']`` (maybe ``| undefined``), else ``None``."""
    node = strip(node)
    if node is not None and node.type == "union_type":
        parts = [m for m in node.named_children if builtin(m) != NOTHING]
        node = strip(parts[0]) if len(parts) == 1 else None
    if node is None or node.type != "lookup_type" or node.named_child_count != 2:
        return None
    index = node.named_children[1]
    lit = index.named_children[0] if index.type == "literal_type" and index.named_child_count else None
    if lit is None or lit.type != "string" or lit.named_child_count != 1:
        return None
    name = _ts.text(lit.named_children[0])
    return (node.named_children[0], name) if name.replace("$", "_").isidentifier() else None


def generic_node(node: _ts.Node | None, wrappers: frozenset[str]) -> _ts.Node | None:
    """The ``generic_type`` a declared type names (under ``| undefined`` and wrappers such as
    ``Promise<...>``), or ``None``."""
    node = strip(node)
    while node is not None:
        if node.type == "union_type":
            parts = [m for m in node.named_children if builtin(m) != NOTHING]
            node = strip(parts[0]) if len(parts) == 1 else None
        elif node.type == "generic_type" and _ts.text(node.child_by_field_name("name")) in wrappers:
            targs = node.child_by_field_name("type_arguments")
            node = strip(targs.named_children[0]) if targs is not None and targs.named_child_count else None
        else:
            return node if node.type == "generic_type" else None
    return None


def function_type(ann: _ts.Node) -> _ts.Node | None:
    """The function type a property's annotation gives it (``?: (x) => y``, ``T | ((x) => y)``), or ``None``."""
    stack = list(ann.named_children) if ann.type == "type_annotation" else [ann]
    while stack:
        n = stack.pop(0)
        if n.type in FUNCTION_TYPES:
            return n
        if n.type in ("union_type", "parenthesized_type"):
            stack.extend(n.named_children)
    return None


CONTAINERS = frozenset({"Array", "Set", "Map"})


def with_elements(runtime: str, node: _ts.Node | None, generic: Callable[[_ts.Node], str] | None = None) -> str:
    """``Foo[]``, ``Array<Foo>``, ``Set<Foo>``, ``Map<string, Foo>`` (maybe ``| undefined``) as
    ``Array[Foo]``, ``Set[Foo]``, ``Map[String, Foo]``: the runtime's container with the types of its
    elements, so ``routes.get(k).handle()`` and ``handlers.find(f).run()`` bind the element's member
    (:mod:`lore.index._containers`); ``''`` when an element type is not a plain name. An element of a
    generic type (``Interceptor<Opts, R>[]``) is what ``generic`` writes for it (the parser's
    ``declared``: ``Interceptor[Opts, R]``, as ``Array<Interceptor<Opts, R>>`` already read)."""
    node = strip(node)
    if node is not None and node.type == "union_type":
        parts = [m for m in node.named_children if builtin(m) != NOTHING]
        node = strip(parts[0]) if len(parts) == 1 else None
    if node is None:
        return ""
    if node.type == "array_type" and node.named_child_count:
        args = [node.named_children[0]]
    elif node.type == "generic_type":
        targs = node.child_by_field_name("type_arguments")
        args = list(targs.named_children) if targs is not None else []
    else:
        return ""
    names = []
    for a in args:
        if a.type == "predefined_type" and _ts.text(a) in PREDEFINED:
            names.append(PREDEFINED[_ts.text(a)])
        elif a.type in ("type_identifier", "nested_type_identifier"):
            names.append("".join(_ts.text(a).split()))
        elif a.type == "generic_type" and generic is not None and (got := generic(a)):
            names.append(got)
        else:
            return ""
    if len(names) != (2 if runtime == "Map" else 1):
        return ""
    return f"{runtime}[{', '.join(names)}]"


def builtin_type(node: _ts.Node | None) -> str:
    """The runtime class a type expression's values are (``''`` when it names a type of its own).

    ``string | undefined`` -> ``String``; ``readonly Foo[]``, ``[A, B]``, ``Array<Foo>`` -> ``Array``;
    ``'a' | 'b'`` -> ``String``; ``Map<string, User>`` -> ``Map``; ``Foo | string`` -> ``''`` (Foo decides).
    """
    got = builtin(node)
    return "" if got == NOTHING else got


def shape(node: _ts.Node | None) -> bool:
    """Whether a type expression is an object or function type written in place (maybe ``| undefined``)."""
    node = strip(node)
    if node is not None and node.type == "union_type":
        parts = [m for m in node.named_children if builtin(m) != NOTHING]
        node = strip(parts[0]) if len(parts) == 1 else None
    return node is not None and node.type in ("object_type", "function_type", "constructor_type")


def strip(node: _ts.Node | None) -> _ts.Node | None:
    """The type under ``: T``, ``(T)`` and ``readonly T``."""
    while node is not None and node.type in ("type_annotation", "parenthesized_type", "readonly_type") \
            and node.named_child_count:
        node = node.named_children[-1]
    return node


def queried(node: _ts.Node | None) -> str:
    """The name ``typeof name`` asks the type of (``verifyAccess: typeof verifyAccess``), else ``''``."""
    node = strip(node)
    if node is None or node.type != "type_query" or node.named_child_count != 1:
        return ""
    name = node.named_children[0]
    return _ts.text(name) if name.type == "identifier" else ""


def builtin(node: _ts.Node | None) -> str:
    node = strip(node)
    if node is None:
        return ""
    t = node.type
    if t == "predefined_type":
        word = _ts.text(node)
        return NOTHING if word in ("undefined", "null", "void") else PREDEFINED.get(word, "")
    if t in ("array_type", "tuple_type"):
        return "Array"
    if t == "template_literal_type":
        return "String"
    if t == "literal_type":
        kind = node.named_children[0].type if node.named_child_count else ""
        return {"string": "String", "number": "Number", "true": "Boolean", "false": "Boolean",
                "null": NOTHING, "undefined": NOTHING, "unary_expression": "Number"}.get(kind, "")
    if t == "generic_type":
        return GENERIC_BUILTINS.get(_ts.text(node.child_by_field_name("name")), "")
    if t == "union_type":
        found = {builtin(m) for m in node.named_children} - {NOTHING}
        return found.pop() if len(found) == 1 and "" not in found else ""
    return ""


_MEMBER_KEEPING = frozenset({"Omit", "Pick", "Partial", "Required", "Readonly", "NonNullable"})
_NO_MEMBERS = frozenset({"Record", *GENERIC_BUILTINS})


def part_name(node: _ts.Node | None) -> str:
    """The name an intersection's part gives its members from: ``Foo``, ``a.Foo``, ``Foo<T>`` -> ``Foo``;
    ``Omit<Foo, 'k'>`` (``Pick``, ``Partial``...) -> ``Foo``; ``typeof foo`` -> ``foo``; else ``''``."""
    node = strip(node)
    while node is not None and node.type == "generic_type":
        name = "".join(_ts.text(node.child_by_field_name("name")).split())
        targs = node.child_by_field_name("type_arguments")
        if name not in _MEMBER_KEEPING:
            return "" if name in _NO_MEMBERS else name
        node = strip(targs.named_children[0]) if targs is not None and targs.named_child_count else None
    if node is None:
        return ""
    if node.type in ("type_identifier", "nested_type_identifier"):
        return "".join(_ts.text(node).split())
    if node.type == "type_query" and node.named_child_count == 1 and \
            node.named_children[0].type in ("identifier", "member_expression"):
        return "".join(_ts.text(node.named_children[0]).split())
    return ""


def own_part(node: _ts.Node | None, external: Callable[[str], bool]) -> str:
    """The part of an intersection a value's members are looked up in when its first named part is the
    runtime's or a package's (``external``): the first of the project's parts (``Request & Extra`` ->
    ``Extra``; ``Omit<Builder, 'S'> & typeof Extra`` with ``Builder`` imported from a package -> ``Extra``),
    so a member only the project declares is that part's, never one invented on the external type; ``''``
    when the first named part is the project's own, or no named part is (``Request & { up(): void }``)."""
    node = strip(node)
    if node is None or node.type != "intersection_type":
        return ""
    parts, names = [node], []
    while parts:
        part = strip(parts.pop(0))
        if part is None:
            continue
        if part.type == "intersection_type":
            parts[:0] = part.named_children
        elif part.type in ("type_identifier", "nested_type_identifier", "generic_type", "type_query"):
            names.append(part_name(part))
    named = [n for n in names if n]
    if not named or not external(named[0]):
        return ""
    return next((n for n in named if not external(n)), "")
