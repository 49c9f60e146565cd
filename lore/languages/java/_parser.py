"""Java: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, records, interfaces, annotation types, enums, methods and constructors (named
``<init>`` as javap does: named like their class they would shadow it); nested types keep their outer class in the qualified name.
Calls keep the receiver path (``this.repo.flush``, ``repo.save``); ``super.m()`` is ``super().m`` and
``super(...)`` calls the base class's constructor. Fields are bindings of the class both as ``self.x``
and as ``x`` (Java methods see fields without ``this``), with their declared type; locals bind their
declared type or, for ``var``, the constructor/method they come from (so do the variables of
enhanced ``for`` loops). Imports: ``import a.b.C`` -> module ``a.b``, name ``C``; ``import a.b.*`` -> name
``*``; static imports name the member.

Every call records its arguments (``Call.args``, one entry per argument, so their number is the call's
arity) as what overload resolution needs (:mod:`lore.languages.java._overloads`): a type the syntax
shows (``#int``, ``#String``, ``#null``, ``#lambda``, ``#T:Node[]`` for a declared, cast or constructed
type), else the path the resolver can type (``x``, ``this.f``, ``a.b()``), else ``""``. An enum
constant of an enum that declares constructors calls one (``new`` of the enum, at the constant).
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
PRIMITIVES = frozenset({"int", "long", "short", "byte", "char", "boolean", "float", "double"})
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||", "instanceof"})
_NUMERIC = ("int", "long", "float", "double")
_OTHER_TYPE_NODES = frozenset({"integral_type", "floating_point_type", "boolean_type", "generic_type", "array_type"})
# methods whose result type is the same on every JDK class that has them: a call on an expression the
# resolver cannot follow (``((Long) o).longValue()``) still has that type
_UNIVERSAL_RESULTS = {"longValue": "#long", "intValue": "#int", "doubleValue": "#double", "floatValue": "#float",
                      "booleanValue": "#boolean", "toString": "#String", "hashCode": "#int", "length": "#int",
                      "charAt": "#char", "size": "#int", "name": "#String", "getName": "#String"}  # binary numeric promotion picks the widest


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

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._decls: dict[int, dict[str, list[tuple[int, str]]]] = {}  # scope -> name -> [(line, type text)]
        self._pending: list[tuple[int, int, list[_ts.Node]]] = []  # (call index, owner, argument nodes)
        self._enum_ctors: dict[int, bool] = {}

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, TYPE_NAME_NODES, JAVA_LANG)

    def direct_type(self, node: _ts.Node | None) -> str:
        if node is None or node.type not in ("type_identifier", "scoped_type_identifier", "generic_type"):
            return ""
        if node.type == "type_identifier" and self.text(node) in JAVA_LANG and self.text(node) != "var":
            return self.text(node)  # String, Integer ...: java.lang's, so their methods are never a guess
        if node.type == "generic_type":
            got = self._container_type(node)
            if got:
                return got
        return first_type(self.types_in(node))

    def _container_type(self, node: _ts.Node) -> str:
        """``List<Node>`` as ``List[Node]``, ``Map<String, Node>`` as ``Map[String, Node]``: a JDK collection
        with the types of its elements, so ``nodes.get(0).m()`` is ``Node.m`` (:mod:`lore.index._containers`);
        ``''`` for other generic types and for arguments that are not plain class names."""
        base = next((c for c in node.named_children if c.type != "type_arguments"), None)
        targs = next((c for c in node.named_children if c.type == "type_arguments"), None)
        if base is None or targs is None or self.text(base).rsplit(".", 1)[-1] not in JDK_CONTAINERS:
            return ""
        args = []
        for a in targs.named_children:
            if a.type == "wildcard":  # ? extends Node: what comes out is a Node
                bound = [c for c in a.named_children if c.type in ("type_identifier", "scoped_type_identifier")]
                if len(bound) != 1 or "super" in self.text(a):
                    return ""
                a = bound[0]
            if a.type not in ("type_identifier", "scoped_type_identifier"):
                return ""
            args.append("".join(self.text(a).split()))
        return f"{self.text(base)}[{', '.join(args)}]" if args else ""

    def type_text(self, node: _ts.Node | None) -> str:
        """A declared type as overload resolution compares it: no generic arguments, no annotations,
        dimensions kept (``Map.Entry<K, V>[]`` -> ``Map.Entry[]``); ``''`` for ``var`` and none."""
        if node is None:
            return ""
        t = node.type
        if t == "generic_type":
            return self.type_text(next((c for c in node.named_children if c.type != "type_arguments"), None))
        if t == "array_type":
            dims = self.text(node.child_by_field_name("dimensions")).count("[")
            return self.type_text(node.child_by_field_name("element")) + "[]" * max(dims, 1)
        if t == "annotated_type":
            return self.type_text(node.named_children[-1]) if node.named_child_count else ""
        if t in ("integral_type", "floating_point_type", "boolean_type"):
            return self.text(node)
        if t in ("type_identifier", "scoped_type_identifier"):
            text = "".join(self.text(node).split())
            return "" if text == "var" else text
        return ""

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
        if kind == "anon":
            return self._anonymous(node, owner)
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

    def _anonymous(self, body: _ts.Node, owner: int) -> int | None:
        """The class body of ``new Base() { ... }`` or of an enum constant ``DELETE { ... }``: a class of its own
        deriving from ``Base`` (the enum), named ``Base$anon`` (``DELETE$body``), so that its methods are its own,
        ``this`` is it and an unqualified call inside finds its own and inherited methods first."""
        parent = body.parent
        if parent is None:
            return None
        if parent.type == "enum_constant":
            enum = self.pf.symbols[owner]
            if enum.kind != "enum":
                return None
            name, base, bnode = self.text(parent.child_by_field_name("name")) + "$body", enum.name, parent
        else:
            names = self.types_in(parent.child_by_field_name("type"))
            if not names:
                return None
            base, bnode = names[0]
            name = base.rsplit(".", 1)[-1] + "$anon"
        local = self.add_symbol(body, owner, name, "class", body=body, exported=False)
        self.add_relation(local, base, "extends", bnode)
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
                tnode = tnode or next((c for c in p.named_children if c.type in TYPE_NAME_NODES
                                       or c.type in _OTHER_TYPE_NODES), None)
            pname = self.text(name_node)
            ann = self.direct_type(tnode)
            ttext = self.type_text(tnode)
            if ttext and p.type == "spread_parameter":
                ttext += "[]"
            self._declare(local, pname, p, ttext)
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
        self._with_args(owner, node)

    def _with_args(self, owner: int, node: _ts.Node) -> None:
        """The call just added gets its arguments once every declaration of the file is known (finish)."""
        calls = self.pf.calls
        if not calls or calls[-1].line != node.start_point[0] + 1:
            return
        args = node.child_by_field_name("arguments")
        if args is not None and args.named_child_count:
            self._pending.append((len(calls) - 1, owner, args.named_children))
        elif "." not in calls[-1].callee:  # no arguments; an unqualified name may still need checking (finish)
            self._pending.append((len(calls) - 1, owner, []))

    def on_enum_constant(self, node: _ts.Node, owner: int) -> None:
        """``DELETE(true)``: a construction of the enum by one of its constructors (when it declares any)."""
        sym = self.pf.symbols[owner]
        if sym.kind != "enum":
            return
        name = self.text(node.child_by_field_name("name"))
        if name:  # InBody.process(): the constant is a value of its enum (javac answers the enum's method)
            self.add_binding(owner, f"self.{name}", node, annotation=sym.name)
            self.add_binding(owner, name, node, annotation=sym.name)
        if not self._declares_constructor(node.parent):
            return
        self.add_call(owner, sym.name, node, "new")
        self._with_args(owner, node)

    def _declares_constructor(self, body: _ts.Node | None) -> bool:
        if body is None:
            return False
        got = self._enum_ctors.get(body.start_byte)
        if got is None:
            decls = [c for c in body.named_children if c.type == "enum_body_declarations"]
            got = self._enum_ctors[body.start_byte] = any(
                c.type == "constructor_declaration" for d in decls for c in d.named_children)
        return got

    def on_for_each(self, node: _ts.Node, owner: int) -> None:
        """``for (Map.Entry<K, V> e : m.entrySet())``: ``e`` has the declared type, as a local has."""
        tnode = node.child_by_field_name("type")
        name = self.text(node.child_by_field_name("name"))
        if not name or tnode is None:
            return
        self._declare(owner, name, node, self.type_text(tnode))
        ann = self.direct_type(tnode)
        if ann:
            self.add_binding(owner, name, node, annotation=ann)

    def on_catch_param(self, node: _ts.Node, owner: int) -> None:
        """``catch (IOException e)``: ``e`` has the caught type (a multi-catch: the first one)."""
        ctype = next((c for c in node.named_children if c.type == "catch_type"), None)
        tnode = ctype.named_children[0] if ctype is not None and ctype.named_child_count else None
        name = self.text(node.child_by_field_name("name"))
        if tnode is not None and name:
            self._declare(owner, name, node, self.type_text(tnode))
            ann = self.direct_type(tnode)
            if ann:
                self.add_binding(owner, name, node, annotation=ann)

    # -- argument types (for overloads) -------------------------------------------------------------
    def _declare(self, owner: int, name: str, node: _ts.Node, type_text: str) -> None:
        if name:
            self._decls.setdefault(owner, {}).setdefault(name, []).append((node.start_point[0] + 1, type_text))

    def finish(self) -> None:
        for index, owner, nodes in self._pending:
            call = self.pf.calls[index]
            call.args = [self._arg(n, owner, call.line) for n in nodes]
            if call.kind == "call" and "." not in call.callee and self._declared(owner, call.callee, call.line) is not None:
                # ``tagName(tagName, ns)``: a call names a method, never the variable of that name (Java keeps
                # methods and variables apart), so it is looked up among the class's members
                call.callee = "this." + call.callee
        self._pending.clear()

    def _declared(self, owner: int, name: str, line: int) -> str | None:
        """The declared type text of ``name`` as seen from ``owner`` on ``line`` (``None``: not declared here)."""
        i: int | None = owner
        while i is not None:
            got = self._decls.get(i, {}).get(name)
            if got:
                if self.pf.symbols[i].kind in TYPE_KINDS:
                    return got[-1][1]  # a field: declared anywhere in its class
                before = [t for ln, t in got if ln <= line]
                if before:
                    return before[-1]
            i = self.pf.symbols[i].parent
        return None

    def _arg(self, node: _ts.Node | None, owner: int, line: int) -> str:
        """One argument as :mod:`._overloads` reads it (see the module docstring)."""
        if node is None:
            return ""
        t = node.type
        if t == "parenthesized_expression" and node.named_child_count:
            return self._arg(node.named_children[0], owner, line)
        if t in ("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal"):
            return "#long" if self.text(node)[-1:] in "lL" else "#int"
        if t in ("decimal_floating_point_literal", "hex_floating_point_literal"):
            return "#float" if self.text(node)[-1:] in "fF" else "#double"
        if t in ("string_literal", "text_block"):
            return "#String"
        if t == "character_literal":
            return "#char"
        if t in ("true", "false", "instanceof_expression"):
            return "#boolean"
        if t == "null_literal":
            return "#null"
        if t == "lambda_expression":  # with the number of its parameters (a Supplier takes none)
            params = node.child_by_field_name("parameters")
            n = 1 if params is not None and params.type == "identifier" else (
                params.named_child_count if params is not None else 0)
            return f"#lambda:{n}"
        if t == "method_reference":  # int[]::new takes the length: one parameter (an IntFunction)
            return "#lambda:1" if "".join(self.text(node).split()).endswith("[]::new") else "#lambda"
        if t == "class_literal":
            return "#T:Class"
        if t == "this":
            return "this"
        if t in ("object_creation_expression", "cast_expression"):
            return _typed(self.type_text(node.child_by_field_name("type")))
        if t == "array_creation_expression":
            dims = sum(self.text(c).count("[") for c in node.named_children if c.type in ("dimensions_expr", "dimensions"))
            base = self.type_text(node.child_by_field_name("type"))
            return _typed(base + "[]" * max(dims, 1)) if base else ""
        if t == "binary_expression":
            op = self.text(node.child_by_field_name("operator"))
            if op in _COMPARE:
                return "#boolean"
            left = self._arg(node.child_by_field_name("left"), owner, line)
            right = self._arg(node.child_by_field_name("right"), owner, line)
            if op == "+" and "#String" in (left, right):
                return "#String"
            return _promoted(left, right) if op in ("+", "-", "*", "/", "%") else ""
        if t == "unary_expression":
            op = self.text(node.child_by_field_name("operator"))
            if op == "!":
                return "#boolean"
            inner = self._arg(node.child_by_field_name("operand"), owner, line)
            return _promoted(inner, inner)
        if t == "ternary_expression":
            a = self._arg(node.child_by_field_name("consequence"), owner, line)
            b = self._arg(node.child_by_field_name("alternative"), owner, line)
            if "#null" in (a, b):  # c ? x : null has x's type
                return b if a == "#null" else a
            return a if a == b else ""
        if t == "identifier":
            name = self.text(node)
            declared = self._declared(owner, name, line)
            if declared is not None:
                return _typed(declared)
            return name  # a field the class inherits, a static import: the resolver may type it
        if t == "field_access" and self.text(node.child_by_field_name("object")) == "this":
            declared = self._declared(owner, self.text(node.child_by_field_name("field")), line)
            if declared is not None:
                return _typed(declared)
        if t == "array_access":
            arr = self._arg(node.child_by_field_name("array"), owner, line)
            return arr[:-2] if arr.startswith("#") and arr.endswith("[]") else ""
        if t in ("field_access", "method_invocation"):
            path = self.dotted(node)
            if path and "<" in path and t == "method_invocation":
                return _UNIVERSAL_RESULTS.get(self.text(node.child_by_field_name("name")), "")
            return path if path and "<" not in path else ""
        return ""

    def on_ctor_call(self, node: _ts.Node, owner: int) -> None:
        ctor = node.child_by_field_name("constructor")
        cls = self._class_of(owner)
        if ctor is None or cls is None:
            return
        if ctor.type == "super":
            base = next((r.target for r in self.pf.relations if r.source == cls and r.kind == "extends"), "")
            if base:
                self.add_call(owner, "super().<init>", node)
                self._with_args(owner, node)
        else:
            self.add_call(owner, "this.<init>", node)
            self._with_args(owner, node)

    def on_new(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        names = self.types_in(tnode)
        if names:
            self.add_call(owner, names[0][0], node, "new")
            self._with_args(owner, node)
        elif tnode is not None and tnode.type == "type_identifier":  # String, Object ...: still a construction
            self.add_call(owner, self.text(tnode), node, "new")
            self._with_args(owner, node)

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
        ttext = self.type_text(tnode)
        for d in self._declarators(node):
            name = self.text(d.child_by_field_name("name"))
            self._declare(owner, name, d, _with_dims(ttext, d, self))
            if ann:
                self.add_binding(owner, f"self.{name}", d, annotation=ann)
                self.add_binding(owner, name, d, annotation=ann)
            elif ttext in PRIMITIVES and d.child_by_field_name("dimensions") is None:
                # char LF: an argument Constants.LF is a char when overloads are chosen in another file
                self.add_binding(owner, f"self.{name}", d, annotation=ttext)
        self.add_types(owner, tnode, "field")

    def on_local(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        is_var = tnode is not None and self.text(tnode) == "var"
        ann = "" if is_var else self.direct_type(tnode)
        ttext = self.type_text(tnode)
        for d in self._declarators(node):
            name = self.text(d.child_by_field_name("name"))
            if is_var:
                value = d.child_by_field_name("value")
                if value is not None and value.type in ("object_creation_expression", "string_literal"):
                    got = self._arg(value, owner, d.start_point[0] + 1)
                    self._declare(owner, name, d, got[3:] if got.startswith("#T:") else got[1:])
            else:
                self._declare(owner, name, d, _with_dims(ttext, d, self))
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


# JDK collections whose element types lore follows (lore.index._containers knows their shapes)
JDK_CONTAINERS = frozenset({
    "List", "ArrayList", "LinkedList", "Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet",
    "Collection", "Iterable", "Iterator", "ListIterator", "Deque", "ArrayDeque", "Queue", "Map", "HashMap",
    "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "ConcurrentMap", "ConcurrentHashMap",
})


def _typed(type_text: str) -> str:
    """A type text as an argument entry: ``#int``, ``#String``, ``#T:Node[]`` (``''`` for none)."""
    if not type_text:
        return ""
    if type_text in PRIMITIVES or type_text == "String":
        return "#" + type_text
    return "#T:" + type_text


def _promoted(a: str, b: str) -> str:
    """The type of arithmetic on two argument entries (binary numeric promotion), ``''`` when unknown."""
    names = (a[1:], b[1:])
    if not all(x.startswith("#") for x in (a, b)) or not all(n in PRIMITIVES and n != "boolean" for n in names):
        return ""
    widest = max(_NUMERIC.index(n) if n in _NUMERIC else 0 for n in names)
    return "#" + _NUMERIC[widest]


def _with_dims(type_text: str, declarator: _ts.Node, ex: JavaExtractor) -> str:
    """``int x[]``: dimensions written after the name belong to the type."""
    dims = declarator.child_by_field_name("dimensions")
    return type_text + "[]" * ex.text(dims).count("[") if dims is not None and type_text else type_text
