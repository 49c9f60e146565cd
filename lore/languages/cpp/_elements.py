"""The elements of C++ containers: what ``v[i]``, ``v.front()`` and ``for (auto& x : v)`` give.

A variable declared as a standard container of a type (``std::vector<Foo> v``, ``std::map<int, Foo*> m``,
``Foo arr[4]``, ``std::vector<Meta*> metas_[3]``) gets a binding ``v[]`` whose annotation is its element type
(a map's mapped type; one ``[]`` per level, so ``metas_[][]`` is a ``Meta``). The extractor spells a subscript
``v[i]`` as ``v[]``, so ``v[i].run()`` is the call ``v[].run`` and resolves through that binding as any
other receiver; one that is no container of a known element type has no such binding and stays unresolved
(never guessed by name). A range ``for`` binds its variable to the element (``alias_of`` ``v[]``, found in the
scopes where ``v`` is: a field declared in a header), a map iterator's ``second`` likewise.
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding

CASTS = frozenset({"static_cast", "const_cast", "reinterpret_cast", "dynamic_cast"})

# standard (and common library) containers whose first type argument is the element
SEQUENCES = frozenset({
    "vector", "deque", "list", "forward_list", "set", "unordered_set", "multiset", "unordered_multiset", "array",
    "span", "initializer_list", "queue", "stack", "priority_queue", "valarray", "flat_set", "btree_set",
    "flat_hash_set", "node_hash_set", "InlinedVector", "FixedArray", "SmallVector",
})
# containers whose second type argument is what a subscript gives (the mapped type)
MAPPINGS = frozenset({
    "map", "unordered_map", "multimap", "unordered_multimap", "flat_map", "btree_map", "flat_hash_map",
    "node_hash_map", "hash_map",
})
# members that give one element (``v.front().run()`` is ``v[].run``)
ELEMENT_METHODS = frozenset({"front", "back", "at", "top"})
# members that give an iterator over the elements (``auto it = m.find(k); it->second``)
ITERATOR_METHODS = frozenset({"find", "begin", "cbegin", "rbegin", "lower_bound", "upper_bound"})


def _args(ex, tnode: _ts.Node | None) -> tuple[str, list[_ts.Node]]:
    """A template type's last name (``std::vector<Foo>``: ``vector``) and its type arguments' type nodes."""
    t = tnode
    while t is not None and t.type == "qualified_identifier":
        t = t.child_by_field_name("name")
    if t is None or t.type != "template_type":
        return "", []
    args = t.child_by_field_name("arguments")
    kids = [a.child_by_field_name("type") for a in args.named_children if a.type == "type_descriptor"] \
        if args is not None else []
    return ex.text(t.child_by_field_name("name")), [k for k in kids if k is not None]


def element_of(ex, tnode: _ts.Node | None) -> _ts.Node | None:
    """The type node of one element of a container type node, or ``None`` when it is no known container."""
    name, args = _args(ex, tnode)
    if name in SEQUENCES and args:
        return args[0]
    if name in MAPPINGS and len(args) > 1:
        return args[1]
    return None


def pair_levels(ex, tnode: _ts.Node | None) -> list[tuple[str, str]]:
    """``std::pair<A, B>``: ``[("[first]", A), ("[]", B)]`` (``p.first`` is spelled ``p[first]``, ``p.second``
    ``p[]`` as a map element's is); ``[]`` for any other type."""
    name, args = _args(ex, tnode)
    if name != "pair" or len(args) != 2:
        return []
    return [(suffix, ann) for suffix, t in (("[first]", args[0]), ("[]", args[1])) if (ann := ex.direct_type(t))]


def element_levels(ex, tnode: _ts.Node | None, arrays: int) -> list[tuple[str, str]]:
    """``(suffix, annotation)`` per subscript level of a variable of type ``tnode`` declared with ``arrays``
    array declarators: ``Foo arr[4]`` gives ``[("[]", "Foo")]``; ``std::vector<Meta*> m[3]`` gives
    ``[("[]", "std.vector"), ("[][]", "Meta")]``."""
    out: list[tuple[str, str]] = []
    held = ex._held(tnode) if not arrays else None
    if held is not None:  # std::unique_ptr<Shape> p: p.get() is spelled p[], a Shape (see spelling)
        ann = ex.direct_type(held)
        return [("[]", ann)] if ann else []
    suffix = ""
    for _ in range(arrays):
        suffix += "[]"
        ann = ex.direct_type(tnode)
        if ann:
            out.append((suffix, ann))
    t = tnode
    for _ in range(4):  # vector<vector<Foo>>: two levels; deeper nests are rare
        t = element_of(ex, t)
        if t is None:
            break
        suffix += "[]"
        ann = ex.direct_type(t)
        if ann:
            out.append((suffix, ann))
    return out


def returned_elements(ex, local: int, tnode: _ts.Node | None, at: _ts.Node) -> None:
    """A function returning a container of a known element type (``const std::vector<Point>& points() const``):
    bindings ``points()[]`` (``self.points()[]`` in a class) whose annotation is the element, one ``[]`` per level,
    so ``for (auto& p : points())``, ``points().front()`` and ``r.points()`` in a loop type their elements as a
    field's ``items[]`` does; also through a container alias of the same file (``Points more() const``)."""
    sym = ex.pf.symbols[local]
    if tnode is not None and tnode.type == "type_identifier":  # Points more() with using Points = std::vector<Point>
        tnode = ex.aliases.get(ex.text(tnode))
    if tnode is None or sym.parent is None or tnode.type not in ("template_type", "qualified_identifier"):
        return
    levels = pair_levels(ex, tnode) or element_levels(ex, tnode, 0)
    if not levels or ex._held(tnode) is not None:  # a smart pointer's holding is what direct_type already gives
        return
    owner = sym.parent
    prefix = "self." if ex.pf.symbols[owner].kind in ("class", "struct") else ""
    for suffix, ann in levels:
        ex.add_binding(owner, f"{prefix}{sym.name}(){suffix}", at, annotation=ann)


_ITERATORS = frozenset({"iterator", "const_iterator", "reverse_iterator", "const_reverse_iterator"})


def declared_iterator(ex, tnode: _ts.Node | None) -> str:
    """The element annotation of a variable declared as a container's iterator (``vector<Edge*>::iterator e``,
    ``std::map<string, Node*>::const_iterator i``, ``FlagMap::iterator p`` of a container alias of the file):
    ``(*e)->Ready()`` calls ``Edge::Ready``, ``i->second`` (spelled ``i[]``) is a ``Node``; ``""`` otherwise."""
    t = tnode
    while t is not None and t.type == "qualified_identifier":
        name = t.child_by_field_name("name")
        if name is not None and name.type == "qualified_identifier":
            t = name
            continue
        if name is None or ex.text(name) not in _ITERATORS:
            return ""
        scope = t.child_by_field_name("scope")
        if scope is not None and scope.type in ("type_identifier", "namespace_identifier"):
            scope = ex.aliases.get(ex.text(scope))
        levels = element_levels(ex, scope, 0) if scope is not None and ex._held(scope) is None else []
        return levels[0][1] if levels else ""
    return ""


def spelling(ex, node: _ts.Node) -> str | None:
    """How the extractor ``ex`` spells ``node`` when it is an element or a cast; ``None`` for C's spelling.

    ``v[i]`` and ``v.front()`` are ``v[]`` (``front`` of a name the file declares with a plain type stays a call:
    a field declared in a header is not known in the source, and taken as a container); ``f()[i]`` is ``f()`` (an
    element of the array a call returns, ``Regexp**``: a Regexp; a library container stays unresolved through
    it); ``p.get()`` is ``p[]`` (what a smart pointer holds, declared with it: :func:`element_levels`; of a name the
    file declares with a plain type it stays a call); ``kv.second`` of a map element or iterator is ``kv[]``; ``static_cast<Foo*>(p)`` is ``Foo()`` (a value of
    the type it names)."""
    t = node.type
    if t == "subscript_expression":
        inner = ex.dotted(node.child_by_field_name("argument"))
        if inner.endswith(")"):
            return inner
        return f"{inner}[]" if inner and not inner.startswith("<") else ""
    if t == "field_expression" and ex.pairs:
        arg = node.child_by_field_name("argument")
        field = ex.text(node.child_by_field_name("field"))
        if arg is not None and arg.type == "identifier" and field in ("first", "second") and ex.text(arg) in ex.pairs:
            return ex.text(arg) + ("[]" if field == "second" else "[first]")
        return None
    if t != "call_expression":
        return None
    fn = node.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type == "template_function" and ex.text(fn.child_by_field_name("name")) in CASTS:
        targs = fn.child_by_field_name("arguments")
        first = next((a for a in targs.named_children if a.type == "type_descriptor"), None) if targs is not None else None
        typ = ex.direct_type(first.child_by_field_name("type")).partition("[")[0] if first is not None else ""
        return f"{typ}()" if typ else ""
    args = node.child_by_field_name("arguments")
    field = ex.text(fn.child_by_field_name("field")) if fn.type == "field_expression" else ""
    if field in ELEMENT_METHODS and (args is None or args.named_child_count <= 1) or field == "get" \
            and args is not None and args.named_child_count == 0 and ex.text(fn.child_by_field_name("operator")) == ".":
        inner = ex.dotted(fn.child_by_field_name("argument"))
        last = inner.rsplit(".", 1)[-1].removesuffix("[]")
        if inner and not inner.startswith("<") and (last in ex.containers or last not in ex.plain):
            return f"{inner}[]"
    return None


# the element of a container alias (``typedef std::vector<Json> array;``): a binding of the alias, read by the
# resolver for a variable declared with the alias in another file (``const Json::array& values``: values[] is a Json)
ELEMENT = "<elem>"


def alias_element(ex, local: int, written: _ts.Node | None, at: _ts.Node) -> None:
    """Record the element type of container alias ``local`` (``using Points = std::vector<Point>``: ``Point``)."""
    levels = element_levels(ex, written, 0)
    if levels and levels[0][0] == "[]":
        ex.add_binding(local, ELEMENT, at, annotation=levels[0][1])


def foreign_elements(ex, owner: int, name: str, at: _ts.Node) -> None:
    """``for (auto& x : values)`` with ``values`` declared in this file with a type that is no container the file
    knows (an alias another header declares): ``values[]`` is the alias's element (``values.<elem>``, which
    only a container alias answers: :meth:`lore.languages.cpp._rules.CppRules.detached_member`)."""
    if name in ex.plain and name not in ex.containers and "." not in name:
        ex.add_binding(owner, name + "[]", at, value=f"{name}.{ELEMENT}")


def for_range(ex, node: _ts.Node, owner: int) -> None:
    """``for (Foo* p : v)``: ``p`` is a ``Foo``; ``for (auto& x : v)``: an element of ``v`` (``v[]``), and so is
    ``x.second`` (spelled ``x[]``) and the second of ``auto& [k, x]`` (a map's element is a pair whose second is
    the mapped value, which is what ``v[]`` names for a map)."""
    tnode = node.child_by_field_name("type")
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type in ("reference_declarator", "pointer_declarator") and decl.named_child_count:
        decl = decl.named_children[-1]
    if decl is None:
        return
    auto = tnode is None or tnode.type == "placeholder_type_specifier"
    right = ex.dotted(node.child_by_field_name("right"))
    elem = f"{right}[]" if right and not right.startswith("<") else ""
    if elem and auto:
        foreign_elements(ex, owner, right, decl)
    if decl.type == "structured_binding_declarator":
        names = [c for c in decl.named_children if c.type == "identifier"]
        if auto and elem and len(names) == 2:
            ex.add_binding(owner, ex.text(names[1]), names[1], alias_of=elem)
        return
    if decl.type != "identifier":
        return
    name = ex.text(decl)
    if not auto:
        ex.local_binding(owner, name, decl, tnode, None)
    elif elem:
        ex.add_binding(owner, name, decl, alias_of=elem)
        ex.add_binding(owner, name + "[]", decl, alias_of=elem)
        ex.pairs.add(name)


def iterator_binding(ex, owner: int, name: str, at: _ts.Node, value: _ts.Node | None) -> bool:
    """``auto it = m.find(k)``: ``it->second`` (spelled ``it[]``) is ``m``'s mapped value; ``it`` itself an element
    (``it->run()``, ``(*it)->run()``) when ``m`` is a container this file declares, or a name it does not declare at
    all (a field its header declares, whose ``m[]`` binding says what an element is, or nothing); then ``True``:
    nothing else binds ``it``."""
    fn = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
    if fn is None or fn.type != "field_expression" or ex.text(fn.child_by_field_name("field")) not in ITERATOR_METHODS:
        return False
    recv = ex.dotted(fn.child_by_field_name("argument"))
    if not recv or recv.startswith("<"):
        return False
    ex.add_binding(owner, name + "[]", at, alias_of=recv + "[]")
    ex.pairs.add(name)
    last = recv.rsplit(".", 1)[-1]
    if last in ex.containers or last not in ex.plain:  # a container's field declared in a header: as v.front() is
        ex.add_binding(owner, name, at, alias_of=recv + "[]")
        return True
    return False


def subscript_bindings(ex) -> None:
    """``x[k]`` on a local or parameter ``x`` that is no container of a known element type is what its ``operator[]``
    returns (``result["name"].as<int>()``): a binding ``x[]`` of that call, where the subscript is."""
    if not ex.pf.calls:
        return
    local = {(b.owner, b.name) for b in ex.pf.bindings}
    made: set[tuple[int, str]] = set()
    for c in ex.pf.calls:
        head = c.callee.partition("[]")[0]
        if head == c.callee or not head or "." in head or head in ex.containers or head in ex.pairs \
                or ((c.caller, head) not in local and head not in ex.var_types.get(c.caller, {})) \
                or (c.caller, head) in made:
            continue
        made.add((c.caller, head))
        ex.pf.bindings.append(Binding(c.caller, head + "[]", c.line, value=head + ".operator[]"))


def structured_binding(ex, node: _ts.Node, owner: int) -> None:
    """``auto [a, b] = two();``: ``a`` is what ``two()[first]`` names and ``b`` what ``two()[]`` names (a pair's first
    and second, see :func:`pair_levels`; of a map element or iterator, ``b`` is the mapped value); a struct's fields
    are not followed (``two()[first]`` then names nothing, and the calls on ``a`` stay unbound)."""
    if ex.pf.symbols[owner].kind not in ("function", "method"):
        return
    for d in node.children_by_field_name("declarator"):
        if d.type != "init_declarator":
            continue
        target = d.child_by_field_name("declarator")
        while target is not None and target.type == "reference_declarator" and target.named_child_count:
            target = target.named_children[-1]
        value = d.child_by_field_name("value")
        if target is None or target.type != "structured_binding_declarator" or value is None:
            continue
        names = [c for c in target.named_children if c.type == "identifier"]
        src = ex.dotted(value)
        if len(names) != 2 or not src or src.startswith("<"):
            continue
        ex.add_binding(owner, ex.text(names[0]), names[0], alias_of=src + "[first]")
        ex.add_binding(owner, ex.text(names[1]), names[1], alias_of=src + "[]")
