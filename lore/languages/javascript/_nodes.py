"""Node kinds and helpers the JavaScript extractor's modules share."""

from __future__ import annotations

from ...parsers import _ts

FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
EXPORTS = ("module.exports", "exports")


def key(node: _ts.Node) -> tuple[int, int]:
    """A node's identity within one parse: its byte span."""
    return node.start_byte, node.end_byte
