"""Which assignments a read may see, given the branches of an ``if`` statement they were made in
(``Binding.shut``, filled by a language's parser: Python's ``lore.languages.python._branches``)."""

from __future__ import annotations

from ..parsers.records import CONTEXT_MARK


def reaches(shut: tuple[int, ...], line: int, cands: list[tuple[int, str, object]]) -> bool:
    """Whether an assignment whose ``Binding.shut`` is ``shut`` may be what a read on ``line`` sees,
    among the candidates ``cands`` of its scope: not when the read is in a later branch of a statement
    the assignment was made in, unless a loop around the statement may carry it there (no assignment of
    the name made on every path between the loop's start and the statement).

    Examples
    --------
    >>> from lore.parsers.records import Binding
    >>> reaches((4, 7, 0, 2), 6, []), reaches((4, 7, 0, 2), 8, [])
    (False, True)
    >>> reaches((4, 7, 1, 2), 6, [])  # a loop: the branch's value may come round
    True
    >>> reaches((4, 7, 1, 2), 6, [(1, "bind", Binding(1, "x", 1))])  # ``for x in xs``: it does not
    False
    """
    for i in range(0, len(shut), 4):
        lo, hi, loop, start = shut[i:i + 4]
        if lo <= line <= hi and (not loop or any(
                loop <= d[0] < start and d[1] == "bind" and not (0 < d[2].branch_end < hi)  # type: ignore[attr-defined]
                for d in cands)):
            return False
    return True


def shuts(shut: tuple[int, ...], line: int) -> bool:
    """Whether ``line`` is in a later branch of an ``if`` statement the assignment whose ``Binding.shut``
    is ``shut`` was made in (the two are alternatives: one of them runs).

    Examples
    --------
    >>> shuts((4, 7, 0, 2), 5), shuts((4, 7, 0, 2), 3), shuts((), 5)
    (True, False, False)
    """
    return any(shut[i] <= line <= shut[i + 1] for i in range(0, len(shut), 4))


def narrowed_only(cands: list[tuple[int, str, object]]) -> bool:
    """Whether every candidate of an ``obj.attr`` path in a scope is an ``isinstance`` narrowing."""
    return all(cand[1] == "narrow" for cand in cands)


def reaching(cands: list[tuple[int, str, object]], line: int) -> list[tuple[int, str, object]]:
    """The candidates a use on ``line`` may see: without the assignments of an ``if`` statement's other
    branches when the use is in a later branch (``Binding.shut``; :func:`reaches`)."""
    return [cand for cand in cands
            if cand[1] != "bind" or not cand[2].shut or reaches(cand[2].shut, line, cands)]  # type: ignore[attr-defined]


def by_use_line(cands: list[tuple[int, str, object]] | tuple) -> bool:
    """Whether which of a name's candidates in one scope counts depends on the line of the use: several
    bindings, a narrowing that holds in its branch only, or an assignment its sibling branches do not
    see. The memos of top-level lookups skip these."""
    return len(cands) > 1 or (len(cands) == 1 and (cands[0][1] == "narrow"
                                                   or cands[0][1] == "bind" and bool(cands[0][2].shut)))  # type: ignore[union-attr]


def before_callback(cands: list[tuple[int, str, object]] | None, path: str, line: int) -> float:
    """The line to read ``path``'s first name at: just before the parameter of a callback written on
    ``line`` when the callback takes that name and ``path`` is what it is given to
    (``options.interceptors.push((options) => options.next())``: the callee and the parameter's contextual
    type read the outer ``options``; the parameter, a binding that holds from its own line on, would
    otherwise stand for itself). ``cands``: the name's candidates in the scope.

    Examples
    --------
    >>> from lore.parsers.records import Binding
    >>> b = Binding(1, "options", 18, alias_of="options.xs.push#arg0#param0", until=20)
    >>> [before_callback([(18, "narrow", b)], p, 18) for p in ("options.xs.push", "options.xs", "options.next")]
    [17.5, 17.5, 18]
    >>> before_callback([(18, "narrow", b)], "options.xs.push", 19)
    19
    """
    for cand in cands or ():
        if cand[0] == line and cand[1] == "narrow":
            spec = getattr(cand[2], "alias_of", "")
            if CONTEXT_MARK in spec and (spec.split(CONTEXT_MARK, 1)[0] + ".").startswith(path + "."):
                return line - 0.5
    return line
