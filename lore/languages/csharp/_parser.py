"""C#: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, records, structs, interfaces, enums, delegates (a ``type_alias``), methods,
constructors (named ``<init>`` as Java's are: named like their class they would shadow it), operators
and local functions. A type declared in a namespace is named the way C# code names it: ``N.S.Type``
(block or file-scoped namespace), nested types under their outer type; a type outside any namespace
keeps its file's module as prefix. Properties and fields are bindings of their type (``self.X`` and
``X``: methods see them without ``this``) with their declared type.

Calls keep the receiver path (``_repo.Save``, ``this.Run``, ``a?.B()`` as ``a.B``); ``base.M()`` is
``super().M``; ``: base(...)`` and ``: this(...)`` call constructors; ``new T()`` (and ``T x = new()``)
constructs ``T``. Locals bind their declared type, or for ``var`` what they are made from (``new``,
a call, a cast, ``as``). Imports: ``using N.S;`` -> a star import of namespace ``N.S``;
``using static N.S.C;`` -> a star import of class ``C``; ``using A = N.S.C;`` -> ``C`` of ``N.S``
as ``A``.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor
from ...parsers.records import ParsedFile

TYPE_KINDS = ("class", "struct", "interface", "enum", "type_alias")
# System's type keywords and the names of System that every C# file sees: never a repository type
PREDEFINED = frozenset({
    "var", "dynamic", "object", "string", "bool", "byte", "sbyte", "char", "decimal", "double", "float", "int",
    "uint", "long", "ulong", "short", "ushort", "nint", "nuint", "void",
})
# C#'s type keywords -> the System types they stand for
SYSTEM_NAMES = {
    "object": "Object", "string": "String", "bool": "Boolean", "byte": "Byte", "sbyte": "SByte", "char": "Char",
    "decimal": "Decimal", "double": "Double", "float": "Single", "int": "Int32", "uint": "UInt32", "long": "Int64",
    "ulong": "UInt64", "short": "Int16", "ushort": "UInt16", "nint": "IntPtr", "nuint": "UIntPtr",
}
_NAME_NODES = frozenset({"identifier", "qualified_name", "generic_name", "alias_qualified_name"})
_WRAPPERS = frozenset({"Task", "ValueTask", "IEnumerable", "IAsyncEnumerable", "Lazy", "Func", "Nullable"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one C# file into plain records.

    Examples
    --------
    >>> src = b"namespace App { class A : B { void Run() { this.Step(); base.Go(); } } }"
    >>> pf = parse("A.cs", src, "A")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('A', 'module'), ('App.A', 'class'), ('App.A.Run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['this.Step', 'super().Go']
    """
    return CSharpExtractor(path, source, module).run()


class CSharpExtractor(Extractor):
    language = "csharp"
    grammar = "tree_sitter_c_sharp:language"
    query_files = (Path(__file__).with_name("csharp.scm"),)
    comment_types = frozenset({"comment"})
    skip_sibling_types = frozenset({"attribute_list"})
    wrapper_names = _WRAPPERS
    # a node's text without Extractor.text's extra frame: read about 100,000 times on the C# corpus
    text = staticmethod(_ts.text)

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._file_ns = ""  # a file-scoped namespace (``namespace N;``)
        # type expression -> its type names (_types): a declaration's type is read for its annotation and
        # again for its references
        self._types_of: dict[tuple[int, int, int], list[tuple[str, _ts.Node, bool]]] = {}

    def file_doc(self, root: _ts.Node) -> str:
        for c in root.named_children:
            if c.type == "file_scoped_namespace_declaration":
                self._file_ns = self._name_text(c.child_by_field_name("name"))
        return ""

    # -- names and types --------------------------------------------------------------------------
    def _name_text(self, node: _ts.Node | None) -> str:
        """``A.B.C`` of a (qualified, generic, aliased) name: generic arguments and ``global::`` dropped."""
        if node is None:
            return ""
        t = node.type
        if t == "identifier":
            return self.text(node)
        if t == "generic_name":
            return self.text(node.named_children[0]) if node.named_child_count else ""
        if t == "qualified_name":
            q = self._name_text(node.child_by_field_name("qualifier"))
            n = self._name_text(node.child_by_field_name("name"))
            return f"{q}.{n}" if q and n else n
        if t == "alias_qualified_name":
            return self._name_text(node.child_by_field_name("name"))
        return ""

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return [(n, x) for n, x, _g in self._types(node)]

    def _types(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node, bool]]:
        """Type names in a type expression, outermost first, each with whether it sits in a generic argument
        of a type that is not a wrapper (``Task<User>``: User is what the method gives)."""
        if node is None:
            return []
        key = (node.id, node.start_byte, node.end_byte)
        got = self._types_of.get(key)
        if got is None:
            got = self._types_of[key] = self._read_types(node)
        return got

    def _read_types(self, node: _ts.Node) -> list[tuple[str, _ts.Node, bool]]:
        out: list[tuple[str, _ts.Node, bool]] = []
        stack: list[tuple[_ts.Node, bool]] = [(node, False)]
        while stack:
            n, generic = stack.pop()
            t = n.type
            if t == "identifier":  # the commonest type expression: a plain name, no type arguments
                name = self.text(n)
                if name and name not in PREDEFINED:
                    out.append((name, n, generic))
                continue
            if t in _NAME_NODES:
                name = self._name_text(n)
                if name and name not in PREDEFINED:
                    out.append((name, n, generic))
                args = self._type_args(n)
                if args is not None:
                    inner = generic or name.rsplit(".", 1)[-1] not in _WRAPPERS
                    stack.extend((c, inner) for c in reversed(args.named_children))
                continue
            if t in ("predefined_type", "implicit_type", "attribute_list"):
                continue
            stack.extend((c, generic) for c in reversed(n.named_children))
        return out

    def _type_args(self, n: _ts.Node) -> _ts.Node | None:
        if n.type == "generic_name":
            return next((c for c in n.named_children if c.type == "type_argument_list"), None)
        if n.type == "qualified_name":
            last = n.child_by_field_name("name")
            return self._type_args(last) if last is not None else None
        return None

    def direct_type(self, node: _ts.Node | None) -> str:
        """The type a declaration gives its name (``Task<User>``: User; ``Foo?``: Foo; ``string``: String,
        so ``s.Trim()`` is System's and never a guess among the repository's methods)."""
        while node is not None and node.type == "nullable_type":
            node = node.child_by_field_name("type") or (node.named_children[0] if node.named_child_count else None)
        if node is not None and node.type == "predefined_type":
            return SYSTEM_NAMES.get(self.text(node), "")
        if node is not None and node.type == "identifier" and self.text(node) == "dynamic":
            return "Object"  # late bound: nothing a reader can follow, and never a guess
        if node is None or node.type not in _NAME_NODES:
            return ""
        for name, _n, generic in self._types(node):
            if name.rsplit(".", 1)[-1] in _WRAPPERS:
                continue
            return "" if generic else name
        return ""

    def add_types(self, owner: int, node: _ts.Node | None, kind: str) -> None:
        for name, n, generic in self._types(node):
            self.add_type(owner, name, "generic" if generic else kind, n)

    def dotted(self, node: _ts.Node | None) -> str:
        """The path of an expression as the resolver follows it (``''`` when it has none)."""
        if node is None:
            return ""
        t = node.type
        if t == "identifier":
            return self.text(node)
        if t == "generic_name":
            return self._name_text(node)
        if t == "this":
            return "this"
        if t == "base":
            return "super()"
        if t == "member_access_expression":
            obj = node.child_by_field_name("expression")
            name = self._name_text(node.child_by_field_name("name"))
            if obj is None:  # ``this.X`` / ``base.X``: the keyword is an unnamed child
                head = node.children[0].type if node.child_count else ""
                base = "this" if head == "this" else "super()" if head == "base" else ""
            else:
                base = self.dotted(obj)
            return f"{base or '<expr>'}.{name}"
        if t == "qualified_name":
            return self._name_text(node)
        if t == "invocation_expression":
            inner = self._callee(node)
            return f"{inner}()" if inner else "<expr>()"
        if t == "object_creation_expression":
            names = self.types_in(node.child_by_field_name("type"))
            return f"{names[0][0]}()" if names else "<expr>()"
        if t in ("cast_expression", "as_expression"):  # ``((T)x).M()``, ``(x as T)?.M()``: a T, as ``T().M`` says
            ann = self.direct_type(node.child_by_field_name("type") or node.child_by_field_name("right"))
            return f"{ann}()" if ann else ""
        if t in ("parenthesized_expression", "await_expression", "postfix_unary_expression") and node.named_child_count:
            if t == "postfix_unary_expression" and not self.text(node).endswith("!"):
                return ""
            return self.dotted(node.named_children[0])
        if t == "conditional_access_expression":  # ``a?.b``: the path ``a.b``
            cond = self.dotted(node.child_by_field_name("condition"))
            rest = node.named_children[-1] if node.named_child_count > 1 else None
            if rest is not None and rest.type == "member_binding_expression":
                return f"{cond or '<expr>'}.{self._name_text(rest.child_by_field_name('name'))}"
        return ""

    def _callee(self, node: _ts.Node) -> str:
        fn = node.child_by_field_name("function")
        if fn is None:
            return ""
        if fn.type in ("identifier", "generic_name"):
            return self._name_text(fn)
        path = self.dotted(fn)
        return path

    # -- definitions ----------------------------------------------------------------------------
    def _namespace(self, node: _ts.Node) -> str:
        parts: list[str] = []
        p = node.parent
        while p is not None:
            if p.type == "namespace_declaration":
                parts.append(self._name_text(p.child_by_field_name("name")))
            p = p.parent
        if self._file_ns:
            parts.append(self._file_ns)
        return ".".join(reversed([x for x in parts if x]))

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if node.type == "destructor_declaration":
            name = "<finalize>"
        elif node.type == "operator_declaration":
            name = "op_" + self.text(node.child_by_field_name("operator"))
        if not name:
            return None
        body = node.child_by_field_name("body")
        kids = node.named_children  # read once: attributes, modifiers, type parameters, bases, parameters
        decorators = self._attributes(kids)
        exported = self._is_public(kids)
        if kind in ("class", "struct", "interface", "enum", "delegate"):
            qualifier = None
            if self.pf.symbols[owner].kind == "module":
                ns = self._namespace(node)
                qualifier = ns or None
            kind = "type_alias" if kind == "delegate" else kind
            local = self.add_symbol(node, owner, name, kind, body=body, decorators=decorators, exported=exported,
                                    qualifier=qualifier)
            self.declare_type_params(local, node.child_by_field_name("type_parameters")
                                     or next((c for c in kids if c.type == "type_parameter_list"), None))
            bases = next((c for c in kids if c.type == "base_list"), None)
            if bases is not None:
                self._bases(local, kind, bases)
            params = node.child_by_field_name("parameters") or next(
                (c for c in kids if c.type == "parameter_list"), None)
            if params is not None:  # a record's primary constructor: its parameters are properties
                self._params(params, local, fields=kind != "type_alias")
            if kind == "type_alias":
                self.add_types(local, node.child_by_field_name("type"), "return")
            return local
        if node.type == "constructor_declaration":
            name = "<init>"  # named like its class, it would shadow the class in lookups
        local = self.add_symbol(node, owner, name, kind, body=body, decorators=decorators, exported=exported,
                                is_declaration=body is None)
        self.declare_type_params(local, node.child_by_field_name("type_parameters") or next(
            (c for c in kids if c.type == "type_parameter_list"), None))
        params = node.child_by_field_name("parameters")
        if params is not None:
            self._params(params, local)
            first = next((c for c in params.named_children if c.type == "parameter"), None)
            if first is not None and any(c.type == "modifier" and self.text(c) == "this" for c in first.named_children):
                # an extension method: ``x.M()`` calls it where ``x``'s type has no M (CSharpRules.choose_overload)
                sym = self.pf.symbols[local]
                sym.decorators.append("extension")
                if sym.params and sym.params[0][1] and self.is_type_param(local, sym.params[0][1]):
                    sym.params[0] = (sym.params[0][0], "")  # this T x: any receiver
        ret = node.child_by_field_name("returns") or node.child_by_field_name("type")
        if ret is not None:
            self.pf.symbols[local].return_type = self.direct_type(ret)
            self.add_types(local, ret, "return")
        return local

    def _bases(self, local: int, kind: str, bases: _ts.Node) -> None:
        """``: Base, IFoo``: the syntax does not say which is the class; by .NET's naming convention an
        ``I`` + capital name is an interface, and a class has at most one base class, listed first."""
        for i, b in enumerate(bases.named_children):
            if b.type == "argument_list":  # record R(int X) : Base(X)
                continue
            found = self.types_in(b)[:1]
            for tname, tn in found:
                last = tname.rsplit(".", 1)[-1]
                is_iface = len(last) > 1 and last[0] == "I" and last[1].isupper()
                if kind == "interface" or (kind in ("class",) and i == 0 and not is_iface):
                    rel = "extends"
                else:
                    rel = "implements"
                self.add_relation(local, tname, rel, tn)

    def _params(self, params: _ts.Node, local: int, fields: bool = False) -> None:
        sym = self.pf.symbols[local]
        for p in params.named_children:
            if p.type != "parameter":
                continue
            tnode = p.child_by_field_name("type")
            pname = self.text(p.child_by_field_name("name"))
            ann = self.direct_type(tnode)
            if fields:
                self.add_binding(local, f"self.{pname}", p, annotation=ann)
                self.add_binding(local, pname, p, annotation=ann)
                self.add_types(local, tnode, "field")
                continue
            sym.params.append((pname, ann))
            self.add_types(local, tnode, "param")

    def _attributes(self, kids: list[_ts.Node]) -> list[str]:
        out: list[str] = []
        for c in kids:
            if c.type == "attribute_list":
                out.extend(self._name_text(a.child_by_field_name("name")) for a in c.named_children
                           if a.type == "attribute")
        return out

    def _is_public(self, kids: list[_ts.Node]) -> bool:
        return any(c.type == "modifier" and self.text(c) == "public" for c in kids)

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        fn = node.child_by_field_name("function")
        if fn is None:
            callee = ""
        elif fn.type == "identifier":  # the common case, read once
            callee = self.text(fn)
            if callee == "nameof":
                return  # nameof(x) is a constant, no call
        elif fn.type == "generic_name":
            callee = self._name_text(fn)
        else:
            callee = self.dotted(fn)
        if not callee:
            self._arity(node)  # no call added: the arguments go to a call that starts here, if any
            return
        self.add_call(owner, callee, node)
        self.pf.calls[-1].args = self._args(node)

    def _arity(self, node: _ts.Node) -> None:
        """The call just added gets one (empty) argument entry per argument: overloads are told apart by
        their number (CSharpRules.choose_overload)."""
        calls = self.pf.calls
        at = node.start_point
        if calls and calls[-1].line == at[0] + 1 and calls[-1].col == at[1]:
            calls[-1].args = self._args(node)

    def _args(self, node: _ts.Node) -> list[str]:
        args = node.child_by_field_name("arguments") or next(
            (c for c in node.named_children if c.type == "argument_list"), None)
        if args is None:
            return []
        arg = self._arg
        return [arg(c) for c in args.named_children if c.type == "argument"]

    def _arg(self, arg: _ts.Node) -> str:
        """One argument as overload resolution reads it (CSharpRules): ``#lambda:N`` (a lambda of N
        parameters), ``#T:Name`` (a type the syntax shows: ``new T()``, a literal, a cast, ``typeof``),
        ``#null``, else the path the resolver can type (``x``, ``this.f``), else ``''``."""
        node = arg.named_children[-1] if arg.named_child_count else None
        if node is None:
            return ""
        t = node.type
        if t == "lambda_expression":
            params = node.child_by_field_name("parameters")
            if params is None:
                return "#lambda:0"
            if params.type in ("identifier", "implicit_parameter"):
                return "#lambda:1"
            return f"#lambda:{sum(1 for c in params.named_children if c.type in ('parameter', 'identifier'))}"
        if t in ("object_creation_expression", "cast_expression"):
            names = self.types_in(node.child_by_field_name("type"))
            return f"#T:{names[0][0]}" if names else ""
        if t in ("string_literal", "verbatim_string_literal", "interpolated_string_expression", "raw_string_literal"):
            return "#T:String"
        if t == "integer_literal":
            return "#T:Int32"
        if t == "boolean_literal":
            return "#T:Boolean"
        if t == "typeof_expression":
            return "#T:Type"
        if t == "null_literal":
            return "#null"
        if t in ("identifier", "member_access_expression", "this"):
            path = self.dotted(node)
            return path if path and "<" not in path else ""
        return ""

    def on_new(self, node: _ts.Node, owner: int) -> None:
        names = self.types_in(node.child_by_field_name("type"))
        if names:
            self.add_call(owner, names[0][0], node, "new")
            self.pf.calls[-1].args = self._args(node)
            self.add_type(owner, names[0][0], "instantiation", names[0][1])

    def on_new_implicit(self, node: _ts.Node, owner: int) -> None:
        """``Foo x = new();``: the declared type is constructed."""
        decl = node.parent
        while decl is not None and decl.type in ("variable_declarator", "equals_value_clause"):
            decl = decl.parent
        if decl is not None and decl.type == "variable_declaration":
            names = self.types_in(decl.child_by_field_name("type"))
            if names:
                self.add_call(owner, names[0][0], node, "new")
                self.pf.calls[-1].args = self._args(node)

    def on_ctor_call(self, node: _ts.Node, owner: int) -> None:
        head = node.children[1].type if node.child_count > 1 else ""  # ':' then base / this
        if head == "base":
            self.add_call(owner, "super().<init>", node)
        elif head == "this":
            self.add_call(owner, "this.<init>", node)
        else:
            return
        self.pf.calls[-1].args = self._args(node)

    def on_import(self, node: _ts.Node, owner: int) -> None:
        alias_node = node.child_by_field_name("name")
        target = next((c for c in node.named_children if c.type in ("identifier", "qualified_name")
                       and c != alias_node), None)
        if target is None:
            return
        full = self._name_text(target)
        if alias_node is not None:  # using A = N.S.C;
            module, _, name = full.rpartition(".")
            if module:
                self.add_import(owner, module, node, name, alias=self.text(alias_node))
            return
        self.add_import(owner, full, node, "*")

    def _bind_members(self, owner: int, name: str, at: _ts.Node, tnode: _ts.Node | None) -> None:
        ann = self.direct_type(tnode)
        if ann:
            self.add_binding(owner, f"self.{name}", at, annotation=ann)
            self.add_binding(owner, name, at, annotation=ann)

    def on_field(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind not in TYPE_KINDS:
            return
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if decl is None:
            return
        tnode = decl.child_by_field_name("type")
        for d in decl.named_children:
            if d.type == "variable_declarator":
                self._bind_members(owner, self.text(d.child_by_field_name("name")), d, tnode)
        self.add_types(owner, tnode, "field")

    def on_property(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind not in TYPE_KINDS:
            return
        tnode = node.child_by_field_name("type")
        self._bind_members(owner, self.text(node.child_by_field_name("name")), node, tnode)
        self.add_types(owner, tnode, "field")

    def on_pattern(self, node: _ts.Node, owner: int) -> None:
        """``x is Foo f``, ``out Bar b``: the name has the type written before it."""
        name = node.child_by_field_name("name")
        tnode = node.child_by_field_name("type")
        ann = self.direct_type(tnode)
        if name is not None and name.type == "identifier" and ann:
            self.add_binding(owner, self.text(name), node, annotation=ann)
            self.add_types(owner, tnode, "annotation")

    def on_using_block(self, node: _ts.Node, owner: int) -> None:
        self.on_local(node, owner)

    def on_local(self, node: _ts.Node, owner: int) -> None:
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if decl is None:
            return
        tnode = decl.child_by_field_name("type")
        is_var = tnode is None or tnode.type == "implicit_type" or self.text(tnode) == "var"
        ann = "" if is_var else self.direct_type(tnode)
        for d in decl.named_children:
            if d.type != "variable_declarator":
                continue
            name = self.text(d.child_by_field_name("name"))
            if ann:
                self.add_binding(owner, name, d, annotation=ann)
            elif is_var:
                value = next((c for c in d.named_children if c.type not in ("identifier", "bracketed_argument_list")), None)
                self._bind_value(owner, name, d, value)
        if not is_var:
            self.add_types(owner, tnode, "annotation")

    def _bind_value(self, owner: int, name: str, at: _ts.Node, value: _ts.Node | None) -> None:
        while value is not None and value.type in ("await_expression", "parenthesized_expression", "equals_value_clause"):
            value = value.named_children[0] if value.named_child_count else None
        if value is None:
            return
        t = value.type
        if t == "object_creation_expression":
            names = self.types_in(value.child_by_field_name("type"))
            if names:
                self.add_binding(owner, name, at, value=names[0][0])
        elif t == "cast_expression" or (t == "as_expression"):
            tnode = value.child_by_field_name("type") or value.child_by_field_name("right")
            ann = self.direct_type(tnode)
            if ann:
                self.add_binding(owner, name, at, annotation=ann)
        elif t == "invocation_expression":
            callee = self._callee(value)
            if callee and "<expr>" not in callee:
                self.add_binding(owner, name, at, value=callee)
        elif t in ("identifier", "member_access_expression"):
            src = self.dotted(value)
            if src and "<" not in src:
                self.add_binding(owner, name, at, alias_of=src)

    def on_for_each(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        left = node.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            ann = self.direct_type(tnode)
            if ann:
                self.add_binding(owner, self.text(left), node, annotation=ann)
                self.add_types(owner, tnode, "annotation")

    def on_catch_param(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        name = self.text(node.child_by_field_name("name"))
        ann = self.direct_type(tnode)
        if name and ann:
            self.add_binding(owner, name, node, annotation=ann)
