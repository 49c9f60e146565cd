"""Did you mean: the indexed symbols closest to a name that is not a qualified name in the index.

A person types ``filter``, ``QuerySet.filter`` or ``Queryset.filtr``; the index knows
``django.db.models.query.QuerySet.filter``. Candidates come in three tiers, best first:

1. the qualified name ends with the given dotted name (``QuerySet.filter``, or ``filter`` itself);
2. the short name equals the given name's last part, any case (``queryset.Filter``);
3. the short name is within a small edit distance (about one typo per four characters, at least one),
   and then, for a dotted name, the same number of trailing parts of the qualified name too.

Within a tier: shorter qualified names first (closer to the package root), then lower ids. External
symbols (stdlib, third-party) are never proposed. The scan reads only (id, names, kind, place) and
computes each distinct short name's distance once, so it is quick enough for an error path on a
large index.
"""

from __future__ import annotations

import sqlite3

from ..store import read

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


def closest_symbols(conn: sqlite3.Connection, name: str, *, limit: int = MAX_CANDIDATES) -> tuple[list[dict], int]:
    """(up to ``limit`` candidates, how many symbols matched in all) for ``name`` (see the module docstring).

    Each candidate is ``{"id", "qualified_name", "kind", "at"}`` (``at`` = ``path:line``).
    """
    query = name.strip().lower()
    if not query:
        return [], 0
    parts = query.split(".")
    tail = parts[-1]
    budget = max(1, len(query) // 4)
    tail_budget = max(1, len(tail) // 4)
    short_cache: dict[str, int] = {}
    found: list[tuple[tuple, dict]] = []
    for row in read.iter_symbols(conn):
        qname = row.qualified_name.lower()
        short = row.name.lower()
        if qname == query or qname.endswith("." + query):
            tier: tuple = (0, 0)
        elif short == tail and len(parts) == 1:
            tier = (1, 0)
        elif short == tail:
            tier = (1, 1)
        else:
            if short not in short_cache:
                short_cache[short] = edit_distance(tail, short, tail_budget)
            if short_cache[short] > tail_budget:  # the last part is too far: so is the dotted name
                continue
            dist = short_cache[short]
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
    return [c for _, c in found[:limit]], len(found)


def did_you_mean_hint(conn: sqlite3.Connection, name: str) -> tuple[str, list[dict]]:
    """The hint of an unknown-symbol error for ``name`` and its candidates ('' when there are none)."""
    candidates, total = closest_symbols(conn, name)
    if not candidates:
        return "", []
    shown = ", ".join(f"{c['qualified_name']} (id {c['id']})" for c in candidates)
    more = f" and {total - len(candidates)} more" if total > len(candidates) else ""
    return f"did you mean {shown}{more}? (or find it with `lore search`, MCP: lore_search)", candidates
