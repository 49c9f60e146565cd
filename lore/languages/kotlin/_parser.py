"""Kotlin: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, interfaces, enum classes, objects (kind ``class``), functions and methods; the
functions of a ``companion object`` are members of their class (``Foo.create()``); secondary constructors
are ``<init>``. A declaration is named as Kotlin names it: ``package.Class.member`` wherever its file is.
Extension functions (``fun String.slug()``) are marked ``extension`` with their receiver type as first
parameter. ``val``/``var`` constructor parameters and properties are typed members of their class.

Calls keep the receiver path (``repo.save``, ``this.run``, ``a?.b()`` as ``a.b``); ``super.m()`` is
``super().m``; ``Foo(..)`` constructs ``Foo`` (Kotlin has no ``new``). Locals bind their declared type or
what they are made from (``val x = Foo()``, ``val x = y.f()``); ``for (x in xs)`` and ``catch (e: E)``
bind what they show. Imports: ``import a.b.C`` (``as D``) binds ``C``; ``import a.b.*`` all of ``a.b``.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, type_names
from ...parsers.records import Binding, ParsedFile

TYPE_KINDS = ("class", "interface", "enum")
_USER_TYPE = frozenset({"user_type"})  # a type name as written: its identifiers, then its type arguments
_WRAPPERS = frozenset({"List", "MutableList", "Set", "MutableSet", "Collection", "Iterable", "Sequence", "Array",
                       "Flow", "StateFlow", "Deferred", "Lazy"})


# scope functions whose lambda has a receiver (``x.apply { m() }``: ``m`` is ``x``'s); ``also`` / ``let``
# pass ``it`` instead. The builders' receivers are the standard library's (``buildString { append(..) }``).
_WITH_RECEIVER = frozenset({"apply", "run", "with"})
_BUILDERS = {"buildString": "StringBuilder", "buildList": "MutableList", "buildSet": "MutableSet",
             "buildMap": "MutableMap"}
# the binding of the implicit receiver (an extension function's, a lambda's with receiver): no Kotlin name
RECEIVER = "@this"


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Kotlin file into plain records.

    Examples
    --------
    >>> src = b"package app\\nclass A : B() {\\n    fun run() {\\n        this.step()\\n        super.go()\\n    }\\n}\\n"
    >>> pf = parse("src/A.kt", src, "src.A")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('src.A', 'module'), ('app.A', 'class'), ('app.A.run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['this.step', 'super().go']
    """
    return KotlinExtractor(path, source, module).run()


class KotlinExtractor(Extractor):
    language = "kotlin"
    grammar = "kotlin"
    query_files = (Path(__file__).with_name("kotlin.scm"),)
    comment_types = frozenset({"line_comment", "block_comment", "multiline_comment"})
    wrapper_names = _WRAPPERS
    text = staticmethod(_ts.text)  # a node's text without Extractor.text's extra frame (the hottest call)

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._package = ""

    def file_doc(self, root: _ts.Node) -> str:
        for c in root.named_children:
            if c.type == "package_header" and c.named_child_count:
                self._package = self.text(c.named_children[0]).replace(" ", "")
        return ""

    # -- names and types ----------------------------------------------------------------------------
    def _user_type(self, node: _ts.Node | None) -> str:
        """``a.b.C<T>`` as ``a.b.C`` (the identifiers of a user_type, generic arguments dropped)."""
        if node is None:
            return ""
        return ".".join(self.text(c) for c in node.named_children if c.type == "identifier")

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, _USER_TYPE, frozenset(), self._user_type)

    def direct_type(self, node: _ts.Node | None) -> str:
        while node is not None and node.type in ("nullable_type", "parenthesized_type"):
            node = node.named_children[0] if node.named_child_count else None
        if node is None or node.type != "user_type":
            return ""
        name = self._user_type(node)
        if name.rsplit(".", 1)[-1] in _WRAPPERS:
            return ""  # a collection: its element is not the value
        return name

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t == "identifier":
            return self.text(node)
        if t == "this_expression":
            return "this"
        if t == "super_expression":
            return "super()"
        if t == "navigation_expression":
            parts = node.named_children
            if len(parts) < 2:
                return ""
            base = self.dotted(parts[0])
            return f"{base or '<expr>'}.{self.text(parts[-1])}"
        if t == "call_expression":
            inner = self._callee(node)
            return f"{inner}()" if inner else "<expr>()"
        if t == "parenthesized_expression" and node.named_child_count:
            return self.dotted(node.named_children[0])
        return ""

    def _callee(self, node: _ts.Node) -> str:
        return self._callee_of(node.named_children[0] if node.named_child_count else None)

    def _callee_of(self, fn: _ts.Node | None) -> str:
        """The path of a call's function node (``f``, ``a.b.f``), ``''`` for any other expression."""
        if fn is None:
            return ""
        if fn.type == "identifier":
            return self.text(fn)
        if fn.type == "navigation_expression":
            return self.dotted(fn)
        return ""

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "alias":  # typealias X = Y<..>: a type whose members are Y's (return_type names Y)
            name = self.text(node.child_by_field_name("type"))
            target = next((c for c in node.named_children if c.type == "user_type"), None)
            if not name:
                return None
            top = self.pf.symbols[owner].kind == "module"
            local = self.add_symbol(node, owner, name, "type_alias", qualifier=(self._package or None) if top else None)
            self.pf.symbols[local].return_type = self._user_type(target)
            self.add_types(local, target, "return")
            return local
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        if kind == "constructor":
            name = "<init>"
        if not name:
            return None
        body = next((c for c in node.named_children if c.type in ("class_body", "enum_class_body", "function_body")), None)
        top = self.pf.symbols[owner].kind == "module"
        qualifier = (self._package or None) if top else None
        if kind in ("class", "object"):
            # the declaration's text up to its name (never the whole body, decoded three times per class
            # before): the first occurrence of the name is at the name node at the latest
            head = self.source[node.start_byte:name_node.end_byte].decode("utf-8", "replace")  # type: ignore[union-attr]
            mods = next((c for c in node.named_children if c.type == "modifiers"), None)
            if head.lstrip().startswith("interface") or (mods is not None and "interface" in head[:head.find(name)].split()):
                kind = "interface"
            elif mods is not None and "enum" in self.text(mods).split():
                kind = "enum"
            else:
                kind = "class"
            local = self.add_symbol(node, owner, name, kind, body=body, qualifier=qualifier)
            params = next((c for c in node.named_children if c.type == "primary_constructor"), None)
            if params is not None and "private" in self.text(params).split("(", 1)[0].split():
                # ``Foo(..)`` from outside the class then calls its companion's ``operator fun invoke``
                self.pf.symbols[local].decorators.append("private_constructor")
            plist = next((c for c in params.named_children if c.type == "class_parameters"), None) if params is not None else None
            for p in plist.named_children if plist is not None else ():
                if p.type != "class_parameter":
                    continue
                pname = next((self.text(c) for c in p.named_children if c.type == "identifier"), "")
                tnode = next((c for c in p.named_children if c.type in ("user_type", "nullable_type")), None)
                is_prop = any(self.text(c) in ("val", "var") for c in p.children)
                ann = self.direct_type(tnode)
                if ann and pname:
                    if is_prop:
                        self.add_binding(local, f"self.{pname}", p, annotation=ann)
                    # a plain parameter is still in sight of the class's initializers (methods cannot name it)
                    self.add_binding(local, pname, p, annotation=ann)
                self.add_types(local, tnode, "field")
            for spec in (c for c in node.named_children if c.type == "delegation_specifiers"):
                for d in spec.named_children:
                    inv = next((c for c in d.named_children if c.type == "constructor_invocation"), None)
                    tn = next((c for c in (inv or d).named_children if c.type == "user_type"), None)
                    tname = self._user_type(tn)
                    if tname and tn is not None:
                        rel = "extends" if inv is not None or kind == "interface" else "implements"
                        self.add_relation(local, tname, rel, tn)
            return local
        in_type = self.pf.symbols[owner].kind in TYPE_KINDS
        local = self.add_symbol(node, owner, name, "method" if in_type or kind == "constructor" else "function",
                                body=body, qualifier=qualifier, is_declaration=body is None and kind != "constructor")
        sym = self.pf.symbols[local]
        kids = node.named_children
        params_at = next((i for i, c in enumerate(kids) if c.type == "function_value_parameters"), None)
        name_at = next((i for i, c in enumerate(kids) if c == name_node), None) if name_node is not None else None
        if name_at is not None and name_at > 0 and kids[name_at - 1].type in ("user_type", "nullable_type"):
            recv = self.direct_type(kids[name_at - 1]) or self._user_type(kids[name_at - 1])
            sym.decorators.append("extension")
            sym.params.append(("this", recv))
            if recv:  # inside, a call without receiver may be the extended type's member
                self.pf.bindings.append(Binding(local, RECEIVER, node.start_point[0] + 1, annotation=recv))
        if params_at is not None:
            for p in kids[params_at].named_children:
                if p.type != "parameter":
                    continue
                pname = next((self.text(c) for c in p.named_children if c.type == "identifier"), "")
                tnode = next((c for c in p.named_children if c.type in ("user_type", "nullable_type", "function_type")), None)
                sym.params.append((pname, self.direct_type(tnode)))
                self.add_types(local, tnode, "param")
            ret = kids[params_at + 1] if params_at + 1 < len(kids) else None
            if ret is not None and ret.type in ("user_type", "nullable_type"):
                sym.return_type = self.direct_type(ret)
                self.add_types(local, ret, "return")
        return local

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        kids = node.named_children  # read once: the function, the arguments, trailing lambdas
        inner = kids[0] if kids else None
        callee = self._callee_of(inner)
        if not callee:
            if inner is not None and inner.type == "call_expression" and self._callee(inner) == "with":
                self._lambda_receiver(node, owner, "with", kids, args_at=inner)  # with(x) { .. }: two call nodes
            return
        self.add_call(owner, callee, node)
        args, n, lam = None, 0, None  # one pass over the children: the arguments, the trailing lambdas
        for c in kids:
            t = c.type
            if t == "value_arguments":
                if args is None:
                    args = c
            elif t == "annotated_lambda":
                n += 1
                if lam is None:
                    lam = c
        if args is not None:
            for c in args.named_children:
                if c.type == "value_argument":
                    n += 1
        self.pf.calls[-1].args = [""] * n
        if lam is not None:  # without a lambda no receiver changes
            self._lambda_receiver(node, owner, callee, kids)

    def _lambda_receiver(self, node: _ts.Node, owner: int, callee: str, kids: list[_ts.Node], *,
                         args_at: _ts.Node | None = None) -> None:
        """``x.apply { .. }``, ``with(x) { .. }``, ``buildString { .. }``: on the lambda's lines the implicit
        receiver is ``x`` (a binding that holds from the lambda's first line to its last only); ``kids``: the
        named children of ``node``."""
        lam = next((c for c in kids if c.type == "annotated_lambda"), None)
        name = callee.rsplit(".", 1)[-1]
        if lam is None or (name not in _WITH_RECEIVER and name not in _BUILDERS):
            return
        start, until = lam.start_point[0] + 1, lam.end_point[0] + 1
        if name in _BUILDERS:
            if "." not in callee:
                self.pf.bindings.append(Binding(owner, RECEIVER, start, annotation=_BUILDERS[name], until=until))
            return
        base: _ts.Node | None = None
        if name == "with" and "." not in callee:
            args = next((c for c in (args_at or node).named_children if c.type == "value_arguments"), None)
            arg = next((c for c in args.named_children if c.type == "value_argument"), None) if args is not None else None
            base = arg.named_children[0] if arg is not None and arg.named_child_count else None
        elif name != "with" and "." in callee:
            fn = kids[0]
            base = fn.named_children[0] if fn.type == "navigation_expression" and fn.named_child_count else None
        if base is None:
            return  # ``apply { .. }`` without receiver: the receiver already in scope
        if base.type == "call_expression":  # Foo().apply { .. }: what Foo() makes
            made = self._callee(base)
            if made and "<expr>" not in made:
                self.pf.bindings.append(Binding(owner, RECEIVER, start, value=made, until=until))
            return
        path = self.dotted(base)
        if path and "<expr>" not in path and "()" not in path and path != RECEIVER:
            self.pf.bindings.append(Binding(owner, RECEIVER, start, alias_of=path, until=until))

    def on_import(self, node: _ts.Node, owner: int) -> None:
        path = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
        if path is None:
            return
        full = self.text(path).replace(" ", "")
        alias = next((self.text(c) for c in node.named_children if c.type == "identifier"), None)
        if self.text(node).rstrip().endswith("*"):
            self.add_import(owner, full, node, "*")
            return
        module, _, name = full.rpartition(".")
        self.add_import(owner, module, node, name, alias=alias)

    def on_property(self, node: _ts.Node, owner: int) -> None:
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if decl is None:
            return
        name = next((self.text(c) for c in decl.named_children if c.type == "identifier"), "")
        tnode = next((c for c in decl.named_children if c.type in ("user_type", "nullable_type")), None)
        ann = self.direct_type(tnode)
        in_type = self.pf.symbols[owner].kind in TYPE_KINDS
        if ann:
            if in_type:
                self.add_binding(owner, f"self.{name}", node, annotation=ann)
            self.add_binding(owner, name, node, annotation=ann)
            self.add_types(owner, tnode, "field" if in_type else "annotation")
            return
        value = next((c for c in node.named_children if c.type in ("call_expression", "navigation_expression",
                                                                   "identifier", "object_literal")), None)
        if value is None or not name:
            return
        if value.type == "object_literal":  # object : Channel<T> by channel { .. }: a Channel
            spec = next((c for c in value.named_children if c.type == "delegation_specifiers"), None)
            found = self.types_in(spec)
            ann = found[0][0] if found and found[0][0].rsplit(".", 1)[-1] not in _WRAPPERS else ""
            if ann:
                if in_type:
                    self.add_binding(owner, f"self.{name}", node, annotation=ann)
                self.add_binding(owner, name, node, annotation=ann)
            return
        if value.type == "call_expression":
            callee = self._callee(value)
            if callee and "<expr>" not in callee:
                if in_type:
                    self.add_binding(owner, f"self.{name}", node, value=callee)
                self.add_binding(owner, name, node, value=callee)
        else:
            src = self.dotted(value)
            if src and "<" not in src:
                self.add_binding(owner, name, node, alias_of=src)

    def on_for_each(self, node: _ts.Node, owner: int) -> None:
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if decl is None:
            return
        name = next((self.text(c) for c in decl.named_children if c.type == "identifier"), "")
        ann = self.direct_type(next((c for c in decl.named_children if c.type in ("user_type", "nullable_type")), None))
        if name and ann:
            self.add_binding(owner, name, node, annotation=ann)

    def on_catch_param(self, node: _ts.Node, owner: int) -> None:
        name = next((self.text(c) for c in node.named_children if c.type == "identifier"), "")
        ann = self.direct_type(next((c for c in node.named_children if c.type == "user_type"), None))
        if name and ann:
            self.add_binding(owner, name, node, annotation=ann)
