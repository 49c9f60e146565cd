"""Schema pieces shared by the tool definitions: limits, token budget, filters, the object wrapper."""

from __future__ import annotations

from typing import Any

MAX_ROWS = 100
MAX_ID = 2**63 - 1  # SQLite's largest integer

# The vocabularies the schemas offer, spelled out here rather than imported from the library (where they
# live beside numpy and scipy): `lore tools` and the MCP handshake load neither. A test
# (tests/mcp/test_schema_names.py) checks each against the library's own constant.
GRAPH_KINDS = ("call", "callers", "import", "inheritance", "related", "cluster")  # lore.api.GRAPH_KINDS
ALGORITHMS = ("fusion", "overlap", "pagerank", "pagerank_mc", "pagerank_push", "cluster", "hybrid", "changes")  # graphs.related
DEFAULT_ALGORITHM = "hybrid"  # lore.graphs.related.DEFAULT_ALGORITHM
MEASURES = ("adamic_adar", "resource_allocation", "cosine", "idf_cosine", "jaccard", "count")  # algorithms.overlap
DEFAULT_MEASURE = "idf_cosine"  # lore.graphs.related.DEFAULT_MEASURE
CODE_SEARCH_MODES = ("hybrid", "vector", "keyword")  # lore.search.symbols.MODES
DOC_SEARCH_MODES = ("hybrid", "vector", "keyword")  # lore.docs.search.MODES


def _limit(default: int) -> dict:
    return {"type": "integer", "minimum": 1, "maximum": MAX_ROWS, "default": default}


# The parameters every list tool shares carry no description of their own: the server's instructions
# (lore.mcp_server.INSTRUCTIONS) explain them once, instead of once per tool in every tools/list.
SHARED_PARAMETERS = ("limit", "max_tokens", "cursor", "compact", "include_tests")
_MAX_TOKENS = {"type": "integer", "minimum": 50, "maximum": 100_000}
_CURSOR = {"type": "string", "minLength": 1, "maxLength": 200}
_COMPACT = {"type": "boolean", "default": True}
_TESTS = {"type": "boolean"}
_FILTER = {"type": "string", "minLength": 1, "maxLength": 200}
_TAGS = {
    "type": "array",
    "items": {"type": "string", "minLength": 1, "maxLength": 100},
    "maxItems": 20,
    "description": "Chunks with all these tags.",
}


def _obj(props: dict, required: tuple[str, ...] = ()) -> dict:
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


# Knobs accepted and checked but not listed in tools/list (docs/mcp.md lists them): an agent rarely needs them,
# and each costs its context bytes before any call.
_HIDDEN = {"x-hidden": True}
