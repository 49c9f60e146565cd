"""Swift: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, structs, enums, actors (kind ``class``, ``struct``, ``enum``), protocols (``interface``),
functions and methods, ``init`` / ``deinit`` / ``subscript`` (methods of their type), computed properties
(``property``, a member whose body runs when read), type aliases and nested types. A top-level declaration
is named by its SwiftPM module (``ArgumentParser.ParsableCommand``, the folder ``Sources/<Module>/``; see
:func:`swift_module`). ``extension Foo { .. }`` is a type symbol named ``extension Foo`` (qualified ``Module.Foo``,
marked ``extension``): the rules join its members to the type ``Foo`` declares elsewhere.

Calls keep the receiver path (``session.request``, ``self.run``, ``x?.m()`` as ``x.m``); ``super.m()`` is
``super().m``; ``Foo(..)`` constructs ``Foo`` (its ``init``). Each call records its argument labels
(``["url=", ""]``) and each function its parameters' labels (``(label, type)``, ``label=`` when the
parameter has a default value), so that overloads and initializers are told apart as the compiler does.
Locals bind their declared type or what they are made from (``let x = Foo()``, ``let x: Foo``,
``if let x = y``); stored properties with a type are typed members. ``import Module`` binds every public
name of the module.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, type_names
from ...parsers.records import ParsedFile

TYPE_KINDS = ("class", "struct", "enum", "interface", "type_alias")
# generic types whose element is not the value itself
_USER_TYPE = frozenset({"user_type"})  # a type name as written: its identifiers, then its type arguments
_WRAPPERS = frozenset({"Array", "Set", "Dictionary", "Optional", "Result", "Task", "AsyncStream", "Sequence",
                       "Collection"})
_KINDS = {"class": "class", "actor": "class", "struct": "struct", "enum": "enum", "extension": "class"}
_ROOTS = ("Sources", "Tests", "Plugins")
# folders that conventionally hold several programs, one per sub-folder
_PROGRAMS = frozenset({"Tools", "Examples", "Example", "Demo", "Demos", "Samples", "Benchmarks", "Apps", "Utilities"})
_UNWRAP = frozenset({"optional_type", "type_annotation", "implicitly_unwrapped_type", "opaque_type",
                     "existential_type", "tuple_type", "tuple_type_item"})
# the name of an extension's symbol: ``extension Foo``
EXTENSION = "extension "
# the type of a closure parameter (``@escaping (Int) -> Void``): a trailing closure goes there
FUNCTION = "->"
# statements and keywords the grammar reads as calls of a trailing closure (``defer { .. }``)
_NOT_CALLS = frozenset({"defer", "do", "catch", "repeat", "autoreleasepool"})


def swift_module(path: str) -> str:
    """The SwiftPM module a file belongs to: the folder under ``Sources/`` (``Tests/``, ``Plugins/``); in a
    folder of several programs (``Tools/<tool>/``, ``Examples/<example>/``) the program's folder; elsewhere
    the file's top folder ("" at the repository root).

    Examples
    --------
    >>> swift_module("Sources/ArgumentParser/Parsing/Name.swift"), swift_module("Tests/FooTests/A.swift")
    ('ArgumentParser', 'FooTests')
    >>> swift_module("Tools/generate-manual/DSL/Author.swift"), swift_module("Source/Core/Session.swift")
    ('Tools.generate-manual', 'Source')
    >>> swift_module("App/View.swift"), swift_module("Package.swift")
    ('App', '')
    """
    parts = path.split("/")[:-1]
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in _ROOTS and i + 1 < len(parts):
            return parts[i + 1]
    if len(parts) > 1 and parts[0] in _PROGRAMS:
        return f"{parts[0]}.{parts[1]}"
    return parts[0] if parts else ""


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Swift file into plain records.

    Examples
    --------
    >>> src = b"class A: B {\\n    func run() {\\n        self.step()\\n        super.go()\\n    }\\n}\\n"
    >>> pf = parse("Sources/App/A.swift", src, "Sources.App.A")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('Sources.App.A', 'module'), ('App.A', 'class'), ('App.A.run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['self.step', 'super().go']
    """
    return SwiftExtractor(path, source, module).run()


class SwiftExtractor(Extractor):
    language = "swift"
    grammar = "tree_sitter_swift:language"
    query_files = (Path(__file__).with_name("swift.scm"),)
    comment_types = frozenset({"comment", "multiline_comment"})
    wrapper_names = _WRAPPERS

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._space = swift_module(path) or None

    # -- names and types ----------------------------------------------------------------------------
    def _user_type(self, node: _ts.Node | None) -> str:
        """``A.B<T>`` as ``A.B`` (the type identifiers of a user_type, generic arguments dropped)."""
        if node is None:
            return ""
        return ".".join(self.text(c) for c in node.named_children if c.type == "type_identifier")

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, _USER_TYPE, frozenset(), self._user_type)

    def direct_type(self, node: _ts.Node | None) -> str:
        """The type a value of type ``node`` is: ``Foo``, ``Foo?``, ``(any Foo)?``, ``some Foo`` and the
        metatype ``Foo.Type`` give ``Foo``; a closure type ``FUNCTION``; collections and tuples nothing."""
        while node is not None and node.type in _UNWRAP:
            kids = [c for c in node.named_children if c.type not in ("type_modifiers", "attribute")]
            if node.type in ("tuple_type", "tuple_type_item") and len(kids) != 1:
                return ""
            node = kids[0] if kids else None
        if node is not None and node.type == "function_type":
            return FUNCTION
        if node is None or node.type != "user_type":
            return ""
        name = self._user_type(node)
        if name.endswith((".Type", ".Protocol")):
            name = name.rsplit(".", 1)[0]
        if name.rsplit(".", 1)[-1] in _WRAPPERS:
            return ""
        return name

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t == "simple_identifier":
            return self.text(node)
        if t == "self_expression":
            return "self"
        if t == "super_expression":
            return "super()"
        if t == "navigation_expression":
            target = node.named_children[0] if node.named_child_count else None
            suffix = node.child_by_field_name("suffix") or (node.named_children[-1] if node.named_child_count > 1 else None)
            name = next((self.text(c) for c in suffix.named_children if c.type == "simple_identifier"), "") \
                if suffix is not None else ""
            if not name:
                return ""
            if target is not None and target.type == "user_type":  # Foo<T>.make / Foo.Bar.make
                base = self._user_type(target)
            else:
                base = self.dotted(target)
            return f"{base or '<expr>'}.{name}"
        if t == "call_expression":
            inner = self._callee(node)
            return f"{inner}()" if inner else "<expr>()"
        if t in ("try_expression", "await_expression", "tuple_expression", "parenthesized_expression",
                 "postfix_expression", "force_unwrap_expression", "optional_chaining_expression"):
            kids = [c for c in node.named_children if c.type not in ("try_operator", "bang")]
            return self.dotted(kids[0]) if len(kids) == 1 else ""
        if t == "user_type":
            return self._user_type(node)
        return ""

    def _callee(self, node: _ts.Node) -> str:
        fn = node.named_children[0] if node.named_child_count else None
        if fn is None:
            return ""
        if fn.type in ("simple_identifier", "user_type"):
            return self.dotted(fn)
        if fn.type == "navigation_expression":
            return self.dotted(fn)
        if fn.type in ("postfix_expression", "force_unwrap_expression", "optional_chaining_expression"):
            return self.dotted(fn)
        return ""

    # -- definitions ----------------------------------------------------------------------------
    def _top(self, owner: int) -> str | None:
        return self._space if self.pf.symbols[owner].kind == "module" else None

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "alias":  # typealias X = Y: a type whose members are Y's
            name = self.text(node.child_by_field_name("name"))
            target = next((c for c in node.named_children if c.type == "user_type" and self.text(c) != name), None)
            if not name:
                return None
            local = self.add_symbol(node, owner, name, "type_alias", qualifier=self._top(owner))
            self.pf.symbols[local].return_type = self._user_type(target)
            self.add_types(local, target, "return")
            return local
        if kind in ("class", "protocol"):
            return self._type(node, owner, kind)
        in_type = self.pf.symbols[owner].kind in TYPE_KINDS
        body = next((c for c in node.named_children if c.type in ("function_body", "computed_property")), None)
        if kind == "function":
            name = self.text(node.child_by_field_name("name"))
        else:
            name = kind  # init, deinit, subscript
        if not name:
            return None
        mods = self._modifiers(node)
        local = self.add_symbol(node, owner, name, "method" if in_type or kind != "function" else "function",
                                body=body, qualifier=self._top(owner),
                                is_declaration=body is None and node.type == "protocol_function_declaration")
        sym = self.pf.symbols[local]
        if "static" in mods or "class" in mods:
            sym.decorators.append("static")
        for a in self._attributes(node):
            sym.decorators.append(a)
        tparams = next((c for c in node.named_children if c.type == "type_parameters"), None)
        self.declare_type_params(local, tparams)
        self._constraints(local, tparams)
        arrow = False
        for c in node.children:
            if c.type == "parameter":
                self._parameter(local, c)
            elif c.type == "->":
                arrow = True
            elif arrow and c.is_named and c.type not in ("function_body", "computed_property", "type_constraints"):
                sym.return_type = self.direct_type(c)
                self.add_types(local, c, "return")
                arrow = False
        if kind == "subscript" and not sym.return_type:
            ret = next((c for c in node.named_children if c.type in ("user_type", "optional_type")), None)
            sym.return_type = self.direct_type(ret)
        return local

    def _constraints(self, local: int, tparams: _ts.Node | None) -> None:
        """``<T: ParsableArguments>``: ``T.m()`` is the constraint's member (a static of a protocol
        extension, a requirement)."""
        for tp in tparams.named_children if tparams is not None else ():
            name = next((self.text(c) for c in tp.named_children if c.type == "type_identifier"), "")
            bound = next((c for c in tp.named_children if c.type == "user_type"), None)
            ann = self.direct_type(bound)
            if name and ann:
                self.add_binding(local, name, tp, annotation=ann)

    def _parameter(self, local: int, p: _ts.Node) -> None:
        """``label name: Type = default``: the label the caller writes (``_`` for none), and the name the
        body uses bound to the type."""
        names = [self.text(c) for c in p.named_children if c.type == "simple_identifier"]
        tnode = next((c for c in p.named_children if c.type not in ("simple_identifier", "parameter_modifiers",
                                                                     "attribute")), None)
        if not names:
            return
        label, inner = names[0], names[-1]
        ann = self.direct_type(tnode)
        sib = p.next_sibling
        default = sib is not None and sib.type == "="
        variadic = self.text(p).rstrip().endswith("...")
        self.pf.symbols[local].params.append((label + ("*" if variadic else "") + ("=" if default else ""), ann))
        if ann:
            self.add_binding(local, inner, p, annotation=ann)
        self.add_types(local, tnode, "param")

    def _modifiers(self, node: _ts.Node) -> set[str]:
        mods = next((c for c in node.named_children if c.type == "modifiers"), None)
        return set(self.text(mods).split()) if mods is not None else set()

    def _attributes(self, node: _ts.Node) -> list[str]:
        mods = next((c for c in node.named_children if c.type == "modifiers"), None)
        out = []
        for a in mods.named_children if mods is not None else ():
            if a.type == "attribute":
                t = next((c for c in a.named_children if c.type == "user_type"), None)
                if t is not None:
                    out.append(self._user_type(t))
        return out

    def _type(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        dk = node.child_by_field_name("declaration_kind")
        word = self.text(dk) if dk is not None else "protocol"
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        extension = word == "extension"
        name = self._user_type(name_node) if name_node.type == "user_type" else self.text(name_node)
        if not name:
            return None
        qualifier = self._top(owner)
        if extension and "." in name:  # extension Foo.Bar: the nested type Bar of Foo
            head, name = name.rsplit(".", 1)
            qualifier = f"{qualifier or self.pf.symbols[owner].qualified_name}.{head}"
        kind = "interface" if kind == "protocol" else _KINDS.get(word, "class")
        body = next((c for c in node.named_children if c.type in ("class_body", "enum_class_body", "protocol_body")), None)
        # an extension is named ``extension Foo`` (qualified ``Module.Foo``, its members ``Module.Foo.m``): no
        # scope binds that name, so ``Foo`` in its file still means the type, and ``String`` the library's
        local = self.add_symbol(node, owner, EXTENSION + name if extension else name, kind, body=body,
                                qualifier=qualifier)
        sym = self.pf.symbols[local]
        if extension:
            sym.qualified_name = sym.qualified_name[: -len(sym.name)] + name
            sym.decorators.append("extension")
            self.add_type(local, name, "annotation", name_node)
        sym.decorators.extend(self._attributes(node))
        self.declare_type_params(local, next((c for c in node.named_children if c.type == "type_parameters"), None))
        for spec in (c for c in node.named_children if c.type == "inheritance_specifier"):
            tn = next((c for c in spec.named_children if c.type == "user_type"), None)
            tname = self._user_type(tn)
            if tname and tn is not None:
                self.add_relation(local, tname, "extends" if kind in ("class", "interface") and not extension
                                  else "implements", tn)
        return local

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        callee = self._callee(node)
        if not callee or callee in _NOT_CALLS:
            return
        suffix = next((c for c in node.named_children if c.type == "call_suffix"), None)
        args = next((c for c in suffix.named_children if c.type == "value_arguments"), None) if suffix is not None else None
        if args is not None and args.child_count and args.children[0].type == "[":
            return  # x[i]: a subscript, which the grammar reads as a call
        self.add_call(owner, callee, node)
        labels: list[str] = []
        for part in suffix.named_children if suffix is not None else ():
            if part.type == "value_arguments":
                for a in part.named_children:
                    if a.type == "value_argument":
                        lab = next((c for c in a.named_children if c.type == "value_argument_label"), None)
                        val = a.named_children[-1] if a.named_child_count else None
                        path = self.dotted(val) if val is not None and val.type != "value_argument_label" else ""
                        if val is not None and val.type == "lambda_literal":
                            path = "{}"
                        path = path if "<" not in path else ""
                        labels.append((self.text(lab).strip() if lab is not None else "_") + "=" + path)
            elif part.type == "lambda_literal":
                labels.append("{}")  # a trailing closure: the next closure parameter
        self.pf.calls[-1].args = labels

    def on_import(self, node: _ts.Node, owner: int) -> None:
        ident = next((c for c in node.named_children if c.type == "identifier"), None)
        if ident is None:
            return
        parts = [self.text(c) for c in ident.named_children if c.type == "simple_identifier"]
        if not parts:
            return
        head = self.text(node).split("import", 1)[-1].split()[0] if "import" in self.text(node) else ""
        if len(parts) > 1 and head in ("struct", "class", "enum", "protocol", "func", "typealias", "var", "let"):
            self.add_import(owner, parts[0], node, parts[-1])  # import struct Foo.Bar: one declaration
            return
        self.add_import(owner, parts[0], node, "*")

    def on_property(self, node: _ts.Node, owner: int) -> int | None:
        pat = next((c for c in node.named_children if c.type == "pattern"), None)
        name = next((self.text(c) for c in pat.named_children if c.type == "simple_identifier"), "") \
            if pat is not None else ""
        if not name and pat is not None and pat.named_child_count == 0:
            name = self.text(pat)
        if not name:
            return None
        ann_node = next((c for c in node.named_children if c.type == "type_annotation"), None)
        tnode = next((c for c in ann_node.named_children), None) if ann_node is not None and ann_node.named_child_count else None
        ann = self.direct_type(tnode)
        in_type = self.pf.symbols[owner].kind in TYPE_KINDS
        computed = next((c for c in node.named_children if c.type in ("computed_property", "protocol_property_requirements")), None)
        if computed is not None and in_type:
            local = self.add_symbol(node, owner, name, "property", body=computed, return_type=ann,
                                    is_declaration=computed.type != "computed_property")
            if "static" in self._modifiers(node):
                self.pf.symbols[local].decorators.append("static")
            self.add_types(local, tnode, "return")
            return local if computed.type == "computed_property" else None
        if ann:
            if in_type:
                self.add_binding(owner, f"self.{name}", node, annotation=ann)
            self.add_binding(owner, name, node, annotation=ann)
            self.add_types(owner, tnode, "field" if in_type else "annotation")
            return None
        self.add_types(owner, tnode, "field" if in_type else "annotation")
        value = next((c for c in node.named_children if c.type not in ("modifiers", "value_binding_pattern",
                                                                       "pattern", "type_annotation", "attribute")), None)
        self._bind_value(owner, name, node, value, in_type)
        return None

    def _bind_value(self, owner: int, name: str, node: _ts.Node, value: _ts.Node | None, in_type: bool) -> None:
        while value is not None and value.type in ("try_expression", "await_expression"):
            value = next((c for c in value.named_children if c.type != "try_operator"), None)
        if value is None:
            return
        if value.type == "call_expression":
            callee = self._callee(value)
            if callee and "<expr>" not in callee:
                if in_type:
                    self.add_binding(owner, f"self.{name}", node, value=callee)
                self.add_binding(owner, name, node, value=callee)
        elif value.type in ("simple_identifier", "navigation_expression"):
            src = self.dotted(value)
            if src and "<" not in src:
                self.add_binding(owner, name, node, alias_of=src)

    def on_optional_binding(self, node: _ts.Node, owner: int) -> None:
        """``if let x = y``, ``guard let x = try? f()``: ``x`` is what the right side is."""
        kids = node.named_children
        for i, c in enumerate(kids):
            if c.type != "value_binding_pattern" or i + 2 >= len(kids):
                continue
            if kids[i + 1].type != "simple_identifier":
                continue
            value = kids[i + 2]
            if value.type in ("statements", "else"):
                # ``if let x {`` (Swift 5.7): x is the outer x, already bound
                continue
            self._bind_value(owner, self.text(kids[i + 1]), kids[i + 1], value, False)

    def on_enum_case(self, node: _ts.Node, owner: int) -> None:
        """``case failed(reason: Reason)``: a case with associated values is called like a function that
        makes the enum (``AFError.failed(reason: r)``): a method of the enum with those parameters."""
        name: str | None = None
        for c in node.named_children:
            if c.type == "simple_identifier":
                name = self.text(c)
            elif c.type == "enum_type_parameters" and name:
                local = self.add_symbol(node, owner, name, "method", decorators=["enum_case"])
                sym = self.pf.symbols[local]
                sym.end_line = sym.start_line
                label = ""
                for p in c.children:
                    if p.type == "simple_identifier":
                        label = self.text(p)
                    elif p.is_named and p.type != "simple_identifier":
                        sym.params.append((label or "_", self.direct_type(p)))
                        self.add_types(local, p, "param")
                        label = ""
                    elif p.type == "=":
                        sym.params[-1] = (sym.params[-1][0] + "=", sym.params[-1][1])
                sym.return_type = self.pf.symbols[owner].name
                name = None
