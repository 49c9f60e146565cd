"""C++: the C extractor plus classes, namespaces, methods, base classes and ``new``.

Classes and structs with their methods (defined in the body, declared there, or defined out of line
as ``A::m``: children of ``A`` when ``A`` is declared in the same file, else ``<module>.A.m``);
namespaces are ``namespace`` symbols, so ``ns::f()`` resolves through them. Base classes are
``extends`` relations. ``this->m()`` is ``this.m``; ``new T(...)`` and ``T x(...)`` are constructions
of ``T`` (constructors are named ``<init>`` as in Java: named like their class they would shadow it). Locals declared ``auto x = make()`` bind the
callee so ``x.m()`` resolves through ``make``'s return type.
"""

from __future__ import annotations

from . import _ts
from .c import CExtractor
from .records import ParsedFile


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one C++ file into plain records.

    Examples
    --------
    >>> src = b"namespace g { class A : public B { public: void run() { this->step(); } }; }"
    >>> pf = parse("a.cpp", src, "a")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('a', 'module'), ('a.g', 'namespace'), ('a.g.A', 'class'), ('a.g.A.run', 'method')]
    >>> [c.callee for c in pf.calls], [(r.target, r.kind) for r in pf.relations]
    (['this.step'], [('B', 'extends')])
    """
    return CppExtractor(path, source, module).run()


class CppExtractor(CExtractor):
    language = "cpp"
    grammar = "cpp"
    type_name_nodes = frozenset({"type_identifier", "qualified_identifier"})

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        out = []
        for name, n in super().types_in(node):
            if n.type == "qualified_identifier":
                name = self.dotted(n) or name
            if name and not name.startswith("std."):
                out.append((name, n))
        return out

    def direct_type(self, node: _ts.Node | None) -> str:
        if node is not None and node.type == "qualified_identifier":
            return self.dotted(node)
        return super().direct_type(node)

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "namespace":
            name = self.text(node.child_by_field_name("name")).replace("::", ".")
            if not name:
                return None  # anonymous namespace: its names belong to the file
            return self.add_symbol(node, owner, name, "namespace", body=node.child_by_field_name("body"))
        return super().define(node, owner, kind)

    def placeholder_class(self, node: _ts.Node, owner: int, scope_name: str) -> int | None:
        """``A::m`` defined here, ``A`` declared elsewhere (its header): a declaration-only ``A`` holds the
        methods, with the qualified name of the real one when header and source share their stem."""
        name = scope_name.rsplit(".", 1)[-1]
        local = self.add_symbol(node, owner, name, "class", is_declaration=True,
                                qualifier=f"{self.pf.symbols[owner].qualified_name}.{scope_name}"[: -len(name) - 1])
        sym = self.pf.symbols[local]
        sym.signature, sym.docstring, sym.end_line = f"class {name}", "", sym.start_line
        self.type_locals[name] = local
        return local

    def bases(self, node: _ts.Node, local: int) -> None:
        clause = next((c for c in node.named_children if c.type == "base_class_clause"), None)
        if clause is None:
            return
        for c in clause.named_children:
            if c.type in ("type_identifier", "qualified_identifier", "template_type"):
                name = self.dotted(c)
                if name:
                    self.add_relation(local, name, "extends", c)

    def method_declaration(self, node: _ts.Node, owner: int, declarator: _ts.Node) -> bool:
        fdecl = self.function_declarator(declarator)
        name_node = self.declarator_name(fdecl.child_by_field_name("declarator")) if fdecl is not None else None
        if name_node is None:
            return False
        if (owner, self.text(name_node)) not in self.defined:
            self._function(node, owner, declarator, None, is_declaration=True)
        return True

    def local_binding(self, owner: int, name: str, at: _ts.Node, tnode: _ts.Node | None, value: _ts.Node | None) -> None:
        if value is not None and value.type == "new_expression":
            t = self.dotted(value.child_by_field_name("type"))
            if t and (tnode is None or tnode.type == "placeholder_type_specifier"):
                self.add_binding(owner, name, at, value=t)
                return
        if value is not None and value.type == "argument_list" and tnode is not None:  # T x(args): a construction
            t = self.direct_type(tnode)
            if t:
                self.add_call(owner, t, value, "new")
        super().local_binding(owner, name, at, tnode, value)

    def on_new(self, node: _ts.Node, owner: int) -> None:
        t = self.dotted(node.child_by_field_name("type"))
        if t:
            self.add_call(owner, t, node, "new")
