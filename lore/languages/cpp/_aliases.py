"""What C++ names through declarations: ``using`` imports, namespace aliases, ``typedef`` and ``using X = T``.

Functions of the extractor (``ex``, a :class:`~lore.languages.cpp._parser.CppExtractor`), kept apart from it as
:mod:`._elements` is.
"""

from __future__ import annotations

from ...parsers import _ts
from ..c._extract import CExtractor
from ._elements import alias_element, element_of
from ._templates import template_base

# ``using App::add_option;`` in a class: a binding ``<using>add_option`` of the class whose value is ``App`` (the
# base's overloads join the class's own: :func:`lore.languages.cpp._rules._using_base`)
USING = "<using>"


def on_using(ex, node: _ts.Node, owner: int) -> None:
    """``using namespace a::b;`` (star), ``using a::X;`` (member X); in a class, ``using Base::m;`` (:data:`USING`),
    not ``using Base::Base;`` (inherited constructors)."""
    if ex.pf.symbols[owner].kind in ("class", "struct"):
        target = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
        scope, _, name = (ex.spell(target) if target is not None else "").rpartition(".")
        if scope and name and name != scope.rpartition(".")[2]:
            ex.add_binding(owner, USING + name, node, value=scope)
        return
    target = next((c for c in node.named_children if c.type in ("qualified_identifier", "identifier",
                                                                 "namespace_identifier")), None)
    path = ex.spell(target) if target is not None else ""
    if not path:
        return
    if any(c.type == "namespace" for c in node.children):
        ex.add_import(owner, f"namespace {path.replace('.', '::')}", node, "*")
        return
    scope, _, name = path.rpartition(".")
    if scope:
        ex.add_import(owner, f"namespace {scope.replace('.', '::')}", node, name)


def on_namespace_alias(ex, node: _ts.Node, owner: int) -> None:
    """``namespace fs = std::filesystem;``: the name ``fs`` for that namespace."""
    alias = ex.text(node.child_by_field_name("name"))
    target = next((c for c in node.named_children if c.type in ("nested_namespace_specifier",
                                                                 "namespace_identifier")
                   and c != node.child_by_field_name("name")), None)
    if alias and target is not None:
        ex.add_import(owner, f"namespace {ex.text(target).replace(' ', '')}", node, None, alias)


def on_typedef(ex, node: _ts.Node, owner: int) -> None:
    """``typedef T Name;`` and ``using Name = T;``: a ``type_alias`` that extends ``T``, so a value declared
    ``Name`` has ``T``'s members (an alias of a library type: the library's, never guessed by name)."""
    if node.type != "alias_declaration":
        before = len(ex.pf.symbols)
        CExtractor.on_typedef(ex, node, owner)
        target = ex._written_type(node.child_by_field_name("type"))
        # typedef std::shared_ptr<node> shared_node; (template arguments apart: see _templates)
        held = ex.direct_type(node.child_by_field_name("type")).partition("[")[0]
        written = node.child_by_field_name("type")
        if written is not None and element_of(ex, written) is not None:  # typedef std::vector<Foo*> Files;
            for local in range(before, len(ex.pf.symbols)):
                ex.aliases[ex.pf.symbols[local].name] = written
                if ex.pf.symbols[local].kind == "type_alias":
                    alias_element(ex, local, written, node)
        for local in range(before, len(ex.pf.symbols)):
            if target and ex.pf.symbols[local].kind == "type_alias" and ex.pf.symbols[local].name != target \
                    and not ex.is_type_param(local, target):
                if held and held != target and not ex.is_type_param(local, held):
                    ex.add_relation(local, held, "extends", node)  # first: n->m() is the held type's m
                ex.add_relation(local, target, "extends", node)
                template_base(ex, local, written, target)  # typedef Grid<Point> PointGrid: its T is a Point
        return
    name = ex.text(node.child_by_field_name("name"))  # using Name = Type;
    if not name:
        return
    local = ex.add_symbol(node, owner, name, "type_alias", doc_node=node)
    if ex.pf.symbols[owner].kind in ("module", "namespace"):
        ex.type_locals.setdefault(name, local)
    ex.template_params(node, local)
    ex.add_types(local, node.child_by_field_name("type"), "annotation")
    tnode = node.child_by_field_name("type")
    if tnode is not None and tnode.type == "type_descriptor":  # using X = const T<A>;: T
        tnode = tnode.child_by_field_name("type")
    if tnode is not None and element_of(ex, tnode) is not None:  # using Files = std::vector<Foo*>: Foo elements
        ex.aliases[name] = tnode
        alias_element(ex, local, tnode, node)
    target = ex._written_type(tnode)  # a wrapper as written: CharReaderPtr(...) makes a unique_ptr
    held = ex.direct_type(tnode).partition("[")[0]  # and what it holds, first: p->read() is the CharReader's read
    if held and held != target and held != name and not ex.is_type_param(local, held):
        ex.add_relation(local, held, "extends", node)
    if target and target != name and not ex.is_type_param(local, target):
        ex.add_relation(local, target, "extends", node)
        template_base(ex, local, tnode, target)  # using PointGrid = Grid<Point>: its T is a Point
