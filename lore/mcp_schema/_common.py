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


def _limit(default: int, what: str = "rows") -> dict:
    return {
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_ROWS,
        "default": default,
        "description": f"Maximum {what} returned (1..{MAX_ROWS}).",
    }


_MAX_TOKENS = {
    "type": "integer",
    "minimum": 50,
    "maximum": 100_000,
    "description": "Token budget (about 4 characters each): rows are dropped from the end until the answer fits, "
    "and truncated becomes true.",
}
_FILTER = {"type": "string", "minLength": 1, "maxLength": 200}
_TAGS = {
    "type": "array",
    "items": {"type": "string", "minLength": 1, "maxLength": 100},
    "maxItems": 20,
    "description": "Keep only chunks carrying all of these tags.",
}


def _obj(props: dict, required: tuple[str, ...] = ()) -> dict:
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out
