"""Constructions whose type depends on a template parameter: the class, as clangd answers them.

``template <class TC> ... return basic_value<TC>(x);``, ``new (this) GenericValue(i)`` inside the class template
``GenericValue``, ``: sink<Mutex>(mode)`` in a class template's constructor: which constructor runs is not known
until the template is instantiated, and the compiler's own answer (clangd's go-to-definition, which lore is measured
against) is the class: it names no constructor there. The extractor marks such a construction with the call
attribute ``~dep`` (:func:`mark_dependent`) when its written type has template arguments that name a template
parameter of a template around the call, or is the class template the call sits in (its injected name); the
resolver then binds the class instead of its constructors (:func:`dependent_construction`). A construction with
concrete arguments (``Box<int>(1)``) or of another class keeps its constructor.
"""

from __future__ import annotations

import re

from ...parsers import _ts

DEPENDENT = "~dep"
_CLASSES = frozenset({"class_specifier", "struct_specifier"})


def _params(ex, node: _ts.Node) -> tuple[set[str], set[str]]:
    """The template parameter names of the templates around ``node`` (with the type aliases a class template
    around it declares from them), and the names of the class templates it sits in (a class template's own, an
    out-of-line member's ``Box<T>::run``)."""
    names: set[str] = set()
    classes: set[str] = set()
    aliases: list[tuple[str, str]] = []
    n = node.parent
    while n is not None:
        if n.type == "template_declaration":
            plist = n.child_by_field_name("parameters")
            for p in plist.named_children if plist is not None else ():
                ident = next((c for c in p.named_children if c.type in ("type_identifier", "identifier")), None)
                if ident is None and p.named_child_count:  # typename... Ts, int N = 1
                    inner = p.named_children[0]
                    ident = next((c for c in inner.named_children if c.type in ("type_identifier", "identifier")), None)
                if ident is not None:
                    names.add(ex.text(ident))
            for c in n.named_children:
                if c.type in _CLASSES and (cname := c.child_by_field_name("name")) is not None:
                    classes.add(ex.text(cname))
                    aliases.extend(_member_aliases(ex, c))
                elif c.type == "function_definition":
                    classes.update(_scope_templates(ex, c))
        n = n.parent
    for _ in range(2):  # an alias of a dependent alias (using value_type = ...; using table_type = map<K, value_type>)
        names.update(a for a, text in aliases if a not in names and any(re.search(rf"\b{re.escape(m)}\b", text)
                                                                          for m in names))
    return names, classes


def _member_aliases(ex, cls: _ts.Node) -> list[tuple[str, str]]:
    """``(name, written type)`` of the type aliases a class template declares in its body (``using table_type =
    typename TC::table_type;``, ``typedef typename Encoding::Ch Ch;``): a dependent one names a dependent type."""
    body = cls.child_by_field_name("body")
    out = []
    for c in body.named_children if body is not None else ():
        if c.type == "alias_declaration" and (name := c.child_by_field_name("name")) is not None:
            out.append((ex.text(name), ex.text(c.child_by_field_name("type"))))
        elif c.type == "type_definition" and (d := c.child_by_field_name("declarator")) is not None \
                and d.type == "type_identifier":
            out.append((ex.text(d), ex.text(c.child_by_field_name("type"))))
    return out


def _scope_templates(ex, fn: _ts.Node) -> set[str]:
    """``template <class T> void Box<T>::run()``: ``{"Box"}``."""
    d = fn.child_by_field_name("declarator")
    while d is not None and d.type not in ("qualified_identifier",):
        d = d.child_by_field_name("declarator")
    scope = d.child_by_field_name("scope") if d is not None else None
    if scope is not None and scope.type == "template_type" and (name := scope.child_by_field_name("name")) is not None:
        return {ex.text(name)}
    return set()


def mark_dependent(ex, tnode: _ts.Node | None, owner: int) -> None:
    """Mark the last recorded call (a construction of the type ``tnode`` names) ``~dep`` when that type depends on
    a template parameter of a template around it: template arguments naming one (``basic_value<TC>``), or the class
    template the call sits in, named bare (``GenericValue(i)`` in ``GenericValue``'s members)."""
    if tnode is None or not ex.pf.calls or ex.pf.calls[-1].caller != owner:
        return
    t = tnode
    while t.type == "qualified_identifier" and (inner := t.child_by_field_name("name")) is not None:
        t = inner
    if t.type in ("template_type", "template_function", "template_method"):
        args = next((c for c in t.named_children if c.type == "template_argument_list"), None)
        if args is None:
            return
        names, _ = _params(ex, tnode)
        text = ex.text(args)
        if names and any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            ex.pf.calls[-1].args.append(DEPENDENT)
    elif t.type in ("identifier", "type_identifier") and t is tnode and _inside_class(ex, owner, ex.text(t)):
        _, classes = _params(ex, tnode)
        if ex.text(t) in classes:
            ex.pf.calls[-1].args.append(DEPENDENT)


def _inside_class(ex, owner: int, name: str) -> bool:
    """Whether a class (or an out-of-line member's placeholder) of that name holds ``owner``: the cheap test before
    the tree is walked."""
    syms = ex.pf.symbols
    i: int | None = syms[owner].parent
    while i is not None:
        if syms[i].name == name and syms[i].kind in ("class", "struct"):
            return True
        i = syms[i].parent
    return False


def dependent_construction(world, call, targets: list[tuple]) -> list[tuple] | None:
    """The class, for a ``~dep`` construction bound to constructors of one class; ``None`` otherwise."""
    if DEPENDENT not in call.args or not targets:
        return None
    owners = constructor_owners(world, targets)
    if owners is None or len({getattr(world.syms.get(o), "qualified_name", None) for o in owners}) != 1:
        return None
    return [(main_class(world, owners), targets[0][1], 1.0)]


def constructor_owners(world, targets: list[tuple]) -> set[int] | None:
    """The classes whose constructors ``targets`` are, or ``None`` when one target is not a constructor."""
    owners = set()
    for t in targets:
        srow = world.syms.get(t[0]) if t[0] is not None else None
        if srow is None or srow.name != "<init>" or srow.parent_id is None:
            return None
        owners.add(srow.parent_id)
    return owners


def main_class(world, owners: set[int]) -> int:
    """Of the symbols holding one class's constructors, the class itself rather than a placeholder holding
    out-of-line ones: the one declaring most members (ties by id)."""
    return min(owners, key=lambda o: (-len(world.children.get(o, ())), o))
