"""The house rules: imports run one way (the layer order of DESIGN.md), no import cycles, small modules.

The import graph is read from the source with :mod:`ast` (every ``import`` / ``from ... import``,
including the ones hidden inside functions and ``TYPE_CHECKING`` blocks: a back-import inside a
function is still an upward dependency), so the test cannot be fooled by import order at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "lore"

# layer -> the layers it may import (besides itself). From DESIGN.md:
# errors <- algorithms, parsers, text, store <- languages <- index; store, algorithms <- graphs;
# store, text, graphs <- search, docs <- queries <- api <- cli, mcp_server, bench.
_BOTTOM = {"errors"}
_BASE = _BOTTOM | {"algorithms", "parsers", "text", "store", "_paths", "_files", "_ray"}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "_paths": {"errors"},
    "_files": {"errors"},
    "_ray": {"errors"},
    "algorithms": {"errors"},
    "parsers": {"errors"},
    "text": {"errors"},
    "store": {"errors"},
    "languages": _BASE,
    "index": _BASE | {"languages"},
    "graphs": {"errors", "store", "algorithms", "_files", "_ray"},
    "search": _BASE | {"graphs"},
    "docs": _BASE | {"graphs"},
}
ALLOWED["queries"] = set().union(*ALLOWED.values()) | set(ALLOWED) - {"queries"}
ALLOWED["api"] = ALLOWED["queries"] | {"queries"}
for _top in ("cli", "mcp_server", "mcp_schema", "bench"):
    ALLOWED[_top] = ALLOWED["api"] | {"api", "lore"}
ALLOWED["mcp_server"] |= {"mcp_schema"}
ALLOWED["cli"] |= {"bench", "mcp_server", "mcp_schema"}  # the shell over everything; never the other way
ALLOWED["lore"] = {"api", "errors", "_version"}  # lore/__init__.py: the curated public surface
ALLOWED["__main__"] = {"cli"}
ALLOWED["_version"] = set()
# siblings on one level that must not know each other
FORBIDDEN_PAIRS = {("search", "docs"), ("docs", "search"), ("mcp_server", "cli"), ("bench", "cli")}
MAX_MODULE_BYTES = 30_000


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every lore module ``path`` imports (absolute dotted names), wherever the import sits."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "lore" or target.startswith("lore."):
                found.add(target)
                # `from lore.x import y` may import the submodule lore.x.y
                found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name == "lore" or a.name.startswith("lore."))
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for t in _imports(path):
            while t not in modules and "." in t:  # `from lore.x import func`: the module is lore.x
                t = t.rpartition(".")[0]
            if t in modules and t != name:
                targets.add(t)
        graph[name] = targets
    return graph


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "lore"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycles():
    cycles = _cycles(_graph())
    assert cycles == [], f"import cycles: {cycles}"


def test_imports_follow_the_layer_order():
    bad = []
    for module, targets in sorted(_graph().items()):
        src = _layer(module)
        for t in sorted(targets):
            dst = _layer(t)
            if dst == src:
                continue
            if src not in ALLOWED:
                bad.append(f"{module}: layer {src!r} is not in the layer table (tests/test_architecture.py)")
                break
            if dst not in ALLOWED[src] or (src, dst) in FORBIDDEN_PAIRS:
                bad.append(f"{module} -> {t} ({src} may not import {dst})")
    assert bad == [], "imports against the layer order:\n" + "\n".join(bad)


def test_modules_stay_small():
    big = {str(p.relative_to(ROOT.parent)): p.stat().st_size for p in ROOT.rglob("*.py")
           if p.stat().st_size > MAX_MODULE_BYTES}
    assert big == {}, f"modules over {MAX_MODULE_BYTES} bytes: {big}"


def test_tree_sitter_only_in_ts_module():
    users = sorted(_module_name(p) for p in ROOT.rglob("*.py")
                   if any(isinstance(n, ast.Import | ast.ImportFrom)
                          and any((getattr(n, "module", None) or "").startswith("tree_sitter")
                                  or a.name.startswith("tree_sitter") for a in n.names)
                          for n in ast.walk(ast.parse(p.read_bytes()))))
    assert users == ["lore.parsers._ts"]


def test_sql_only_in_store():
    """SQL statements are written in lore/store/ only (a string that starts like a statement)."""
    words = ("SELECT ", "INSERT ", "UPDATE ", "DELETE FROM", "CREATE TABLE", "CREATE INDEX", "PRAGMA ")
    leaks = []
    for p in sorted(ROOT.rglob("*.py")):
        name = _module_name(p)
        if name.startswith("lore.store"):
            continue
        for node in ast.walk(ast.parse(p.read_bytes())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.lstrip().upper()
                if text.startswith(words):
                    leaks.append(f"{name}:{node.lineno}")
    assert leaks == [], f"SQL outside lore/store: {leaks}"


@pytest.mark.parametrize("module,expect", [
    ("lore.cli", True), ("lore.algorithms.pagerank", True),
])
def test_graph_sees_modules(module, expect):
    assert (module in _graph()) is expect


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
