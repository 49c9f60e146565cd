"""The only module that imports ``tree_sitter`` (pinned: tree-sitter >= 0.25, < 0.27).

Grammars come from the official per-language wheels (``tree-sitter-python`` ...), which ship
compiled grammars and load offline. Parsers and compiled queries are cached per process: a
worker process parses many files with one parser per language.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

__all__ = ["MAX_DEPTH", "BudgetExceeded", "Node", "Tree", "captures", "check_depth", "deeper_than", "get_language",
           "in_parser", "matches", "parse", "query", "set_budget", "text"]

_CHUNK = 1 << 16  # bytes handed to the parser per read callback when a budget is set
# Below this size tree-sitter's own parse is bounded (well under a second; what can run away on a small
# file is the Python extraction after it, which the budget's timer watches), so small files skip the
# callback parse and its second pass: that is most of the cost the budget added to a fresh index.
_WATCHED = 1 << 18
# tree-sitter's query cursor keeps node depths in 16 bits: under a node deeper than 65,535 levels it drops
# captures without a word (a JavaScript call chain 40,000 deep: 32,766 of its 40,000 calls) and slows down
# quadratically (100,000 deep: 65 s in one query, past any budget: the query cannot be interrupted).
# A tree deeper than this is refused before any query runs (a file nested 3,000 deep is ~15,000 levels).
MAX_DEPTH = 30_000
_budget_check: Callable[[], str | None] | None = None  # returns a reason ("too slow") when the file is over budget
_in_parser = False  # inside tree-sitter's parse, whose callbacks must never see an exception from a signal


class BudgetExceeded(BaseException):
    """A file went over its per-file budget (time or memory) while being parsed or extracted.

    A ``BaseException``, like ``KeyboardInterrupt``: extractors skip a strange node with ``except Exception``
    (a parser never raises on bad input), and a budget caught there would be swallowed, leaving a file
    over budget stored as a syntax error with no definitions. Only the budget's owner catches it.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def set_budget(check: Callable[[], str | None] | None) -> None:
    """Install (or with ``None`` remove) the per-file budget check the parser polls while it works.

    ``check()`` returns ``None`` while the file is within budget, else the reason to stop (``"too slow"``,
    ``"too big to parse"``); :func:`parse` and :func:`captures` then raise :class:`BudgetExceeded`.
    """
    global _budget_check
    _budget_check = check


def in_parser() -> bool:
    """Whether tree-sitter is parsing (with a budget) right now: a signal handler must not raise then."""
    return _in_parser


def _over_budget() -> str | None:
    check = _budget_check
    return check() if check is not None else None

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
    """Parse ``source`` with ``grammar`` (as :func:`get_language` names it).

    With a budget installed (:func:`set_budget`) and a source of 256 KB or more, the parser reads through a callback whose progress
    hook polls it and halts the parse when the file is over budget (:class:`BudgetExceeded`): tree-sitter
    works in C, where no Python signal can interrupt it.
    """
    parser = _parser(grammar)
    check = _budget_check
    if check is None or len(source) < _WATCHED:
        return parser.parse(source)
    view = memoryview(source)
    calls = 0
    stopped: list[str] = []

    def read(offset: int, _point: Any) -> bytes:
        return bytes(view[offset : offset + _CHUNK])

    def progress(_offset: int, _has_error: bool) -> bool:
        nonlocal calls
        calls += 1
        if calls & 255:
            return False
        reason = check()
        if reason:
            stopped.append(reason)
            return True
        return False

    global _in_parser
    _in_parser = True
    try:
        tree = parser.parse(read, progress_callback=progress)
    except ValueError:  # "Parsing failed": what tree-sitter 0.26 raises when the progress hook halts it
        tree = None
    finally:
        _in_parser = False
    if tree is None or stopped:
        parser.reset()  # a halted parse would otherwise resume on the next call
        raise BudgetExceeded(stopped[0] if stopped else "too slow")
    # a tree parsed through a callback has no source: Node.text would call back for every node. Parsing
    # the bytes again with the finished tree as the old one reuses every node (about a tenth of the time)
    return parser.parse(source, old_tree=tree)


@cache
def query(grammar: str, source: str) -> Query:
    """Compile the query text ``source`` for ``grammar`` (cached: a worker compiles each query once)."""
    return Query(get_language(grammar), source)


def deeper_than(node: Node, limit: int) -> bool:
    """Whether some chain of nodes from ``node`` down is longer than ``limit`` (``node`` itself counts).

    Only subtrees with enough nodes to hold such a chain are visited (a node's descendant count is
    known without a walk), so a file of ordinary depth costs a step or two, and a deep chain at most
    ``limit`` steps.

    Examples
    --------
    >>> root = parse("python", b"x = [[[[0]]]]\\n").root_node
    >>> deeper_than(root, 5), deeper_than(root, 50)
    (True, False)
    """
    stack = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        if depth > limit:
            return True
        need = limit - depth  # a child must hold a chain of that many more nodes, itself included
        if n.descendant_count <= need:
            continue
        stack.extend((c, depth + 1) for c in n.children if c.descendant_count >= need)
    return False


def check_depth(node: Node) -> None:
    """Refuse a tree deeper than :data:`MAX_DEPTH` before a query runs under it: within a file's budget
    :class:`BudgetExceeded` (``too deep``), else ``ValueError`` (a parser failure to its caller)."""
    if node.descendant_count > MAX_DEPTH and deeper_than(node, MAX_DEPTH):
        if _budget_check is not None:
            raise BudgetExceeded("too deep")
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")


def captures(q: Query, node: Node, *, ordered: bool = True) -> dict[str, list[Node]]:
    """Captures of query ``q`` under ``node``, by capture name (each list in document order; with
    ``ordered=False`` in the order tree-sitter gives, for callers that sort every capture together).
    A tree too deep for tree-sitter's queries is refused first (:func:`check_depth`)."""
    check_depth(node)
    result = QueryCursor(q).captures(node)  # no progress callback here: tree-sitter 0.26 crashes with one
    reason = _over_budget()
    if reason:
        raise BudgetExceeded(reason)
    if ordered:
        for nodes in result.values():
            nodes.sort(key=_start)
    return result


def _start(n: Node) -> int:
    return n.start_byte


def matches(q: Query, node: Node) -> list[tuple[int, dict[str, list[Node]]]]:
    """Matches of query ``q`` under ``node`` as ``(pattern_index, captures)`` pairs (:func:`check_depth` first)."""
    check_depth(node)
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
