"""Annotation text as written (``Optional[Node]``, ``tuple[int, str]``, ``Map<K, V>``): its primary type,
its type arguments, the k-th element of a tuple, whether it names a class; no lookups (the resolver's
:class:`~lore.index._values.ValuesMixin` turns the names it finds into values)."""

from __future__ import annotations

import re

# wrappers whose first argument is the class a value has (any module prefix: typing., t., typing_extensions.)
_WRAPPED = re.compile(r"^(?:[A-Za-z_]\w*\.)*(Optional|Union|Final|ClassVar|Annotated|type|Type|Required|NotRequired)"
                      r"\[(.*)\]$", re.DOTALL)




def _top_level(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets: ``"A, B[C, D]"`` -> ``["A", " B[C, D]"]``."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


_TUPLE = re.compile(r"^(?:[A-Za-z_]\w*\.)*(?:Tuple|tuple)\[(.*)\]$", re.DOTALL)


def tuple_element(annotation: str, k: int) -> str:
    """The annotation of element ``k`` of a tuple annotation (``''`` when it names no such element).

    Examples
    --------
    >>> tuple_element("t.Tuple[t.Optional[str], 'Command', t.List[str]]", 1), tuple_element("tuple[int, ...]", 5)
    ("'Command'", 'int')
    >>> tuple_element("List[int]", 0), tuple_element("tuple[int]", 1)
    ('', '')
    """
    m = _TUPLE.match(annotation.strip().strip("'\"").strip())
    if m is None:
        return ""
    args = [a.strip() for a in _top_level(m.group(1), ",")]
    if len(args) == 2 and args[1] == "...":
        return args[0]
    return args[k] if k < len(args) else ""


def primary_type(annotation: str) -> str:
    """The main class an annotation names: ``Optional["Session"]`` -> ``Session``; ``''`` for none.

    Examples
    --------
    >>> primary_type('Optional["requests.Session"]'), primary_type("Foo | None"), primary_type("list[Foo]")
    ('requests.Session', 'Foo', 'list')
    >>> primary_type("t.Optional[Command]"), primary_type("typing.Union[None, Context]")
    ('Command', 'Context')
    >>> primary_type("t.Union[Command, t.Callable[[F], Command]]"), primary_type("Foo | Bar")  # no one class
    ('', '')
    """
    t = _unwrapped(annotation).split("[", 1)[0].strip()
    if not t or not all(p.replace("$", "_").isidentifier() for p in t.split(".")) or t == "None":  # JS: $name
        return ""
    return t


def type_args(annotation: str) -> list[str]:
    """The type arguments of the class an annotation names (:func:`primary_type`).

    Examples
    --------
    >>> type_args('Optional[List["Text"]]'), type_args("dict[str, list[Node]] | None"), type_args("Foo")
    (['"Text"'], ['str', 'list[Node]'], [])
    """
    _head, bracket, rest = _unwrapped(annotation).partition("[")
    if not bracket or not rest.endswith("]"):
        return []
    return [a.strip() for a in _top_level(rest[:-1], ",")]


def _unwrapped(annotation: str) -> str:
    """The annotation without its wrappers (``Optional``, ``Union`` with ``None``, ``X | None``, quotes);
    ``''`` when it names no one class."""
    t = annotation.strip().strip("'\"").strip()
    while (m := _WRAPPED.match(t)) is not None:  # Optional[X], t.Optional[X], Union[X, None], ...
        args = [a.strip().strip("'\"").strip() for a in _top_level(m.group(2), ",")]
        if m.group(1) == "Union":  # one class only when every other member is None
            args = [a for a in args if a not in ("None", "")]
            args = args if len(args) == 1 else [""]
        t = args[0]
    opts = [p.strip() for p in _top_level(t, "|")]
    if len(opts) > 1:  # X | None names X; X | Y names no one class
        opts = [p for p in opts if p not in ("None", "")]
        t = opts[0] if len(opts) == 1 else ""
    return t


def names_class(annotation: str) -> bool:
    """Whether an annotation is the class itself, not an instance: ``type[X]``, ``t.Type[X]``,
    ``ClassVar[type[X]]``, ``Optional[type[X]]``.

    Examples
    --------
    >>> names_class("type[Response]"), names_class("t.ClassVar[t.Type[Foo]]"), names_class("Foo")
    (True, True, False)
    """
    t = annotation.strip().strip("'\"").strip()
    while (m := _WRAPPED.match(t)) is not None:
        if m.group(1) in ("type", "Type"):
            return True
        args = [a.strip().strip("'\"").strip() for a in _top_level(m.group(2), ",")]
        if m.group(1) == "Union":
            args = [a for a in args if a not in ("None", "")]
        if len(args) != 1:
            return False
        t = args[0]
    opts = [p.strip() for p in _top_level(t, "|") if p.strip() not in ("None", "")]
    return len(opts) == 1 and opts[0] != t and names_class(opts[0])
