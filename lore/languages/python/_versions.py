"""``if sys.version_info >= (3, 9): ... else: ...``: the branch no supported Python runs.

A library that supports old Pythons defines a fallback for them beside the standard one::

    if sys.version_info >= (3, 9):
        from typing import get_type_hints
    else:
        def get_type_hints(obj, ...): ...  # run only before 3.9

On every Python still supported (:data:`FLOOR` and later) the test is decided, and the other branch never
runs. Its definitions are marked as an import's fallbacks are (``x.fallbacks``, recorded with the
condition ``"0"``, :mod:`._handlers`): where the scope binds the name otherwise too (the import of the
live branch), that binding is what the name means. Only tests of ``sys.version_info`` (or
``sys.version_info[:2]``) against a tuple with ``>=`` or ``<`` and a minor version up to :data:`FLOOR`'s
are decided: a newer bound depends on the Python that runs the code, and stays undecided. The floor is a
constant, not the Python running lore, so an index never depends on the machine.
"""

from __future__ import annotations

import re
from typing import Any

from ...parsers import _ts
from ._expr import text

FLOOR = (3, 10)  # the oldest Python still supported: a bound up to it is met by every one of them
_TEST = re.compile(r"(?:sys\.)?version_info(?:\[:2\])?\s*(>=|<)\s*\(\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*\d+\s*)?,?\s*\)")
_DEFINITIONS = frozenset({"function_definition", "class_definition", "decorated_definition"})


def decided(condition: str) -> bool | None:
    """Whether every supported Python makes ``condition`` true (``True``) or false (``False``); ``None``
    when it is no version test or depends on the Python.

    Examples
    --------
    >>> decided("sys.version_info >= (3, 9)"), decided("sys.version_info < (3, 8)")
    (True, False)
    >>> decided("sys.version_info >= (3, 11)"), decided("sys.version_info[:2] >= (3, 10)"), decided("PY39")
    (None, True, None)
    """
    m = _TEST.fullmatch(condition.strip())
    if m is None or (int(m.group(2)), int(m.group(3))) > FLOOR:
        return None
    return m.group(1) == ">="


def mark_dead_branch(x: Any, node: _ts.Node) -> None:
    """For an ``if`` statement whose test :func:`decided`, add the start bytes of the definitions of the
    branch that never runs (the ``if`` block of a false test; the ``else`` block of a true one, when
    there is no ``elif``) to ``x.fallbacks``."""
    cond = node.child_by_field_name("condition")
    if cond is None or "version_info" not in text(cond, x.src):
        return
    holds = decided(text(cond, x.src))
    if holds is None:
        return
    alts = node.children_by_field_name("alternative")
    if holds:
        if len(alts) != 1 or alts[0].type != "else_clause":
            return
        block = alts[0].child_by_field_name("body")
    else:
        block = node.child_by_field_name("consequence")
    for stmt in block.named_children if block is not None else ():
        if stmt.type in _DEFINITIONS:
            x.fallbacks.add(stmt.start_byte)
