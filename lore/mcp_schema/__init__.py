"""The MCP tools' definitions and argument checks: names, descriptions, JSON Schemas with ranges.

Kept apart from :mod:`lore.mcp_server` (which serves them) so that ``lore tools --schema`` and
non-MCP agent frameworks get the same definitions without the SDK. Descriptions are written for a
model choosing a tool: when to use it, what it returns, how big an answer is; and they are short, because
the whole list sits in the agent's context before any call (``tools/list`` stays under 8 KB, a test
checks it). Every parameter name means one thing across tools (``kind`` is a symbol kind everywhere).
:func:`check_arguments` applies the schema before any library call and turns a violation into one
sentence ("lore_graph: limit must be an integer from 1 to 100, got 500").
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..errors import InvalidArgumentError
from ._common import (
    _COMPACT,
    _CURSOR,
    _HIDDEN,
    _MAX_TOKENS,
    _TESTS,
    ALGORITHMS,
    CODE_SEARCH_MODES,
    DEFAULT_ALGORITHM,
    DEFAULT_MEASURE,
    GRAPH_KINDS,
    MAX_ID,
    MAX_ROWS,
    MEASURES,
    _limit,
    _obj,
)
from ._docs import DOCS_TOOLS

_SYMBOL_REF = {
    "anyOf": [
        {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        {"type": "string", "minLength": 1, "maxLength": 500},
    ]
}
_KINDS = {
    "anyOf": [
        {"type": "string", "minLength": 1, "maxLength": 40},
        {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 40}, "minItems": 1, "maxItems": 10},
    ],
    "description": "Only this symbol kind (or kinds): function, method, class...",
}
TOOLS: dict[str, dict[str, Any]] = {
    "lore_search": {
        "title": "Search code symbols",
        "description": (
            "Find symbols (files: files=true) by words or a partial name, for ids to pass to lore_symbol and "
            "lore_graph; for a bug report use lore_locate. Returns {total, results: [{id, qualified_name, kind, at, "
            "score, found_by}], next_cursor}; a file row's id is a file id. 5 rows, about 400 tokens."
        ),
        "schema": _obj(
            {
                "query": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Words or a name."},
                "kind": {"type": "string", "minLength": 1, "maxLength": 40, "description": "Only this symbol kind."},
                "files": {"type": "boolean", "default": False, "description": "Search files."},
                "path_prefix": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Only under this path."},
                "mode": {"type": "string", "enum": list(CODE_SEARCH_MODES), "default": "hybrid", **_HIDDEN,
                         "description": "hybrid (keyword + vector), keyword (BM25) or vector."},
                "expand": {"type": "integer", "minimum": 0, "maximum": 3, **_HIDDEN,
                           "description": "Graph hops from the best hits; default 1 (files: 0)."},
                "min_score": {"type": "number", "minimum": 0, "maximum": 1, **_HIDDEN,
                              "description": "Drop rows below this; default 0.5 (files: 0.3)."},
                "any_terms": {"type": "boolean", "default": False, **_HIDDEN,
                              "description": "Keyword hits need one word, not all."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS},
                "include_tests": {**_TESTS, "default": True},
                "compact": _COMPACT,
                "max_tokens": _MAX_TOKENS,
                "cursor": _CURSOR,
            },
            ("query",),
        ),
    },
    "lore_locate": {
        "title": "Where to start on a bug report",
        "description": (
            "Start here for a bug report: pass its text as is, tracebacks included. Returns {files: [{path, why}], "
            "results: [{id, qualified_name, kind, at, score, why}], next_cursor, weak (nothing matched well)}. "
            "About 800 tokens."
        ),
        "schema": _obj(
            {
                "text": {"type": "string", "minLength": 1, "maxLength": 50_000, "description": "The bug report."},
                "files": {"type": "integer", "minimum": 0, "maximum": MAX_ROWS, "default": 5,
                          "description": "Files listed."},
                "limit": _limit(10),
                "include_tests": {**_TESTS, "default": False},
                "compact": _COMPACT,
                "max_tokens": _MAX_TOKENS,
                "cursor": _CURSOR,
            },
            ("text",),
        ),
    },
    "lore_graph": {
        "title": "Code graph from a symbol",
        "description": (
            "From a symbol, relation: related = what else is like it; call / callers (lines = call sites); import "
            "(direction in: importers); inheritance (out: bases, in: subclasses); cluster = its subsystem. "
            "algorithm (related): hybrid (default, best), overlap (fastest), pagerank... Returns {total, results: "
            "[{id, qualified_name, kind, at, score, why}], next_cursor}. 20 rows, about 1.2k tokens."
        ),
        "schema": _obj(
            {
                "relation": {"type": "string", "enum": list(GRAPH_KINDS)},
                "source_id": {
                    "anyOf": [
                        *_SYMBOL_REF["anyOf"],
                        {"type": "array", "items": _SYMBOL_REF, "minItems": 1, "maxItems": 20},
                    ],
                    "description": "Id, qualified name, unique suffix or path:line; a list for related.",
                },
                "algorithm": {"type": "string", "enum": list(ALGORITHMS), "default": DEFAULT_ALGORITHM},
                "kind": _KINDS,
                "direction": {"type": "string", "enum": ["out", "in", "both"]},
                "options": {
                    "type": "object",
                    "properties": {
                        "measure": {"type": "string", "enum": list(MEASURES)},
                        "weights": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0},
                                    "maxProperties": 20},
                        "alpha": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "default": 0.85},
                        "n_walks": {"type": "integer", "minimum": 100, "maximum": 1_000_000, "default": 10_000},
                        "seed": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1, "default": 0},
                    },
                    "additionalProperties": False,
                    "description": f"measure (overlap: {DEFAULT_MEASURE}, cosine, jaccard...), weights per relation, "
                    "alpha (pagerank, 0.85), n_walks and seed (pagerank_mc).",
                },
                "with_docs": {"type": "boolean", "default": False, **_HIDDEN,
                              "description": "Add the doc chunks that name the seeds."},
                "limit": _limit(20),
                "include_tests": {**_TESTS, "default": False},
                "compact": _COMPACT,
                "max_tokens": _MAX_TOKENS,
                "cursor": _CURSOR,
            },
            ("relation", "source_id"),
        ),
    },
    "lore_symbol": {
        "title": "Show one symbol",
        "description": (
            "Read one result before deciding. Returns {id, qualified_name, kind, path, line, signature, docstring, "
            "parent, snippet (snippet_lines of source)}. 100-600 tokens."
        ),
        "schema": _obj(
            {
                "symbol": {**_SYMBOL_REF, "description": "Id, qualified name, unique suffix or path:line."},
                "snippet_lines": {"type": "integer", "minimum": 0, "maximum": 200, "default": 12},
            },
            ("symbol",),
        ),
    },
    "lore_clusters": {
        "title": "List subsystems",
        "description": (
            "A map of an unfamiliar repository: subsystems of min_size or more, largest first. Returns {total, "
            "results: [{cluster, size, label, top_members}], next_cursor}. About 2k tokens."
        ),
        "schema": _obj(
            {
                "min_size": {"type": "integer", "minimum": 1, "maximum": 100_000, "default": 3},
                "top": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "Members shown."},
                "limit": _limit(20),
                "max_tokens": _MAX_TOKENS,
                "cursor": _CURSOR,
            }
        ),
    },
    "lore_status": {
        "title": "Index status",
        "description": (
            "When answers look stale or the index is missing. Returns {root, generation, fresh, changed_on_disk, "
            "read_only}. About 100 tokens."
        ),
        "schema": _obj({}),
    },
    **DOCS_TOOLS,
    "lore_refresh": {
        "title": "Refresh the index",
        "description": (
            "Re-index changed files when lore_status says fresh=false. Returns the changes and the new "
            "generation. Seconds to a minute."
        ),
        "schema": _obj(
            {
                "history": {"type": "string", "enum": ["background", "wait", "off"], "default": "background",
                            "description": "Git history: mined after, before, or not."},
            }
        ),
    },
}
READ_ONLY_TOOLS = tuple(n for n in TOOLS if n != "lore_refresh")
# The names of the previous release, still served (not listed) until the next one; answers say so.
RENAMED_TOOLS = {"search_docs": "lore_search_docs", "get_related": "lore_docs_related",
                 "search_similar": "lore_search_similar"}
_GRAPH_OPTIONS = ("measure", "weights", "alpha", "n_walks", "seed")
# What every answer's structuredContent holds (the client checks it against this).
_PAGE_OUT = {"type": "object", "required": ["total", "results"]}
OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "lore_symbol": {"type": "object", "required": ["id", "qualified_name", "path"]},
    "lore_status": {"type": "object", "required": ["generation", "fresh"]},
    "lore_search_similar": {"type": "object", "required": ["success", "documents"]},
    "lore_refresh": {"type": "object"},
}
PAGED_TOOLS = frozenset(set(READ_ONLY_TOOLS) - set(OUTPUT_SCHEMAS))


def tool_definitions(*, allow_refresh: bool = False) -> list[dict[str, Any]]:
    """The tool list as plain JSON (``name``, ``title``, ``description``, ``inputSchema``, ``outputSchema``,
    ``annotations``).

    This is what ``tools/list`` returns and what ``lore tools --schema`` prints, for agent frameworks
    that do not speak MCP. The read-only tools carry the one hint that matters for them (the others only
    mean something when a tool writes).

    Examples
    --------
    >>> [t["name"] for t in tool_definitions()][:3]
    ['lore_search', 'lore_locate', 'lore_graph']
    >>> "lore_refresh" in [t["name"] for t in tool_definitions(allow_refresh=True)]
    True
    """
    names = READ_ONLY_TOOLS + (("lore_refresh",) if allow_refresh else ())
    writes = {"readOnlyHint": False, "destructiveHint": False}
    return [
        {
            "name": n,
            "title": TOOLS[n]["title"],
            "description": TOOLS[n]["description"],
            "inputSchema": published(TOOLS[n]["schema"]),
            "outputSchema": OUTPUT_SCHEMAS.get(n, _PAGE_OUT),
            "annotations": writes if n == "lore_refresh" else {"readOnlyHint": True},
        }
        for n in names
    ]


_UNPUBLISHED = frozenset({"minLength", "maxLength", "maxItems", "maxProperties"})


def published(schema: Any) -> Any:
    """``schema`` as ``tools/list`` shows it: without the length limits and the huge maxima (ids, token
    budgets) that :func:`check_arguments` still enforces (they cost a third of the list's bytes and an agent never
    meets them: an argument past one gets a one-sentence error naming the limit).

    Examples
    --------
    >>> published({"type": "string", "minLength": 1, "maxLength": 500, "description": "Words."})
    {'type': 'string', 'description': 'Words.'}
    """
    if isinstance(schema, list):
        return [published(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: published(v) for k, v in schema.items()
           if k not in _UNPUBLISHED and not (k == "maximum" and v >= 100_000)}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: v for k, v in out["properties"].items() if not v.pop("x-hidden", False)}
    if out.get("type") == "object" and "description" in out:  # a nested group (options): its description names them
        out.pop("properties", None)
        out.pop("additionalProperties", None)
    return out


def migrate_arguments(name: str, arguments: Any) -> tuple[str, Any, list[str]]:
    """(tool name, arguments, notes): a call in the previous release's names, translated.

    Old tool names (:data:`RENAMED_TOOLS`) and, on ``lore_graph``, ``kind`` as the query type (now
    ``relation``; ``kind`` is the symbol-kind filter everywhere, as in ``lore_search``), ``result_kind``
    (now ``kind``) and the algorithm knobs at the top level (now in ``options``). Each translation adds
    a note, which the answer carries as ``deprecated``. Arguments that are not an object pass through, for
    :func:`check_arguments` to refuse.

    Examples
    --------
    >>> migrate_arguments("lore_graph", {"kind": "related", "source_id": 3, "alpha": 0.5})[1]
    {'source_id': 3, 'relation': 'related', 'options': {'alpha': 0.5}}
    >>> migrate_arguments("lore_graph", {"relation": "call", "source_id": 3, "kind": "function"})
    ('lore_graph', {'relation': 'call', 'source_id': 3, 'kind': 'function'}, [])
    """
    notes: list[str] = []
    args = dict(arguments or {}) if isinstance(arguments, dict) else arguments
    if name in RENAMED_TOOLS:
        notes.append(f"tool {name} is now {RENAMED_TOOLS[name]}; the old name works until the next release")
        name = RENAMED_TOOLS[name]
    if name != "lore_graph" or not isinstance(args, dict):
        return name, args, notes
    if "relation" not in args and args.get("kind") in GRAPH_KINDS:  # no symbol kind is named like a query type
        old = args.pop("kind")
        args["relation"] = old
        notes.append(f"lore_graph: kind={old!r} as the query type is now relation={old!r} (kind filters symbol "
                     "kinds, as in lore_search); the old use works until the next release")
    if "result_kind" in args:
        args["kind"] = args.pop("result_kind")
        notes.append("lore_graph: result_kind is now kind; the old name works until the next release")
    moved = [k for k in _GRAPH_OPTIONS if k in args]
    if moved:
        opts = dict(args.get("options") or {}) if isinstance(args.get("options"), dict) else {}
        for k in moved:
            value = args.pop(k)
            if value is not None:
                opts[k] = value
        args["options"] = opts
        notes.append(f"lore_graph: {', '.join(moved)} now go in options; the top-level names work until the next release")
    return name, args, notes


# -- argument checks ---------------------------------------------------------------------------------
def _type_ok(value: Any, schema: dict) -> bool:
    t = schema.get("type")
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "array":
        return isinstance(value, list)
    if t == "object":
        return isinstance(value, dict)
    return True


def _describe(schema: dict) -> str:
    """'an integer from 1 to 100', 'one of: a, b', ... for error messages."""
    if "anyOf" in schema:
        return " or ".join(dict.fromkeys(_describe(s) for s in schema["anyOf"]))
    if "enum" in schema:
        return "one of: " + ", ".join(map(str, schema["enum"]))
    t = schema.get("type")
    lo, hi = schema.get("minimum"), schema.get("maximum")
    xlo, xhi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    noun = {
        "integer": "an integer",
        "number": "a number",
        "string": "a string",
        "boolean": "true or false",
        "array": "a list",
        "object": "an object",
    }.get(t, "a value")
    if xlo is not None and xhi is not None:
        return f"{noun} strictly between {xlo} and {xhi}"
    if t == "integer" and lo == 1 and hi == MAX_ID:
        return "a positive integer (an id)"
    if lo is not None and hi is not None:
        return f"{noun} from {lo} to {hi}"
    if lo is not None:
        return f"{noun} of at least {lo}"
    if t == "string" and schema.get("minLength"):
        return "a non-empty string"
    if t == "array" and "items" in schema:
        return f"a list of {_describe(schema['items']).removeprefix('a ').removeprefix('an ')}s"
    return noun


def _value_ok(value: Any, schema: dict) -> bool:
    if "anyOf" in schema:
        return any(_value_ok(value, s) for s in schema["anyOf"])
    if not _type_ok(value, schema):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return False
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            return False
    if isinstance(value, str):
        if len(value.strip()) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1 << 30):
            return False
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", 1 << 30):
            return False
        return all(_value_ok(v, schema.get("items", {})) for v in value)
    if isinstance(value, dict) and len(value) > schema.get("maxProperties", 1 << 30):
        return False  # the values (weights) are checked by the library, whose message names the bad one
    return True


def check_arguments(name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The arguments of tool ``name`` checked against its schema; one-sentence InvalidArgumentError otherwise.

    Examples
    --------
    >>> check_arguments("lore_graph", {"relation": "related", "source_id": 3, "limit": 5})["limit"]
    5
    >>> check_arguments("lore_graph", {"relation": "related", "source_id": 3, "limit": 500})
    Traceback (most recent call last):
    ...
    lore.errors.InvalidArgumentError: lore_graph: limit must be an integer from 1 to 100, got 500
    """
    schema = TOOLS[name]["schema"]
    args = dict(arguments or {})
    props = schema["properties"]
    unknown = sorted(set(args) - set(props))
    if unknown:
        allowed = ", ".join(props) or "none"
        raise InvalidArgumentError(f"{name}: unknown argument {unknown[0]!r}; allowed arguments: {allowed}")
    for req in schema.get("required", ()):
        if args.get(req) is None:
            raise InvalidArgumentError(f"{name}: missing required argument {req!r} ({_describe(props[req])})")
    for key, value in list(args.items()):
        if value is None:  # an explicit null means "use the default"
            del args[key]
            continue
        _check_value(name, key, value, props[key])
        if isinstance(value, dict) and "properties" in props[key]:  # options: each member checked by name
            inner = props[key]["properties"]
            for sub, v in list(value.items()):
                if sub not in inner:
                    raise InvalidArgumentError(f"{name}: unknown {key} member {sub!r}; allowed: {', '.join(inner)}")
                if v is None:
                    del value[sub]
                    continue
                _check_value(name, f"{key}.{sub}", v, inner[sub])
    return args


def _check_value(name: str, key: str, value: Any, schema: dict) -> None:
    if not _value_ok(value, schema):
        shown = json.dumps(value)[:80] if _jsonable(value) else repr(value)[:80]
        raise InvalidArgumentError(f"{name}: {key} must be {_describe(schema)}, got {shown}")


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


__all__ = ["OUTPUT_SCHEMAS", "PAGED_TOOLS", "RENAMED_TOOLS", "TOOLS", "check_arguments", "migrate_arguments",
           "tool_definitions"]
