"""Where Jedi's answer and lore's differ by convention, not by correctness (issue 34's second round).

Each rule can be stated in one sentence and applies to every project alike; the Jedi benchmark scores
the counting before them beside the main one (``old_counting``):

* **Stub re-exports.** When a package ships ``.pyi`` stubs, Jedi's goto maps the stub back to the
  ``.py`` module and stops at its re-exporting ``from ._impl import f``: that import is followed with
  Jedi's own goto (as goto does for a package without stubs), and an import it cannot follow is no
  definition (:func:`through_import`).
* **Decorator wrappers.** Jedi's goto names a decorated ``def`` as written, while the call runs what the
  decorator returned: a function defined inside one of its decorators counts as Jedi's answer
  (:func:`wrappers`).
* **TYPE_CHECKING declarations.** Jedi prefers ``if TYPE_CHECKING: def f(): ...`` (a declaration for
  type checkers, as a stub is); the run-time definition of the same name in that module counts as its
  answer (:func:`runtime_twins`).
* **Stub-only declarations** (issue 34's third round). Jedi's goto maps a ``.pyi`` stub's definition to
  the run-time module of the same name, and answers the stub when that module defines no such name
  (loguru's ``__init__.pyi`` declares ``class Logger`` while ``__init__.py`` imports ``Logger as
  _Logger`` from ``._logger``): the one run-time definition of the same class and member name in the
  stub's package counts as its answer (:func:`stub_twins`). The counting before this round is scored
  beside it as well.
* **Stub declarations of a run-time name** (issue 34's fourth round). When Jedi answers a ``.pyi``
  declaration whose qualified name one run-time file does define, that definition counts as its answer:
  the stub is never run (:func:`stub_twins`, ``same_name``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field


def _is_import(name) -> bool:
    """Whether Jedi's ``name`` is the name of an import statement rather than a definition."""
    tree_name = getattr(getattr(name, "_name", None), "tree_name", None)
    definition = tree_name.get_definition() if tree_name is not None else None
    return definition is not None and definition.type in ("import_from", "import_name")


def through_import(name, describe: Callable[[object], dict]) -> list[dict]:
    """``name`` described, or what Jedi's goto finds for it when it is the name of an import statement;
    an import Jedi cannot follow either is described as ``import``, not as a definition."""
    if not _is_import(name):
        return [describe(name)]
    return [dict(describe(f), type="import") if _is_import(f) else describe(f)
            for f in name.goto(follow_imports=True) or [name]]


@dataclass
class SourceFacts:
    """What one file's source says about its definitions: decorator names and TYPE_CHECKING defs."""

    decorators: dict[int, frozenset[str]] = field(default_factory=dict)  # a def's lines -> its decorators' names
    checking: frozenset[int] = frozenset()  # the lines of defs under ``if TYPE_CHECKING:``


def _def_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterable[int]:
    """The lines a symbol of this def may start on: its decorators' and its own."""
    return range(min([d.lineno for d in node.decorator_list] + [node.lineno]), node.lineno + 1)


def source_facts(source: str) -> SourceFacts:
    """The :class:`SourceFacts` of one file's text (empty when it does not parse).

    >>> f = source_facts("if TYPE_CHECKING:\\n    def f(): ...\\n@a.memo(1)\\ndef g():\\n    pass\\n")
    >>> sorted(f.checking), f.decorators[3], f.decorators[4]
    ([2], frozenset({'memo'}), frozenset({'memo'}))
    """
    facts = SourceFacts()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return facts
    checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (getattr(node.test, "id", None) == "TYPE_CHECKING"
                                         or getattr(node.test, "attr", None) == "TYPE_CHECKING"):
            checking.update(line for b in node.body for d in ast.walk(b)
                            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) for line in _def_lines(d))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list:
            names = set()
            for dec in node.decorator_list:
                f = dec.func if isinstance(dec, ast.Call) else dec
                if isinstance(f, ast.Name):
                    names.add(f.id)
                elif isinstance(f, ast.Attribute):
                    names.add(f.attr)
            for line in _def_lines(node):
                facts.decorators[line] = frozenset(names)
    facts.checking = frozenset(checking)
    return facts


def wrappers(symbols: dict, r, facts: SourceFacts) -> list[int]:
    """The functions defined inside a function (or class) named by one of ``r``'s decorators."""
    names = facts.decorators.get(r.line) if r.line is not None else None
    if not names:
        return []
    out = []
    for d in symbols.values():
        if d.kind not in ("function", "method") or d.id == r.id:
            continue
        p = symbols.get(d.parent_id) if d.parent_id is not None else None
        while p is not None and p.kind in ("function", "method", "class"):
            if p.name in names:
                out.append(d.id)
                break
            p = symbols.get(p.parent_id) if p.parent_id is not None else None
    return out


def runtime_twins(defs_in_file: dict, r, facts: SourceFacts) -> list[int]:
    """For a ``def`` under ``if TYPE_CHECKING:``, the definitions of the same name in that module."""
    if r.line is None or r.line not in facts.checking:
        return []
    return [d.id for d in defs_in_file.get(r.path, []) if d.qualified_name == r.qualified_name and d.id != r.id]


def _tail(symbols: dict, r) -> tuple[str, str, str]:
    """(top-level package, enclosing class name or '', name) of a definition."""
    p = symbols.get(r.parent_id) if r.parent_id is not None else None
    return r.qualified_name.split(".", 1)[0], p.name if p is not None and p.kind == "class" else "", r.name


def runtime_by_tail(symbols: dict) -> dict[tuple[str, str, str], list[int]]:
    """The definitions outside ``.pyi`` stubs, by :func:`_tail` (built once per view)."""
    out: dict[tuple[str, str, str], list[int]] = {}
    for r in symbols.values():
        if r.kind in ("function", "method", "class") and not r.path.endswith(".pyi"):
            out.setdefault(_tail(symbols, r), []).append(r.id)
    return out


def stub_twins(symbols: dict, by_tail: dict, r, *, same_name: bool = True) -> list[int]:
    """For a definition in a ``.pyi`` stub that no run-time file defines under its qualified name, the one
    run-time definition of the same class and member name in its package (none when several are).

    ``same_name`` (issue 34's fourth round): when one run-time file does define that qualified name, that
    one definition. Jedi's goto usually maps the stub to it itself; where it answers the stub anyway
    (asyncstdlib's ``builtins.pyi`` beside ``builtins.py``, whose ``@overload`` stubs Jedi keeps), the
    call still runs the ``.py`` definition."""
    if not r.path.endswith(".pyi"):
        return []
    twins = by_tail.get(_tail(symbols, r), [])
    same = [t for t in twins if symbols[t].qualified_name == r.qualified_name]
    if same:  # a run-time definition of that name exists
        return same if same_name and len(same) == 1 else []
    return twins if len(twins) == 1 else []
