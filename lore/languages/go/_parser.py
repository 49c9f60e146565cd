"""Go: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: functions, methods (qualified by their receiver type, children of it when the type is
declared in the same file), structs, interfaces (with their method signatures), other named types
and aliases (``type_alias``). The receiver is recorded as parameter 0 so ``r.m()`` inside a method
resolves through the receiver's type. Struct and interface embedding are ``embeds`` relations,
struct fields are bindings ``self.<field>`` of the struct with their declared type. Composite
literals (``&Repo{}``) are ``instantiation`` type references. Imports keep the import path; the
package's directory is found by :mod:`lore.languages.go._rules` from the module paths of the ``go.mod``
files, which are read here too: a ``go.mod`` is a module symbol whose signature is its ``module``
line, with one import per required module.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, first_type, type_names
from ...parsers.records import Binding, Import, ParsedFile, Symbol

TYPE_NAME_NODES = frozenset({"type_identifier", "qualified_type"})
PRIMITIVES = frozenset({
    "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "uintptr", "byte", "rune", "float32", "float64", "complex64", "complex128", "error", "any", "comparable",
})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Go file into plain records.

    Examples
    --------
    >>> src = b"package p\\ntype S struct{}\\nfunc (s *S) Run() { s.step() }\\n"
    >>> pf = parse("p/a.go", src, "p.a")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('p.a', 'module'), ('p.a.S', 'struct'), ('p.a.S.Run', 'method')]
    >>> [c.callee for c in pf.calls], pf.symbols[2].params
    (['s.step'], [('s', 'S')])
    """
    if path == "go.mod" or path.endswith("/go.mod"):
        return parse_gomod(path, source, module)
    return GoExtractor(path, source, module).run()


def parse_gomod(path: str, source: bytes, module: str) -> ParsedFile:
    r"""A ``go.mod`` file: its module path (the module symbol's signature) and its requirements (imports).

    Examples
    --------
    >>> pf = parse_gomod("go.mod", b"module example.com/app // the app\nrequire (\n\tgolang.org/x/mod v0.8.0\n)\n", "go")
    >>> pf.symbols[0].signature, [i.module for i in pf.imports]
    ('module example.com/app', ['golang.org/x/mod'])
    """
    text = source.decode("utf-8", "replace")
    lines = text.split("\n")
    pf = ParsedFile(path=path, language="go", module=module)
    sym = Symbol(module.rsplit(".", 1)[-1], module, "module", None, 1, len(lines))
    pf.symbols.append(sym)
    block = ""
    for no, raw in enumerate(lines, 1):
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if block:
            if line.startswith(")"):
                block = ""
            elif block == "require":
                pf.imports.append(Import(0, line.split()[0].strip('"'), no))
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "module" and rest:
            path = rest.strip(chr(34))
            sym.signature = f"module {path}"
            # also a binding named like the first element of the path: a refresh that changes the module
            # path re-resolves the files whose import paths start with it (they mention that name)
            pf.bindings.append(Binding(0, path.split(".")[0], no, alias_of=path))
        elif word in ("require", "replace", "exclude", "retract", "tool", "godebug") and rest.startswith("("):
            block = word
        elif word == "require" and rest:
            pf.imports.append(Import(0, rest.split()[0].strip('"'), no))
    return pf


class GoExtractor(Extractor):
    language = "go"
    grammar = "go"
    query_files = (Path(__file__).with_name("go.scm"),)

    def run(self) -> ParsedFile:
        self.type_locals: dict[str, int] = {}
        self.pending: list[tuple[int, str]] = []  # methods whose receiver type is declared later (or elsewhere)
        self.elements: dict[tuple[int, str], str] = {}  # (function, slice/map parameter) -> element type
        return super().run()

    def finish(self) -> None:
        for local, tname in self.pending:
            parent = self.type_locals.get(tname)
            if parent is not None:
                self.pf.symbols[local].parent = parent

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, TYPE_NAME_NODES, PRIMITIVES)

    def direct_type(self, node: _ts.Node | None) -> str:
        """The type a value of type ``node`` has, for receivers: ``*Repo`` -> Repo; maps, slices, funcs -> ''."""
        while node is not None and node.type in ("pointer_type", "parenthesized_type"):
            node = node.named_children[0] if node.named_child_count else None
        if node is None or node.type not in ("type_identifier", "qualified_type", "generic_type"):
            return ""
        return first_type(self.types_in(node))

    def element_type(self, node: _ts.Node | None) -> str:
        """The element type of a slice, array or map type (``[]*User`` -> User), for ``range`` loops."""
        if node is None:
            return ""
        if node.type in ("slice_type", "array_type", "implicit_length_array_type"):
            return self.direct_type(node.child_by_field_name("element"))
        if node.type == "map_type":
            return self.direct_type(node.child_by_field_name("value"))
        return ""

    def on_range(self, node: _ts.Node, owner: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or right.type != "identifier" or left.named_child_count < 2:
            return
        elem = self.elements.get((owner, self.text(right)))
        value = left.named_children[1]
        if elem and value.type == "identifier":
            self.add_binding(owner, self.text(value), value, annotation=elem)

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "field_identifier", "package_identifier", "type_identifier"):
            return self.text(node)
        if t == "selector_expression":
            obj = self.dotted(node.child_by_field_name("operand"))
            return f"{obj or '<expr>'}.{self.text(node.child_by_field_name('field'))}"
        if t == "call_expression":
            inner = self.dotted(node.child_by_field_name("function"))
            return f"{inner}()" if inner else "<expr>()"
        if t == "parenthesized_expression" and node.named_child_count:
            return self.dotted(node.named_children[0])
        if t == "unary_expression":
            return self.dotted(node.child_by_field_name("operand"))
        if t == "generic_type" or t == "index_expression":  # f[T](x)
            return self.dotted(node.named_children[0]) if node.named_child_count else ""
        return ""

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name:
            return None
        if kind == "type":
            return self._type(node, owner, name)
        body = node.child_by_field_name("body")
        recv_type = ""
        params: list[tuple[str, str]] = []
        recv_args = None
        if node.type == "method_declaration":
            recv = node.child_by_field_name("receiver")
            decl = recv.named_children[0] if recv is not None and recv.named_child_count else None
            if decl is not None:
                rtype = decl.child_by_field_name("type")
                recv_type = self.direct_type(rtype)
                params.append((self.text(decl.child_by_field_name("name")) or "_", recv_type))
                while rtype is not None and rtype.type == "pointer_type" and rtype.named_child_count:
                    rtype = rtype.named_children[0]
                if rtype is not None and rtype.type == "generic_type":  # func (s *Stack[T]): T is a parameter
                    recv_args = rtype.child_by_field_name("type_arguments")
            parent = self.type_locals.get(recv_type)
            if parent is not None:
                owner = parent
        sym_kind = "method" if (node.type != "function_declaration") else "function"
        qualifier = None
        if recv_type and self.pf.symbols[owner].kind == "module":
            qualifier = f"{self.module}.{recv_type}"  # receiver type declared in another file of the package
        local = self.add_symbol(node, owner, name, sym_kind, body=body, exported=name[:1].isupper(),
                                is_declaration=body is None and node.type != "method_elem", params=params,
                                qualifier=qualifier)
        if qualifier is not None:
            self.pending.append((local, recv_type))
        self.declare_type_params(local, node.child_by_field_name("type_parameters"))
        if recv_args is not None:
            self.type_params.setdefault(local, set()).update(
                self.text(a) for a in recv_args.named_children if a.type in ("type_elem", "type_identifier"))
        sym = self.pf.symbols[local]
        for p in self._param_decls(node.child_by_field_name("parameters")):
            pname_nodes = p.children_by_field_name("name")
            ptype = p.child_by_field_name("type")
            ann = self.direct_type(ptype)
            elem = self.element_type(ptype)
            for pn in pname_nodes or [None]:
                sym.params.append((self.text(pn) if pn is not None else "_", ann))
                if elem and pn is not None:
                    self.elements[(local, self.text(pn))] = elem
            self.add_types(local, ptype, "param")
        result = node.child_by_field_name("result")
        if result is not None:
            first = result
            if result.type == "parameter_list":  # (T, error): the first result
                decls = self._param_decls(result)
                first = decls[0].child_by_field_name("type") if decls else None
            sym.return_type = self.direct_type(first)
            self.add_types(local, result, "return")
        return local

    def _param_decls(self, plist: _ts.Node | None) -> list[_ts.Node]:
        if plist is None:
            return []
        return [p for p in plist.named_children if p.type in ("parameter_declaration", "variadic_parameter_declaration")]

    def _type(self, node: _ts.Node, owner: int, name: str) -> int:
        tnode = node.child_by_field_name("type")
        t = tnode.type if tnode is not None else ""
        if node.type == "type_alias":
            kind = "type_alias"
        elif t == "struct_type":
            kind = "struct"
        elif t == "interface_type":
            kind = "interface"
        else:
            kind = "type_alias"  # type Celsius float64: a named type
        doc = node.parent if node.parent is not None and node.parent.type == "type_declaration" and \
            node.parent.named_child_count == 1 else node
        local = self.add_symbol(node, owner, name, kind, body=tnode if kind in ("struct", "interface") else None,
                                doc_node=doc, exported=name[:1].isupper())
        sym = self.pf.symbols[local]
        if kind in ("struct", "interface"):
            sym.signature = f"type {name} {t.split('_')[0]}"
        if self.pf.symbols[owner].kind == "module":
            self.type_locals.setdefault(name, local)
        self.declare_type_params(local, node.child_by_field_name("type_parameters"))
        if kind == "type_alias" and tnode is not None:
            self.add_types(local, tnode, "annotation")
        return local

    def file_doc(self, root: _ts.Node) -> str:
        pkg = next((c for c in root.named_children if c.type == "package_clause"), None)
        return self.doc_comment(pkg) if pkg is not None else ""

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        fn = node.child_by_field_name("function")
        callee = self.dotted(fn)
        if fn is not None and fn.type in ("func_literal",):
            return
        self.add_call(owner, callee or "<expr>", node)

    def on_composite(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        if tnode is not None and tnode.type in TYPE_NAME_NODES:
            for tname, tn in self.types_in(tnode)[:1]:
                self.add_type(owner, tname, "instantiation", tn)

    def on_import(self, node: _ts.Node, owner: int) -> None:
        path = node.child_by_field_name("path")
        spec = self.text(path).strip('"`')
        name = node.child_by_field_name("name")
        self.add_import(owner, spec, node, None, self.text(name) or None)

    def _value_of(self, value: _ts.Node) -> tuple[str, str]:
        """(value callee, alias) of an initialiser: ``NewRepo()`` / ``&Repo{}`` / ``other``."""
        t = value.type
        if t == "unary_expression":
            operand = value.child_by_field_name("operand")
            if operand is not None:
                value, t = operand, operand.type
        if t == "call_expression":
            return self.dotted(value.child_by_field_name("function")), ""
        if t == "composite_literal":
            tnode = value.child_by_field_name("type")
            if tnode is not None and tnode.type in TYPE_NAME_NODES:
                return self.text(tnode), ""
            return "", ""
        if t in ("identifier", "selector_expression"):
            return "", self.dotted(value)
        return "", ""

    def on_short_var(self, node: _ts.Node, owner: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or not left.named_child_count or not right.named_child_count:
            return
        names = [c for c in left.named_children if c.type == "identifier"]
        values = right.named_children
        pairs = list(zip(names, values, strict=True)) if len(values) == len(names) else [(names[0], values[0])] if names else []
        for n, v in pairs:
            value, alias = self._value_of(v)
            if value and not value.startswith("<"):
                self.add_binding(owner, self.text(n), n, value=value)
            elif alias and "<" not in alias:
                self.add_binding(owner, self.text(n), n, alias_of=alias)

    def on_var(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        names = node.children_by_field_name("name")
        if tnode is not None:
            ann = self.direct_type(tnode)
            for n in names:
                self.add_binding(owner, self.text(n), n, annotation=ann)
            self.add_types(owner, tnode, "annotation")
            return
        value = node.child_by_field_name("value")
        if value is not None and names and value.named_child_count:
            v, alias = self._value_of(value.named_children[0])
            if v and not v.startswith("<"):
                self.add_binding(owner, self.text(names[0]), names[0], value=v)
            elif alias and "<" not in alias:
                self.add_binding(owner, self.text(names[0]), names[0], alias_of=alias)

    def on_field(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind != "struct":
            return
        tnode = node.child_by_field_name("type")
        names = node.children_by_field_name("name")
        found = self.types_in(tnode)
        if not names:  # an embedded struct: its fields and methods are promoted
            for tname, tn in found[:1]:
                self.add_relation(owner, tname, "embeds", tn)
                self.add_binding(owner, f"self.{tname.rsplit('.', 1)[-1]}", tn, annotation=tname)
            return
        ann = self.direct_type(tnode)
        for n in names:
            self.add_binding(owner, f"self.{self.text(n)}", n, annotation=ann)
        self.add_types(owner, tnode, "field")

    def on_embed(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind != "interface":
            return
        for tname, tn in self.types_in(node)[:1]:
            self.add_relation(owner, tname, "embeds", tn)
