"""C++: the C extractor plus classes, namespaces, methods, base classes and ``new``.

Classes and structs with their methods (defined in the body, declared there, or defined out of line
as ``A::m``: children of ``A`` when ``A`` is declared in the same file, else of a declaration-only
placeholder ``A`` in the namespace the definition names, which the resolver pairs with the real
class by its name inside the namespaces); namespaces are ``namespace`` symbols (``namespace a::b``
nests two), so ``ns::f()`` resolves through them and through the other blocks of the same namespace
in other files; an inline namespace's members are its enclosing namespace's, and macros (``#define``)
belong to the file whatever scope they sit in. ``using namespace ns;``, ``using ns::X;`` and ``namespace fs = a::b;`` are imports of
module ``namespace ns`` (star, member, alias). Base classes are ``extends`` relations. ``this->m()`` is
``this.m``; ``new T(...)`` and ``T x(...)`` are constructions of ``T`` (constructors are named ``<init>``
as in Java: named like their class they would shadow it). Locals declared ``auto x = make()`` bind the
callee so ``x.m()`` resolves through ``make``'s return type; ``std::make_unique<T>()`` makes a ``T``.
Template parameters are never type references.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...parsers import _ts
from ...parsers._common import clip_signature
from ...parsers.records import ParsedFile
from ..c._extract import CExtractor
from ._aliases import on_namespace_alias as _namespace_alias
from ._aliases import on_typedef as _typedef
from ._aliases import on_using as _using
from ._arguments import arg_type as _arg_type
from ._arguments import const_member_receiver
from ._blocks import block_end
from ._categories import is_rvalue
from ._constructions import assigned_call, base_initializer, vexing_constructions
from ._dependent_constructions import mark_dependent
from ._elements import (
    declared_iterator,
    element_levels,
    for_range,
    iterator_binding,
    pair_levels,
    returned_elements,
    spelling,
    structured_binding,
    subscript_bindings,
)
from ._lambdas import lambda_parameters, local_lambda
from ._numbers import number_binding
from ._outside import mark_call, std_type, wrapper_binding
from ._project_macros import apply_table
from ._scopes import lower_classes, path_of, placeholder, scope_of
from ._source import cpp_source, one_branch
from ._templates import class_params, default_return, enabled_type, template_base, with_arguments


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
    source = cpp_source(apply_table(source), header=not path.endswith((".cc", ".cpp", ".cxx", ".c++")))
    pf = CppExtractor(path, source, module).run()
    flat = one_branch(source) if pf.syntax_errors else None  # #if branches that open two braces for one close
    return CppExtractor(path, flat, module).run() if flat is not None else pf


MAKERS = frozenset({"std.make_unique", "std.make_shared", "make_unique", "make_shared"})
_VAR_DECLARATORS = frozenset({"pointer_declarator", "reference_declarator", "array_declarator", "init_declarator",
                              "parenthesized_declarator", "attributed_declarator"})


class CppExtractor(CExtractor):
    language = "cpp"
    grammar = "cpp"
    query_files = (Path(__file__).with_name("cpp.scm"),)
    type_name_nodes = frozenset({"type_identifier", "qualified_identifier"})
    wrapper_names = frozenset({"unique_ptr", "shared_ptr", "weak_ptr", "optional", "reference_wrapper"})

    def run(self) -> ParsedFile:
        self.var_types: dict[int, dict[str, str]] = {}  # scope -> variable -> declared type (``char*``)
        self.var_anns: dict[int, dict[str, str]] = {}  # scope -> variable -> its annotation (``Options`` of a unique_ptr)
        self.containers: set[str] = set()  # names this file declares as containers of a known element type
        self.plain: set[str] = set()  # names this file declares with a type that is no such container
        self.aliases: dict[str, _ts.Node] = {}  # typedefs / using-aliases of this file naming a container type
        self.named_lambdas: set[int] = set()  # start bytes of the lambdas held in local variables (own symbols)
        self.pairs: set[str] = set()  # names of map elements and iterators (``kv.second``, ``it->second``: ``kv[]``)
        self.lower_classes = lower_classes(self.source, self.path)  # see _scopes._scope_kind
        return super().run()

    # -- argument types (overloads) -------------------------------------------------------------
    def declare_var(self, owner: int, name: str, tnode: _ts.Node | None, at: _ts.Node) -> None:
        """Remember the type a parameter, local or field is declared with, ``*`` per pointer level."""
        if tnode is None or tnode.type == "placeholder_type_specifier":  # auto: not written
            return
        stars = 0
        n = at.parent
        while n is not None and n.type in _VAR_DECLARATORS:
            stars += n.type in ("pointer_declarator", "array_declarator")
            n = n.parent
        const = n is not None and any(c.type == "type_qualifier" and self.text(c) == "const" for c in n.children)
        self.var_types.setdefault(owner, {})[name] = ("const " if const else "") + self.text(tnode) + "*" * stars
        if self.pf.symbols[owner].kind in ("class", "struct"):
            number_binding(self, owner, name, tnode, self.var_types[owner][name], at)
        self.var_anns.setdefault(owner, {})[name] = self.direct_type(tnode)
        arrays = 0
        n = at.parent
        while n is not None and n.type in _VAR_DECLARATORS:
            arrays += n.type == "array_declarator"
            n = n.parent
        field = self.pf.symbols[owner].kind in ("class", "struct")
        # v[i], v.front(): the element (see _elements); p[i] of a pointer Foo* p: a Foo, as of an array Foo p[4]
        alias = self.aliases.get(self.text(tnode)) if tnode.type == "type_identifier" else None
        levels = pair_levels(self, tnode) if not (arrays or stars) else []
        if levels:  # std::pair<A, B> p: p.first (p[first]) an A, p.second (p[]) a B
            self.pairs.add(name)
        levels = levels or element_levels(self, alias if alias is not None else tnode, arrays or min(stars, 1))
        if not levels:
            self.plain.add(name)
        wrapper_binding(self, owner, name, tnode, at, field)
        for suffix, ann in levels:
            self.containers.add(name)
            self.add_binding(owner, name + suffix, at, annotation=ann)
            if field:
                self.add_binding(owner, f"self.{name}{suffix}", at, annotation=ann)

    def add_binding(self, owner: int, name: str, node: _ts.Node, *, annotation: str = "", value: str = "",
                    alias_of: str = "") -> None:
        """A local of a nested block holds on its block's lines only (:func:`~lore.languages.cpp._blocks.block_end`)."""
        n = len(self.pf.bindings)
        super().add_binding(owner, name, node, annotation=annotation, value=value, alias_of=alias_of)
        if len(self.pf.bindings) > n and self.pf.symbols[owner].kind in ("function", "method"):
            self.pf.bindings[-1].until = block_end(node)

    def on_call(self, node: _ts.Node, owner: int) -> None:
        """A call; ``x.m()`` on a variable declared ``const T`` / ``const T*`` / ``const T&``, or on a member of ``*this``
        in a ``const`` method (:func:`~lore.languages.cpp._arguments.const_member_receiver`), gets the call attribute
        ``~const`` after its arguments (its ``m() const`` overload is the one called)."""
        super().on_call(node, owner)
        fn = node.child_by_field_name("function")
        recv = fn.child_by_field_name("argument") if fn is not None and fn.type == "field_expression" else None
        if recv is not None and recv.type == "identifier" and self.pf.calls:
            t = self._var_type(owner, self.text(recv))
            if t is not None and t.startswith("const ") or t is None and const_member_receiver(self, fn, owner):
                self.pf.calls[-1].args.append("~const")
        mark_call(self, fn)
        if fn is not None and fn.type in ("template_function", "qualified_identifier", "identifier"):
            mark_dependent(self, fn, owner)

    def dotted(self, node: _ts.Node | None) -> str:
        """C's spelling, elements and casts as :func:`lore.languages.cpp._elements.spelling` spells them; a dependent
        name (``stack_.template Push<Ch>()``) as the name it holds (``stack_.Push``)."""
        if node is not None and node.type == "dependent_name" and node.named_child_count:
            return self.dotted(node.named_children[0])
        got = spelling(self, node) if node is not None else None
        if got is not None:
            return got
        return super().dotted(node)

    def finish(self) -> None:
        """Before C's: subscripts of locals through their ``operator[]`` (:func:`~lore.languages.cpp._elements.subscript_bindings`)."""
        subscript_bindings(self)
        super().finish()

    def on_for_range(self, node: _ts.Node, owner: int) -> None:
        for_range(self, node, owner)

    def _is_static(self, node: _ts.Node) -> bool:
        """``static``, or inside an anonymous namespace: file-local either way (another file's ``Local()`` in its own
        ``namespace {`` is no overload of this one, nor a definition of its declaration)."""
        if super()._is_static(node):
            return True
        p = node.parent
        while p is not None:
            if p.type == "namespace_definition" and p.child_by_field_name("name") is None:
                return True
            p = p.parent
        return False

    def _var_ann(self, owner: int, name: str) -> str:
        """The annotation of a variable declared in ``owner`` or a scope around it in this file (``""``: unknown)."""
        i: int | None = owner
        while i is not None:
            got = self.var_anns.get(i, {}).get(name)
            if got is not None:
                return got
            i = self.pf.symbols[i].parent
        return ""

    def _var_type(self, owner: int, name: str) -> str | None:
        i: int | None = owner
        while i is not None:
            got = self.var_types.get(i, {}).get(name)
            if got is not None:
                return got
            i = self.pf.symbols[i].parent
        return None

    def function_declarator(self, node: _ts.Node | None) -> _ts.Node | None:
        """C's, except that ``void (*exit_fn)(int);`` declares a pointer to a function, a variable: clangd answers
        a call through it with the variable, which the harness maps onto no function (``void (*signal(int))(int);``,
        a function returning one, stays a function)."""
        fd = super().function_declarator(node)
        inner = fd.child_by_field_name("declarator") if fd is not None else None
        if inner is not None and inner.type == "parenthesized_declarator" and inner.named_children \
                and super().function_declarator(inner.named_children[0]) is None:
            return None
        return fd

    def signature(self, node: _ts.Node, body: _ts.Node | None) -> str:
        """A template's signature starts with its ``template <class T>`` (overloads tell template parameters apart),
        but not a member of a class template defined out of line (``template <class M> void sink<M>::log(int)``: the
        parameters are the class's, and the member is no function template beside its declaration)."""
        sig = super().signature(node, body)
        p = node.parent
        params = p.child_by_field_name("parameters") if p is not None and p.type == "template_declaration" else None
        if params is not None and node.type != "template_declaration" and not self._class_template_member(node, p):
            sig = clip_signature(f"template {' '.join(self.text(params).split())} {sig}")
        return sig

    def _class_template_member(self, node: _ts.Node, template: _ts.Node | None) -> bool:
        """Whether ``node`` defines a member of a class template out of line (``sink<M>::log``) under its one
        ``template <...>`` (a member template, ``template <class M> template <class T>``, has two)."""
        if template is None or template.parent is not None and template.parent.type == "template_declaration":
            return False
        fdecl = self.function_declarator(node.child_by_field_name("declarator"))
        name = fdecl.child_by_field_name("declarator") if fdecl is not None else None
        scope = name.child_by_field_name("scope") if name is not None and name.type == "qualified_identifier" else None
        return scope is not None and scope.type == "template_type"

    def arg_type(self, owner: int, arg: _ts.Node) -> str:
        """What :meth:`record_arity` records for an argument that is no literal (:func:`~lore.languages.cpp._arguments.arg_type`)."""
        return _arg_type(self, owner, arg)

    def record_arity(self, arguments: _ts.Node | None) -> None:
        super().record_arity(arguments)
        if arguments is None or not self.pf.calls:
            return
        call = self.pf.calls[-1]
        args = [a for a in arguments.named_children if a.type != "comment"]
        for i, a in enumerate(args[:len(call.args)]):
            if not call.args[i]:
                call.args[i] = self.arg_type(call.caller, a)
        call.args.extend([f"~rv{i}" for i, a in enumerate(args[:len(call.args)])
                          if call.args[i][:1] != "#" and is_rvalue(self, a, call.args[i])])

    def _function(self, node: _ts.Node, owner: int, declarator: _ts.Node | None, body: _ts.Node | None,
                  is_declaration: bool = False) -> int | None:
        local = super()._function(node, owner, declarator, body, is_declaration)
        if local is not None:  # the placeholders holding an out-of-line definition span it (file.cpp:LINE names it)
            syms = self.pf.symbols
            i = syms[local].parent
            while i is not None and syms[i].is_declaration and syms[i].kind in ("class", "namespace"):
                syms[i].end_line = max(syms[i].end_line, syms[local].end_line)
                i = syms[i].parent
        fdecl = self.function_declarator(declarator)
        trailing = next((c for c in fdecl.children if c.type == "trailing_return_type"), None) \
            if local is not None and fdecl is not None else None
        ret = node.child_by_field_name("type")
        if local is not None and trailing is not None and trailing.named_child_count:  # auto f() -> Point: a Point
            ret = trailing.named_children[0].child_by_field_name("type")
            self.pf.symbols[local].return_type = self.direct_type(ret)
        if local is not None:
            returned_elements(self, local, ret, node)
            default_return(self, local, node, ret, fdecl.child_by_field_name("parameters") if fdecl is not None else None)
            if fdecl is not None and fdecl.parent is not None and fdecl.parent.type not in ("pointer_declarator", "array_declarator"):
                number_binding(self, local, "", ret, self.text(ret) if ret is not None else "", node)
        params = fdecl.child_by_field_name("parameters") if fdecl is not None and body is not None else None
        for p in params.named_children if local is not None and params is not None else ():
            if local is not None and p.type in ("parameter_declaration", "optional_parameter_declaration"):
                pn = self.declarator_name(p.child_by_field_name("declarator"))
                if pn is not None and pn.type == "identifier":
                    self.declare_var(local, self.text(pn), p.child_by_field_name("type"), pn)
        return local

    def on_field(self, node: _ts.Node, owner: int) -> None:
        super().on_field(node, owner)
        if self.pf.symbols[owner].kind in ("struct", "class"):
            for d in node.children_by_field_name("declarator"):
                pn = self.declarator_name(d)
                if pn is not None and pn.type == "field_identifier" and self.function_declarator(d) is None:
                    self.declare_var(owner, self.text(pn), node.child_by_field_name("type"), pn)

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        out = []
        for name, n in super().types_in(node):
            if n.type == "qualified_identifier":
                name = self.dotted(n) or name
            if name and not name.startswith("std."):
                out.append((name, n))
        return out

    def direct_type(self, node: _ts.Node | None) -> str:
        """The type a declaration gives its variable; through a smart pointer or an optional, the type it holds
        (``std::unique_ptr<Impl> impl_``: ``impl_->parse()`` calls ``Impl::parse``), and through an ``enable_if``,
        the type it gives (:func:`~._templates.enabled_type`)."""
        inner = self._held(node) or enabled_type(self, node)
        if inner is not None:
            return self.direct_type(inner)
        return with_arguments(self, node, self._written_type(node))

    def _written_type(self, node: _ts.Node | None) -> str:
        """The type as written, wrappers included (what ``T x(args)`` constructs)."""
        if node is not None and node.type == "qualified_identifier":
            return self.dotted(node)
        return std_type(self, super().direct_type(node))

    def _held(self, node: _ts.Node | None) -> _ts.Node | None:
        """The first template argument of a wrapper type (``std::shared_ptr<const T>``: ``T``), else ``None``."""
        t = node
        while t is not None and t.type == "qualified_identifier":
            t = t.child_by_field_name("name")
        if t is None or t.type != "template_type" or self.text(t.child_by_field_name("name")) not in self.wrapper_names:
            return None
        args = t.child_by_field_name("arguments")
        first = next((a for a in args.named_children if a.type == "type_descriptor"), None) if args is not None else None
        return first.child_by_field_name("type") if first is not None else None

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "function" and self.pf.symbols[owner].kind in ("function", "method") \
                and any(c.type == "pure_virtual_clause" for c in node.children):
            assigned_call(self, node, owner)  # RawBigit(i) = 0; in a body: an assignment to what a call returns
            return None
        if kind == "namespace":
            parts = [p for p in self.text(node.child_by_field_name("name")).replace("::", ".").split(".") if p]
            if not parts:
                return None  # anonymous namespace: its names belong to the file
            if len(parts) == 1 and self.pf.symbols[owner].kind == "namespace" and any(c.type == "inline" for c in node.children):
                # inline namespace g::v { f(); }: f is g::f to every caller (the language's rule), and g::v::f too
                self.add_import(0, f"namespace {path_of(self, owner)}", node, None, parts[0])
                return None
            for part in parts[:-1]:  # namespace a::b { }: b inside a
                owner = placeholder(self, node, owner, part, "namespace")
            local = self.add_symbol(node, owner, parts[-1], "namespace", body=node.child_by_field_name("body"))
            self.scopes.setdefault((owner, parts[-1]), local)
            return local
        got = super().define(node, owner, kind)
        if got is not None and kind in ("class", "struct") and self._is_static(node):
            self.pf.symbols[got].exported = False  # namespace { class Helper }: no other file's Helper is its twin
        return got

    def scope_of(self, node: _ts.Node, owner: int, scope_name: str) -> tuple[int, bool]:
        """See :func:`~lore.languages.cpp._scopes.scope_of`."""
        return scope_of(self, node, owner, scope_name)

    def overload_key(self, fdecl: _ts.Node | None) -> str:
        """The parameter types as written, names, defaults and spaces left out (``(const char* s, int n = 0)``
        -> ``constchar*,int``): a declaration ``f(int)`` stands beside a definition ``f(const char*)``."""
        if fdecl is None:
            return ""
        params = fdecl.child_by_field_name("parameters")
        out = []
        for p in params.named_children if params is not None else ():
            if p.type == "comment":
                continue
            start, end = p.start_byte, p.end_byte
            default = p.child_by_field_name("default_value")
            if default is not None:
                end = default.start_byte
            text = self.source[start:end]
            name = self.declarator_name(p.child_by_field_name("declarator"))
            if name is not None:
                text = self.source[start:name.start_byte] + self.source[name.end_byte:end]
            out.append(re.sub(rb"\s+", b"", text).rstrip(b"=").decode("utf-8", "replace"))
        quals = fdecl.child_by_field_name("parameters")
        tail = self.source[quals.end_byte:fdecl.end_byte] if quals is not None else b""
        return ",".join(out) + (" const" if b"const" in tail else "")

    def template_params(self, node: _ts.Node, local: int) -> None:
        parent = node.parent
        if parent is not None and parent.type == "template_declaration":
            self.declare_type_params(local, parent.child_by_field_name("parameters"))
            class_params(self, local, parent.child_by_field_name("parameters"))

    def bases(self, node: _ts.Node, local: int) -> None:
        clause = next((c for c in node.named_children if c.type == "base_class_clause"), None)
        if clause is None:
            return
        for c in clause.named_children:
            if c.type in ("type_identifier", "qualified_identifier", "template_type"):
                name = self.dotted(c)
                if name:
                    self.add_relation(local, name, "extends", c)
                    template_base(self, local, c, name)

    def method_declaration(self, node: _ts.Node, owner: int, declarator: _ts.Node) -> bool:
        """``void draw() const;`` in a class body: a declaration, kept unless the file defines it (see finish)."""
        fdecl = self.function_declarator(declarator)
        name_node = self.declarator_name(fdecl.child_by_field_name("declarator")) if fdecl is not None else None
        if name_node is None:
            return False
        self.prototypes.append((node, owner, declarator))
        return True

    def local_binding(self, owner: int, name: str, at: _ts.Node, tnode: _ts.Node | None, value: _ts.Node | None) -> None:
        self.declare_var(owner, name, tnode, at)
        elem = declared_iterator(self, tnode)
        if elem:  # vector<Edge*>::iterator e: (*e)->Ready() is an Edge's; a map's it->second (it[]) its mapped value
            self.add_binding(owner, name, at, annotation=elem)
            self.add_binding(owner, name + "[]", at, annotation=elem)
            self.pairs.add(name)
            return
        if (tnode is None or tnode.type == "placeholder_type_specifier") and iterator_binding(self, owner, name, at, value):
            return
        if value is not None and value.type in ("identifier", "field_expression", "pointer_expression",
                                                 "subscript_expression", "parenthesized_expression") \
                and (tnode is None or tnode.type == "placeholder_type_specifier"):
            src = self.dotted(value)  # auto& o = *owned; auto p = &x; auto c = cfg.comparator; auto e = v[i]: the same
            if src and not src.startswith("<") and "(" not in src:  # value (-> and . are one member access here)
                ann = self._var_ann(owner, src)  # a local of this file: its declared type, one lookup less
                if ann:
                    self.add_binding(owner, name, at, annotation=ann)
                else:
                    self.add_binding(owner, name, at, alias_of=src)
                return
        if value is not None and value.type == "call_expression" and (tnode is None or tnode.type == "placeholder_type_specifier"):
            fn = value.child_by_field_name("function")
            if self.dotted(fn) in MAKERS:  # auto p = std::make_unique<Widget>(...): a Widget
                tf = fn.child_by_field_name("name") if fn is not None and fn.type == "qualified_identifier" else fn
                made = self.types_in(tf.child_by_field_name("arguments")) if tf is not None else []
                if made:
                    self.add_binding(owner, name, at, value=made[0][0])
                    return
        if value is not None and value.type == "new_expression":
            t = self.dotted(value.child_by_field_name("type"))
            if t and (tnode is None or tnode.type == "placeholder_type_specifier"):
                self.add_binding(owner, name, at, value=t)
                return
        if value is not None and value.type == "argument_list" and tnode is not None:  # T x(args): a construction
            t = self._written_type(tnode)
            if t:  # where the type is named, as new T(args) is (file.cpp:LINE:COL points at T, not at its "(")
                self.add_call(owner, t, tnode, "new")
                self.record_arity(value)
                mark_dependent(self, tnode, owner)
        super().local_binding(owner, name, at, tnode, value)

    def on_decl(self, node: _ts.Node, owner: int) -> int | None:  # type: ignore[override]  # a local lambda opens
        """A declaration; in a function body ``T x(name);`` with only names inside the parentheses (which the grammar
        reads as a function declaration, as the language's most vexing parse would) is a construction of ``T``, and
        ``auto name = [...](...) {...};`` a local function (:func:`~lore.languages.cpp._lambdas.local_lambda`)."""
        lam = local_lambda(self, node, owner)
        if lam is not None:
            return lam
        if self.pf.symbols[owner].kind in ("function", "method"):
            vexing_constructions(self, node, owner)
            structured_binding(self, node, owner)
        super().on_decl(node, owner)
        return None

    def on_macro(self, node: _ts.Node, owner: int) -> None:
        """A ``#define`` inside a namespace or class is no member of it: the preprocessor knows no scopes, and
        ``CHECK_EQ(a, b)`` is called by its bare name from files that never open the namespace."""
        super().on_macro(node, 0)

    def on_field_init(self, node: _ts.Node, owner: int) -> None:
        base_initializer(self, node, owner)
        if node.named_child_count:
            mark_dependent(self, node.named_children[0], owner)

    def on_new(self, node: _ts.Node, owner: int) -> None:
        t = self.dotted(node.child_by_field_name("type"))
        if t:
            self.add_call(owner, t, node, "new")
            self.record_arity(node.child_by_field_name("arguments"))
            mark_dependent(self, node.child_by_field_name("type"), owner)

    def on_lambda(self, node: _ts.Node, owner: int) -> None:
        lambda_parameters(self, node, owner)

    def on_using(self, node: _ts.Node, owner: int) -> None:
        _using(self, node, owner)

    def on_namespace_alias(self, node: _ts.Node, owner: int) -> None:
        _namespace_alias(self, node, owner)

    def on_typedef(self, node: _ts.Node, owner: int) -> None:
        _typedef(self, node, owner)
