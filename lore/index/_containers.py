"""Typed containers: ``list[Text]``, ``Dict[str, Node]``, ``Iterator[Token]`` as values whose elements are known.

An instance of an external container class annotated with its element types is the value
``("of", (container, iterated, item))``: ``container`` the external class as resolved
(``builtins.list``, ``typing.Mapping``), ``iterated`` what a ``for`` loop over it binds (the elements,
a mapping's keys), ``item`` what indexing, ``get`` or ``pop`` give (the elements, a mapping's values);
either may be ``None`` (unknown). A method of it that gives elements is ``("ofm", (container, method,
result))``, and calling that method gives ``result``.

Everything else about such a value is the plain external instance (:func:`plain`): its other members,
and the edges of a call on it, are exactly what they are without element types. The element types only
change what the *next* lookup finds: ``for line in self._lines: line.rstrip()`` binds ``Text.rstrip``.
"""

from __future__ import annotations

from typing import cast

from ._world import Value

# the tags of these values and of generic instances (lore.index._generics): a check callers make before plain
TAGS = frozenset({"of", "ofm", "gin", "gim"})

# the last part of the container class's name (any module: builtins, typing, collections, collections.abc)
SEQUENCES = frozenset({
    "list", "List", "set", "Set", "frozenset", "FrozenSet", "MutableSet", "AbstractSet", "Sequence",
    "MutableSequence", "Iterable", "Iterator", "Collection", "Reversible", "deque", "Deque", "KeysView",
    "ValuesView", "Generator", "tuple", "Tuple", "AsyncIterator", "AsyncIterable", "AsyncGenerator",
    # Java's collections (java.util)
    "ArrayList", "LinkedList", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet", "ListIterator",
    "ArrayDeque", "Queue",
    # ECMAScript's (TypeScript: ``Route[]``, ``Set<Route>``)
    "Array",
})
# context managers typed with what entering them gives (``AbstractAsyncContextManager[Nursery]``)
MANAGERS = frozenset({"AbstractContextManager", "AbstractAsyncContextManager", "ContextManager",
                      "AsyncContextManager"})
# what a ``with`` statement may enter: a manager, or the generator a ``@contextmanager`` function
# returns (``-> Iterator[Conn]``): entering gives the one element it yields
_ENTERED = MANAGERS | frozenset({"Iterator", "Generator", "AsyncIterator", "AsyncGenerator"})
# holders of one value of the standard library: what ``get()`` / ``result()`` give (``ContextVar[AppContext]``)
HOLDERS = frozenset({"ContextVar", "Future", "Task"})
MAPPINGS = frozenset({
    "dict", "Dict", "Mapping", "MutableMapping", "defaultdict", "DefaultDict", "OrderedDict", "ChainMap",
    "Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "ConcurrentMap", "ConcurrentHashMap",
})
# give an iterator over the same elements (Java: iterator())
_ITERATE = frozenset({"__iter__", "__reversed__", "iterator", "listIterator", "descendingIterator"})
_ITEM = frozenset({  # give one element (Java: get, peek, poll, getFirst ...; an Iterator's next)
    "__getitem__", "pop", "popleft", "get", "setdefault", "getOrDefault", "peek", "poll", "pollFirst", "pollLast",
    "peekFirst", "peekLast", "getFirst", "getLast", "removeFirst", "removeLast", "first", "last", "element",
    "find", "findLast", "at", "shift",  # ECMAScript's Array
    "get_nowait", "result",  # Python's asyncio.Queue; a Future's or Task's result (see HOLDERS)
})


def shape(container: str, args: list[str]) -> tuple[str, str] | None:
    """The annotations of (what iterating gives, what an item is) for ``container`` (its qualified name)
    written with type arguments ``args``; ``None`` for a class that is no container we know.

    Examples
    --------
    >>> shape("builtins.list", ["Text"]), shape("typing.Dict", ["str", '"Node"'])
    (('Text', 'Text'), ('str', '"Node"'))
    >>> shape("builtins.tuple", ["Token", "..."]), shape("builtins.tuple", ["int", "str"])
    (('Token', 'Token'), None)
    """
    last = container.rsplit(".", 1)[-1]
    if (last in MANAGERS or last in HOLDERS) and args:
        return args[0], args[0]
    if last in SEQUENCES and args:
        if last in ("tuple", "Tuple") and (len(args) != 2 or args[1] != "..."):
            return None  # tuple[A, B]: positions, not one element type
        return args[0], args[0]
    if last in MAPPINGS and len(args) == 2:
        return args[0], args[1]
    return None


def typed(container: str, iterated: Value | None, item: Value | None) -> Value | None:
    """The container value, or ``None`` when neither element type is known (the plain instance will do)."""
    if iterated is None and item is None:
        return None
    return "of", (container, iterated, item)


def member(v: Value, attr: str) -> Value | None:
    """Member ``attr`` of container value ``v`` when it gives elements; ``None``: as the plain instance."""
    container, iterated, item = cast("tuple[str, Value | None, Value | None]", v[1])
    if attr in _ITERATE:
        result = typed(container, iterated, iterated)
    elif attr in ("__next__", "next", "previous"):  # an iterator's next element (Java: it.next())
        result = iterated
    elif attr in _ITEM:
        result = item
    elif attr == "values":
        result = typed(container, item, item)
    elif attr in ("keys", "keySet", "navigableKeySet"):
        result = typed(container, iterated, iterated)
    elif attr == "copy":
        result = v
    elif attr in ("__enter__", "__aenter__") and container.rsplit(".", 1)[-1] in _ENTERED:
        result = item
    else:
        return None
    return ("ofm", (container, attr, result)) if result is not None else None


def plain(v: Value) -> Value:
    """``v`` as the external instance or method it is (what edges and every other member see).

    Examples
    --------
    >>> v = ("of", ("builtins.list", ("inst", 7), ("inst", 7)))
    >>> plain(v), plain(member(v, "pop")), plain(("inst", 7))
    (('extinst', 'builtins.list'), ('extattr', 'builtins.list.pop'), ('inst', 7))
    """
    tag = v[0]
    if tag == "of":
        return "extinst", cast("tuple[str, object, object]", v[1])[0]
    if tag == "ofm":
        container, name, _result = cast("tuple[str, str, Value]", v[1])
        return "extattr", f"{container}.{name}"
    if tag in ("gin", "gim"):  # a generic instance: the instance, its method
        return ("inst" if tag == "gin" else "sym"), cast("tuple[int, object]", v[1])[0]
    return v
