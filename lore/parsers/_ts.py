"""The only module that imports ``tree_sitter`` (pinned: tree-sitter >= 0.25, < 0.27).

Grammars come from the official per-language wheels (``tree-sitter-python`` ...), which ship
compiled grammars and load offline. Parsers and compiled queries are cached per process: a
worker process parses many files with one parser per language.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

__all__ = ["Node", "Tree", "captures", "get_language", "matches", "parse", "query", "text"]

# language name -> (grammar module, attribute that returns the language pointer)
_GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "java": ("tree_sitter_java", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
}

_QUERY_DIR = Path(__file__).with_name("queries")


@cache
def get_language(name: str) -> Language:
    """Return the tree-sitter ``Language`` for ``name`` (``python``, ``tsx``, ...)."""
    module_name, attr = _GRAMMARS[name]
    module = importlib.import_module(module_name)
    return Language(getattr(module, attr)())


@cache
def _parser(name: str) -> Parser:
    return Parser(get_language(name))


def parse(name: str, source: bytes) -> Tree:
    """Parse ``source`` with the grammar of language ``name``."""
    return _parser(name).parse(source)


@cache
def query(name: str, source: str | None = None) -> Query:
    """Compile a query for language ``name``; without ``source``, load ``queries/<name>.scm``."""
    if source is None:
        source = (_QUERY_DIR / f"{name}.scm").read_text(encoding="utf-8")
    return Query(get_language(name), source)


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
