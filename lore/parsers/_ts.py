"""The only module that imports ``tree_sitter`` (pinned: tree-sitter >= 0.25, < 0.27).

Grammars come from the official per-language wheels (``tree-sitter-python`` ...), which ship
compiled grammars and load offline. Parsers and compiled queries are cached per process: a
worker process parses many files with one parser per language.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

__all__ = ["Node", "Tree", "captures", "get_language", "matches", "parse", "query", "text"]

@cache
def get_language(grammar: str) -> Language:
    """Return the tree-sitter ``Language`` of ``grammar``.

    ``grammar`` names the wheel module and the function that returns the language pointer,
    ``"tree_sitter_typescript:language_tsx"``; a bare name ``x`` is ``"tree_sitter_x:language"``
    (``python``, ``go``, ``cpp`` ...). Each language says its own in ``lore/languages/<lang>/``.
    """
    module_name, _, attr = grammar.partition(":") if ":" in grammar else (f"tree_sitter_{grammar}", "", "language")
    module = importlib.import_module(module_name)
    return Language(getattr(module, attr)())


@cache
def _parser(name: str) -> Parser:
    return Parser(get_language(name))


def parse(grammar: str, source: bytes) -> Tree:
    """Parse ``source`` with ``grammar`` (as :func:`get_language` names it)."""
    return _parser(grammar).parse(source)


@cache
def query(grammar: str, source: str) -> Query:
    """Compile the query text ``source`` for ``grammar`` (cached: a worker compiles each query once)."""
    return Query(get_language(grammar), source)


def captures(q: Query, node: Node) -> dict[str, list[Node]]:
    """Captures of query ``q`` under ``node``, by capture name (each list in document order)."""
    result = QueryCursor(q).captures(node)
    for nodes in result.values():
        nodes.sort(key=lambda n: n.start_byte)
    return result


def matches(q: Query, node: Node) -> list[tuple[int, dict[str, list[Node]]]]:
    """Matches of query ``q`` under ``node`` as ``(pattern_index, captures)`` pairs."""
    return QueryCursor(q).matches(node)


def text(node: Node | None, source: bytes | None = None) -> str:
    """Decoded text of ``node`` (``''`` for ``None``); undecodable bytes are replaced, never raised."""
    if node is None:
        return ""
    raw: Any = node.text if source is None else source[node.start_byte : node.end_byte]
    return raw.decode("utf-8", errors="replace") if raw is not None else ""


def count_errors(tree: Tree) -> int:
    """Number of ERROR / MISSING nodes in ``tree`` (0 for a clean parse)."""
    root = tree.root_node
    if not root.has_error:
        return 0
    count = 0
    cursor = root.walk()
    stack = [root]
    del cursor
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
            continue
        if node.has_error:
            stack.extend(node.children)
    return count
