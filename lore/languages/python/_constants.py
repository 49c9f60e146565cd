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
# costs seven times as much: 1.7 s of CPU over Django). Every branch starts with a literal character, so
# the search skips ahead to one of them (a character class as the last branch cost four times as much)
_OPERATORS = re.compile(rb"(?://|\*\*|<<|>>|-|\+|\*|/|%|&|\||\^|@|:)=(?!=)")
_NAME_BEFORE = re.compile(rb"[A-Za-z_]\w*\Z")
_DECLARED = re.compile(rb"(?:global|nonlocal)[ \t]+(\w+(?:[ \t]*,[ \t]*\w+)*)")
# with ... as x, except E as x (import ... as x binds no literal); the word boundary before ``as`` is
# checked by hand: a pattern that starts with ``\b`` is tried at every position (eight times the cost)
_AS = re.compile(rb"as[ \t]+([A-Za-z_]\w*)")
_KEYED = re.compile(r"\[\*([A-Za-z_]\w*)\]")  # d[*k]: a read keyed by the name k (lore.index._keys)


def note_assignment(x, owner: int, name: str, right: _ts.Node | None, line: int) -> None:
    """Count ``name = right`` in scope ``owner``; keep the literal when ``right`` is one."""
    key = (owner, name)
    x.assigned[key] = x.assigned.get(key, 0) + 1
    if right is not None and right.type in ("integer", "string"):
        lit = slot_key(right, x.src)
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
    if b"global" in source or b"nonlocal" in source:
        for m in _DECLARED.finditer(source):
            if not _after_word(source, m.start()):  # not the tail of another name (my_global x)
                out.update(n.strip().decode("ascii", "replace") for n in m.group(1).split(b","))
    pos = 0
    while (hit := _AS.search(source, pos)) is not None:
        if _after_word(source, hit.start()):  # has x, alias y: search again from the next character
            pos = hit.start() + 1
            continue
        out.add(hit.group(1).decode("ascii", "replace"))
        pos = hit.end()
    return out


def _after_word(source: bytes, at: int) -> bool:
    """Whether the byte before ``at`` is a word character (ASCII letter, digit, ``_``)."""
    before = source[at - 1:at] if at else b""
    return before.isalnum() or before == b"_"


def flush_constants(x) -> None:
    """Record the names bound once to a literal (see the module doc), after the walk, and mark each
    parameter read as a key that its function rebinds (see :func:`flush_rebound_params`)."""
    gone = flush_rebound_params(x)
    once = [(key, got) for key, got in x.literals.items() if x.assigned[key] == 1]
    grown = sorted(key for key in x.containers if "[" not in key[1])
    if not once and not grown:  # nothing the rebound names could decide: the source is not searched
        return
    if gone is None:
        gone = rebound(x.source)
    for (owner, name), (lit, line) in once:
        if name not in gone:
            x.pf.bindings.append(Binding(owner, CONST_PREFIX + name, line, annotation=lit))
    for owner, name in grown:
        if name in gone:  # xs += [g]: any slot may hold what was added
            x.pf.bindings.append(Binding(owner, f"{name}[*]", 0))


def flush_rebound_params(x) -> set[str] | None:
    """A parameter read as a key (``ls[k]()``) that its function also rebinds (``k = k - 1``, ``k += 1``,
    ``with ... as k``, a loop target) gets a ``=k`` binding without a literal: the constants its callers
    pass (:mod:`lore.index._keys_params`) are not what the key holds. Returns the file's rebound names
    when it had to read them (``None`` when no read is keyed by a name)."""
    # one search over the joined texts (a test of each text cost a third of a second over Django)
    keyed = set(_KEYED.findall("\n".join([call.callee for call in x.pf.calls]
                                          + [b.alias_of or b.value for b in x.pf.bindings])))
    if not keyed:
        return None
    gone = rebound(x.source)
    bound = {(b.owner, b.name) for b in x.pf.bindings if b.name in keyed}
    for owner, sym in enumerate(x.pf.symbols):
        for pname, _ann in sym.params if sym.kind == "function" else ():
            if pname in keyed and (pname in gone or (owner, pname) in x.assigned or (owner, pname) in bound):
                x.pf.bindings.append(Binding(owner, CONST_PREFIX + pname, sym.start_line))
    return gone
