"""The MCP tools' definitions and argument checks: names, descriptions, JSON Schemas with ranges.

Kept apart from :mod:`lore.mcp_server` (which serves them) so that ``lore tools --schema`` and
non-MCP agent frameworks get the same definitions without the SDK. Descriptions are written for a
model choosing a tool: what it returns, when to use which algorithm, how big an answer is.
:func:`check_arguments` applies the schema before any library call and turns a violation into one
sentence ("lore_graph: limit must be an integer from 1 to 100, got 500").
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..errors import InvalidArgumentError
from ._common import (
    _MAX_TOKENS,
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
TOOLS: dict[str, dict[str, Any]] = {
    "lore_search": {
        "title": "Search code symbols",
        "description": (
            "Find symbols (functions, methods, classes, modules) or files by words: names are split on "
            "camelCase and snake_case, and qualified names, signatures, docstrings and paths are searched "
            "too. Use it first, to turn a concept ('retry failed request') or a partial name into symbol ids "
            "for lore_symbol and lore_graph. Returns {query, generation, total, truncated, results: [{id, "
            "qualified_name, kind, at: 'path:line', score, is_test, found_by}]}; scores are normalised so the "
            "best hit is 1; total counts every row above min_score. mode: hybrid (default; keyword + vector "
            "ranks fused; says `fallback` when the index has no vectors), keyword (BM25, every word required "
            "unless any_terms), vector (meaning). By default the best hits are expanded one hop along the "
            "graph (their class, base, callees; found_by names the hit and the edge path that brought the row "
            "in); expand=0 turns that off. files=true searches files (path, exported names, imports) instead: "
            "a file row's id is a file id, so pass its qualified_name (the module) to lore_symbol or "
            "lore_graph. Defaults: 5 rows above score 0.5 (files: 10 above 0.3); about 400 tokens (files: "
            "1k). compact=false adds name, path, line and end_line as separate fields."
        ),
        "schema": _obj(
            {
                "query": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 500,
                    "description": "Words or an identifier.",
                },
                "mode": {
                    "type": "string",
                    "enum": list(CODE_SEARCH_MODES),
                    "default": "hybrid",
                    "description": "hybrid (keyword + vector fused), keyword (BM25) or vector (meaning).",
                },
                "kind": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 40,
                    "description": "Keep only this symbol kind, e.g. function, method, class, module.",
                },
                "path_prefix": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 500,
                    "description": "Keep only results under this repository-relative path, e.g. 'src/http/'.",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_ROWS,
                    "description": f"Maximum rows returned (1..{MAX_ROWS}); default 5 (files: 10).",
                },
                "expand": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 3,
                    "description": "Graph hops to expand the best hits along (0..3); default 1 for symbols, 0 for files.",
                },
                "min_score": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1,
                    "description": "Drop results scoring below this (0..1, best hit = 1); default 0.5 (files: 0.3).",
                },
                "files": {
                    "type": "boolean",
                    "default": False,
                    "description": "Search files instead of symbols.",
                },
                "include_tests": {
                    "type": "boolean",
                    "default": True,
                    "description": "Keep symbols and files from test code (each row says is_test).",
                },
                "any_terms": {
                    "type": "boolean",
                    "default": False,
                    "description": "Keyword hits need only one of the words instead of all of them.",
                },
                "compact": {
                    "type": "boolean",
                    "default": True,
                    "description": "Short rows (default); false returns the library's full rows.",
                },
                "max_tokens": _MAX_TOKENS,
            },
            ("query",),
        ),
    },
    "lore_graph": {
        "title": "Graph query: related symbols, calls, callers, imports, inheritance, cluster",
        "description": (
            "Walk or rank the code graph from one symbol (id or qualified name; several seeds only for "
            "kind=related). kind: related = symbols most like the seed; call = what it calls (with call-site "
            "lines); callers = what calls it; import = what its file imports (direction=out) or who imports "
            "it (in); inheritance = bases (out) / subclasses and overriding methods (in) / both; cluster = "
            "the other members of its subsystem. For related, algorithm: hybrid (default; structure, place, "
            "words and role combined by weights fit on outside ground truth, git history in a git checkout; "
            "why lists each signal's share, e.g. 'same file, 12 lines apart; shares 2 callees (a, b)'), "
            "overlap (fastest; shares callees, callers, types and the enclosing class or module with the seed, "
            "or is linked to it directly: best for 'siblings' such as other handlers or parsers), fusion "
            "(overlap and pagerank_push rankings fused; why shows shared neighbours and a walk path), pagerank "
            "(exact personalized PageRank: symbols reachable through several short paths, collaborators "
            "across the neighbourhood; slowest), pagerank_push (local approximation of pagerank), pagerank_mc "
            "(Monte-Carlo variant with a "
            "standard error per row; seed for reproducibility), cluster (same "
            "label-propagation subsystem, ranked). Returns {query, generation, total, truncated, results: "
            "[{id, qualified_name, kind, at: 'path:line', score, why}]}; why names the shared neighbours or "
            "the path that earned the score, with edge resolutions. compact=true (default) keeps rows short; "
            "the default limit 20 compact is about 1.5-3k tokens; max_tokens trims rows to a budget."
        ),
        "schema": _obj(
            {
                "kind": {
                    "type": "string",
                    "enum": list(GRAPH_KINDS),
                    "description": "What to compute from the seed; see the tool description.",
                },
                "source_id": {
                    "anyOf": [
                        *_SYMBOL_REF["anyOf"],
                        {"type": "array", "items": _SYMBOL_REF, "minItems": 1, "maxItems": 20},
                    ],
                    "description": "Seed symbol: an id (integer), a qualified name such as 'pkg.module.Class.method', "
                    "a public name ('requests.Session'), a unique suffix ('Session.request'), or 'path:line'; "
                    "a list of them for kind=related. An ambiguous name fails with its candidates listed.",
                },
                "algorithm": {
                    "type": "string",
                    "enum": list(ALGORITHMS),
                    "default": DEFAULT_ALGORITHM,
                    "description": "kind=related only; see the tool description.",
                },
                "limit": _limit(20),
                "result_kind": {
                    "anyOf": [
                        {"type": "string", "minLength": 1, "maxLength": 40},
                        {
                            "type": "array",
                            "items": {"type": "string", "minLength": 1, "maxLength": 40},
                            "minItems": 1,
                            "maxItems": 10,
                        },
                    ],
                    "description": "Keep only results of this symbol kind (or kinds), e.g. 'function'.",
                },
                "include_tests": {
                    "type": "boolean",
                    "default": False,
                    "description": "Keep symbols defined in test files (excluded by default).",
                },
                "direction": {
                    "type": "string",
                    "enum": ["out", "in", "both"],
                    "description": "import: out (imports) / in (importers); inheritance: out (bases) / in "
                    "(subclasses) / both; pagerank and hybrid's walk signal: walk direction.",
                },
                "measure": {
                    "type": "string",
                    "enum": list(MEASURES),
                    "description": f"algorithm=overlap, fusion or hybrid (its structure signal): similarity measure "
                    f"(default {DEFAULT_MEASURE}).",
                },
                "weights": {
                    "type": "object",
                    "additionalProperties": {"type": "number", "minimum": 0},
                    "maxProperties": 20,
                    "description": "kind=related: weight per relation, e.g. {callees: 1, callers: 0.5, types: 0.2} for "
                    "overlap (callees, callers, types, inherits, inherited_by, container); calls, types, inherits, "
                    "contains, imports for pagerank*; signal weights for hybrid. Names left out keep their defaults.",
                },
                "alpha": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "exclusiveMaximum": 1,
                    "default": 0.85,
                    "description": "PageRank damping in (0, 1): higher reaches further from the seed.",
                },
                "n_walks": {
                    "type": "integer",
                    "minimum": 100,
                    "maximum": 1_000_000,
                    "default": 10_000,
                    "description": "algorithm=pagerank_mc: number of random walks.",
                },
                "seed": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 2**31 - 1,
                    "default": 0,
                    "description": "algorithm=pagerank_mc: random seed (same seed, same answer).",
                },
                "compact": {
                    "type": "boolean",
                    "default": True,
                    "description": "Short rows (default); false adds name, "
                    "path and line as separate fields and the full why.",
                },
                "max_tokens": _MAX_TOKENS,
                "with_docs": {
                    "type": "boolean",
                    "default": False,
                    "description": "Also list document chunks that mention the seeds.",
                },
            },
            ("kind", "source_id"),
        ),
    },
    "lore_symbol": {
        "title": "Show one symbol",
        "description": (
            "Details of one symbol by id or qualified name. Returns {id, name, qualified_name, kind, path, "
            "line, end_line, signature, docstring, parent: {id, qualified_name, kind}, is_test, snippet} "
            "where snippet is the first snippet_lines lines of its source (default 12, 0 for none; withheld "
            "when the file resolves outside the repository). Use it to read a result of lore_search or "
            "lore_graph before deciding. About 100-600 tokens."
        ),
        "schema": _obj(
            {
                "symbol": {**_SYMBOL_REF, "description": "An id (integer), a qualified name, a public name "
                           "('requests.Session'), a unique suffix ('Session.request') or 'path:line'."},
                "snippet_lines": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 200,
                    "default": 12,
                    "description": "Lines of source to include (0..200).",
                },
            },
            ("symbol",),
        ),
    },
    "lore_clusters": {
        "title": "List subsystems (clusters)",
        "description": (
            "The codebase's subsystems, found by weighted label propagation over calls, types and "
            "containment: each with cluster id, size, cohesion (share of edges inside), a readable label "
            "(common path and frequent name words) and its most connected members. Use it to get a map of an "
            "unfamiliar repository; then lore_graph kind=cluster on a member lists the rest. Returns {query, "
            "generation, total, truncated, results: [{cluster, size, cohesion, label, top_members: [{id, "
            "qualified_name}]}]}, largest first; 20 clusters is about 2-3k tokens. The first call on a large "
            "index computes the clusters (seconds)."
        ),
        "schema": _obj(
            {
                "min_size": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 100_000,
                    "default": 3,
                    "description": "Hide clusters smaller than this.",
                },
                "limit": _limit(20, "clusters"),
                "top": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 20,
                    "default": 5,
                    "description": "Members listed per cluster.",
                },
                "max_tokens": _MAX_TOKENS,
            }
        ),
    },
    "lore_status": {
        "title": "Index status",
        "description": (
            "What is indexed and whether it is fresh. Returns {db, root, generation (increments on every "
            "refresh), updated_at, files, symbols, fresh, changed_on_disk, removed_on_disk, read_only}: "
            "fresh=false lists the indexed files changed or removed on disk since (new files are only found "
            "by a refresh), and read_only (false when the server was started with --allow-refresh and offers "
            "lore_refresh). Call it when results look stale or a tool says the index is missing. About 100 "
            "tokens."
        ),
        "schema": _obj({}),
    },
    **DOCS_TOOLS,
    "lore_refresh": {
        "title": "Refresh the index",
        "description": (
            "Re-index the repository incrementally (only files changed since the last run are parsed; symbol "
            "ids of unchanged files stay stable). Use it when lore_status says fresh=false. Returns what "
            "changed: added, changed and removed files, symbol and edge counts, the new generation. Parses "
            "source text only; never runs it. Seconds on small repositories, about a minute on a large one. "
            "In a git checkout the co-change history (the related ranker's history signal) is mined after "
            "the code: in the background by default (report.history says so; answers use it once it lands)."
        ),
        "schema": _obj(
            {
                "history": {
                    "type": "string",
                    "enum": ["background", "wait", "off"],
                    "default": "background",
                    "description": "The git history: background (mined by a detached process after the code "
                    "is indexed), wait (mined before answering: seconds to a minute the first time), off.",
                },
            }
        ),
    },
}
READ_ONLY_TOOLS = tuple(n for n in TOOLS if n != "lore_refresh")


def tool_definitions(*, allow_refresh: bool = False) -> list[dict[str, Any]]:
    """The tool list as plain JSON (``name``, ``title``, ``description``, ``inputSchema``, ``annotations``).

    This is what ``tools/list`` returns and what ``lore tools --schema`` prints, for agent frameworks
    that do not speak MCP.

    Examples
    --------
    >>> [t["name"] for t in tool_definitions()][:3]
    ['lore_search', 'lore_graph', 'lore_symbol']
    >>> "lore_refresh" in [t["name"] for t in tool_definitions(allow_refresh=True)]
    True
    """
    names = READ_ONLY_TOOLS + (("lore_refresh",) if allow_refresh else ())
    return [
        {
            "name": n,
            "title": TOOLS[n]["title"],
            "description": TOOLS[n]["description"],
            "inputSchema": TOOLS[n]["schema"],
            "annotations": {
                "readOnlyHint": n != "lore_refresh",
                "destructiveHint": False,
                "idempotentHint": True,
                "openWorldHint": False,
            },
        }
        for n in names
    ]


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
    return True


def check_arguments(name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The arguments of tool ``name`` checked against its schema; one-sentence InvalidArgumentError otherwise.

    Examples
    --------
    >>> check_arguments("lore_graph", {"kind": "related", "source_id": 3, "limit": 5})["limit"]
    5
    >>> check_arguments("lore_graph", {"kind": "related", "source_id": 3, "limit": 500})
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
        if not _value_ok(value, props[key]):
            shown = json.dumps(value)[:80] if _jsonable(value) else repr(value)[:80]
            raise InvalidArgumentError(f"{name}: {key} must be {_describe(props[key])}, got {shown}")
    return args


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


__all__ = ["TOOLS", "check_arguments", "tool_definitions"]
