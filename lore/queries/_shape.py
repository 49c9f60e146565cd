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


# why keys kept in compact rows; stderr: the Monte-Carlo standard error of the score (pagerank_mc)
_COMPACT_WHY = ("resolution", "shared", "path", "cluster", "relation", "via", "stderr")


def compact_row(r: dict) -> dict:
    """A result row with fewer fields (for agents): id, qualified name, kind, ``path:line``, score, short why.

    The short why keeps what places the row (resolution, shared neighbours, walk path, cluster,
    relation, via) and, for Monte-Carlo PageRank, ``stderr``: the standard error of the score. A row
    folded from several copies of one definition keeps ``also_at``, their places.

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
        out["why"] = {k: v for k, v in why.items() if k in _COMPACT_WHY}
    if r.get("also_at"):  # the row's other copies (stubs, @overload signatures): lore.graphs._fold
        out["also_at"] = r["also_at"]
    return out


_KEEP = frozenset({"id", "chunk_id", "qualified_name", "name", "kind", "at", "path", "line", "score", "cluster"})


def _size(out: dict) -> int:
    return len(json.dumps(out, separators=(",", ":"), ensure_ascii=False, default=str))


def _trim_row(out: dict, row: dict, budget: int) -> bool:
    """Shorten one row until ``out`` fits ``budget`` characters: the bulkiest field first (long text cut
    with an ellipsis, anything else dropped), never the fields that name the row. True if it changed."""
    changed = False
    while _size(out) > budget:
        bulky = [(len(json.dumps(v, default=str)), k) for k, v in row.items() if k not in _KEEP]
        if not bulky:
            break
        _n, key = max(bulky)
        value = row[key]
        excess = _size(out) - budget
        if isinstance(value, str) and len(value) > 40:
            row[key] = value[: max(20, len(value) - excess - 1)] + "…"
        else:
            del row[key]
        changed = True
    return changed


def fit_tokens(out: dict, max_tokens: int) -> None:
    """Keep as many result rows as fit in about ``max_tokens`` tokens (4 characters each), at least one.

    Rows are dropped from the end; if the first row alone is still too big, its bulkiest fields are
    shortened (long text cut with an ellipsis, explanations dropped; id, name, kind, place and score
    stay) and it says ``"trimmed": true``. Whenever the budget cut something, ``truncated`` is true
    and ``truncated_by`` is ``"max_tokens"``: the option to raise (``--max-tokens`` on the CLI), not
    ``limit``. The envelope itself is never cut, so a tiny budget can still be exceeded by it.

    Examples
    --------
    >>> out = {"results": [{"id": i, "why": "x" * 200} for i in range(10)], "truncated": False}
    >>> fit_tokens(out, 60); len(out["results"]), out["truncated"], out["truncated_by"]
    (1, True, 'max_tokens')
    >>> fit_tokens(out, 30); out["results"][0]["id"], out["results"][0]["trimmed"], len(out["results"][0].get("why", "")) < 200
    (0, True, True)
    """
    if max_tokens < 1:
        raise InvalidArgumentError(f"max_tokens must be positive, got {max_tokens}")
    # the marker a cut adds counts in the budget too (',"truncated_by":"max_tokens"', and true for false)
    budget = max_tokens * 4 - len(',"truncated_by":"max_tokens"') - 1
    rows = out.get("results")
    if not isinstance(rows, list):
        return
    cut = False
    while len(rows) > 1 and _size(out) > budget:
        rows.pop()
        cut = True
    if rows and _size(out) > budget and isinstance(rows[0], dict):
        row = dict(rows[0])
        rows[0] = row
        if _trim_row(out, row, budget):
            row["trimmed"] = True
            cut = True
    if cut:
        out["truncated"] = True
        out["truncated_by"] = "max_tokens"
