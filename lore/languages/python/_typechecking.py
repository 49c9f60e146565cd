"""``if TYPE_CHECKING:`` imports and their run-time stand-ins.

A typed library often imports a class for its annotations only, and gives the name a stand-in for the
run time in the ``else`` branch::

    if TYPE_CHECKING:
        from mashumaro.core.meta.code.builder import CodeBuilder
    else:
        CodeBuilder = Any

What the annotations name is the imported class (a type checker reads only the first branch, and Jedi
too); the stand-in (``Any``, ``object``, ``None``) says nothing about it. :func:`note_stand_ins` records
the assignments of the ``else`` branch to a name its ``if TYPE_CHECKING:`` branch imports, and the
extractor does not bind them (:class:`lore.languages.python._parser._Extractor`, ``x``).
"""

from __future__ import annotations

from ...parsers import _ts
from ._expr import text

_CONDITIONS = frozenset({"TYPE_CHECKING", "typing.TYPE_CHECKING", "t.TYPE_CHECKING"})


def note_stand_ins(x, node: _ts.Node) -> None:
    """For an ``if TYPE_CHECKING: ... else: ...`` statement, add ``(line, name)`` of each assignment of
    the ``else`` block to a name the ``if`` block imports to ``x.stand_ins``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> code = b"if TYPE_CHECKING:\\n    from m import A, B as C\\nelse:\\n    A = Any\\n    C = object\\n    D = 1\\n"
    >>> x = SimpleNamespace(src=None, stand_ins=set())
    >>> note_stand_ins(x, _ts.parse("python", code).root_node.named_children[0])
    >>> sorted(x.stand_ins)
    [(4, 'A'), (5, 'C')]
    """
    if node.type != "if_statement" or text(node.child_by_field_name("condition"), x.src) not in _CONDITIONS:
        return
    body = node.child_by_field_name("consequence")
    alts = [a for a in node.children_by_field_name("alternative") if a.type == "else_clause"]
    if body is None or not alts:
        return
    imported: set[str] = set()
    for st in body.named_children:
        if st.type not in ("import_from_statement", "import_statement"):
            continue
        for name in st.children_by_field_name("name"):
            alias = name.child_by_field_name("alias") if name.type == "aliased_import" else None
            target = alias if alias is not None else (name.child_by_field_name("name") if name.type == "aliased_import" else name)
            bound = text(target, x.src)
            imported.add(bound if st.type == "import_from_statement" or alias is not None else bound.split(".")[0])
    block = alts[0].child_by_field_name("body")
    for st in block.named_children if block is not None else ():
        a = st.named_children[0] if st.type == "expression_statement" and st.named_child_count else None
        left = a.child_by_field_name("left") if a is not None and a.type == "assignment" else None
        if left is not None and left.type == "identifier" and (bound := text(left, x.src)) in imported:
            x.stand_ins.add((left.start_point[0] + 1, bound))
