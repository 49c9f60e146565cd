"""Output shaping shared by the queries: symbol rows as dicts, limits, compact rows, token budgets."""

from __future__ import annotations

import json

from ..errors import InvalidArgumentError
from ..store.read import SymbolHead, SymbolRow

MAX_LIMIT = 1000
UNKNOWN_ID = 1 << 62  # sorts rows without a symbol id (unresolved names) after every real id


def symbol_dict(row: SymbolRow | SymbolHead) -> dict:
    """The identifying fields every result row starts with.

    Examples
    --------
    >>> from lore.store.read import SymbolHead
    >>> symbol_dict(SymbolHead(7, "get", "pkg.api.get", "function", "pkg/api.py", 3, 9))
    {'id': 7, 'name': 'get', 'qualified_name': 'pkg.api.get', 'kind': 'function', 'path': 'pkg/api.py', 'line': 3}
    """
    return {"id": row.id, "name": row.name, "qualified_name": row.qualified_name, "kind": row.kind,
            "path": row.path, "line": row.line}


def unresolved_dict(name: str) -> dict:
    """A result row for a name that resolved to no symbol."""
    return {"id": None, "name": name, "qualified_name": None, "kind": "unresolved", "path": None, "line": None}


def check_limit(limit: int) -> int:
    """``limit`` checked to be a positive integer, capped at :data:`MAX_LIMIT`."""
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise InvalidArgumentError(f"limit must be a positive integer, got {limit!r}")
    return min(limit, MAX_LIMIT)


def compact_row(r: dict) -> dict:
    """A result row with fewer fields (for agents): id, qualified name, kind, ``path:line``, score, short why.

    Examples
    --------
    >>> compact_row({"id": 7, "name": "get", "qualified_name": None, "kind": "function", "path": "a.py",
    ...              "line": 3, "score": 1.0, "why": {"resolution": "import", "call_lines": [3]}})
    {'id': 7, 'qualified_name': 'get', 'kind': 'function', 'at': 'a.py:3', 'score': 1.0, 'why': {'resolution': 'import'}}
    """
    loc = f"{r['path']}:{r['line']}" if r.get("path") else None
    out = {"id": r["id"], "qualified_name": r["qualified_name"] or r["name"], "kind": r["kind"], "at": loc,
           "score": r["score"]}
    why = r.get("why")
    if isinstance(why, dict):
        out["why"] = {k: v for k, v in why.items() if k in ("resolution", "shared", "path", "cluster", "relation", "via")}
    return out


def fit_tokens(out: dict, max_tokens: int) -> None:
    """Drop result rows from the end until the JSON is about ``max_tokens`` tokens (4 chars each).

    Examples
    --------
    >>> out = {"results": [{"n": i} for i in range(10)], "truncated": False}
    >>> fit_tokens(out, 10); len(out["results"]), out["truncated"]
    (1, True)
    """
    if max_tokens < 1:
        raise InvalidArgumentError(f"max_tokens must be positive, got {max_tokens}")
    budget = max_tokens * 4
    rows = out["results"]
    while rows and len(json.dumps(out, separators=(",", ":"))) > budget:
        rows.pop()
        out["truncated"] = True
