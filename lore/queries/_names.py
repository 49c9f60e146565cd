"""Did you mean: the indexed symbols closest to a name that is not a qualified name in the index.

A person types ``filter``, ``QuerySet.filter`` or ``Queryset.filtr``; the index knows
``django.db.models.query.QuerySet.filter``. Candidates come in three tiers, best first:

1. the qualified name ends with the given dotted name (``QuerySet.filter``, or ``filter`` itself);
2. the short name equals the given name's last part, any case (``queryset.Filter``);
3. the short name is within a small edit distance (about one typo per four characters, at least one),
   and then, for a dotted name, the same number of trailing parts of the qualified name too.

Within a tier: shorter qualified names first (closer to the package root), then lower ids. External
symbols (stdlib, third-party) are never proposed. Nothing scans the symbols: the short names close to
the given one come from indexes of the store (:func:`near_names`), and only those get an edit
distance, so an unknown name is answered in milliseconds on an index of a million symbols
(``benchmarks/perf/bench_names.py``).
"""

from __future__ import annotations

import sqlite3

from ..store import names as store_names

MAX_CANDIDATES = 5


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of ``a`` and ``b``, or ``limit + 1`` as soon as it must exceed ``limit``.

    >>> edit_distance("filtr", "filter", 2), edit_distance("abc", "xyz", 1)
    (1, 2)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i] + [0] * len(b)
        best = i
        for j, cb in enumerate(b, start=1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            best = min(best, cur[j])
        if best > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def ascii_lower(text: str) -> str:
    """``text`` with A-Z lowered and every other character kept: what SQLite's ``lower()`` does.

    >>> ascii_lower("QuerySet.Ünïcode")
    'queryset.Ünïcode'
    """
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_$"
SHORT = 5  # names up to this long: every name one edit away is spelled out and looked up


def one_edit_away(word: str) -> set[str]:
    """Every string one deletion, substitution or insertion away from ``word`` (lowercase identifier
    characters, and those of ``word`` itself).

    >>> sorted(w for w in one_edit_away("ab") if len(w) < 2)
    ['a', 'b']
    >>> len(one_edit_away("get")) > 200, "gt" in one_edit_away("get"), "gets" in one_edit_away("get")
    (True, True, True)
    """
    letters = sorted(set(_ALPHABET) | set(word))
    out = {word[:i] + word[i + 1 :] for i in range(len(word))}
    for i in range(len(word) + 1):
        for c in letters:
            out.add(word[:i] + c + word[i:])
            if i < len(word):
                out.add(word[:i] + c + word[i + 1 :])
    out.discard(word)
    return out


def near_names(conn: sqlite3.Connection, tail: str, budget: int) -> dict[str, int]:
    """The lowercased short names of the index within ``budget`` edits of ``tail`` (lowercase), with
    their distance (``tail`` itself at 0 when some symbol has it).

    Candidates come from indexes, never from a scan: up to :data:`SHORT` characters, every name one
    edit away is spelled out and looked up; a longer name's candidates are the names of a close
    length that share its first half (a range of ``symbols_name_lower``) or its second half (by the
    last three characters, ``symbols_name_tail``). That is every name within one edit; a name two or
    more edits away is found when its edits all fall in one half.
    """
    if len(tail) <= SHORT:
        pool = {tail, *one_edit_away(tail)} if budget >= 1 else {tail}
        got = store_names.lower_names_in(conn, pool)
    else:
        lo, hi = len(tail) - budget, len(tail) + budget
        half = len(tail) // 2
        got = set(store_names.lower_names_with_prefix(conn, tail[:half], lo, hi))
        end = tail[half:]
        got.update(n for n in store_names.lower_names_with_tail(conn, tail[-3:], lo, hi) if n.endswith(end))
        got.update(store_names.lower_names_in(conn, [tail]))
    out = {}
    for n in got:
        d = 0 if n == tail else edit_distance(tail, n, budget)
        if d <= budget:
            out[n] = d
    return out


ROWS_EXAMINED = 2000  # of the near names' symbols, the shortest qualified names are ranked; the rest counted


def closest_symbols(conn: sqlite3.Connection, name: str, *, limit: int = MAX_CANDIDATES) -> tuple[list[dict], int]:
    """(up to ``limit`` candidates, how many symbols matched in all) for ``name`` (see the module docstring).

    Each candidate is ``{"id", "qualified_name", "kind", "at"}`` (``at`` = ``path:line``). Of a very
    common short name, the symbols whose qualified name ends with ``name`` and the
    :data:`ROWS_EXAMINED` with the shortest qualified names are ranked; the total counts them all.
    """
    query = ascii_lower(name.strip())
    if not query:
        return [], 0
    parts = query.split(".")
    tail = parts[-1]
    budget = max(1, len(query) // 4)
    tail_budget = max(1, len(tail) // 4)
    near = near_names(conn, tail, tail_budget)
    if not near:
        return [], 0
    rows = store_names.name_rows_by_lower_names(conn, near, limit=ROWS_EXAMINED)
    more = 0
    if len(rows) == ROWS_EXAMINED:  # a common name: the exact suffix matches may lie past the shortest
        seen = {r.id for r in rows}
        rows += [r for r in store_names.name_rows_ending_with(conn, tail, query) if r.id not in seen] if tail in near else []
        more = store_names.count_by_lower_names(conn, near) - len(rows)
    found: list[tuple[tuple, dict]] = []
    for row in rows:
        qname = ascii_lower(row.qualified_name)
        short = qname.rsplit(".", 1)[-1]
        if qname == query or qname.endswith("." + query):
            tier: tuple = (0, 0)
        elif short == tail and len(parts) == 1:
            tier = (1, 0)
        elif short == tail:
            tier = (1, 1)
        else:
            dist = near[short] if short in near else edit_distance(tail, short, tail_budget)
            if dist > tail_budget:  # the last part is too far: so is the dotted name
                continue
            if len(parts) > 1:  # compare the same number of trailing parts: 'orders.Ordr.amount'
                theirs = ".".join(qname.split(".")[-len(parts) :])
                dist = min(dist + 1, edit_distance(query, theirs, budget))
            if dist > budget:
                continue
            tier = (2, dist)
        found.append(((*tier, len(row.qualified_name), row.id), {
            "id": row.id,
            "qualified_name": row.qualified_name,
            "kind": row.kind,
            "at": f"{row.path}:{row.line}" if row.path else None,
        }))  # fmt: skip
    found.sort(key=lambda item: item[0])
    return [c for _, c in found[:limit]], len(found) + max(0, more)


def did_you_mean_hint(conn: sqlite3.Connection, name: str) -> tuple[str, list[dict]]:
    """The hint of an unknown-symbol error for ``name`` and its candidates ('' when there are none)."""
    candidates, total = closest_symbols(conn, name)
    if not candidates:
        return "", []
    shown = ", ".join(f"{c['qualified_name']} (id {c['id']})" for c in candidates)
    more = f" and {total - len(candidates)} more" if total > len(candidates) else ""
    return f"did you mean {shown}{more}? (or find it with `lore search`, MCP: lore_search)", candidates
