"""Direct edges of one symbol: what it calls, who calls it, its file's imports, its class hierarchy.

Each function returns ``(rows, total, note)``: the rows to show (at most ``limit``), how many there
were, and a note when there are none. Every row is a symbol row (see :func:`~lore.queries._shape.symbol_dict`)
with ``score`` and ``why`` (resolution, lines, statement or relation); names that resolved to no
symbol are kept as ``unresolved`` rows.
"""

from __future__ import annotations

from ..errors import InvalidArgumentError, UnknownAlgorithmError
from ..store import read
from ._index import OpenIndex
from ._shape import UNKNOWN_ID, symbol_dict, unresolved_dict

Rows = tuple[list[dict], int, str]


def calls(index: OpenIndex, sid: int, kind: str, limit: int, kinds: tuple[str, ...] | None,
          include_tests: bool) -> Rows:
    """What ``sid`` calls (``kind='call'``) or who calls it (``'callers'``), one row per other symbol.

    A row's score is the sum of the confidences of its call sites; ``why.call_lines`` lists their
    lines. Callers in test code are left out unless ``include_tests``.
    """
    raw = read.calls_from(index.conn, sid) if kind == "call" else read.calls_to(index.conn, sid)
    roles = read.symbol_roles(index.conn, [c.other_id for c in raw if c.other_id is not None])
    # group first, build row dicts only for the rows shown (kfree has 26k callers; a page shows 20)
    groups: dict[tuple, list] = {}  # key -> [score, call lines, first call]
    for c in raw:
        key = (c.other_id, c.callee_name if c.other_id is None else None)
        g = groups.get(key)
        if g is None:
            role = roles.get(c.other_id) if c.other_id is not None else None
            if role is not None and ((kinds and role[0] not in kinds) or
                                     (not include_tests and role[1] and kind == "callers")):
                continue
            g = groups[key] = [0.0, [], c]
        g[0] = round(g[0] + c.confidence, 4)
        if c.line not in g[1]:
            g[1].append(c.line)

    def order(item: tuple[tuple, list]) -> tuple:
        (oid, name), g = item
        return (-g[0], oid if oid is not None else UNKNOWN_ID, name.rsplit(".", 1)[-1] if oid is None else "")

    page = sorted(groups.items(), key=order)[:limit]
    info = read.symbols_by_ids(index.conn, [oid for (oid, _n), _g in page if oid is not None])
    rows = []
    for (oid, _name), (score, lines, c) in page:
        row = info.get(oid) if oid is not None else None
        d = symbol_dict(row) if row is not None else unresolved_dict(c.callee_name.rsplit(".", 1)[-1])
        d["score"] = score
        d["why"] = {"resolution": c.resolution, "call_lines": lines, "callee_name": c.callee_name, "call_kind": c.kind}
        rows.append(d)
    note = "" if rows else ("no calls recorded for this symbol" if kind == "call" else "nothing in the index calls this symbol")
    return rows, len(groups), note


def _file_of(index: OpenIndex, sid: int) -> int:
    row = read.symbols_by_ids(index.conn, [sid])[sid]
    if row.file_id is None:
        raise InvalidArgumentError(f"symbol {sid} is external: it has no file and no imports")
    return row.file_id


def imports(index: OpenIndex, sid: int, direction: str, limit: int) -> Rows:
    """The imports of the file defining ``sid`` (``direction='out'``) or the modules importing it (``'in'``)."""
    if direction not in ("out", "in"):
        raise UnknownAlgorithmError(direction, ("out", "in"), what="import direction")
    fid = _file_of(index, sid)
    rows: list[dict] = []
    if direction == "out":
        raw = read.imports_of_file(index.conn, fid)
        info = read.symbols_by_ids(index.conn, [i.target_id for i in raw if i.target_id is not None])
        for i in raw:
            row = info.get(i.target_id) if i.target_id is not None else None
            d = symbol_dict(row) if row else unresolved_dict(i.name or i.module)
            d["score"] = i.confidence
            d["why"] = {"resolution": i.resolution, "import_line": i.line,
                        "statement": ("." * i.level) + i.module + (f" import {i.name}" if i.name else "")
                        + (f" as {i.alias}" if i.alias else "")}
            rows.append(d)
    else:
        raw_in = read.importers_of_file(index.conn, fid)
        mod_of = read.module_symbols_by_file(index.conn)
        info = read.symbols_by_ids(index.conn, [mod_of[m.file_id] for m in raw_in if m.file_id in mod_of])
        seen: set[int] = set()
        for imp in raw_in:
            msid = mod_of.get(imp.file_id)
            if msid is None or msid in seen:
                continue
            seen.add(msid)
            d = symbol_dict(info[msid])
            d["score"] = imp.confidence
            d["why"] = {"resolution": imp.resolution, "import_line": imp.line,
                        "statement": imp.module + (f" import {imp.name}" if imp.name else "")}
            rows.append(d)
    total = len(rows)
    return rows[:limit], total, "" if rows else "no imports recorded"


_CLASS_LINKS = ("extends", "implements", "embeds")


def inheritance(index: OpenIndex, sid: int, direction: str, limit: int, kinds: tuple[str, ...] | None) -> Rows:
    """Base classes (``direction='out'``), subclasses (``'in'``) or both, transitively, and overrides.

    Rows are ordered by depth, then score (the link's confidence over its depth), then id.
    """
    if direction not in ("out", "in", "both"):
        raise UnknownAlgorithmError(direction, ("out", "in", "both"), what="inheritance direction")
    found: dict[int | str, dict] = {}
    for outgoing, label in ((True, "base"), (False, "subclass")):
        if (direction == "out" and not outgoing) or (direction == "in" and outgoing):
            continue
        frontier = [(sid, 0)]
        visited = {sid}
        while frontier:
            nxt = []
            for node, depth in frontier:
                for r in read.relationships(index.conn, node, outgoing=outgoing, kinds=_CLASS_LINKS):
                    why = {"relation": label, "kind": r.kind, "depth": depth + 1, "resolution": r.resolution}
                    if r.other_id is None:
                        key: int | str = f"?{r.target_name}"
                        if key not in found:
                            found[key] = {**unresolved_dict(r.target_name), "score": 0.0, "why": why}
                        continue
                    if r.other_id in visited:
                        continue
                    visited.add(r.other_id)
                    found[r.other_id] = {"score": round(r.confidence / (depth + 1), 4), "why": why}
                    nxt.append((r.other_id, depth + 1))
            frontier = nxt
    # methods this symbol overrides / that override it
    for outgoing, label in ((True, "overrides"), (False, "overridden_by")):
        if direction == ("in" if outgoing else "out"):
            continue
        for r in read.relationships(index.conn, sid, outgoing=outgoing, kinds=("overrides",)):
            if r.other_id is not None and r.other_id not in found:
                found[r.other_id] = {"score": r.confidence,
                                     "why": {"relation": label, "kind": r.kind, "depth": 1, "resolution": r.resolution}}
    info = read.symbols_by_ids(index.conn, [k for k in found if isinstance(k, int)])
    rows = []
    for k, v in found.items():
        if isinstance(k, int):
            row = info.get(k)
            if row is None or (kinds and row.kind not in kinds):
                continue
            d = symbol_dict(row)
            d["score"], d["why"] = v["score"], v["why"]
            rows.append(d)
        else:
            rows.append(v)
    rows.sort(key=lambda d: (d["why"]["depth"], -d["score"], d["id"] if d["id"] is not None else UNKNOWN_ID))
    return rows[:limit], len(rows), "" if rows else "no base classes or subclasses recorded"
