"""What Python statements bind from what they iterate or enter: ``for`` loops, comprehensions, ``with``.

Functions of the extractor (:class:`lore.languages.python._parser._Extractor`): each records the
calls and bindings one statement makes (``x`` is the extractor: its records, source and literal
containers).
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import Binding, Call
from ._expr import COMPREHENSIONS, dotted, each_path, first_arg, text, value_path
from ._slots import slots

# builtins whose result iterates the elements of their first argument (the resolver checks the name
# really is the builtin: lore.index._values)
_KEEP_ELEMENTS = frozenset({"iter", "reversed", "sorted", "list", "tuple", "set", "frozenset", "deque",
                            "collections.deque"})


def with_item(x, node: _ts.Node, owner: int) -> None:
    """``with m as f``: the statement calls ``m.__enter__`` / ``__exit__``; ``f`` is what entering gives."""
    value = node.child_by_field_name("value")
    if value is None:
        return
    manager = value.named_child(0) if value.type == "as_pattern" and value.named_child_count else value
    path = dotted(manager, x.src)
    if path and "<" not in path:
        # the with statement calls the manager's __enter__ and __exit__
        line, col = manager.start_point[0] + 1, manager.start_point[1]
        x.pf.calls.append(Call(owner, f"{path}.__enter__", line, col, "implicit"))
        x.pf.calls.append(Call(owner, f"{path}.__exit__", line, col, "implicit"))
    if value.type != "as_pattern":
        return
    expr = value.named_child(0) if value.named_child_count else None
    alias = value.child_by_field_name("alias")
    if expr is None or alias is None or expr.type != "call":
        return
    target = alias.named_child(0) if alias.named_child_count else None
    if target is None or target.type != "identifier":
        return
    callee = dotted(expr.child_by_field_name("function"), x.src)
    if callee:
        # `with Foo() as f`: f is Foo.__enter__()'s result; most context managers return self. The first
        # argument rides along: `with closing(x) as f` gives x (lore.index._values, _ENTERS_ARG)
        x.pf.bindings.append(Binding(owner, text(target, x.src), target.start_point[0] + 1, value=callee,
                                        arg="<enter>" + first_arg(expr, x.src)))

def for_loop(x, node: _ts.Node, owner: int) -> None:
    """``for x in it``: the loop calls ``it.__iter__()`` and that iterator's ``__next__()``; ``x`` is
    what ``__next__`` returns."""
    iterable = node.child_by_field_name("right")
    target = node.child_by_field_name("left")
    if iterable is not None and iterable.type in ("list", "tuple", "set") and target is not None \
            and target.type == "identifier":  # for h in [f, g]: h is any element
        line = iterable.start_point[0] + 1
        name = f"<lit:{line}:{iterable.start_point[1]}>"
        slots(x, owner, name, iterable, line, None)
        x.pf.bindings.append(Binding(owner, text(target, x.src), line, alias_of=f"{name}[*]"))
        return
    if iterable is not None and target is not None and target.type in _TUPLES:
        unpacked(x, owner, target, iterable, iterable.start_point[0] + 1, 0)
    path = _iterable(x, owner, iterable) if iterable is not None else ""
    if iterable is None or not path or ("<" in path and not path.startswith("<lit:")):
        return
    line, col = iterable.start_point[0] + 1, iterable.start_point[1]
    if _made_here(x, owner, path) and target is not None and target.type == "identifier":
        # a name bound to a literal container here: the loop variable is any of its elements
        x.pf.bindings.append(Binding(owner, text(target, x.src), line, alias_of=f"{path}[*]"))
        return
    x.pf.calls.append(Call(owner, f"{path}.__iter__", line, col, "implicit"))
    x.pf.calls.append(Call(owner, f"{path}.__iter__().__next__", line, col, "implicit"))
    if target is not None and target.type == "identifier":
        x.pf.bindings.append(Binding(owner, text(target, x.src), line, value=f"{path}.__iter__().__next__"))

def comprehension_for(x, node: _ts.Node, owner: int) -> None:
    """``[x.run() for x in xs]``: ``x`` is an element of ``xs`` on the comprehension's lines only (a
    binding that holds until its last line, as a narrowing does)."""
    target = node.child_by_field_name("left")
    iterable = node.child_by_field_name("right")
    comp = node.parent
    if target is not None and iterable is not None and comp is not None and target.type in _TUPLES:
        unpacked(x, owner, target, iterable, comp.start_point[0] + 1, comp.end_point[0] + 1)
        return
    if target is None or iterable is None or comp is None or target.type != "identifier":
        return
    path = _iterable(x, owner, iterable)
    if not path or ("<" in path and not path.startswith("<lit:")):
        return
    line = comp.start_point[0] + 1
    if _made_here(x, owner, path):  # a name bound to a literal container here: any element
        x.pf.bindings.append(Binding(owner, text(target, x.src), line, alias_of=f"{path}[*]",
                                        until=comp.end_point[0] + 1))
        return
    x.pf.bindings.append(Binding(owner, text(target, x.src), line, value=f"{path}.__iter__().__next__",
                                    until=comp.end_point[0] + 1))

_TUPLES = frozenset({"pattern_list", "tuple_pattern"})


def unpacked(x, owner: int, target: _ts.Node, iterable: _ts.Node, line: int, until: int) -> None:
    """``for k, v in d.items()`` (a key and a value of ``d``), ``for i, x in enumerate(xs)`` (an element of
    ``xs``), ``for a, b in zip(xs, ys)`` (an element of each): each name bound to what it iterates, on the
    comprehension's lines only (``until``) or from the loop on."""
    names = target.named_children
    if iterable.type != "call" or any(n.type != "identifier" for n in names):
        return
    fn = iterable.child_by_field_name("function")
    args = iterable.child_by_field_name("arguments")
    if fn is None or args is None or args.type != "argument_list":
        return
    given = [a for a in args.named_children if a.type != "comment"]
    paths = [value_path(a, x.src) if a.type in ("identifier", "attribute", "subscript") else "" for a in given]
    pairs: list[tuple[_ts.Node, str, str]] = []  # (name, container path, method giving its elements)
    if fn.type == "attribute" and not given and len(names) == 2 \
            and text(fn.child_by_field_name("attribute"), x.src) == "items":
        mapping = dotted(fn.child_by_field_name("object"), x.src)
        pairs = [(names[0], mapping, "keys"), (names[1], mapping, "values")]
    elif fn.type == "identifier" and len(given) == 1 and len(names) == 2 and text(fn, x.src) == "enumerate":
        pairs = [(names[1], paths[0], "")]
    elif fn.type == "identifier" and len(given) == len(names) and text(fn, x.src) == "zip":
        pairs = [(n, path, "") for n, path in zip(names, paths, strict=True)]
    for name, path, method in pairs:
        if not path or "<" in path or "(" in path:
            continue
        if (owner, path) in x.containers:  # a literal made here: any of its slots (a dict's keys are not)
            if method != "keys":
                x.pf.bindings.append(Binding(owner, text(name, x.src), line, alias_of=f"{path}[*]", until=until))
            continue
        each = f"{path}.{method}()" if method else path
        x.pf.bindings.append(Binding(owner, text(name, x.src), line, value=f"{each}.__iter__().__next__",
                                     until=until))


def _made_here(x, owner: int, path: str) -> bool:
    """Whether ``path`` names a literal list / tuple / set made in this scope, or ``self.xs`` made in this
    class (not a dict: a loop over a dict reads its keys, not the values of its slots)."""
    if (owner, path) in x.containers:
        return (owner, path) not in x.mappings
    key = (x.class_of.get(owner), path)
    return path.startswith("self.") and path.count(".") == 1 and key in x.containers and key not in x.mappings


def _iterable(x, owner: int, node: _ts.Node) -> str:
    """The path a loop iterates: as written, or for ``sorted(xs)`` / ``reversed(xs)`` / a comprehension
    (whose result depends on an argument the path cannot carry) a name of its own, ``<lit:L:C>``,
    bound to that call with its argument."""
    t = node.type
    if t == "call":
        callee = dotted(node.child_by_field_name("function"), x.src)
        if callee not in _KEEP_ELEMENTS:
            return dotted(node, x.src)
        arg = first_arg(node, x.src)
    elif t in COMPREHENSIONS:
        callee, arg = COMPREHENSIONS[t], each_path(node, x.src)
    else:
        return dotted(node, x.src)
    if not arg:
        return ""
    line, col = node.start_point[0] + 1, node.start_point[1]
    name = f"<lit:{line}:{col}>"
    x.pf.bindings.append(Binding(owner, name, line, value=callee, arg=arg))
    return name


def made_from(call: _ts.Node, src: str | None) -> list[str]:
    """``Base.from_queryset(QuerySet)`` as a base class: ``['Base', 'QuerySet']`` (Django's pattern: a
    subclass of ``Base`` with ``QuerySet``'s public methods copied onto it), else ``[]``."""
    fn = call.child_by_field_name("function")
    if fn is None or fn.type != "attribute" or text(fn.child_by_field_name("attribute"), src) != "from_queryset":
        return []
    owner = dotted(fn.child_by_field_name("object"), src)
    arg = first_arg(call, src)
    if not owner or not arg or "<" in owner or "<" in arg or "(" in owner or "(" in arg:
        return []
    return [owner, arg]
