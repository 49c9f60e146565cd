"""TypeScript and TSX: the JavaScript extractor plus types.

Adds interfaces, type aliases, enums and namespaces as symbols; parameter, return, field and
variable annotations as type references (generic arguments too) and as the declared types the
resolver uses for receivers (``repo: Repo`` then ``repo.save()``); ``implements`` relations;
constructor parameter properties (``constructor(private repo: Repo)``) as fields of the class.
Annotations are stored as their primary type name (``Promise<User>`` -> ``User``, through the
utility types ``Partial``, ``Required``, ``Readonly``, ``Omit``, ``Pick``).
Members of object types are members of their type: an interface's or an object type alias's property
whose type is a function type (``parseJson?: (text: string) => unknown``) is a method declaration
(calls through it bind there), any other property a typed field. A type alias of another type, an
intersection or a union (``type Internal = Required<Options> & {...}``, ``type M = Middleware |
MiddlewareObject``) extends the named parts, so their members are its members. A call signature (``interface Handler { (e: Event): R }``, ``type Handler =
(e: Event) => R``) is the type's ``__call__`` method: calling a value of that type calls it. An object type written in place for a property or a field
(``handler: { mapResponse(r): unknown }``) is an interface named after it, holding its members. A generic parameter stands for its constraint (``<T extends Repo>(r: T)``:
``r`` is a ``Repo``). A method returning ``this`` returns an instance of its class. ``.tsx`` files use the ``tsx`` grammar with the same query.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers.records import (
    CONTEXT_MARK,
    TYPE_BASE,
    TYPE_PARAM,
    TYPE_PARAM_USE,
    Binding,
    ParsedFile,
)
from ..javascript._nodes import JS_GLOBALS
from ..javascript._parser import JSX_QUERY, JsExtractor
from ..javascript._returns import RETURN
from ._aliases import PRIMITIVES, AliasMixin
from ._augment import AugmentMixin
from ._callbacks import CallbackMixin
from ._casts import CastMixin
from ._fields import FieldMixin
from ._returned import CALLED, ReturnedTypeMixin, returned_by
from ._shapes import ShapeMixin
from ._this import cast_of_this, names_this, returns_only_this
from ._types import (
    CONTAINERS,
    FUNCTION_TYPES,
    NOTHING,
    PREDEFINED,
    builtin,
    builtin_type,
    generic_node,
    lookup_member,
    own_part,
    shape,
    strip,
    with_elements,
)

GRAMMAR = "tree_sitter_typescript:language_typescript"
TSX_GRAMMAR = "tree_sitter_typescript:language_tsx"
TS_QUERY = Path(__file__).with_name("typescript.scm")
TYPE_NAME_NODES = frozenset({"type_identifier", "nested_type_identifier"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one TypeScript (``.ts``) or TSX (``.tsx``) file into plain records.

    Examples
    --------
    >>> pf = parse("a.ts", b"interface I { m(): void }\\nclass A implements I { m(): void {} }\\n", "a")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('a', 'module'), ('a.I', 'interface'), ('a.I.m', 'method'), ('a.A', 'class'), ('a.A.m', 'method')]
    >>> [(r.target, r.kind) for r in pf.relations]
    [('I', 'implements')]
    """
    ex = TsExtractor(path, source, module)
    if path.lower().endswith(".tsx"):
        ex.grammar = TSX_GRAMMAR
        ex.language = ex.pf.language = "tsx"
        ex.query_files = (TS_QUERY, JSX_QUERY)
    return ex.run()


# a ``<return>`` binding's ``alias_of`` when its annotation gives the value (no name is read through it)
TYPED_RETURN = "<typed>"
UTILITY_WRAPPERS = frozenset({"Omit", "Pick", "Exclude", "Extract"})
MEMBER_KEEPING = UTILITY_WRAPPERS | {"Partial", "Required", "Readonly", "NonNullable"}  # X<B> has B's members


class TsExtractor(FieldMixin, ReturnedTypeMixin, AugmentMixin, ShapeMixin, CastMixin, AliasMixin, CallbackMixin,
                  JsExtractor):
    language = "typescript"
    grammar = GRAMMAR
    query_files: tuple[Path, ...] = (TS_QUERY,)
    type_name_nodes = TYPE_NAME_NODES
    primitive_names = PRIMITIVES
    # ``Promisable<T>`` (type-fest), ``MaybePromise<T>``, ``Awaitable<T>``: T or a promise of it, read as T
    # (as ``Promise<T>`` is): an awaited call of a ``() => Promisable<Link>`` gives a Link, not the package's type
    wrapper_types = JsExtractor.wrapper_types | UTILITY_WRAPPERS | {"Promisable", "MaybePromise", "Awaitable"}
    wrapper_names = wrapper_types

    def primary(self, node: _ts.Node | None) -> str:
        """The declared type's name; a string, number, array, tuple, ``Map<K, V>``... is the runtime's
        class (``String``, ``Array``, ``Map``), never one of its type arguments."""
        if shape(node):  # opts: { ctx: Context }, cb: (c: Context) => void: neither is a Context
            return ""
        runtime = builtin_type(node)
        if runtime in CONTAINERS:
            return with_elements(runtime, node, self.declared) or runtime
        if runtime:
            return runtime
        return own_part(node, self.external_name) or super().primary(node)  # Request & Extra: Extra

    def declared(self, node: _ts.Node | None) -> str:
        """:meth:`primary` with the type arguments of a generic type of the project's (``Box<Foo>`` ->
        ``Box[Foo]``, ``Promise<Res<User>>`` -> ``Res[User]``): a member of ``Box`` typed ``T`` is then a
        ``Foo`` (:mod:`lore.index._generics`). An argument that is no plain name is ``?``."""
        if made := returned_by(node):  # ReturnType<typeof make>: what make() gives (see ._returned)
            return CALLED + made
        member = lookup_member(node)
        if member is not None:  # compile: QueryCompiler['compileQuery']: that member (a method, a field's type)
            owner = self.declared(member[0])
            return f"{owner}.{member[1]}" if owner and "[" not in owner and "." not in owner else ""
        base = self.primary(node)
        if not base or "[" in base:
            return base
        gen = generic_node(node, self.wrapper_types)
        if gen is None or "".join(_ts.text(gen.child_by_field_name("name")).split()) != base:
            return base
        targs = gen.child_by_field_name("type_arguments")
        args = [self._type_arg(a) for a in targs.named_children] if targs is not None else []
        return f"{base}[{', '.join(args)}]" if args and any(a != "?" for a in args) else base

    def _type_arg(self, node: _ts.Node) -> str:
        if node.type == "predefined_type":
            return PREDEFINED.get(_ts.text(node), "?")
        if node.type in ("type_identifier", "nested_type_identifier", "generic_type", "array_type"):
            return self.declared(node) or "?"
        return "?"

    def asserted_runtime_of(self, type_node: _ts.Node) -> str:
        return builtin_type(type_node)

    def asserted_runtime(self, node: _ts.Node) -> str:
        """``x as string``, ``<string[]>x``: ``String``, ``Array`` (``x as Foo`` names no runtime class)."""
        typ = node.named_children[-1] if node.type == "as_expression" else node.named_children[0]
        if typ.type == "type_arguments" and typ.named_child_count:
            typ = typ.named_children[0]
        return builtin_type(typ)

    def element_type(self, type_node: _ts.Node | None) -> str:
        """``routers: Router[]`` (also ``readonly``, ``Array<Router>``, ``Set<Router>``, ``| undefined``):
        ``Router`` (``for (const r of routers)`` gives Routers)."""
        node = strip(type_node)
        if node is not None and node.type == "union_type":
            parts = [m for m in node.named_children if builtin(m) != NOTHING]
            node = strip(parts[0]) if len(parts) == 1 else None
        elem = None
        if node is not None and node.type == "array_type" and node.named_child_count:
            elem = node.named_children[0]
        elif node is not None and node.type == "generic_type" and \
                _ts.text(node.child_by_field_name("name")) in ("Array", "ReadonlyArray", "Set", "ReadonlySet"):
            args = node.child_by_field_name("type_arguments")
            elem = args.named_children[0] if args is not None and args.named_child_count else None
        elif node is not None and node.type == "generic_type" and _ts.text(node.child_by_field_name("name")) == "Record":
            args = node.child_by_field_name("type_arguments")  # Record<string, Node>: what ``nodes[k]`` gives
            elem = args.named_children[1] if args is not None and args.named_child_count == 2 else None
        return self.primary(elem) if elem is not None else ""

    def run(self) -> ParsedFile:
        self.constraints: dict[tuple[int, str], str] = {}  # (definition, generic parameter) -> its constraint
        self.declared_locals: set[tuple[int, str]] = set()  # (scope, name) of variables declared with one type
        self.untyped_decls: set[tuple[int, str, int]] = set()  # (scope, name, line) of ``let x = v`` declarations
        self.overload_returns: dict[tuple[int, str], set[str]] = {}  # (scope, name) -> its signatures' returns
        pf = super().run()
        if self.constraints:
            self._constrain()
        self._declared_fields_win()
        self._declared_locals_win()
        self.overloaded_callbacks()
        for b in pf.bindings:
            if b.name == RETURN and b.annotation and not b.value and not b.alias_of:
                # return x as Router, return new Box<Foo>(): the resolver reads a ``<return>`` that names
                # a value or an alias; the annotation decides (see ValuesMixin.binding_value)
                b.alias_of = TYPED_RETURN
        return pf

    def _params(self, fn: _ts.Node, local: int, owner: int) -> None:
        super()._params(fn, local, owner)
        params = fn.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            pat, typ = p.child_by_field_name("pattern"), strip(p.child_by_field_name("type"))
            self.returned_param(local, pat, typ)
            if typ is not None and typ.type == "union_type":  # a union is narrowed by assignment
                parts = [m for m in typ.named_children if builtin(m) != NOTHING]
                typ = strip(parts[0]) if len(parts) == 1 else None
            if pat is not None and pat.type == "identifier" and typ is not None:
                self.declared_locals.add((local, self.text(pat)))  # last: TObject, then last = [last]: a TObject
            elif pat is not None and pat.type == "this" and typ is not None and self.pf.symbols[local].kind == "function":
                self.add_binding(local, "this", p, annotation=self.declared(typ))  # function f(this: Req): this is a Req
        self.callback_params(fn, local, owner)
        self.shape_params(fn, local)

    def on_var(self, node: _ts.Node, owner: int) -> int | None:
        got = super().on_var(node, owner)
        name, typ = node.child_by_field_name("name"), strip(node.child_by_field_name("type"))
        if typ is not None and typ.type == "union_type":
            parts = [m for m in typ.named_children if builtin(m) != NOTHING]
            typ = strip(parts[0]) if len(parts) == 1 else None
        if got is None and name is not None and name.type == "identifier":
            if typ is not None:
                self.declared_locals.add((owner, self.text(name)))
            elif node.child_by_field_name("type") is None:  # another block's ``let fn = ...``: its own
                self.untyped_decls.add((owner, self.text(name), node.start_point[0] + 1))
        return got

    def _declared_locals_win(self) -> None:
        """``let fn: Middleware | undefined`` then ``fn = next``: the variable keeps its declared type
        (TypeScript narrows by assignment only a union of types), so the later assignments are dropped;
        a parameter declared with one type too (``last: TObject`` then ``last = [last]``)."""
        declared = self.declared_locals
        if declared:
            self.pf.bindings = [b for b in self.pf.bindings
                                if b.annotation or b.until or (b.owner, b.name) not in declared
                                or CONTEXT_MARK in b.alias_of or (b.owner, b.name, b.line) in self.untyped_decls]

    def _declared_fields_win(self) -> None:
        """A field the class declares with a type (``#options: Options``) has that type, whatever a
        method assigns to it (``this.#options = {...input}``): the assignments are dropped."""
        typed = {(b.owner, b.name) for b in self.pf.bindings if b.annotation and b.name.startswith("self.")}
        if typed:
            self.pf.bindings = [b for b in self.pf.bindings
                                if b.annotation or not b.name.startswith("self.") or (b.owner, b.name) not in typed]

    def declare_type_params(self, local: int, plist: _ts.Node | None) -> None:
        super().declare_type_params(local, plist)
        if plist is None:
            return
        generic = self.pf.symbols[local].kind in ("class", "interface", "type_alias")
        for tp in plist.named_children:
            if tp.type != "type_parameter":
                continue
            name = self.text(tp.child_by_field_name("name"))
            bound = self.primary(tp.child_by_field_name("constraint"))
            if name and bound and bound != name:
                self.constraints[(local, name)] = bound
            if generic and name:  # class Box<T, U = Foo>: in order, with the default (see lore.index._generics)
                default = tp.child_by_field_name("value")
                self.add_binding(local, TYPE_PARAM, tp, value=name,
                                 annotation=self.declared(default) if default is not None else "")

    def _constraint(self, owner: int | None, name: str) -> str:
        """What generic parameter ``name`` seen from ``owner`` stands for: its constraint, or ``''``."""
        i = owner
        while i is not None:
            if name in self.type_params.get(i, ()):
                return self.constraints.get((i, name), "")
            i = self.pf.symbols[i].parent
        return ""

    def _constrain_args(self, owner: int, ann: str) -> str:
        """``Merge[Rev, T]`` with ``Rev extends RequestEvent``: ``Merge[RequestEvent, T]`` (an argument naming a
        constrained parameter of ``owner``'s scope names its constraint)."""
        if not ann.endswith("]") or "[" not in ann:
            return ann
        head, _, args = ann[:-1].partition("[")
        parts = [a.strip() for a in args.split(",")]
        bound = [self._constraint(owner, a) or a for a in parts]
        return f"{head}[{', '.join(bound)}]" if bound != parts else ann

    def _constrain(self) -> None:
        """Annotations naming a constrained generic parameter name its constraint instead; a member of a
        generic class typed by the class's own parameter keeps that name in a ``TYPE_PARAM_USE`` binding
        (``_def: Def`` with ``Def extends ZodTypeDef``: what a ``ZodArray``'s base gives ``Def``)."""
        uses: list[tuple[int, str, str]] = []
        for i, sym in enumerate(self.pf.symbols):
            if sym.params:
                sym.params = [(p, self._constraint(i, a) or self._constrain_args(i, a) if a else a) for p, a in sym.params]
            if sym.return_type:
                bound = self._constraint(i, sym.return_type)
                if bound and sym.parent is not None and sym.return_type in self.type_params.get(sym.parent, ()):
                    uses.append((sym.parent, sym.name, sym.return_type))
                sym.return_type = bound or sym.return_type
        for b in self.pf.bindings:
            if b.annotation and b.name != TYPE_PARAM_USE:  # an alias's parameter part (_aliases.PARAM_PART) keeps its name
                bound = self._constraint(b.owner, b.annotation)
                if bound and b.name.startswith("self.") and b.annotation in self.type_params.get(b.owner, ()):
                    uses.append((b.owner, b.name, b.annotation))
                b.annotation = bound or b.annotation
        for owner, member, param in uses:
            self.pf.bindings.append(Binding(owner, TYPE_PARAM_USE, self.pf.symbols[owner].start_line,
                                            annotation=param, value=member))

    def _function(self, node: _ts.Node, owner: int, name: str, kind: str, fn: _ts.Node,
                  span: _ts.Node | None = None) -> int:
        local = super()._function(node, owner, name, kind, fn, span)
        sym = self.pf.symbols[local]
        ret = fn.child_by_field_name("return_type")
        if not sym.return_type and ret is not None and any(c.type == "this_type" for c in ret.named_children):
            cls = self._class_of(owner)  # m(): this (chaining): an instance of the class it is declared in
            if cls is not None:
                sym.return_type = self.pf.symbols[cls].name
                self.add_binding(local, RETURN, ret, alias_of="this")  # the receiver: a subclass's, called on one
        elif ret is not None and names_this(ret) and returns_only_this(fn.child_by_field_name("body")):
            cls = self._class_of(owner)  # default(v): HasDefault<this> { return this as ... }: the receiver
            if cls is not None:
                sym.return_type = self.pf.symbols[cls].name
                self.add_binding(local, RETURN, ret, alias_of="this")
        sigs = self.overload_returns.get((owner, name)) if ret is None else None
        if sigs is not None and len(sigs) == 1 and not sym.return_type:  # test(o: Config): this; test(...a) {...}
            sym.return_type = next(iter(sigs))
        return local

    def on_callsig(self, node: _ts.Node, owner: int) -> int | None:
        """``(event: Event): Response`` in an interface: calling a value of that type calls ``__call__``."""
        if self.pf.symbols[owner].kind not in ("interface", "type_alias"):
            return None
        return self._call_member(node, owner, node)

    def _call_member(self, node: _ts.Node, owner: int, fn: _ts.Node) -> int:
        """``__call__`` of a call signature; a construct signature (``new (app: App): Server``, ``type C =
        new () => Server``) is one too: lore binds ``new x()`` like a call of ``x``, to what it gives."""
        local = self.add_symbol(node, owner, "__call__", "method", doc_node=node, is_declaration=True)
        # a generic signature (``type Parse = <T extends Schema>(s: T) => R``): ``s`` is a Schema
        self.declare_type_params(local, fn.child_by_field_name("type_parameters"))
        self._params(fn, local, owner)
        ret = fn.child_by_field_name("return_type") or fn.child_by_field_name("type")
        if ret is not None:
            self.pf.symbols[local].return_type = self.declared(ret)
        return local

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "interface":
            merged = self.named.get((owner, self.text(node.child_by_field_name("name"))))
            if merged is not None and self.pf.symbols[merged].kind == "class":
                return self._merge_interface(node, merged)
            local = self._class(node, owner, "interface")
            if local is not None:
                self.augment(node, local, JS_GLOBALS)  # declare global { interface Request {...} }
            return local
        if node.type == "method_signature" and self.pf.symbols[owner].kind == "class" \
                and (owner, self.text(node.child_by_field_name("name"))) in self.named:
            return None  # a merged interface's declaration of a method the class defines: the class's stands
        if kind in ("type_alias", "enum", "namespace"):
            name = self.text(node.child_by_field_name("name"))
            if not name:
                return None
            merged = self.named.get((owner, name)) if kind == "namespace" else None
            if merged is not None and self.pf.symbols[merged].kind == "class":
                # class Cookie {...} then namespace Cookie { export function parse() }: one value, the class,
                # whose static members the namespace adds (Cookie.parse(), new Cookie.Jar(), new Cookie())
                return merged
            body = node.child_by_field_name("body")
            local = self.add_symbol(node, owner, name, kind, body=body, doc_node=self._doc_anchor(node),
                                    exported=self._exported(node, owner))
            self.named.setdefault((owner, name), local)
            if kind == "type_alias":
                self.declare_type_params(local, node.child_by_field_name("type_parameters"))
                self.add_types(local, node.child_by_field_name("value"), "annotation")
                value = node.child_by_field_name("value")
                self._alias_bases(local, value)
                if value is not None and value.type in FUNCTION_TYPES:  # type Handler = (e: E) => R
                    self._call_member(value, local, value)
            return local
        if node.type in ("function_signature", "method_signature") and self._overload(node):
            ret = node.child_by_field_name("return_type")  # what the implementation returns, when it says nothing
            self.overload_returns.setdefault((owner, self.text(node.child_by_field_name("name"))), set()).add(
                self._returned(ret, owner) if ret is not None else "")
            return None
        return super().define(node, owner, kind)

    def _returned(self, ret: _ts.Node, owner: int) -> str:
        """A declared return type; ``this`` (chaining) is an instance of the class it is declared in."""
        if any(c.type == "this_type" for c in ret.named_children):
            cls = self._class_of(owner)
            return self.pf.symbols[cls].name if cls is not None else ""
        return self.declared(ret)

    def bind_return(self, owner: int, at: _ts.Node, expr: _ts.Node) -> None:
        """Also ``return this as HasDefault<this>``: the receiver itself (see :mod:`._this`)."""
        if cast_of_this(expr):
            self.add_binding(owner, RETURN, at, alias_of="this")
            return
        super().bind_return(owner, at, expr)

    def _bind_value(self, owner: int, name: str, at: _ts.Node, value: _ts.Node) -> None:
        """Also ``const s = make() as Schema`` (``<Schema>make()``): a ``Schema``, as TypeScript reads it
        (a cast to ``any``, ``unknown``, ``const`` or a runtime type keeps what the value is)."""
        v = value
        while v.type in ("parenthesized_expression", "non_null_expression") and v.named_child_count:
            v = v.named_children[0]
        if v.type in ("as_expression", "type_assertion") and v.named_child_count == 2 and not name.startswith("self."):
            typ = v.named_children[-1] if v.type == "as_expression" else v.named_children[0]
            if typ.type == "type_arguments" and typ.named_child_count:
                typ = typ.named_children[0]
            ann = "" if typ.type == "predefined_type" or builtin_type(typ) else self.declared(typ)
            if ann:
                self.add_binding(owner, name, at, annotation=ann)
                return
        if v.type == "subscript_expression" and not name.startswith("self."):
            index = v.child_by_field_name("index")
            coll = self.dotted(v.child_by_field_name("object"))
            elem = self._element_of(owner, coll) if coll and "(" not in coll and index is not None \
                and index.type not in ("string", "template_string") else ""
            if elem:  # const router = routers[i] with routers: Router[] (or a Record<string, Router>): a Router
                self.add_binding(owner, name, at, annotation=elem)
                return
        if v.type in ("identifier", "member_expression") and not name.startswith("self."):
            elem = self._element_of(owner, self.dotted(v))
            if elem:  # const routers = this.#routers: the same collection, the same elements
                self.elements[(owner, name)] = elem
        targs = v.child_by_field_name("type_arguments") if v.type == "new_expression" else None
        ctor = self.dotted(v.child_by_field_name("constructor")) if targs is not None else ""
        if ctor and "<" not in ctor and "(" not in ctor and not name.startswith("self."):
            args = [self._type_arg(a) for a in targs.named_children]  # type: ignore[union-attr]
            if any(a != "?" for a in args):  # new Box<Foo>(): a Box whose T is a Foo
                self.add_binding(owner, name, at, annotation=f"{ctor}[{', '.join(args)}]")
                return
        super()._bind_value(owner, name, at, value)

    def _merge_interface(self, node: _ts.Node, cls: int) -> int:
        """``interface Schema`` after ``class Schema`` in the same scope (declaration merging): one type,
        the class; the interface's members and bases are the class's (a lookup of ``Schema`` must not
        find a second type without the class's methods)."""
        for child in node.named_children:
            if child.type == "extends_type_clause":
                for tn in child.named_children:
                    for tname, tnode in self.types_in(tn)[:1]:
                        self.add_relation(cls, tname, "implements", tnode)
        return cls

    def _overload(self, node: _ts.Node) -> bool:
        """An overload signature followed by the implementation of the same name: the implementation stands for both."""
        name = self.text(node.child_by_field_name("name"))
        anchor = node.parent if node.parent is not None and node.parent.type == "export_statement" else node
        sib = anchor.next_named_sibling
        while sib is not None:
            item = sib.child_by_field_name("declaration") if sib.type == "export_statement" else sib
            if item is None or item.type in ("comment",):
                sib = sib.next_named_sibling
                continue
            if self.text(item.child_by_field_name("name")) != name:
                return False
            if item.type in ("function_declaration", "method_definition", "generator_function_declaration"):
                return True
            if item.type not in ("function_signature", "method_signature"):
                return False
            sib = sib.next_named_sibling
        return False

    def _heritage(self, node: _ts.Node, local: int) -> None:
        """Also ``class Sub extends Base<Foo>``: a ``TYPE_BASE`` binding ``Base[Foo]`` of the class, so a
        member of ``Base`` typed ``T`` is a ``Foo`` on a ``Sub`` (:mod:`lore.index._generics`)."""
        super()._heritage(node, local)
        for child in node.named_children:
            targs = child.child_by_field_name("type_arguments") if child.type == "extends_clause" else None
            base = self.dotted(child.child_by_field_name("value")) if targs is not None else ""
            if base and "<" not in base and "(" not in base:
                args = [self._type_arg(a) for a in targs.named_children]  # type: ignore[union-attr]
                if any(a != "?" for a in args):
                    self.add_binding(local, TYPE_BASE, child, annotation=f"{base}[{', '.join(args)}]")

    def _class_of(self, owner: int) -> int | None:
        if self.pf.symbols[owner].kind == "interface":
            return owner
        return super()._class_of(owner)
