"""Reads for folding copies of one definition into one row (:mod:`lore.graphs._fold`) and for the
builtins an explanation leaves unnamed: every SELECT those need.

A definition can be indexed more than once under one name: a ``.pyi`` stub beside its ``.py``, the
``@overload`` signatures before a Python implementation, a C/C++ header prototype beside the
definition in the source file of the same module, a TypeScript declaration file (``x.d.ts``, module
``x.d``) beside ``x.ts``. These reads return the symbols that share such a key, and the decorator
lines that mark overloads; the choice of the copy that stands for all is made above the store.
"""

from __future__ import annotations

import json
import sqlite3

# the key of a symbol: its qualified name, but a declaration file's module "x.d" (x.d.ts) read as "x"
_KEYED = """
    SELECT s.id, s.parent_id, s.kind, s.start_line, s.end_line, f.path,
           CASE WHEN f.path LIKE '%.d.ts' AND f.module LIKE '%.d'
                     AND substr(s.qualified_name, 1, length(f.module)) = f.module
                THEN substr(f.module, 1, length(f.module) - 2) || substr(s.qualified_name, length(f.module) + 1)
                ELSE s.qualified_name END AS key
    FROM symbols s JOIN files f ON f.id = s.file_id"""


def same_key_symbols(conn: sqlite3.Connection) -> list[tuple[int, int | None, str, int, int, str, str]]:
    """(id, parent id, kind, start line, end line, file path, key) of every symbol whose key (its qualified
    name; a ``.d.ts`` file's module without its ``.d``) another symbol shares, by key then id."""
    return conn.execute(
        f"""WITH k AS ({_KEYED})
            SELECT id, parent_id, kind, start_line, end_line, path, key FROM k
            WHERE key IN (SELECT key FROM k GROUP BY key HAVING COUNT(*) > 1)
            ORDER BY key, id"""
    ).fetchall()


def overload_decorators(conn: sqlite3.Connection) -> list[tuple[int, int]]:
    """(enclosing scope id, line) of every ``@overload`` / ``@typing.overload`` decorator (the parser
    records a bare decorator as a call made by the enclosing scope at the decorator's line)."""
    return conn.execute(
        """SELECT caller_id, line FROM symbol_refs
           WHERE kind = 'decorator' AND (callee_name = 'overload' OR callee_name LIKE '%.overload')
           ORDER BY caller_id, line"""
    ).fetchall()


def external_ids_under(conn: sqlite3.Connection, prefixes: tuple[str, ...]) -> list[int]:
    """Ids of the external symbols named under any of ``prefixes`` (``builtins`` -> ``builtins.len``)."""
    if not prefixes:
        return []
    where = " OR ".join("substr(qualified_name, 1, ?) = ?" for _ in prefixes)
    args: list[object] = []
    for p in prefixes:
        args += [len(p) + 1, p + "."]
    return [r[0] for r in conn.execute(
        f"SELECT id FROM symbols WHERE file_id IS NULL AND ({where}) ORDER BY id", args)]


def keys_of(conn: sqlite3.Connection, ids: list[int]) -> set[str]:
    """The keys (:data:`_KEYED`) of the symbols ``ids`` (a fold patched for a few changed files)."""
    return {r[0] for r in conn.execute(
        f"SELECT key FROM ({_KEYED} WHERE s.id IN (SELECT value FROM json_each(?)))", (json.dumps(sorted(ids)),))}


def same_key_symbols_of(conn: sqlite3.Connection, keys: set[str]) -> list[tuple[int, int | None, str, int, int, str, str]]:
    """:func:`same_key_symbols` restricted to ``keys``: read through the qualified-name index (a key is a
    qualified name, or a ``.d.ts`` module's ``x.d.rest`` read as ``x.rest``), never the whole table."""
    names: set[str] = set()
    for key in keys:
        names.add(key)
        parts = key.split(".")
        names.update(".".join(parts[:k] + ["d"] + parts[k:]) for k in range(1, len(parts)))
    rows = conn.execute(
        f"""SELECT id, parent_id, kind, start_line, end_line, path, key FROM ({_KEYED}
            WHERE s.qualified_name IN (SELECT value FROM json_each(?)))
            WHERE key IN (SELECT value FROM json_each(?)) ORDER BY key, id""",
        (json.dumps(sorted(names)), json.dumps(sorted(keys)))).fetchall()
    count: dict[str, int] = {}
    for r in rows:
        count[r[6]] = count.get(r[6], 0) + 1
    return [r for r in rows if count[r[6]] > 1]


def overload_decorators_in(conn: sqlite3.Connection, scopes: list[int]) -> list[tuple[int, int]]:
    """:func:`overload_decorators` of the enclosing scopes ``scopes`` only (read through the caller index)."""
    return conn.execute(
        """SELECT caller_id, line FROM symbol_refs
           WHERE caller_id IN (SELECT value FROM json_each(?)) AND kind = 'decorator'
             AND (callee_name = 'overload' OR callee_name LIKE '%.overload')
           ORDER BY caller_id, line""", (json.dumps(sorted(scopes)),)).fetchall()
