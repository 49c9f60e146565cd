"""The text of the hybrid ranker's ``why``: each item of :func:`lore.graphs.hybrid.explain` as a phrase, and a
row's one-line summary that says each fact once.

* the place signals (``line_near``, ``line_rank``, ``adjacent``) make one phrase: the distance once,
  with the order ("the 2nd nearest definition in the file", "just before / after it") only when the
  row is truly near (:data:`NEAR_RANK` definitions and :data:`NEAR_LINES` lines);
* shared neighbours are counted and named (at most two), singular for one;
* shared words are given as the explanation gathered them (the rarest that say something).
"""

from __future__ import annotations

from ..store.schema import NAME_GUESSES

_FIXED_TEXT = {"pagerank": "close in the call graph", "same_class": "same class", "same_file": "same file",
               "same_dir": "same directory", "package_near": "nearby package", "same_kind": "same kind",
               "shared_base": "same base / overrides the same method",
               "private_helper": "private helper of a public seed", "direct_call": "calls it or is called by it",
               "member": "defined inside it", "history_reach": "changes with what changes with it",
               "history_file": "its file changes with this one's"}

# resolutions that bind an edge by a name alone: a why naming such an edge says which
BY_NAME = NAME_GUESSES


def render(item: dict, name_of=None) -> str:
    """One item of :func:`explain` as text ("12 lines apart", "shares 3 callees (a, b)", "name tokens add/edge").

    ``name_of`` maps a row to a name (default ``#row``).

    Examples
    --------
    >>> render({"signal": "line_near", "detail": {"lines_apart": 12}})
    '12 lines apart'
    >>> render({"signal": "structure", "detail": {"callees": {"count": 3, "rows": [4, 9]}}}, {4: "a", 9: "b"}.get)
    'shares 3 callees (a, b)'
    >>> render({"signal": "history", "detail": {"together": 7, "commits": 12}})
    'changed together in 7 of 12 commits'
    >>> render({"signal": "direct_call", "detail": {"resolution": "name_only"}})
    'calls it or is called by it (name_only)'
    """
    name = item["signal"]
    if name == "direct_call" and (item.get("detail") or {}).get("resolution") in BY_NAME:
        # the edge was bound by a name alone (the basic tier's name_only, a guess): the why says so
        return f"{_FIXED_TEXT[name]} ({item['detail']['resolution']})"
    fixed = _FIXED_TEXT.get(name)
    if fixed is not None:
        return fixed
    detail = item.get("detail") or {}
    name_of = name_of or (lambda r: f"#{r}")
    if name in ("structure", "structure_abs"):
        parts = [f"shares {d['count']} {_one(label) if d['count'] == 1 else label} "
                 f"({', '.join(str(name_of(r)) for r in d['rows'])})" for label, d in detail.items()]
        return "; ".join(parts) or "similar neighbourhood"
    if name in _LINE_SIGNALS:
        return _place_text(name, detail)
    if name in ("name_tokens", "text", "text_abs", "decorators", "params"):
        label = {"name_tokens": "name tokens", "text": "shares words", "text_abs": "shares words", "decorators": "same decorators",
                 "params": "same parameters"}[name]
        words = detail.get("words") or []
        if not words:  # only words that say nothing (stop words, letters, digits) were shared
            return {"name_tokens": "similar name", "decorators": "similar decorators",
                    "params": "similar parameters"}.get(name, "similar words")
        return f"{label} {'/'.join(words)}"
    if name == "same_arity":
        return f"same number of parameters ({detail.get('parameters', '?')})"
    if name == "churn":
        return f"changed in {detail.get('changed', '?')} commits"
    if name in ("history", "history_count", "history_agrees"):
        return f"changed together in {detail.get('together', '?')} of {detail.get('commits', '?')} commits"
    return _FIXED_TEXT.get(name, name)


# the labels of _STRUCT_RELS for one neighbour
_ONE = {"callees": "callee", "callers": "caller", "types": "type", "bases": "base",
        "subclasses / overriders": "subclass / overrider"}


def _one(label: str) -> str:
    return _ONE.get(label, label)


_LINE_SIGNALS = ("line_near", "line_rank", "adjacent")
# "nearest" / "just before / after" are said only of a definition this close (in definitions of the file
# and in lines): the r-th nearest of a sparse file or the neighbour across a long function is not near
NEAR_RANK = 3
NEAR_LINES = 100


def _ordinal(r: int) -> str:
    return {1: "the nearest", 2: "the 2nd nearest", 3: "the 3rd nearest"}.get(r, f"the {r}th nearest")


def _near(detail: dict) -> bool:
    return int(detail.get("lines_apart", NEAR_LINES + 1)) <= NEAR_LINES


def _place_text(name: str, detail: dict) -> str:
    """The text of one line signal: the distance, or the order it stands for when the row is truly near.

    Examples
    --------
    >>> _place_text("line_rank", {"lines_apart": 12, "nearest": 2})
    'the 2nd nearest definition in the file'
    >>> _place_text("line_rank", {"lines_apart": 6574, "nearest": 1})
    '6574 lines apart'
    """
    lines = detail.get("lines_apart", "?")
    if name == "line_rank" and _near(detail) and int(detail.get("nearest", NEAR_RANK + 1)) <= NEAR_RANK:
        return f"{_ordinal(int(detail['nearest']))} definition in the file"
    if name == "adjacent" and _near(detail):
        return "the definition just before / after"
    return f"{lines} lines apart"


def _place_summary(items: list[dict]) -> str:
    """One phrase for all of a row's line signals: the distance once, with the order when truly near."""
    by = {it["signal"]: it.get("detail") or {} for it in items}
    detail = next(iter(by.values()))
    lines = detail.get("lines_apart", "?")
    if "adjacent" in by and _near(by["adjacent"]):
        return f"just before / after it ({lines} lines apart)"
    rank = by.get("line_rank")
    if rank is not None and _near(rank) and int(rank.get("nearest", NEAR_RANK + 1)) <= NEAR_RANK:
        return f"{_ordinal(int(rank['nearest']))} definition in the file ({lines} lines apart)"
    return f"{lines} lines apart"


def _summary(items: list[dict], texts: list[str]) -> str:
    """The row's one line: its positive contributions' texts, each fact once (the line signals in one
    phrase, at the place of the first)."""
    pos = [(it, t) for it, t in zip(items, texts, strict=True) if it["contribution"] > 0]
    place = [it for it, _t in pos if it["signal"] in _LINE_SIGNALS]
    out: list[str] = []
    for it, t in pos:
        if it["signal"] in _LINE_SIGNALS:
            if it is place[0]:
                out.append(_place_summary(place))
        else:
            out.append(t)
    return "; ".join(dict.fromkeys(out))


def why_texts(items: list[dict], name_of=None) -> tuple[list[str], str]:
    """(each item's text, the row's one-line summary): :func:`render` once per item, and the
    :func:`why_text` of those texts.

    Examples
    --------
    >>> why_texts([{"signal": "same_file", "contribution": 1.0}, {"signal": "same_kind", "contribution": -0.5}])
    (['same file', 'same kind'], 'same file')
    """
    texts = [render(it, name_of) for it in items]
    return texts, _summary(items, texts)


def why_text(items: list[dict], name_of=None) -> str:
    """One line of a row's positive contributions: "same file; 12 lines apart; shares 3 callees (...)".

    A text said once: two signals read from the same evidence (``structure`` and ``structure_abs``,
    ``text`` and ``text_abs``) render alike and appear once.

    Examples
    --------
    >>> why_text([{"signal": "text", "contribution": 0.5, "detail": {"words": ["add"]}},
    ...           {"signal": "text_abs", "contribution": 0.2, "detail": {"words": ["add"]}},
    ...           {"signal": "same_file", "contribution": 1.0}])
    'shares words add; same file'
    """
    return why_texts(items, name_of)[1]
