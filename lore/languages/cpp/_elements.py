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


def element_levels(ex, tnode: _ts.Node | None, arrays: int) -> list[tuple[str, str]]:
    """``(suffix, annotation)`` per subscript level of a variable of type ``tnode`` declared with ``arrays``
    array declarators: ``Foo arr[4]`` gives ``[("[]", "Foo")]``; ``std::vector<Meta*> m[3]`` gives
    ``[("[]", "std.vector"), ("[][]", "Meta")]``."""
    out: list[tuple[str, str]] = []
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
