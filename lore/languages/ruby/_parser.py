"""Ruby: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, modules (kind ``trait``: a namespace and a mixin), methods and singleton methods
(``def self.m``, and the methods of ``class << self``, marked ``singleton``). A class or module is named
as Ruby names the constant: ``Outer::Inner`` is ``Outer.Inner`` wherever its file is (Ruby constants
are global), so a class reopened in several files is one name.

Calls keep the receiver path: ``helper(x)`` (a method of ``self``, or Kernel's), ``@repo.save``
(``self.repo.save``), ``Foo::Bar.call`` (``Foo.Bar.call``), ``Foo.new(..)`` (a construction of ``Foo``:
its ``initialize``), ``super`` (``super().m`` of the enclosing method ``m``). Assignments bind what the
resolver can follow: ``x = Foo.new`` (an instance of ``Foo``), ``x = y.z`` (what ``y.z`` returns),
``@x = ...`` (an attribute of the class, read as ``self.x``). ``include`` / ``extend`` / ``prepend M``
mix ``M`` in (relation ``implements``), ``class A < B`` extends ``B``. ``require "a/b"`` and
``require_relative "b"`` are imports of the file they name.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor
from ...parsers.records import ParsedFile
from ._rules import KERNEL as _KERNEL

TYPE_KINDS = ("class", "trait")
_MIXINS = frozenset({"include", "extend", "prepend"})
_REQUIRES = frozenset({"require", "require_relative", "load", "autoload"})
_ATTRS = frozenset({"attr_reader", "attr_writer", "attr_accessor", "attr"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Ruby file into plain records.

    Examples
    --------
    >>> src = b"module Shop\\n  class Cart < Base\\n    def add(x)\\n      @items.push(x)\\n      total(x)\\n    end\\n  end\\nend\\n"
    >>> pf = parse("lib/shop/cart.rb", src, "lib.shop.cart")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('lib.shop.cart', 'module'), ('Shop', 'trait'), ('Shop.Cart', 'class'), ('Shop.Cart.add', 'method')]
    >>> [c.callee for c in pf.calls]
    ['self.items.push', 'self.total']
    """
    return RubyExtractor(path, source, module).run()


class RubyExtractor(Extractor):
    language = "ruby"
    grammar = "ruby"
    query_files = (Path(__file__).with_name("ruby.scm"),)
    comment_types = frozenset({"comment"})

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._bare: list[tuple[int, str, _ts.Node]] = []  # (owner, name, node) of statements that are a bare name
        self._assigned: dict[int, set[str]] = {}  # definition -> local variables assigned in it

    def doc_comment(self, node: _ts.Node) -> str:
        """The comments above a definition; the first one of a body sits before the body node in this grammar."""
        got = super().doc_comment(node)
        if not got and node.prev_named_sibling is None and node.parent is not None and node.parent.type == "body_statement":
            got = super().doc_comment(node.parent)
        return _uncomment(got)

    def file_doc(self, root: _ts.Node) -> str:
        return ""

    def _const(self, node: _ts.Node | None) -> str:
        """``A::B::C`` as ``A.B.C`` (``::A`` as ``A``), ``''`` for anything else."""
        if node is None:
            return ""
        if node.type == "constant":
            return self.text(node)
        if node.type == "scope_resolution":
            scope = self._const(node.child_by_field_name("scope"))
            name = self.text(node.child_by_field_name("name"))
            return f"{scope}.{name}" if scope else name
        return ""

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "constant"):
            return self.text(node)
        if t == "self":
            return "self"
        if t == "instance_variable":
            return "self." + self.text(node).lstrip("@")
        if t == "scope_resolution":
            return self._const(node)
        if t == "call":
            recv = node.child_by_field_name("receiver")
            if self.text(node.child_by_field_name("method")) == "class" and (recv is None or recv.type == "self"):
                cls = self._class_of_node(node)  # self.class.m: a class method of the enclosing class
                if cls:
                    return cls
            return self._callee(node) + "()" if self._callee(node) else ""
        if t == "parenthesized_statements" and node.named_child_count == 1:
            return self.dotted(node.named_children[0])
        return ""

    def _callee(self, node: _ts.Node) -> str:
        method = self.text(node.child_by_field_name("method"))
        recv = node.child_by_field_name("receiver")
        if recv is None:
            return method
        base = self.dotted(recv)
        return f"{base or '<expr>'}.{method}"

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name_node = node.child_by_field_name("name")
        if kind in TYPE_KINDS:
            full = self._const(name_node)
            if not full:
                return None
            head, _, name = full.rpartition(".")
            parent = self.pf.symbols[owner]
            outer = parent.qualified_name if parent.kind in TYPE_KINDS else ""
            prefix = ".".join(x for x in (outer, head) if x)
            local = self.add_symbol(node, owner, name, kind, body=node.child_by_field_name("body"))
            self.pf.symbols[local].qualified_name = f"{prefix}.{name}" if prefix else name
            sup = node.child_by_field_name("superclass")
            if sup is not None:
                target = self._const(sup.named_children[0] if sup.named_child_count else None)
                if target:
                    self.add_relation(local, target, "extends", sup)
            return local
        name = self.text(name_node)
        if not name:
            return None
        body = node.child_by_field_name("body")
        singleton = node.type == "singleton_method" or self._in_singleton_class(node)
        in_type = self._class_of(owner) is not None
        local = self.add_symbol(node, owner, name, "method" if in_type else "function", body=body,
                                decorators=["singleton"] if singleton else [])
        sym = self.pf.symbols[local]
        params = node.child_by_field_name("parameters")
        if params is not None:
            for p in params.named_children:
                pname = self.text(p.child_by_field_name("name")) if p.type != "identifier" else self.text(p)
                if pname:
                    sym.params.append((pname, ""))
        return local

    def _in_singleton_class(self, node: _ts.Node) -> bool:
        p = node.parent
        while p is not None and p.type in ("body_statement",):
            p = p.parent
        return p is not None and p.type == "singleton_class"

    def on_singleton(self, node: _ts.Node, owner: int) -> None:
        """``class << self``: its methods are the class's own (define marks them ``singleton``)."""

    def signature(self, node: _ts.Node, body: _ts.Node | None) -> str:
        sig = super().signature(node, body)
        return sig.splitlines()[0] if sig else sig

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        method = self.text(node.child_by_field_name("method"))
        recv = node.child_by_field_name("receiver")
        args = node.child_by_field_name("arguments")
        if recv is None and method in _MIXINS and self.pf.symbols[owner].kind in TYPE_KINDS:
            for a in args.named_children if args is not None else ():
                target = self._const(a)
                if target:
                    self.add_relation(owner, target, "implements", a)
            return
        if recv is None and method in _REQUIRES:
            self._require(node, owner, method, args)
            return
        if recv is None and method in _ATTRS and self.pf.symbols[owner].kind in TYPE_KINDS:
            self._attrs(node, owner, method, args)
            return
        if recv is None and method == "new":
            klass = self._class_of(owner)
            if klass is not None:  # ``new(..)`` in a class method: an instance of that class
                self.add_call(owner, self.pf.symbols[klass].qualified_name, node, "new")
                return
        if recv is not None and method == "new":
            cls = self._const(recv)
            if cls:
                self.add_call(owner, cls, node, "new")
                self.add_type(owner, cls, "instantiation", recv)
                return
        if method == "class" and (recv is None or recv.type == "self"):
            return  # Object#class: what ``self.class.m`` goes through, never the repository's
        if node.parent is not None and node.parent.type == "assignment" and node.parent.child_by_field_name("left") == node:
            return  # ``x.y = 1``: a writer, recorded by on_assign
        callee = self._callee(node)
        if recv is None and method not in _KERNEL and self._class_of(owner) is not None:
            callee = "self." + callee  # a method of self (its class, a module mixed in, or the includer's)
        self.add_call(owner, callee, node)

    def _attrs(self, node: _ts.Node, owner: int, method: str, args: _ts.Node | None) -> None:
        """``attr_reader :a, :b``: methods ``a`` and ``b`` (and ``a=`` for writers) of the class, reading ``@a``."""
        for a in args.named_children if args is not None else ():
            if a.type != "simple_symbol":
                continue
            name = self.text(a).lstrip(":")
            if method != "attr_writer":
                self.add_symbol(a, owner, name, "method", decorators=[method])
            if method != "attr_reader" and method != "attr":
                self.add_symbol(a, owner, name + "=", "method", decorators=[method])

    def on_rescue(self, node: _ts.Node, owner: int) -> None:
        """``rescue Foo::Error => e``: ``e`` is a ``Foo::Error`` (the first class named)."""
        excs = node.child_by_field_name("exceptions")
        var = node.child_by_field_name("variable")
        if excs is None or var is None or not excs.named_child_count:
            return
        name = next((self.text(c) for c in var.named_children if c.type == "identifier"), "")
        cls = self._const(excs.named_children[0])
        if name and cls:
            self.add_binding(owner, name, var, annotation=cls)
            self._assigned.setdefault(owner, set()).add(name)

    def _require(self, node: _ts.Node, owner: int, method: str, args: _ts.Node | None) -> None:
        arg = args.named_children[-1] if args is not None and args.named_child_count else None
        if arg is None or arg.type != "string":
            return
        text = "".join(self.text(c) for c in arg.named_children if c.type == "string_content")
        if not text or any(c.type == "interpolation" for c in arg.named_children):
            return
        if method == "require_relative":
            self.add_import(owner, "./" + text.removesuffix(".rb"), node, None, level=1)
        elif method in ("require", "load"):
            self.add_import(owner, text.removesuffix(".rb"), node, None)

    def on_bare_call(self, node: _ts.Node, owner: int) -> None:
        """A statement that is only a name: a method of ``self`` called without arguments, unless the name is a
        local variable or a parameter of the method (decided in finish, once every assignment is known)."""
        self._bare.append((owner, self.text(node), node))

    def finish(self) -> None:
        locals_ = self._assigned
        for owner, name, node in self._bare:
            sym = self.pf.symbols[owner]
            if name in locals_.get(owner, ()) or any(p == name for p, _a in sym.params):
                continue
            if sym.kind == "method" and self._assigned_before(node, name):
                continue
            in_type = self._class_of(owner) is not None and name not in _KERNEL
            self.add_call(owner, "self." + name if in_type else name, node)
        self._bare.clear()
        self.pf.calls.sort(key=lambda c: (c.line, c.col))

    def _assigned_before(self, node: _ts.Node, name: str) -> bool:
        """Whether a block parameter of that name is in scope (``each { |x| x }``)."""
        p = node.parent
        while p is not None and p.type not in ("method", "singleton_method"):
            if p.type in ("block", "do_block"):
                params = p.child_by_field_name("parameters")
                if params is not None and any(self.text(c) == name for c in params.named_children):
                    return True
            p = p.parent
        return False

    def on_super(self, node: _ts.Node, owner: int) -> None:
        sym = self.pf.symbols[owner]
        if sym.kind == "method":
            self.add_call(owner, f"super().{sym.name}", node)

    def on_assign(self, node: _ts.Node, owner: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        if left.type == "identifier":
            name = self.text(left)
            scope = owner
            self._assigned.setdefault(owner, set()).add(name)
        elif left.type == "instance_variable":
            name = "self." + self.text(left).lstrip("@")
            scope = owner
            cls = self._class_of(owner)
            if cls is None:
                return
            self._bind(cls, name, node, right, scope)
            return
        else:
            return
        self._bind(owner, name, node, right, scope)

    def _bind(self, owner: int, name: str, at: _ts.Node, value: _ts.Node, scope: int) -> None:
        before = len(self.pf.bindings)
        if value.type == "call":
            method = self.text(value.child_by_field_name("method"))
            recv = value.child_by_field_name("receiver")
            cls = self._const(recv) if recv is not None and method == "new" else ""
            if cls:
                self.add_binding(owner, name, at, value=cls)
            else:
                callee = self._callee(value)
                if callee and "<expr>" not in callee:
                    self.add_binding(owner, name, at, value=callee)
        elif value.type in ("identifier", "constant", "scope_resolution", "instance_variable"):
            src = self.dotted(value)
            if src:
                self.add_binding(owner, name, at, alias_of=src)
        if len(self.pf.bindings) > before and owner != scope:
            self.pf.bindings[-1].scope = scope

    def _class_of_node(self, node: _ts.Node) -> str:
        """The constant path of the class or module around ``node`` (as written, ``A.B``), or ``''``."""
        p = node.parent
        while p is not None:
            if p.type in ("class", "module"):
                return self._const(p.child_by_field_name("name")).rsplit(".", 1)[-1]
            p = p.parent
        return ""

    def _class_of(self, owner: int) -> int | None:
        i: int | None = owner
        while i is not None:
            if self.pf.symbols[i].kind in TYPE_KINDS:
                return i
            i = self.pf.symbols[i].parent
        return None


def _uncomment(text: str) -> str:
    return "\n".join(line.strip().lstrip("#").strip() for line in text.splitlines()).strip()
