"""How well the best row matched: the score that says when nothing matched well.

Search scores are normalised (the best row scores 1), so they rank rows but cannot say whether the best
one is any good: a query whose only known word is ``connection`` still gets a row at 1.0. ``match``
says it from the words. Each query term weighs its idf in the index (``log(1 + (N - n + 0.5) / (n +
0.5))``, the weight BM25 gives it); a term no row holds weighs as much as the rarest term can. Below
``WEAK_SHARE`` (half) of the query's weight the answer is ``weak``:

* a short query: the ``share`` is the part of its weight the best keyword row holds (``basis: "best
  row"``): the best row lacks most of what the query names;
* a report (:mod:`lore.search.longquery`): the part of the weight of its code words (identifiers, file
  names, traceback frames, each times its evidence weight; all its words when it names no code) that
  the index holds at all (``basis: "index"``). A report's prose holds many words no code does, and its
  best row holds a fifth of its informative words whether it is about this code or not; but a report
  about this code names this code's identifiers. On the 35 tuning reports of ``lore bench localize``
  against their own repository at the base commit none is weak; the same 35 reports against another
  of the five repositories (a report about other code), 19 are weak.

Examples
--------
>>> share_of([("proxy",), ("kubernetes",)], {("proxy",): 2.0, ("kubernetes",): 6.0}, [True, False])
0.25
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

from ..store import search as store
from .bm25 import Term, doc_frequencies, match_expression, parse_query
from .longquery import IDENTIFIER_WEIGHT, is_long, weighted_terms

WEAK_SHARE = 0.5
SHOWN = 8  # held / missing terms listed (the share counts them all)


def share_of(terms: Sequence[Term], weight: dict[Term, float], held: Sequence[bool]) -> float:
    """The share of the terms' total weight held (0 when they weigh nothing)."""
    total = sum(weight[t] for t in terms)
    return round(sum(weight[t] for t, h in zip(terms, held, strict=True) if h) / total, 4) if total > 0 else 0.0


def match_quality(conn: sqlite3.Connection, table: str, query: str, best: int | None) -> dict:
    """``{"share", "weak", "basis", "held", "missing"}`` of a query over ``table`` (``symbols_fts`` or
    ``files_fts``) whose best keyword row is ``best`` (None: no row has any term)."""
    long_query = is_long(query)
    if long_query:
        weighted = weighted_terms(query)
        code = [(t, w) for t, w in weighted if w >= IDENTIFIER_WEIGHT]
        terms = [t for t, _w in code or weighted]
        mult = {t: float(w) for t, w in code or weighted}
    else:
        terms = parse_query(query)
        mult = {t: 1.0 for t in terms}
    n, df = doc_frequencies(conn, table, [tok for t in terms for tok in t])
    n = max(n, 1)
    freq = {t: min(df[tok] for tok in t) for t in terms}
    weight = {t: mult[t] * math.log(1 + (n - freq[t] + 0.5) / (freq[t] + 0.5)) for t in terms}
    if long_query:
        held = [freq[t] > 0 for t in terms]
    elif best is not None and terms:
        held = store.terms_held(conn, table, best, [match_expression([t]) for t in terms])
    else:
        held = [False] * len(terms)
    share = share_of(terms, weight, held)
    by_weight = sorted(range(len(terms)), key=lambda k: (-weight[terms[k]], k))
    return {
        "share": share,
        "weak": share < WEAK_SHARE,
        "basis": "index" if long_query else "best row",
        "held": [" ".join(terms[k]) for k in by_weight if held[k]][:SHOWN],
        "missing": [" ".join(terms[k]) for k in by_weight if not held[k]][:SHOWN],
    }


def weak_note(match: dict, what: str = "symbol") -> str:
    """The envelope's ``weak`` message.

    >>> weak_note({"share": 0.25, "basis": "best row", "held": ["proxy"], "missing": ["kubernetes"]})
    "nothing matched well: the best symbol holds 25% of the query's weight (missing: kubernetes)"
    >>> weak_note({"share": 0.1, "basis": "index", "held": [], "missing": ["flask", "blueprint"]})
    "nothing matched well: the index holds 10% of the report's code words' weight (missing: flask, blueprint)"
    """
    missing = ", ".join(match["missing"][:3])
    if match["share"] == 0 and match.get("basis") != "index":
        return f"nothing matched: no {what} holds a word of the query"
    if match.get("basis") == "index":
        head = f"the index holds {round(100 * match['share'])}% of the report's code words' weight"
    else:
        head = f"the best {what} holds {round(100 * match['share'])}% of the query's weight"
    return "nothing matched well: " + head + (f" (missing: {missing})" if missing else "")
