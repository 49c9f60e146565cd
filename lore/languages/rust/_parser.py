"""Rust: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: functions, structs, unions, enums, traits (with their provided and required methods), type
aliases, inline modules (``namespace``). Methods of ``impl Type`` and ``impl Trait for Type`` belong to
``Type`` (children of it when it is declared in the file, else of a declaration-only placeholder ``Type``
whose signature is ``impl <path as written>``: the resolver pairs it with the real type);
``impl Trait for Type`` is an ``implements`` relation of the type or its placeholder, trait bounds
(``trait A: B``) are ``extends``. Generic parameters (of items and impl blocks) are never type references.
``Self`` is spelled as the impl's type. Calls keep their path with ``::`` as ``.`` (``Repo.new``,
``self.log.write``, ``crate.util.f``); macros are not calls, but calls inside their arguments are. ``use`` trees become one import per
name (module ``crate.shapes``, name ``Circle``); ``mod x;`` imports ``self.x`` (the file ``x.rs`` or
``x/mod.rs``, found by :mod:`lore.languages.rust._rules`).
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, type_names, type_param_names
from ...parsers.records import ParsedFile

TYPE_NAME_NODES = frozenset({"type_identifier", "scoped_type_identifier"})
WRAPPERS = frozenset({"Option", "Result", "Box", "Rc", "Arc", "RefCell", "Cell", "Mutex", "RwLock", "Cow", "Pin"})
SKIP = frozenset({"Self", "str", "String", "Vec", "Result", "Option", "Box", "Rc", "Arc", "HashMap", "HashSet"})
TYPE_KINDS = ("struct", "enum", "trait")
MARKER_TRAITS = frozenset({"Send", "Sync", "Sized", "Copy", "Clone", "Debug", "Display", "Default", "Eq", "PartialEq",
                           "Ord", "PartialOrd", "Hash", "Unpin", "Fn", "FnMut", "FnOnce", "Into", "From", "AsRef",
                           "AsMut", "Iterator", "IntoIterator", "ToString", "Error", "Any"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Rust file into plain records.

    Examples
    --------
    >>> src = b"struct S;\\nimpl S { fn new() -> Self { S } fn run(&self) { self.step(); } }\\n"
    >>> pf = parse("src/a.rs", src, "src.a")
    >>> [(s.qualified_name, s.kind, s.return_type) for s in pf.symbols]
    [('src.a', 'module', ''), ('src.a.S', 'struct', ''), ('src.a.S.new', 'method', 'S'), ('src.a.S.run', 'method', '')]
    >>> [c.callee for c in pf.calls]
    ['self.step']
    """
    return RustExtractor(path, source, module).run()


class RustExtractor(Extractor):
    language = "rust"
    grammar = "rust"
    query_files = (Path(__file__).with_name("rust.scm"),)
    comment_types = frozenset({"line_comment", "block_comment"})
    skip_sibling_types = frozenset({"attribute_item"})
    wrapper_names = WRAPPERS

    def run(self) -> ParsedFile:
        self.type_locals: dict[str, int] = {}
        # open impl blocks: (end_byte, type name, trait name, impl node, owner, generic parameters)
        self.impls: list[tuple[int, str, str, _ts.Node, int, set[str]]] = []
        self.pending: list[tuple[int, str, _ts.Node, int]] = []  # methods whose type is not (yet) declared here
        self.trait_impls: list[tuple[str, str, _ts.Node, _ts.Node, int]] = []  # impl Trait for Type (+ impl, owner)
        self.placeholders: dict[tuple[int, str], int] = {}
        return super().run()

    # -- names ----------------------------------------------------------------------------------
    def _spell(self, node: _ts.Node) -> str:
        name = self.text(node).replace("::", ".").replace(" ", "")
        if name == "Self" and self.impls:
            return self.impls[-1][1]
        return name

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        names = type_names(node, TYPE_NAME_NODES, frozenset(), self._spell)
        return [(n, t) for n, t in names if n not in SKIP]

    def direct_type(self, node: _ts.Node | None) -> str:
        """The type of a value for receivers: ``&mut Repo`` / ``Box<Repo>`` / ``Option<Repo>`` -> Repo."""
        while node is not None:
            t = node.type
            if t in ("reference_type", "pointer_type"):
                node = node.child_by_field_name("type")
            elif t in ("dynamic_type", "abstract_type"):  # &dyn Trait / impl Trait
                node = node.child_by_field_name("trait")
            elif t == "generic_type":
                base = self._spell(node.child_by_field_name("type")) if node.child_by_field_name("type") else ""
                args = node.child_by_field_name("type_arguments")
                if base.rsplit(".", 1)[-1] in WRAPPERS and args is not None and args.named_child_count:
                    node = args.named_children[0]
                else:
                    return base
            elif t in TYPE_NAME_NODES:
                return self._spell(node)
            elif t == "primitive_type":  # u8, str: std's, never a crate type of that name
                return self.text(node)
            elif t == "array_type":  # [u8] / [u8; 4]: a slice's methods are std's (a name no variable has)
                return "[]"
            else:
                return ""
        return ""

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "field_identifier", "type_identifier", "self", "crate", "super"):
            return self.text(node)
        if t in ("scoped_identifier", "scoped_type_identifier"):
            path = node.child_by_field_name("path")
            name = self.text(node.child_by_field_name("name"))
            head = self.dotted(path) if path is not None else ""
            if path is not None and not head:
                head = "<expr>"
            return f"{head}.{name}" if head else name
        if t == "generic_type":
            return self.dotted(node.child_by_field_name("type"))
        if t == "field_expression":
            obj = self.dotted(node.child_by_field_name("value"))
            return f"{obj or '<expr>'}.{self.text(node.child_by_field_name('field'))}"
        if t == "call_expression":
            inner = self.dotted(node.child_by_field_name("function"))
            return f"{inner}()" if inner else "<expr>()"
        if t == "generic_function":
            return self.dotted(node.child_by_field_name("function"))
        if t == "unary_expression" and self.text(node).lstrip().startswith("*"):  # (**self).m(): what self points to
            target: _ts.Node | None = node
            while target is not None and target.type in ("unary_expression", "parenthesized_expression") \
                    and target.named_child_count:
                target = target.named_children[-1]
            return "*self" if target is not None and target.type == "self" else ""
        if t in ("reference_expression", "parenthesized_expression", "try_expression", "await_expression") \
                and node.named_child_count:
            return self.dotted(node.named_children[-1] if t == "reference_expression" else node.named_children[0])
        return ""

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name:
            return None
        body = node.child_by_field_name("body")
        exported = any(c.type == "visibility_modifier" for c in node.children)
        if kind == "type_alias" and self.impls and self.impls[-1][0] > node.start_byte \
                and self.impls[-1][3].start_byte < node.start_byte:
            return None  # ``type Err = Error;`` of an impl: an associated type, no name of the module
        if kind != "function":
            local = self.add_symbol(node, owner, name, kind, body=body, exported=exported)
            self.declare_type_params(local, node.child_by_field_name("type_parameters"))
            if self.pf.symbols[owner].kind in ("module", "namespace"):
                self.type_locals.setdefault(name, local)
            if kind == "trait":
                bounds = node.child_by_field_name("bounds")
                for tname, tn in self.types_in(bounds):
                    self.add_relation(local, tname, "extends", tn)
            elif kind == "type_alias":
                self.add_types(local, node.child_by_field_name("type"), "annotation")
            return local
        while self.impls and self.impls[-1][0] <= node.start_byte:
            self.impls.pop()
        qualifier = None
        sym_kind = "function"
        impl = None
        if self.pf.symbols[owner].kind == "trait":
            sym_kind = "method"
        elif self.impls and self.impls[-1][0] > node.start_byte:
            sym_kind = "method"
            impl = self.impls[-1]
            tname = impl[1]
            local_type = self.type_locals.get(tname)
            if local_type is not None:
                owner = local_type
            else:
                qualifier = f"{self.pf.symbols[owner].qualified_name}.{tname}"
        if sym_kind == "method" and (impl is None or impl[2]):
            exported = True  # a trait's method, or one of ``impl Trait for T``: as visible as the trait
        local = self.add_symbol(node, owner, name, sym_kind, body=body, exported=exported,
                                is_declaration=body is None, qualifier=qualifier)
        if impl is not None and qualifier is not None:
            self.pending.append((local, impl[1], impl[3], impl[4]))
        self.declare_type_params(local, node.child_by_field_name("type_parameters"))
        if impl is not None and impl[5]:
            self.type_params.setdefault(local, set()).update(impl[5])
        sym = self.pf.symbols[local]
        params = node.child_by_field_name("parameters")
        bound_of = {**(self.bounds_of(impl[3]) if impl is not None else {}), **self.bounds_of(node)}
        for p in params.named_children if params is not None else ():
            if p.type != "parameter":
                continue
            pat = p.child_by_field_name("pattern")
            tnode = p.child_by_field_name("type")
            pname = self.text(pat) if pat is not None and pat.type == "identifier" else "_"
            ptype = self.direct_type(tnode)
            sym.params.append((pname, bound_of.get(ptype, ptype)))  # L with L: Log -> a value of the trait Log
            self.add_types(local, tnode, "param")
        ret = node.child_by_field_name("return_type")
        if ret is not None:
            sym.return_type = self.direct_type(ret)
            self.add_types(local, ret, "return")
        pointee = _pointee(self, impl[3].child_by_field_name("type")) if impl is not None else ""
        if pointee in bound_of:  # impl<T: Visit> Visit for &mut T: (**self) is a T, a value of the trait Visit
            self.add_binding(local, "*self", node, annotation=bound_of[pointee])
        return local

    def bounds_of(self, node: _ts.Node) -> dict[str, str]:
        """Generic parameter -> its first trait bound: ``<L: Log>`` and ``where L: Log`` give ``{"L": "Log"}``.

        Marker and std traits (``Send``, ``Sized``, ``Debug``...) say nothing about whose methods are called.
        """
        out: dict[str, str] = {}
        pairs = []
        tps = node.child_by_field_name("type_parameters")
        for p in tps.named_children if tps is not None else ():
            if p.type in ("type_parameter", "constrained_type_parameter"):
                pairs.append((p.child_by_field_name("name") or p.child_by_field_name("left"), p.child_by_field_name("bounds")))
        for c in node.named_children:
            if c.type == "where_clause":
                pairs += [(w.child_by_field_name("left"), w.child_by_field_name("bounds"))
                          for w in c.named_children if w.type == "where_predicate"]
        for left, bounds in pairs:
            if left is None or bounds is None or left.type != "type_identifier":
                continue
            for b in bounds.named_children:
                trait = self.direct_type(b) if b.type in ("type_identifier", "scoped_type_identifier", "generic_type") else ""
                if trait and trait.rsplit(".", 1)[-1] not in MARKER_TRAITS:
                    out.setdefault(self.text(left), trait)
                    break
        return out

    def finish(self) -> None:
        # impl blocks before their type's declaration: attach the methods now that the type exists; impl
        # blocks of a type of another file: a placeholder of the type holds them
        for local, tname, impl, owner in self.pending:
            parent = self.type_locals.get(tname)
            if parent is None:
                parent = self._placeholder(tname, impl, owner)
            self.pf.symbols[local].parent = parent
        for tname, trait, node, impl, owner in self.trait_impls:
            local = self.type_locals.get(tname)
            if local is None:
                local = self._placeholder(tname, impl, owner)
            self.add_relation(local, trait, "implements", node)

    def _placeholder(self, tname: str, impl: _ts.Node, owner: int) -> int:
        """``impl a::Foo`` of a type declared in another file: a declaration-only ``Foo`` in this file."""
        got = self.placeholders.get((owner, tname))
        if got is not None:
            return got
        local = self.add_symbol(impl, owner, tname, "struct", is_declaration=True)
        sym = self.pf.symbols[local]
        path = self.text(impl.child_by_field_name("type"))
        path = path.split("<", 1)[0].replace(" ", "")
        # line 0: it has no source of its own, and a name imported by ``use`` wins over it in lookups
        sym.signature, sym.docstring, sym.start_line, sym.end_line = f"impl {path}", "", 0, 0
        self.placeholders[(owner, tname)] = local
        return local

    # -- captures -------------------------------------------------------------------------------
    def on_impl(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        trait = node.child_by_field_name("trait")
        tname = self.dotted(tnode) if tnode is not None else ""
        if not tname and tnode is not None:  # impl X for str / () / &T / [S]: methods of that type, not free
            tname = "".join(self.text(tnode).split())  # functions; a name no identifier can look up
        if not tname:
            return
        tname = tname.rsplit(".", 1)[-1]  # impl a::B: methods of B
        trait_name = self.types_in(trait)[0][0] if trait is not None and self.types_in(trait) else ""
        while self.impls and self.impls[-1][0] <= node.start_byte:
            self.impls.pop()
        params = type_param_names(node.child_by_field_name("type_parameters"))  # impl<T> Foo<T>: T is no type
        self.impls.append((node.end_byte, tname, trait_name, node, owner, params))
        if trait_name:
            self.trait_impls.append((tname, trait_name, trait, node, owner))

    def on_mod(self, node: _ts.Node, owner: int) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name:
            return None
        body = node.child_by_field_name("body")
        if body is None:  # mod x; -> the file x.rs or x/mod.rs, or the file of its #[path = "..."] attribute
            path = self._path_attribute(node)
            if path:
                inline = []  # mod a { #[path = "x.rs"] mod b; }: relative to the directory of a
                i: int | None = owner
                while i is not None and self.pf.symbols[i].kind == "namespace":
                    inline.append(self.pf.symbols[i].name)
                    i = self.pf.symbols[i].parent
                path = "/".join([*reversed(inline), path])
                self.add_import(owner, f"path:{path}", node, None, name)
            else:
                self.add_import(owner, f"self.{name}", node, None, name)
            return None
        exported = any(c.type == "visibility_modifier" for c in node.children)
        return self.add_symbol(node, owner, name, "namespace", body=body, exported=exported)

    def _path_attribute(self, node: _ts.Node) -> str:
        """``"../x.rs"`` of a ``#[path = "../x.rs"]`` attribute right above ``node``."""
        prev = node.prev_named_sibling
        while prev is not None and prev.type in ("attribute_item", "line_comment", "block_comment"):
            text = self.text(prev)
            if prev.type == "attribute_item" and text.replace(" ", "").startswith("#[path="):
                return text.split("=", 1)[1].strip(" ]").strip('"')
            prev = prev.prev_named_sibling
        return ""

    def on_call(self, node: _ts.Node, owner: int) -> None:
        callee = self.dotted(node.child_by_field_name("function"))
        self.add_call(owner, callee or "<expr>", node)
        if callee and "." in callee and callee.rsplit(".", 1)[-1] == "from":
            # T::from(x): which impl From<X> for T runs is chosen by x's type (rules.choose_overload)
            args = node.child_by_field_name("arguments")
            if args is not None and self.pf.calls and self.pf.calls[-1].callee == callee:
                self.pf.calls[-1].args = [_literal_type(self, a) for a in args.named_children]

    def on_macro(self, node: _ts.Node, owner: int) -> None:
        """Calls inside a macro's arguments (``format!("{}", self.area())``): paths followed by ``(...)``.

        The grammar leaves macro arguments as token trees; a path (``a.b``, ``a::b``, ``self.m``) right
        before a parenthesised token tree is a call, one followed by ``!`` a nested macro (skipped).
        """
        stack = [c for c in node.children if c.type == "token_tree"]
        while stack:
            tree = stack.pop()
            toks = tree.children
            path: list[str] = []
            start = tree
            for i, tok in enumerate(toks):
                t = tok.type
                if t in ("identifier", "self", "crate", "super") and (not path or toks[i - 1].type in (".", "::")):
                    if not path:
                        start = tok  # the call is where its path starts, as outside macros
                        if i and toks[i - 1].type == ".":  # 42.to_value(), x().y(): on an expression
                            path.append("<expr>")
                    path.append(self.text(tok))
                    continue
                if t in (".", "::") and path:
                    continue
                if t == "token_tree":
                    if path and toks[i - 1].type not in (".", "::") and tok.child_count and tok.children[0].type == "(":
                        self.add_call(owner, ".".join(path), start)
                        if len(path) > 1 and path[-1] == "from":  # T::from("a") in vec![...]: its argument's type
                            self.pf.calls[-1].args = [_token_type(self, tok.children[1:-1])]
                    stack.append(tok)
                path = []

    def on_struct_expr(self, node: _ts.Node, owner: int) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            spelled = self._spell(name) if name.type in TYPE_NAME_NODES else self.dotted(name)
            if spelled:
                self.add_type(owner, spelled, "instantiation", name)

    def on_use(self, node: _ts.Node, owner: int) -> None:
        arg = node.child_by_field_name("argument")
        if arg is not None:
            self._use_tree(arg, "", owner, node)

    def _use_tree(self, n: _ts.Node, prefix: str, owner: int, at: _ts.Node) -> None:
        t = n.type

        def join(s: str) -> str:
            return f"{prefix}.{s}" if prefix and s else prefix or s

        if t in ("identifier", "crate", "self", "super", "scoped_identifier"):
            full = join(self.dotted(n))
            if self.text(n) == "self" and prefix:  # use a::{self}: the module a itself
                self.add_import(owner, prefix, at, None, prefix.rsplit(".", 1)[-1])
                return
            module, _, name = full.rpartition(".")
            if module:
                self.add_import(owner, module, at, name)
            else:
                self.add_import(owner, full, at, None, full)
        elif t == "use_as_clause":
            full = join(self.dotted(n.child_by_field_name("path")))
            alias = self.text(n.child_by_field_name("alias"))
            module, _, name = full.rpartition(".")
            if module:
                self.add_import(owner, module, at, name, alias)
            else:
                self.add_import(owner, full, at, None, alias)
        elif t == "use_wildcard":
            inner = n.named_children[0] if n.named_child_count else None
            self.add_import(owner, join(self.dotted(inner)) if inner is not None else prefix, at, "*")
        elif t == "scoped_use_list":
            path = n.child_by_field_name("path")
            lst = n.child_by_field_name("list")
            new_prefix = join(self.dotted(path)) if path is not None else prefix
            if lst is not None:
                self._use_tree(lst, new_prefix, owner, at)
        elif t == "use_list":
            for c in n.named_children:
                self._use_tree(c, prefix, owner, at)

    def on_let(self, node: _ts.Node, owner: int) -> None:
        pat = node.child_by_field_name("pattern")
        if pat is None:
            return
        if pat.type == "mut_pattern" and pat.named_child_count:
            pat = pat.named_children[0]
        if pat.type != "identifier":
            return
        name = self.text(pat)
        tnode = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        if tnode is not None:
            self.add_binding(owner, name, pat, annotation=self.direct_type(tnode))
            self.add_types(owner, tnode, "annotation")
        elif value is not None:
            if value.type in ("try_expression", "await_expression", "reference_expression") and value.named_child_count:
                value = value.named_children[-1] if value.type == "reference_expression" else value.named_children[0]
            if value.type == "call_expression":
                callee = self.dotted(value.child_by_field_name("function"))
                if callee and not callee.startswith("<"):
                    self.add_binding(owner, name, pat, value=callee)
            elif value.type == "struct_expression":
                tn = value.child_by_field_name("name")
                if tn is not None:
                    self.add_binding(owner, name, pat, value=self._spell(tn))
            elif value.type in ("identifier", "field_expression", "self"):
                src = self.dotted(value)
                if src and "<" not in src:
                    self.add_binding(owner, name, pat, alias_of=src)

    def on_field(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind != "struct":
            return
        name = self.text(node.child_by_field_name("name"))
        tnode = node.child_by_field_name("type")
        if name:
            self.add_binding(owner, f"self.{name}", node, annotation=self.direct_type(tnode))
        self.add_types(owner, tnode, "field")


_INT_SUFFIXES = ("u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize")


def _literal_type(ex: RustExtractor, node: _ts.Node) -> str:
    """An argument's type when its syntax alone shows it, as ``#type`` (``"a"`` -> ``#&str``, ``-8i8`` ->
    ``#i8``, ``'c'`` -> ``#char``, ``&x`` of such -> ``#&type``); ``''`` for anything else."""
    t = node.type
    if t == "string_literal":
        return "#&str"
    if t == "char_literal":
        return "#char"
    if t == "boolean_literal":
        return "#bool"
    if t == "unary_expression" and node.named_child_count == 1 and ex.text(node).startswith("-"):
        return _literal_type(ex, node.named_children[0])
    if t in ("integer_literal", "float_literal"):
        text = ex.text(node)
        for s in (*_INT_SUFFIXES, "f32", "f64"):
            if text.endswith(s) and not (s.startswith("f") and t == "integer_literal" and text.startswith("0x")):
                return "#" + s
        return ""
    if t == "unit_expression":
        return "#()"
    if t == "reference_expression" and node.named_child_count:
        inner = _literal_type(ex, node.named_children[-1])
        return "#&" + inner[1:] if inner else ""
    return ""


def _token_type(ex: RustExtractor, toks: list[_ts.Node]) -> str:
    """:func:`_literal_type` of one argument written as macro tokens (``"a"``, ``-8i8``, ``&'c'``)."""
    ref = ""
    while toks and toks[0].type in ("&", "-"):
        ref += "&" if toks[0].type == "&" else ""
        toks = toks[1:]
    if len(toks) != 1:
        return ""
    got = _literal_type(ex, toks[0])
    return "#" + ref + got[1:] if got else ""


def _pointee(ex: RustExtractor, node: _ts.Node | None) -> str:
    """``T`` of an impl for ``&T``, ``&mut T``, ``Box<T>``, ``Rc<T>``, ``Arc<T>`` (``''`` for other types)."""
    if node is None:
        return ""
    if node.type == "reference_type":
        inner = node.child_by_field_name("type")
    elif node.type == "generic_type" and ex.text(node.child_by_field_name("type")).rsplit("::", 1)[-1] in ("Box", "Rc", "Arc"):
        args = node.child_by_field_name("type_arguments")
        inner = args.named_children[0] if args is not None and args.named_child_count else None
    else:
        return ""
    return ex.text(inner) if inner is not None and inner.type == "type_identifier" else ""

