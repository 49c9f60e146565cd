"""Java: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, records, interfaces, annotation types, enums, methods and constructors (named
``<init>`` as javap does: named like their class they would shadow it); nested types keep their outer class in the qualified name.
Calls keep the receiver path (``this.repo.flush``, ``repo.save``); ``super.m()`` is ``super().m`` and
``super(...)`` calls the base class's constructor. Fields are bindings of the class both as ``self.x``
and as ``x`` (Java methods see fields without ``this``), with their declared type; locals bind their
declared type or, for ``var``, the constructor/method they come from. Imports: ``import a.b.C`` ->
module ``a.b``, name ``C``; ``import a.b.*`` -> name ``*``; static imports name the member.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, first_type, type_names
from ...parsers.records import ParsedFile

TYPE_NAME_NODES = frozenset({"type_identifier", "scoped_type_identifier"})
JAVA_LANG = frozenset({
    "String", "Object", "Integer", "Long", "Double", "Float", "Boolean", "Character", "Byte", "Short", "Void",
    "Exception", "RuntimeException", "Throwable", "Error", "Override", "Deprecated", "var",
})
TYPE_KINDS = ("class", "interface", "enum")


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Java file into plain records.

    Examples
    --------
    >>> src = b"class A extends B { void run() { this.step(); super.go(); } }"
    >>> pf = parse("A.java", src, "A")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('A', 'module'), ('A.A', 'class'), ('A.A.run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['this.step', 'super().go']
    """
    return JavaExtractor(path, source, module).run()


class JavaExtractor(Extractor):
    language = "java"
    grammar = "java"
    query_files = (Path(__file__).with_name("java.scm"),)
    comment_types = frozenset({"block_comment", "line_comment"})
    wrapper_names = frozenset({"Optional", "CompletableFuture", "Future", "CompletionStage", "Supplier"})

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, TYPE_NAME_NODES, JAVA_LANG)

    def direct_type(self, node: _ts.Node | None) -> str:
        if node is None or node.type not in ("type_identifier", "scoped_type_identifier", "generic_type"):
            return ""
        return first_type(self.types_in(node))

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "type_identifier"):
            return self.text(node)
        if t == "this":
            return "this"
        if t == "super":
            return "super()"
        if t == "field_access":
            obj = self.dotted(node.child_by_field_name("object"))
            return f"{obj or '<expr>'}.{self.text(node.child_by_field_name('field'))}"
        if t == "scoped_identifier" or t == "scoped_type_identifier":
            return self.text(node).replace(" ", "")
        if t == "method_invocation":
            inner = self._callee(node)
            return f"{inner}()" if inner else "<expr>()"
        if t == "object_creation_expression":  # new Builder().kind(): a Builder
            names = self.types_in(node.child_by_field_name("type"))
            return f"{names[0][0]}()" if names else "<expr>()"
        if t == "parenthesized_expression" and node.named_child_count:
            return self.dotted(node.named_children[0])
        return ""

    def _callee(self, node: _ts.Node) -> str:
        name = self.text(node.child_by_field_name("name"))
        obj = node.child_by_field_name("object")
        if obj is None:
            return name
        return f"{self.dotted(obj) or '<expr>'}.{name}"

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name:
            return None
        body = node.child_by_field_name("body")
        decorators = self._annotations(node)
        exported = self._is_public(node)
        if kind in TYPE_KINDS:
            local = self.add_symbol(node, owner, name, kind, body=body, decorators=decorators, exported=exported)
            self.declare_type_params(local, node.child_by_field_name("type_parameters"))
            sup = node.child_by_field_name("superclass")
            if sup is not None:
                for tname, tn in self.types_in(sup)[:1]:
                    self.add_relation(local, tname, "extends", tn)
            ifaces = node.child_by_field_name("interfaces")
            if ifaces is None:
                ifaces = next((c for c in node.named_children if c.type == "extends_interfaces"), None)
            if ifaces is not None:
                rel = "extends" if kind == "interface" else "implements"
                for lst in ifaces.named_children:
                    for tn in lst.named_children if lst.type == "type_list" else [lst]:
                        for tname, tnode in self.types_in(tn)[:1]:
                            self.add_relation(local, tname, rel, tnode)
            if node.type == "record_declaration":  # record components are fields
                self._params(node, local, local, fields=True)
            return local
        if node.type in ("constructor_declaration", "compact_constructor_declaration"):
            name = "<init>"  # as javap names it: named like its class, it would shadow the class in lookups
        local = self.add_symbol(node, owner, name, "method", body=body, decorators=decorators, exported=exported,
                                is_declaration=body is None)
        self.declare_type_params(local, node.child_by_field_name("type_parameters"))
        self._params(node, local, owner)
        ret = node.child_by_field_name("type")
        if ret is not None:
            self.pf.symbols[local].return_type = self.direct_type(ret)
            self.add_types(local, ret, "return")
        return local

    def _params(self, node: _ts.Node, local: int, owner: int, fields: bool = False) -> None:
        params = node.child_by_field_name("parameters")
        if params is None:
            return
        sym = self.pf.symbols[local]
        for p in params.named_children:
            if p.type not in ("formal_parameter", "spread_parameter"):
                continue
            tnode = p.child_by_field_name("type")
            name_node = p.child_by_field_name("name")
            if name_node is None:  # spread_parameter: type ... variable_declarator
                decl = next((c for c in p.named_children if c.type == "variable_declarator"), None)
                name_node = decl.child_by_field_name("name") if decl is not None else None
                tnode = tnode or next((c for c in p.named_children if c.type in TYPE_NAME_NODES), None)
            pname = self.text(name_node)
            ann = self.direct_type(tnode)
            if fields:
                self.add_binding(local, f"self.{pname}", p, annotation=ann)
                self.add_binding(local, pname, p, annotation=ann)
                self.add_types(local, tnode, "field")
                continue
            sym.params.append((pname, ann))
            self.add_types(local, tnode, "param")

    def _modifiers(self, node: _ts.Node) -> _ts.Node | None:
        return next((c for c in node.named_children if c.type == "modifiers"), None)

    def _annotations(self, node: _ts.Node) -> list[str]:
        mods = self._modifiers(node)
        if mods is None:
            return []
        return [self.text(a.child_by_field_name("name")) for a in mods.named_children
                if a.type in ("marker_annotation", "annotation")]

    def _is_public(self, node: _ts.Node) -> bool:
        mods = self._modifiers(node)
        return mods is not None and any(c.type == "public" or self.text(c) == "public" for c in mods.children)

    def _class_of(self, owner: int) -> int | None:
        i: int | None = owner
        while i is not None:
            if self.pf.symbols[i].kind in TYPE_KINDS:
                return i
            i = self.pf.symbols[i].parent
        return None

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        self.add_call(owner, self._callee(node), node)

    def on_ctor_call(self, node: _ts.Node, owner: int) -> None:
        ctor = node.child_by_field_name("constructor")
        cls = self._class_of(owner)
        if ctor is None or cls is None:
            return
        if ctor.type == "super":
            base = next((r.target for r in self.pf.relations if r.source == cls and r.kind == "extends"), "")
            if base:
                self.add_call(owner, "super().<init>", node)
        else:
            self.add_call(owner, "this.<init>", node)

    def on_new(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        names = self.types_in(tnode)
        if names:
            self.add_call(owner, names[0][0], node, "new")
        elif tnode is not None and tnode.type == "type_identifier":  # String, Object ...: still a construction
            self.add_call(owner, self.text(tnode), node, "new")

    def on_import(self, node: _ts.Node, owner: int) -> None:
        path = next((c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None)
        if path is None:
            return
        full = self.text(path).replace(" ", "")
        star = any(c.type == "asterisk" for c in node.named_children)
        if star:
            self.add_import(owner, full, node, "*")
            return
        module, _, name = full.rpartition(".")
        self.add_import(owner, module, node, name)

    def _declarators(self, node: _ts.Node) -> list[_ts.Node]:
        return [c for c in node.children_by_field_name("declarator") if c.type == "variable_declarator"]

    def on_field(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind not in TYPE_KINDS:
            return
        tnode = node.child_by_field_name("type")
        ann = self.direct_type(tnode)
        for d in self._declarators(node):
            name = self.text(d.child_by_field_name("name"))
            if ann:
                self.add_binding(owner, f"self.{name}", d, annotation=ann)
                self.add_binding(owner, name, d, annotation=ann)
        self.add_types(owner, tnode, "field")

    def on_local(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        is_var = tnode is not None and self.text(tnode) == "var"
        ann = "" if is_var else self.direct_type(tnode)
        for d in self._declarators(node):
            name = self.text(d.child_by_field_name("name"))
            if ann:
                self.add_binding(owner, name, d, annotation=ann)
            elif is_var:
                self._bind_value(owner, name, d, d.child_by_field_name("value"))
        if not is_var:
            self.add_types(owner, tnode, "annotation")

    def _bind_value(self, owner: int, name: str, at: _ts.Node, value: _ts.Node | None) -> None:
        if value is None:
            return
        if value.type == "object_creation_expression":
            names = self.types_in(value.child_by_field_name("type"))
            if names:
                self.add_binding(owner, name, at, value=names[0][0])
        elif value.type == "method_invocation":
            self.add_binding(owner, name, at, value=self._callee(value))
        elif value.type in ("identifier", "field_access"):
            src = self.dotted(value)
            if src and "<" not in src:
                self.add_binding(owner, name, at, alias_of=src)
