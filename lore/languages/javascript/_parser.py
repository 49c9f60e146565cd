"""JavaScript: tree-sitter -> :class:`~lore.parsers.records.ParsedFile` (TypeScript builds on it).

Definitions: functions, generators, classes, methods, and functions bound to names
(``const f = () => ...``, ``exports.f = function ...``). Calls keep their dotted callee
(``this.repo.save``); ``super.m()`` is written ``super().m`` and ``super(...)`` ``super().constructor``
so the resolver walks the class hierarchy as for Python. Imports: ES modules (default, named,
namespace, re-exports) and CommonJS ``require``; the module text is the specifier as written
(``./util``), resolved against the file's path by :mod:`lore.languages.javascript._rules`.
``export default X`` binds the name ``default`` so ``import X from`` finds it; CommonJS
``module.exports = X`` (and TypeScript ``export = X``) binds ``module.exports``, which the resolver
takes as the value of the whole module; ``module.exports = require('./x')`` re-exports ``./x``;
``exports.f = g`` binds ``f``. Object literals of functions bound to a name (``const api = { get() {} }``)
are ``namespace`` symbols holding their functions (``module.exports = {...}``: the module holds them);
methods of other object literals are not symbols (their calls belong to the enclosing definition);
``this.m()`` in a function of such a literal calls the literal's ``m``. Getters are marked ``<get>``.
ES5 classes: ``A.prototype.m = function`` makes ``m`` a method of ``A`` and the function ``A`` a class.
JSX elements with a component name (``<Button />``, ``<ui.Card>``) are calls of that component.
Class attributes (``this.x = new Foo()``, fields) are bindings ``self.x`` of the class.
A JSDoc comment right before a function (``@param {Option} option``, ``@returns {Command}``) gives
its parameters and result plain declared types, as TypeScript reads them in JavaScript files.
Literals are instances of the runtime's classes (``'a,b'.split()`` is written ``String().split``).
The handlers of one concept each live in a mixin: :mod:`._esm` (ES modules), :mod:`._commonjs`,
:mod:`._literals` (object literals that name things), :mod:`._closures` (closure parameters and
contextual typing, loops, destructuring), :mod:`._declarations` (what a variable declaration binds).
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, first_type, type_names
from ...parsers.records import REST_MARK, ParsedFile
from ._closures import ClosureMixin
from ._commonjs import CommonJsMixin
from ._declarations import LITERAL_CLASSES, DeclarationMixin
from ._esm import EsModuleMixin
from ._jsdoc import jsdoc_types
from ._literals import LiteralMixin
from ._narrowing import NarrowingMixin
from ._nodes import EXPORTS, FUNCTION_VALUES, private_clashes
from ._nodes import key as _key
from ._returns import ReturnsMixin

JSX_QUERY = Path(__file__).with_name("jsx.scm")  # JSX elements, shared with TSX
DECL_WRAPPERS = frozenset({"export_statement", "lexical_declaration", "variable_declaration"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one JavaScript file into plain records.

    Examples
    --------
    >>> pf = parse("a.js", b"class A { run() { this.step(); } }\\n", "a")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('a', 'module'), ('a.A', 'class'), ('a.A.run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['this.step']
    """
    return JsExtractor(path, source, module).run()


GETTER = "<get>"  # the decorator mark of a getter (``get x() {}``); never resolved as a decorator name
PRIVATE = "<private>"  # the mark of a ``#name`` member: no name guess reaches it (``c.query()`` is never ``#query``)
STATIC = "<static>"  # the mark of a ``static`` method: ``C.m()`` reads it, ``new C().m()`` the other of its name


class JsExtractor(DeclarationMixin, ClosureMixin, LiteralMixin, EsModuleMixin, CommonJsMixin, ReturnsMixin, NarrowingMixin,
                  Extractor):
    language = "javascript"
    grammar = "javascript"
    query_files: tuple[Path, ...] = (Path(__file__).with_name("javascript.scm"), JSX_QUERY)
    type_name_nodes: frozenset[str] = frozenset()
    primitive_names: frozenset[str] = frozenset()
    wrapper_types = frozenset({"Promise", "PromiseLike", "Readonly", "Partial", "Required", "NonNullable"})
    wrapper_names = wrapper_types

    def run(self) -> ParsedFile:
        self.literals: dict[tuple[int, int], int] = {}  # object literals whose functions are symbols -> holder
        self.named: dict[tuple[int, str], int] = {}  # (scope, name) -> class / function / namespace defined there
        self.literal_funcs: set[int] = set()  # functions of such literals: ``this`` in them is the holder
        self.typed_literals: set[int] = set()  # returned literals of a function with a declared return type
        self.this_calls: list[tuple[int, int]] = []  # (call index, literal function) of ``this.x()`` in them
        self.fn_nodes: set[tuple[int, int]] = set()  # function nodes that are symbols (the rest are closures)
        self.elements: dict[tuple[int, str], str] = {}  # (scope, name or self.x) -> the type its collection holds
        pf = super().run()
        self._this_of_literals()
        return pf

    # -- expressions ----------------------------------------------------------------------------
    def dotted(self, node: _ts.Node | None) -> str:
        """``this.a.b`` / ``f().g`` / ``super().m``; ``''`` when nothing dotted is named."""
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "property_identifier", "shorthand_property_identifier", "private_property_identifier"):
            return self.text(node)
        if t == "this":
            return "this"
        if t == "super":
            return "super()"
        if t == "member_expression":
            obj = self.dotted(node.child_by_field_name("object"))
            prop = self.member_name(node.child_by_field_name("property"))
            return f"{obj or '<expr>'}.{prop}" if prop else ""
        if t == "call_expression":
            inner = self.dotted(node.child_by_field_name("function"))
            return f"{inner}()" if inner else "<expr>()"
        if t == "new_expression":  # new Foo().bar(): a Foo
            inner = self.dotted(node.child_by_field_name("constructor"))
            return f"{inner}()" if inner and "(" not in inner else "<expr>()"
        if t in LITERAL_CLASSES:  # 'a,b'.split(), /x/.test(s), [a, b].map(): the runtime's own class
            return LITERAL_CLASSES[t]
        if t in ("parenthesized_expression", "non_null_expression", "await_expression") and node.named_child_count:
            return self.dotted(node.named_children[0])
        if t in ("as_expression", "type_assertion") and node.named_child_count:
            runtime = self.asserted_runtime(node)  # (y as string).toLowerCase(): a String
            if runtime:
                return runtime + "()"
        if t in ("as_expression", "satisfies_expression", "type_assertion") and node.named_child_count:
            return self.dotted(node.named_children[0] if t != "type_assertion" else node.named_children[-1])
        return ""

    def member_name(self, node: _ts.Node | None) -> str:
        """A member's name as lore writes it: ``#cache`` is ``cache`` (the class's own, read as ``this.cache``),
        except in a class that also declares a public ``cache``: there the private one keeps its ``#`` (two
        members; ``x.cache()`` from outside never reaches ``#cache``)."""
        name = self.text(node)
        if node is None or node.type != "private_property_identifier":
            return name
        body = node.parent
        while body is not None and body.type != "class_body":
            body = body.parent
        return name if body is not None and name in private_clashes(body, self.__dict__) else name[1:]

    def mark_private(self, local: int, name_node: _ts.Node | None) -> None:
        """Mark member ``local`` as written ``#name``: only ``this.#name`` reaches it, never a name guess."""
        if name_node is not None and name_node.type == "private_property_identifier":
            self.pf.symbols[local].decorators.insert(0, PRIVATE)  # first: the outermost, read last

    def asserted_runtime(self, node: _ts.Node) -> str:
        """The runtime class a type assertion (``x as string``) names, or ``''`` (JavaScript has none)."""
        return ""

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        return type_names(node, self.type_name_nodes, self.primitive_names) if self.type_name_nodes else []

    def primary(self, node: _ts.Node | None) -> str:
        return first_type(self.types_in(node), self.wrapper_types)

    def declared(self, node: _ts.Node | None) -> str:
        """A declared type as the resolver reads it: :meth:`primary` (TypeScript adds type arguments)."""
        return self.primary(node)

    # -- definitions ----------------------------------------------------------------------------
    def _doc_anchor(self, node: _ts.Node) -> _ts.Node:
        cur = node
        while cur.parent is not None and cur.parent.type in DECL_WRAPPERS:
            cur = cur.parent
        return cur

    def _exported(self, node: _ts.Node, owner: int) -> bool:
        if self.pf.symbols[owner].kind != "module":
            return True
        return self._doc_anchor(node).type == "export_statement"

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "class":
            return self._class(node, owner, "class")
        parent = node.parent
        if node.type == "method_definition" and parent is not None and parent.type == "object":
            holder = self.literals.get(_key(parent))  # { m() {} }: a function only in a literal lore names
            if holder is None:
                return None
            owner, kind = holder, "function"
        name_node = node.child_by_field_name("name")
        name = self.member_name(name_node)
        if not name:
            if parent is not None and parent.type == "export_statement":
                name = "default"
            else:
                return None
        local = self._function(node, owner, name, kind, node)
        if node.type == "method_definition" and parent is not None and parent.type == "object":
            self.literal_funcs.add(local)
        self.mark_private(local, name_node)
        return local

    def _function(self, node: _ts.Node, owner: int, name: str, kind: str, fn: _ts.Node,
                  span: _ts.Node | None = None) -> int:
        self.fn_nodes.add(_key(fn))
        parent = self.pf.symbols[owner]
        if parent.kind in ("class", "interface") and kind == "function":
            kind = "method"
        body = fn.child_by_field_name("body")
        is_decl = body is None
        local = self.add_symbol(span or node, owner, name, kind, body=body, doc_node=self._doc_anchor(span or node),
                                exported=self._exported(span or node, owner), is_declaration=is_decl)
        self.named.setdefault((owner, name), local)
        sym = self.pf.symbols[local]
        self.declare_type_params(local, fn.child_by_field_name("type_parameters"))
        if span is not None:
            sym.signature = self.signature(span, body)
        self._params(fn, local, owner)
        if self.language == "javascript":  # /** @param {Option} option */: the types TypeScript reads in JS
            self._jsdoc_types(sym, span or node)
        ret = fn.child_by_field_name("return_type")
        if ret is not None:
            sym.return_type = self.declared(ret)
            self.add_types(local, ret, "return")
        elif body is not None:
            self.expression_body(local, fn)
        if node.type == "method_definition" and any(c.type == "get" for c in node.children):
            sym.decorators.append(GETTER)
        if node.type == "method_definition" and any(c.type == "static" for c in node.children):
            sym.decorators.append(STATIC)
        if parent.kind == "class" and node.parent is not None:
            for d in node.parent.named_children:  # decorators precede the member in the class body
                if d.type == "decorator" and d.end_byte <= node.start_byte and d.next_named_sibling == node:
                    sym.decorators.append(self.text(d).lstrip("@"))
        return local

    def _jsdoc_types(self, sym, node: _ts.Node) -> None:
        """Parameter and return types a JSDoc comment right before the definition declares (plain names only)."""
        prev = self._doc_anchor(node).prev_named_sibling
        if prev is None or prev.type != "comment":
            return
        declared, ret = jsdoc_types(self.text(prev))
        if declared:
            sym.params = [(p, a or declared.get(p, "")) for p, a in sym.params]
        if ret and not sym.return_type:
            sym.return_type = ret
    def _params(self, fn: _ts.Node, local: int, owner: int) -> None:
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        if params is None:
            return
        sym = self.pf.symbols[local]
        plist = [params] if params.type == "identifier" else params.named_children
        for p in plist:
            t = p.type
            pname, tnode = "", None
            if t == "identifier":
                pname = self.text(p)
            elif t == "assignment_pattern":
                pname = self.text(p.child_by_field_name("left"))
            elif t == "rest_pattern":
                pname = self.text(p).lstrip(".")
            elif t in ("required_parameter", "optional_parameter"):
                pat = p.child_by_field_name("pattern")
                pname = self.text(pat) if pat is not None and pat.type == "identifier" else ""
                tnode = p.child_by_field_name("type")
                if pat is not None and pat.type == "rest_pattern":  # ...middleware: Middleware[]
                    pname = self.text(pat).lstrip(".")
                    if pname and p is plist[-1]:
                        sym.decorators.append(REST_MARK)
                        elem = self.element_type(tnode)
                        if elem:
                            sym.params.append((pname, elem))
                            continue
                if pat is not None and pat.type == "object_pattern" and tnode is not None:
                    declared = self.primary(tnode)  # ({ set, request }: Context): set is Context's set
                    if declared and not self.asserted_runtime_of(tnode):
                        self._destructure(local, pat, declared)
                if pat is not None and pname and any(c.type == "accessibility_modifier" or c.type == "readonly"
                                                     for c in p.children) and self.pf.symbols[owner].kind == "class":
                    # constructor(private repo: Repo): a field of the class
                    if not self.method_property(p, fn, owner, pname, tnode):
                        self.add_binding(owner, f"self.{pname}", p, annotation=self.declared(tnode))
                    self.add_types(owner, tnode, "field")
            else:
                continue
            if pname:
                sym.params.append((pname, self.declared(tnode)))
                self.note_elements(local, pname, tnode)
            self.add_types(local, tnode, "param")  # ({ repo }: Props): still a reference to Props

    def _class(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name:
            if node.parent is not None and node.parent.type == "export_statement":
                name = "default"
            elif node.parent is not None and node.parent.type == "variable_declarator":
                name = self.text(node.parent.child_by_field_name("name"))
            elif node.parent is not None and node.parent.type == "assignment_expression":
                name = self._exported_name(node.parent.child_by_field_name("left"))
            if not name:
                return None
        body = node.child_by_field_name("body")
        local = self.add_symbol(node, owner, name, kind, body=body, doc_node=self._doc_anchor(node),
                                exported=self._exported(node, owner))
        self.named.setdefault((owner, name), local)
        self.declare_type_params(local, node.child_by_field_name("type_parameters"))
        for child in node.named_children:
            if child.type == "class_heritage":
                self._heritage(child, local)
            elif child.type == "extends_type_clause":  # interface I extends K
                for tn in child.named_children:
                    for tname, tnode in self.types_in(tn)[:1]:
                        self.add_relation(local, tname, "extends", tnode)
        return local

    def _heritage(self, node: _ts.Node, local: int) -> None:
        for child in node.named_children:
            if child.type == "extends_clause":
                value = child.child_by_field_name("value")
                base = self.dotted(value)
                if base and "<" not in base and "(" not in base:
                    self.add_relation(local, base, "extends", child)
            elif child.type == "implements_clause":
                for tn in child.named_children:
                    for tname, tnode in self.types_in(tn)[:1]:
                        self.add_relation(local, tname, "implements", tnode)
            else:  # JavaScript: the expression itself
                base = self.dotted(child)
                if base and "<" not in base and "(" not in base:
                    self.add_relation(local, base, "extends", child)

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        fn = node.child_by_field_name("function")
        if fn is None:
            return
        if fn.type == "import":  # dynamic import('./x')
            spec = self._string_arg(node)
            if spec:
                self.add_import(owner, spec, node)
            return
        callee = self.dotted(fn)
        if callee.startswith("this.") and self.literal_funcs:
            home = self._function_of(owner)
            if home in self.literal_funcs:
                self.this_calls.append((len(self.pf.calls), home))
        if callee == "super()":
            callee = "super().constructor"
        elif callee == "require":
            parent = node.parent
            if parent is not None and parent.type == "member_expression" and parent.parent is not None:
                parent = parent.parent  # const X = require('./x').X
            if parent is None or parent.type not in ("variable_declarator", "assignment_expression"):
                spec = self._string_arg(node)  # require('./x') used in place: still an import of ./x
                if spec:
                    self.add_import(owner, spec, node)
            return  # a bound require is recorded as an import by on_var / on_assign
        self.add_call(owner, callee or "<expr>", node)

    def on_new(self, node: _ts.Node, owner: int) -> None:
        ctor = node.child_by_field_name("constructor")
        callee = self.dotted(ctor)
        if callee:
            self.add_call(owner, callee, node, "new")

    def on_jsx(self, node: _ts.Node, owner: int) -> None:
        """``<Button />``: a call of the component; lower-case names are HTML elements."""
        name = self.dotted(node) if node.type in ("identifier", "member_expression") else ""
        if name and "<" not in name and (name[:1].isupper() or "." in name):
            self.add_call(owner, name, node)

    def _string_arg(self, call: _ts.Node) -> str:
        args = call.child_by_field_name("arguments")
        if args is None or not args.named_child_count:
            return ""
        first = args.named_children[0]
        if first.type != "string":
            return ""
        return self.text(first)[1:-1]

    def asserted_runtime_of(self, type_node: _ts.Node) -> str:
        """The runtime class a declared type is (TypeScript: ``string`` is a String); JavaScript has none."""
        return ""

    def method_property(self, param: _ts.Node, fn: _ts.Node, cls: int, name: str, tnode: _ts.Node | None) -> bool:
        """Whether constructor parameter property ``param`` was made a method of class ``cls`` (TypeScript:
        one holding a function); JavaScript has none."""
        return False

    def declared_return(self, type_node: _ts.Node) -> str:
        """What a function type written for a variable (``const mk: () => Foo``) returns; JavaScript
        declares none."""
        return ""

    def _function_of(self, owner: int) -> int | None:
        """The function or method ``owner`` is, or is nested in (the one whose ``this`` a use sees)."""
        i: int | None = owner
        while i is not None:
            if self.pf.symbols[i].kind in ("function", "method"):
                return i
            i = self.pf.symbols[i].parent
        return None

    def _class_of(self, owner: int) -> int | None:
        sym = self.pf.symbols[owner]
        if sym.kind == "class":
            return owner
        if sym.kind == "method" and sym.parent is not None and self.pf.symbols[sym.parent].kind == "class":
            return sym.parent
        return None

    def _named_in_scope(self, owner: int, name: str) -> int | None:
        i: int | None = owner
        while i is not None:
            got = self.named.get((i, name))
            if got is not None:
                return got
            i = self.pf.symbols[i].parent
        return None

    def on_assign(self, node: _ts.Node, owner: int) -> int | None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return None
        target = self.dotted(left)
        if not target or "<" in target or "(" in target:
            return None
        module = self.pf.symbols[owner].kind == "module"
        if target == "module.exports":
            return self._module_exports(node, owner, right)
        head, _, last = target.rpartition(".")
        if right.type in FUNCTION_VALUES:
            if head in EXPORTS or (not head and module):
                return self._function(right, owner, last, "function", right, span=node)
            base, _, proto = head.partition(".")
            holder = self._named_in_scope(owner, base) if base and "." not in base and proto in ("", "prototype") else None
            if holder is not None:  # A.prototype.m = function / A.m = function: a method of A
                hsym = self.pf.symbols[holder]
                if hsym.kind == "function" and proto == "prototype":
                    hsym.kind = "class"  # an ES5 constructor function is a class
                kind = "method" if hsym.kind == "class" else "function"
                return self._function(right, holder, last, kind, right, span=node)
            return None
        spec = self._require_spec(right)
        if spec:  # x = require('./x')
            self.add_import(owner, spec, node, "module.exports" if "." not in target else None,
                            target if "." not in target else None)
            return None
        if head in EXPORTS:  # exports.f = g: the module exports g as f
            if right.type in ("identifier", "member_expression"):
                src = self.dotted(right)
                if src and src != last and "<" not in src and "(" not in src:
                    self.add_binding(owner, last, node, alias_of=src)
            else:
                self._bind_value(owner, last, node, right)
            return None
        if target.startswith("this.") and target.count(".") == 1:
            cls = self._class_of(owner)
            if cls is not None:
                n = len(self.pf.bindings)
                self._bind_value(cls, "self." + target[5:], node, right)
                for b in self.pf.bindings[n:]:  # this.x = arg: the value is read in the method
                    if owner != cls:
                        b.scope = owner
            return None
        if "." not in target:
            self._bind_value(owner, target, node, right)
        return None

    def on_field(self, node: _ts.Node, owner: int) -> int | None:
        if self.pf.symbols[owner].kind not in ("class", "interface"):
            return None
        name = self.member_name(node.child_by_field_name("name") or node.child_by_field_name("property"))
        if not name:
            return None
        type_node = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        if value is not None and value.type in FUNCTION_VALUES:  # handle = () => {...}: a method of the class
            local = self._function(value, owner, name, "method", value, span=node)
            self.mark_private(local, node.child_by_field_name("name") or node.child_by_field_name("property"))
            return local
        if type_node is not None:
            self.add_binding(owner, f"self.{name}", node, annotation=self.declared(type_node))
            self.add_types(owner, type_node, "field")
            self.note_elements(owner, f"self.{name}", type_node)
        elif value is not None:
            self._bind_value(owner, f"self.{name}", node, value)
        return None
