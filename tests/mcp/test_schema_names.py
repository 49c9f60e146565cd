"""The tool schemas spell the library's vocabularies out (so the MCP handshake loads no numpy): keep them equal."""

from __future__ import annotations

from lore.mcp_schema import _common as names
from lore.mcp_schema import tool_definitions


def test_schema_vocabularies_match_the_library():
    from lore.algorithms.overlap import MEASURES
    from lore.api import GRAPH_KINDS
    from lore.docs.search import MODES as DOC_MODES
    from lore.graphs.related import ALGORITHMS, DEFAULT_ALGORITHM, DEFAULT_MEASURE
    from lore.search.symbols import MODES as CODE_MODES

    assert names.GRAPH_KINDS == tuple(GRAPH_KINDS)
    assert names.ALGORITHMS == tuple(ALGORITHMS)
    assert names.DEFAULT_ALGORITHM == DEFAULT_ALGORITHM
    assert names.MEASURES == tuple(MEASURES)
    assert names.DEFAULT_MEASURE == DEFAULT_MEASURE
    assert names.CODE_SEARCH_MODES == tuple(CODE_MODES)
    assert names.DOC_SEARCH_MODES == tuple(DOC_MODES)


def test_graph_tool_offers_them():
    from lore.mcp_schema import TOOLS

    graph = next(t for t in tool_definitions() if t["name"] == "lore_graph")["inputSchema"]["properties"]
    assert graph["relation"]["enum"] == list(names.GRAPH_KINDS)  # the query type; kind is a symbol kind
    assert graph["algorithm"]["enum"] == list(names.ALGORITHMS)
    options = TOOLS["lore_graph"]["schema"]["properties"]["options"]["properties"]  # checked, described in one line
    assert options["measure"]["enum"] == list(names.MEASURES)
