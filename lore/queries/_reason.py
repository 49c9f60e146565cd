"""A result row's ``why`` as one line for an agent (at most :data:`MAX_REASON` characters).

The line is read from the ``why`` the query produced (the ranker's own summary, the shared neighbours,
the walk path, the call-site resolution), never recomputed, so it says what placed the row.
"""

from __future__ import annotations

from ..store.schema import NAME_GUESSES

MAX_REASON = 100
_BY_NAME = NAME_GUESSES  # edges bound by a name alone


def _short(name: object) -> str:
    """The last two parts of a qualified name ('Item.__init__' for 'shop.models.Item.__init__')."""
    return ".".join(str(name).split(".")[-2:])


def _clip(text: str, limit: int = MAX_REASON) -> str:
    """``text`` cut to ``limit`` characters at a '; ' or ', ' boundary when one is near, else with '…'."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for sep in ("; ", ", "):
        at = cut.rfind(sep)
        if at >= limit // 2:
            return cut[:at] + "…"
    return cut.rstrip() + "…"


def _shared(shared: list[dict]) -> str:
    by: dict[str, list[str]] = {}
    for s in shared:
        by.setdefault(str(s.get("relation", "shared")), []).append(_short(s.get("name")))
    return "shares " + "; ".join(f"{rel} {', '.join(names[:2])}" for rel, names in by.items())


def reason(why: object, *, relation: str | None = None) -> str:
    """One line (<= 100 characters) from a row's ``why``; ``''`` when the row has none.

    ``relation`` is the query that produced the row (``call``, ``callers``, ``import``, ...), which
    says how to read a call-site ``why``.

    Examples
    --------
    >>> reason({"resolution": "import", "call_lines": [22, 30], "callee_name": "Item"}, relation="call")
    'called at line 22, 30 (import)'
    >>> reason({"resolution": "import", "call_lines": [14]}, relation="callers")
    'calls it at line 14 (import)'
    >>> reason({"shared": [{"relation": "callees", "name": "a.b.f"}, {"relation": "callees", "name": "a.g"}]})
    'shares callees b.f, a.g'
    >>> reason({"shared": []})
    'weak overlap (no shared neighbour listed)'
    >>> reason({"path": ["m.f", "m", "m.g"], "stderr": 0.001})
    'path m.f -> m -> m.g; ±0.001'
    >>> reason({"path": ["a.f", "b.g"], "hops": [{"to": "b.g", "edge": "calls", "resolution": "name_only"}]})
    'path a.f -> b.g (name_only)'
    >>> len(reason({"summary": "shares 4 callees (a, b); " * 10})) <= 100
    True
    """
    if isinstance(why, str):
        return _clip(why)
    if not isinstance(why, dict) or not why:
        return ""
    parts: list[str] = []
    if why.get("summary"):  # the hybrid ranker's own one-line summary
        parts.append(str(why["summary"]))
    if why.get("call_lines"):
        lines = ", ".join(str(n) for n in why["call_lines"][:5])
        verb = "calls it" if relation == "callers" else "called"
        parts.append(f"{verb} at line {lines} ({why.get('resolution', '?')})")
    elif "import_line" in why:
        parts.append(f"import at line {why['import_line']}: {why.get('statement', '')} ({why.get('resolution', '?')})")
    elif why.get("relation") and "depth" in why:
        parts.append(f"{why['relation']} ({why.get('kind', '?')}, depth {why['depth']})")
    if why.get("shared"):
        parts.append(_shared(why["shared"]))
    if why.get("path") and not why.get("summary"):
        # an edge of the path bound by a name alone (the basic tier's ``name_only``, a heuristic guess) says so
        guessed = sorted({str(h.get("resolution")) for h in why.get("hops") or () if h.get("resolution") in _BY_NAME})
        parts.append("path " + " -> ".join(_short(p) for p in why["path"]) + (f" ({', '.join(guessed)})" if guessed else ""))
    if "cluster" in why and why.get("label"):
        parts.append(f"cluster {why['cluster']} '{why['label']}'")
    if why.get("via"):
        parts.append(f"via {_short(why['via'])}")
    if "stderr" in why:
        parts.append(f"±{why['stderr']}")
    if not parts and why.get("resolution"):
        parts.append(str(why["resolution"]))
    if not parts and "shared" in why:  # overlap listed no neighbour for it: a weak, indirect overlap
        parts.append("weak overlap (no shared neighbour listed)")
    return _clip("; ".join(parts))
