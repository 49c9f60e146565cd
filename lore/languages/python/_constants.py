"""Small constants: a plain name bound once, in its scope, to an int or str literal (``KEY = 1``,
``mode = "r"``), so that a container literal read with that name as its key (``handlers[KEY]()``)
gives the one slot the key selects instead of every slot.

Functions of the extractor (:class:`lore.languages.python._parser._Extractor`, ``x``). Every assignment
to a plain name is counted per scope (``x.assigned``); one from an int or str literal keeps the literal
(``x.literals``). After the walk, :func:`flush_constants` records each name assigned exactly once in its
scope, from a literal, as a binding of ``=name`` (:data:`CONST_PREFIX`) whose annotation is the literal
as a slot key (``1``, ``'r'``: :func:`lore.languages.python._expr.slot_key`). A name also rebound with
``+=``, ``:=``, ``global`` or ``nonlocal`` anywhere in the file records none, and a literal container
grown with ``+=`` gets an any-slot binding (``xs[*]``) that marks it changed. The resolver reads these
only for a key (:mod:`lore.index._keys`); a name whose binding it is records nothing else, as before.
"""

from __future__ import annotations

import re

from ...parsers import _ts
from ...parsers.records import Binding
from ._expr import slot_key

CONST_PREFIX = "="
# ``x += 1``, ``x := f()``, ``global x, y``: names rebound in a way the extractor does not record. The
# operators are searched first and the name read back from each (a pattern that starts at every name
# costs seven times as much: 1.7 s of CPU over Django)
_OPERATORS = re.compile(rb"(?://|\*\*|<<|>>|[-+*/%&|^@:])=(?!=)")
_NAME_BEFORE = re.compile(rb"[A-Za-z_]\w*\Z")
_DECLARED = re.compile(rb"(?:global|nonlocal)[ \t]+(\w+(?:[ \t]*,[ \t]*\w+)*)")
_AS = re.compile(rb"\bas[ \t]+([A-Za-z_]\w*)")  # with ... as x, except E as x (import ... as x binds no literal)
_KEYED = re.compile(r"\[\*([A-Za-z_]\w*)\]")  # d[*k]: a read keyed by the name k (lore.index._keys)


def note_assignment(x, owner: int, name: str, right: _ts.Node | None, line: int) -> None:
    """Count ``name = right`` in scope ``owner``; keep the literal when ``right`` is one."""
    key = (owner, name)
    x.assigned[key] = x.assigned.get(key, 0) + 1
    if right is not None and right.type in ("integer", "string"):
        lit = slot_key(right)
        if lit:
            x.literals[key] = (lit, line)


def rebound(source: bytes) -> set[str]:
    """The names ``source`` rebinds with an augmented assignment, ``:=``, ``global`` or ``nonlocal``.

    Examples
    --------
    >>> sorted(rebound(b"k += 1\\nif (m := f()): pass\\nglobal a, b\\nx == y; z <= 1; w != 2; d[k] = 1\\nwith f() as c: pass"))
    ['a', 'b', 'c', 'k', 'm']
    """
    out: set[str] = set()
    for m in _OPERATORS.finditer(source):
        name = _NAME_BEFORE.search(source[max(0, m.start() - 80):m.start()].rstrip(b" \t"))
        if name is not None:
            out.add(name.group(0).decode("ascii", "replace"))
    for m in _DECLARED.finditer(source):
        before = source[m.start() - 1:m.start()] if m.start() else b""
        if not (before.isalnum() or before == b"_"):  # not the tail of another name (my_global x)
            out.update(n.strip().decode("ascii", "replace") for n in m.group(1).split(b","))
    out.update(m.group(1).decode("ascii", "replace") for m in _AS.finditer(source))
    return out


def flush_constants(x) -> None:
    """Record the names bound once to a literal (see the module doc), after the walk, and mark each
    parameter read as a key that its function rebinds (see :func:`flush_rebound_params`)."""
    gone = flush_rebound_params(x)
    if not x.literals and not x.containers:
        return
    if gone is None:
        gone = rebound(x.source)
    for (owner, name), (lit, line) in x.literals.items():
        if x.assigned[(owner, name)] == 1 and name not in gone:
            x.pf.bindings.append(Binding(owner, CONST_PREFIX + name, line, annotation=lit))
    for owner, name in sorted(x.containers):
        if name in gone and "[" not in name:  # xs += [g]: any slot may hold what was added
            x.pf.bindings.append(Binding(owner, f"{name}[*]", 0))


def flush_rebound_params(x) -> set[str] | None:
    """A parameter read as a key (``ls[k]()``) that its function also rebinds (``k = k - 1``, ``k += 1``,
    ``with ... as k``, a loop target) gets a ``=k`` binding without a literal: the constants its callers
    pass (:mod:`lore.index._keys_params`) are not what the key holds. Returns the file's rebound names
    when it had to read them (``None`` when no read is keyed by a name)."""
    keyed: set[str] = set()
    for call in x.pf.calls:
        if "[*" in call.callee:
            keyed.update(_KEYED.findall(call.callee))
    for b in x.pf.bindings:
        if "[*" in b.alias_of or "[*" in b.value:
            keyed.update(_KEYED.findall(b.alias_of or b.value))
    if not keyed:
        return None
    gone = rebound(x.source)
    bound = {(b.owner, b.name) for b in x.pf.bindings if b.name in keyed}
    for owner, sym in enumerate(x.pf.symbols):
        for pname, _ann in sym.params if sym.kind == "function" else ():
            if pname in keyed and (pname in gone or (owner, pname) in x.assigned or (owner, pname) in bound):
                x.pf.bindings.append(Binding(owner, CONST_PREFIX + pname, sym.start_line))
    return gone
