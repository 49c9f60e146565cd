"""Where a qualified C++ definition goes: the namespaces and classes its scope names (``void ns::A::m() {}``).

Functions of the extractor (``ex``, a :class:`~lore.languages.cpp._parser.CppExtractor`), kept apart from it as
:mod:`._elements` is. A scope declared in this file holds the definition; one declared elsewhere (its header) is a
declaration-only placeholder the resolver pairs with the real class or namespace by that nesting. Whether an
unknown scope is a class or a namespace is read from the file (:func:`lower_classes`).
"""

from __future__ import annotations

import re
from pathlib import Path

from ...parsers import _ts

# ``node::node(``, ``node::~node(``, ``node::ok(...) const``: a lower-case scope that only a class can be
_LOWER_CLASS = re.compile(rb"\b([a-z_]\w*)::(?:~?\1[ \t]*\(|~?\w+[ \t]*\([^;{}()]*(?:\)[ \t]*const\b|\b\1[ \t]*[&*]))")
# ``sink<Mutex>::log(``: a scope with template arguments before a member's name is a class (no namespace takes any)
_TEMPLATE_SCOPE = re.compile(rb"\b([a-z_]\w*)[ \t]*<[^;{}()<>]*(?:<[^;{}()<>]*>[^;{}()<>]*)*>[ \t]*::[ \t]*~?\w+[ \t]*\(")
_INL_SUFFIX = re.compile(r"[-_.](?:inl|impl|inline)$")


def lower_classes(source: bytes, path: str) -> set[bytes]:
    """Lower-case scopes a file shows to be classes (``node::node()``, ``bool node::ok() const``, ``void
    memory::merge(const memory& rhs)``, ``void sink<Mutex>::log(``, and ``memory::`` in memory.cpp or memory-inl.h)."""
    got = {m.group(1) for m in _LOWER_CLASS.finditer(source)} if b"::" in source else set()
    if b">::" in source or b"> ::" in source:
        got.update(m.group(1) for m in _TEMPLATE_SCOPE.finditer(source))
    stem = Path(path).stem
    got.add(stem.encode())
    got.add(_INL_SUFFIX.sub("", stem).encode())  # thread_pool-inl.h defines thread_pool's methods
    return got


def path_of(ex, ns: int) -> str:
    """The C++ path of a namespace symbol (``a::b``)."""
    names = []
    i: int | None = ns
    while i is not None and ex.pf.symbols[i].kind == "namespace":
        names.append(ex.pf.symbols[i].name)
        i = ex.pf.symbols[i].parent
    return "::".join(reversed(names))


def placeholder(ex, node: _ts.Node, owner: int, name: str, kind: str) -> int:
    """A declaration-only namespace or class named by a qualified definition (``void ns::A::m()``)."""
    got = ex.scopes.get((owner, name))
    if got is not None:
        return got
    local = ex.add_symbol(node, owner, name, kind, is_declaration=True)
    sym = ex.pf.symbols[local]
    sym.signature, sym.docstring, sym.end_line = f"{kind} {name}", "", sym.start_line
    ex.scopes[(owner, name)] = local
    return local


def scope_of(ex, node: _ts.Node, owner: int, scope_name: str) -> tuple[int, bool]:
    """``A::m`` defined here, ``A`` declared elsewhere (its header): a declaration-only ``A`` holds the
    methods, inside the namespaces the definition is in or names (``ns::A::m``); the resolver pairs it
    with the real ``A`` by that nesting. An unknown lower-case scope is taken for a namespace."""
    parts = scope_name.split(".")
    for part in parts[:-1]:  # Value::CZString::CZString: Value is a class, ns::A::m: ns a namespace
        got = ex.scopes.get((owner, part))
        if got is None and owner == 0:
            got = ex.type_locals.get(part)
        owner = got if got is not None else placeholder(ex, node, owner, part, _scope_kind(ex, part))
    last = parts[-1]
    got = ex.scopes.get((owner, last))
    if got is None and owner == 0:
        got = ex.type_locals.get(last)
    if got is None:
        got = placeholder(ex, node, owner, last, _scope_kind(ex, last))
        if ex.pf.symbols[got].kind == "class" and ex.pf.symbols[owner].kind in ("module", "namespace"):
            ex.type_locals.setdefault(last, got)
    return got, ex.pf.symbols[got].kind in ("class", "struct")


def _scope_kind(ex, name: str) -> str:
    """What an unknown scope of a qualified definition is: a namespace when the file opens a namespace of that
    name (``namespace YAML {``) or it is lower case, else a class; a lower-case scope is a class where the file
    defines its constructor or destructor (``node::node()``), a ``const`` method of it (``bool node::ok() const``)
    or a method taking it (``void memory::merge(const memory& rhs)``), names it with template arguments
    (``void sink<Mutex>::log(``), or where the file is named like it (``memory.cpp``, ``memory-inl.h``)."""
    if (name[:1].isupper() or name.encode() in ex.lower_classes) and not any(s.kind == "namespace" and s.name == name for s in ex.pf.symbols):
        return "class"
    return "namespace"
