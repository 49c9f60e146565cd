"""Scala: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, case classes, traits, enums (Scala 3), objects (kind ``class``, marked ``object``), defs
(methods in a type, functions elsewhere, local defs inside their def) and auxiliary constructors
(``def this(..)``, named ``<init>``). A declaration is named as Scala users write it: ``a.b.C.m`` from
``package a.b`` (chained clauses ``package a`` / ``package b`` and braced packages joined), wherever its
file is. A companion object and its class (or trait) in one file are one symbol: the object's members
(``apply``, factories) are members of the class, as ``C.apply(..)`` and ``C(..)`` name them.

Calls keep the receiver path (``repo.save``, ``this.run``); ``super.m()`` is ``super().m``; ``new C(..)``
is a ``new`` of ``C``; ``this(..)`` in an auxiliary constructor constructs its class. ``val``/``var``
members and class parameters are typed members of their class (``self.name``); locals bind their declared
type or what they are made from (``val x = new Foo``, ``val x = Foo(..)``, ``val x = y.f()``); ``case x: T``
binds ``x`` to ``T``. Imports: ``import a.b.C`` binds ``C``; ``a.b._`` / ``a.b.*`` all of ``a.b``;
``{C, D => E}`` each selector; chained package clauses make the outer package's members visible.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, type_names
from ...parsers.records import ParsedFile

TYPE_KINDS = ("class", "trait", "enum")
# collections and wrappers: a value of one is not a value of its element type
_WRAPPERS = frozenset({"List", "Seq", "IndexedSeq", "Vector", "Set", "Map", "Option", "Some", "Array", "Iterable",
                       "Iterator", "Future", "Either", "ListBuffer", "ArrayBuffer", "Buffer", "CSeq", "ISeq",
                       "LazyList", "Stream", "Try", "Traversable", "TraversableOnce", "IterableOnce"})
_TYPE_NODES = ("type_identifier", "generic_type", "stable_type_identifier", "compound_type", "infix_type",
               "projected_type", "singleton_type", "annotated_type", "repeated_parameter_type",
               "lazy_parameter_type", "function_type", "tuple_type")
# Scala's value types (Java's primitives) and its top and bottom types: no type a reference could lead to
_TYPE_NAMES = frozenset({"type_identifier", "stable_type_identifier"})
_VALUE_TYPES = frozenset({"Int", "Long", "Short", "Byte", "Char", "Boolean", "Double", "Float", "Unit", "Any",
                          "AnyRef", "AnyVal", "Nothing", "Null"})
# the implicit root of every class: naming it adds no member (and would hide a trait's behind a library's)
_ROOTS = frozenset({"AnyRef", "Any", "Object", "java.lang.Object", "scala.AnyRef"})
# the alias of the import a chained package clause makes (``package a`` / ``package b``: ``a`` is in sight)
OUTER_PACKAGE = "<package>"
_LITERALS = {"character_literal": "'", "string": '"', "interpolated_string_expression": '"',
             "integer_literal": "0", "floating_point_literal": "0", "boolean_literal": "true"}


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Scala file into plain records.

    Examples
    --------
    >>> src = b"package app\\nclass A extends B {\\n  def run(): Unit = {\\n    this.step()\\n    super.go()\\n  }\\n}\\n"
    >>> pf = parse("src/A.scala", src, "src.A")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('src.A', 'module'), ('app.A', 'class'), ('app.A.run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['this.step', 'super().go']
    """
    return ScalaExtractor(path, source, module).run()


class ScalaExtractor(Extractor):
    language = "scala"
    grammar = "tree_sitter_scala:language"
    query_files = (Path(__file__).with_name("scala.scm"),)
    comment_types = frozenset({"comment", "block_comment"})
    wrapper_names = _WRAPPERS

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._package = ""
        self._types: dict[tuple[int, str], int] = {}  # (owner, name) -> local: companions meet here
        self._known: dict[int, dict[str, str]] = {}  # definition -> its parameters' and typed locals' types

    def file_doc(self, root: _ts.Node) -> str:
        chain: list[str] = []
        for c in root.named_children:
            if c.type == "package_clause" and c.child_by_field_name("body") is None:
                name = self._package_name(c)
                if name:
                    if chain:  # package a; package b: a's members are visible in a.b (the rules look there)
                        self.add_import(0, ".".join(chain), c, "*", alias=OUTER_PACKAGE)
                    chain.append(name)
        self._package = ".".join(chain)
        return ""

    def _package_name(self, clause: _ts.Node) -> str:
        n = clause.child_by_field_name("name")
        return ".".join(self.text(i) for i in n.named_children) if n is not None else ""

    def _package_of(self, node: _ts.Node) -> str:
        """The package a top-level definition is in: the file's clauses, then braced ``package x { }``."""
        inner: list[str] = []
        p = node.parent
        while p is not None:
            if p.type == "package_clause":
                inner.append(self._package_name(p))
            p = p.parent
        return ".".join([x for x in [self._package, *reversed(inner)] if x])

    # -- names and types ----------------------------------------------------------------------------
    def type_name(self, node: _ts.Node | None) -> str:
        """``a.b.C[T]`` as ``a.b.C``; ``""`` for a type that is no plain name (functions, tuples)."""
        while node is not None and node.type in ("generic_type", "annotated_type", "repeated_parameter_type",
                                                 "lazy_parameter_type"):
            node = node.child_by_field_name("type") or (node.named_children[0] if node.named_child_count else None)
        if node is None:
            return ""
        if node.type == "type_identifier":
            return self.text(node)
        if node.type == "stable_type_identifier":
            return self.text(node).replace(" ", "")
        return ""

    def _spell(self, node: _ts.Node) -> str:
        """A type name as written: ``Foo``, or ``a.b.Foo`` without the spaces a stable path may hold."""
        return self.text(node).replace(" ", "") if node.type == "stable_type_identifier" else self.text(node)

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, _TYPE_NAMES, _VALUE_TYPES, self._spell)

    def direct_type(self, node: _ts.Node | None) -> str:
        name = self.type_name(node)
        return "" if name.rsplit(".", 1)[-1] in _WRAPPERS else name

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t == "identifier":
            word = self.text(node)
            return "super()" if word == "super" else word
        if t == "field_expression":
            base = self.dotted(node.child_by_field_name("value"))
            field = node.child_by_field_name("field")
            return f"{base or '<expr>'}.{self.text(field)}" if field is not None else ""
        if t == "generic_function":
            return self.dotted(node.child_by_field_name("function"))
        if t == "call_expression":
            inner = self.dotted(node.child_by_field_name("function"))
            return f"{inner}()" if inner else "<expr>()"
        if t == "instance_expression":
            made = self._made(node)
            return f"{made}()" if made else "<expr>()"
        if t == "parenthesized_expression" and node.named_child_count:
            return self.dotted(node.named_children[0])
        return ""

    def _made(self, node: _ts.Node) -> str:
        """The type ``new T(..)`` makes."""
        return next((self.type_name(c) for c in node.named_children if c.type in _TYPE_NODES), "")

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        if not name:
            return None
        top = self.pf.symbols[owner].kind == "module"
        qualifier = (self._package_of(node) or None) if top else None
        body = node.child_by_field_name("body")
        if kind in ("class", "trait", "object", "enum"):
            return self._define_type(node, owner, name, kind, body, qualifier)
        in_type = self.pf.symbols[owner].kind in TYPE_KINDS
        if name == "this":  # def this(..) = this(..): an auxiliary constructor
            name = "<init>"
        local = self.add_symbol(node, owner, name, "method" if in_type else "function", body=body,
                                qualifier=qualifier, is_declaration=node.type == "function_declaration")
        sym = self.pf.symbols[local]
        for i, c in enumerate(node.children):
            if c.type != "parameters" or node.field_name_for_child(i) != "parameters":
                continue
            for p in c.named_children:
                if p.type != "parameter":
                    continue
                tnode = p.child_by_field_name("type")
                pname = self.text(p.child_by_field_name("name"))
                sym.params.append((pname, self.direct_type(tnode)))
                self._known.setdefault(local, {})[pname] = self.type_name(tnode)
                self.add_types(local, tnode, "param")
        ret = node.child_by_field_name("return_type")
        if ret is not None:
            sym.return_type = self.direct_type(ret)
            self.add_types(local, ret, "return")
        return local

    def _define_type(self, node: _ts.Node, owner: int, name: str, kind: str, body: _ts.Node | None,
                     qualifier: str | None) -> int:
        key = (owner, name)
        prev = self._types.get(key)
        sym_kind = "class" if kind == "object" else kind
        if prev is not None and (kind == "object") != ("object" in self.pf.symbols[prev].decorators):
            # a companion: one symbol; the class (or trait) gives its place, kind and signature
            local = prev
            sym = self.pf.symbols[local]
            if "companion" not in sym.decorators:
                sym.decorators.append("companion")
            if kind != "object":
                sym.decorators.remove("object")
                sym.kind = sym_kind
                sym.start_line, sym.end_line = node.start_point[0] + 1, node.end_point[0] + 1
                sym.start_col, sym.end_col = node.start_point[1], node.end_point[1]
                sym.signature = self.signature(node, body)
                sym.docstring = self.doc_comment(node) or sym.docstring
        else:
            local = self.add_symbol(node, owner, name, sym_kind, body=body, qualifier=qualifier,
                                    decorators=["object"] if kind == "object" else [])
            self._types[key] = local
        sym = self.pf.symbols[local]
        if kind != "object":
            if any(c.type == "case" for c in node.children[:3]):  # case class: a ``case`` keyword before the name
                sym.decorators.append("case")
            self.declare_type_params(local, node.child_by_field_name("type_parameters"))
        cparams = node.child_by_field_name("class_parameters")
        if cparams is not None and kind != "object":
            for p in cparams.named_children:
                if p.type != "class_parameter":
                    continue
                pname = self.text(p.child_by_field_name("name"))
                tnode = p.child_by_field_name("type")
                ann = self.direct_type(tnode)
                if ann and pname:  # a class parameter is a member: methods see it, val or not
                    self.add_binding(local, f"self.{pname}", p, annotation=ann)
                    self.add_binding(local, pname, p, annotation=ann)
                self.add_types(local, tnode, "field")
        ext = node.child_by_field_name("extend")
        if ext is not None:
            first = True
            for i, c in enumerate(ext.children):
                if ext.field_name_for_child(i) != "type":
                    continue
                tname = self.type_name(c)
                if tname and tname not in _ROOTS:  # extends AnyRef with T: T is the first parent that counts
                    self.add_relation(local, tname, "extends" if first else "implements", c)
                    first = False
        return local

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        fn = node.child_by_field_name("function")
        if fn is None or fn.type == "call_expression":
            return  # f(a)(b): the second list goes to what f(a) returns
        callee = self.dotted(fn)
        kind = "call"
        if callee == "this":  # this(..) in an auxiliary constructor: the class's constructor
            sym = self.pf.symbols[owner]
            cls = sym.parent if sym.name == "<init>" else None
            if cls is None:
                return
            callee, kind = self.pf.symbols[cls].name, "new"
        if not callee or callee.startswith("<expr>"):
            return
        self.add_call(owner, callee, node, kind)
        self.pf.calls[-1].args = self._args(node.child_by_field_name("arguments"), owner)

    def _args(self, args: _ts.Node | None, owner: int) -> list[str]:
        """One entry per argument: the kind of a literal (``'`` a Char, ``"`` a String), else ``""``."""
        if args is None:
            return []
        if args.type != "arguments":
            return [""]  # f { .. }: a block is one argument
        return [_LITERALS.get(a.type, "") or self._arg_type(a, owner) for a in args.named_children
                if a.type != "comment"]

    def _arg_type(self, arg: _ts.Node, owner: int) -> str:
        """``:T`` for an argument that names a parameter or typed local of type ``T`` in sight, else ``""``."""
        if arg.type != "identifier":
            return ""
        name = self.text(arg)
        i: int | None = owner
        while i is not None:
            got = self._known.get(i, {}).get(name)
            if got is not None:
                return f":{got}" if got else ""
            i = self.pf.symbols[i].parent
        return ""

    def on_new(self, node: _ts.Node, owner: int) -> None:
        made = self._made(node)
        if made:
            self.add_call(owner, made, node, "new")
            args = next((c for c in node.named_children if c.type == "arguments"), None)
            self.pf.calls[-1].args = self._args(args, owner) if args is not None else []

    def on_import(self, node: _ts.Node, owner: int) -> None:
        path = [self.text(c) for i, c in enumerate(node.children)
                if c.is_named and node.field_name_for_child(i) == "path"]
        full = ".".join(path)
        if not full:
            return
        last = node.named_children[-1] if node.named_child_count else None
        if last is not None and last.type == "namespace_wildcard":
            self.add_import(owner, full, node, "*")
            return
        if last is not None and last.type == "namespace_selectors":
            for sel in last.named_children:
                if sel.type == "namespace_wildcard":
                    self.add_import(owner, full, node, "*")
                elif sel.type == "identifier":
                    self.add_import(owner, full, node, self.text(sel))
                elif sel.type in ("arrow_renamed_identifier", "as_renamed_identifier"):
                    alias = sel.child_by_field_name("alias")
                    if alias is not None and alias.type == "identifier":
                        self.add_import(owner, full, node, self.text(sel.child_by_field_name("name")),
                                        alias=self.text(alias))
            return
        if last is not None and last.type == "as_renamed_identifier":
            return
        module, _, name = full.rpartition(".")
        if module:
            self.add_import(owner, module, node, name)

    def on_value(self, node: _ts.Node, owner: int) -> None:
        pat = node.child_by_field_name("pattern") or node.child_by_field_name("name")
        if pat is None or pat.type != "identifier":
            return
        name = self.text(pat)
        in_type = self.pf.symbols[owner].kind in TYPE_KINDS
        tnode = node.child_by_field_name("type")
        ann = self.direct_type(tnode)
        if tnode is not None:
            self.add_types(owner, tnode, "field" if in_type else "annotation")
            self._known.setdefault(owner, {})[name] = self.type_name(tnode)
        if ann:
            if in_type:
                self.add_binding(owner, f"self.{name}", node, annotation=ann)
            self.add_binding(owner, name, node, annotation=ann)
            return
        if tnode is not None:
            return  # a declared collection or function type: not a value of a repository type
        value = node.child_by_field_name("value")
        if value is None:
            return
        made = ""
        if value.type == "instance_expression":
            made = self._made(value)
        elif value.type == "call_expression":
            fn = value.child_by_field_name("function")
            made = self.dotted(fn) if fn is not None and fn.type != "call_expression" else ""
        if made and "<" not in made:
            if in_type:
                self.add_binding(owner, f"self.{name}", node, value=made)
            self.add_binding(owner, name, node, value=made)
            return
        if value.type in ("identifier", "field_expression"):
            src = self.dotted(value)
            if src and "<" not in src and src != name:
                self.add_binding(owner, name, node, alias_of=src)

    def on_typed_pattern(self, node: _ts.Node, owner: int) -> None:
        pat = node.child_by_field_name("pattern")
        ann = self.direct_type(node.child_by_field_name("type"))
        if pat is not None and pat.type == "identifier" and ann:
            self.add_binding(owner, self.text(pat), node, annotation=ann)
