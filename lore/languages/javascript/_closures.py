"""Bindings that hold where JavaScript / TypeScript scopes say, for the JavaScript extractor.

A ``const`` or a parameter of an anonymous function (``app.use(async (ctx) => {...})``) holds on the
function's lines only. Such a parameter is typed as declared, else by where its function is written
(TypeScript's contextual typing: argument ``i`` of a call, a function returned from one declaring
its return type, the value of a typed variable), written for the resolver as ``app.use#arg0#param0``
(:data:`~lore.parsers.records.CONTEXT_MARK`). Loop variables (``for (const r of routers)`` with
``routers: Router[]``; ``for (const k in o)``) and destructured names (``const { req } = c``,
``({ ctx }: Opts)``) are bindings too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ...parsers.records import CONTEXT_MARK
from ._nodes import FUNCTION_VALUES
from ._nodes import key as _key

if TYPE_CHECKING:
    from ...parsers._common import Extractor as _Base
else:
    _Base = object

CLOSURES = FUNCTION_VALUES | {"function_declaration", "generator_function_declaration", "method_definition"}


def _param_name(p: _ts.Node) -> tuple[str, _ts.Node | None]:
    """A parameter's plain name and declared type node (``''`` for a pattern)."""
    t = p.type
    if t == "identifier":
        return _ts.text(p), None
    if t == "assignment_pattern":
        left = p.child_by_field_name("left")
        return (_ts.text(left), None) if left is not None and left.type == "identifier" else ("", None)
    if t in ("required_parameter", "optional_parameter"):
        pat = p.child_by_field_name("pattern")
        if pat is not None and pat.type == "identifier":
            return _ts.text(pat), p.child_by_field_name("type")
    return "", None


def _typed_value_return(fn: _ts.Node) -> _ts.Node | None:
    """The return type the declared function type of a variable gives the function assigned to it
    (``const f: (e: E) => Parse = (e) => (s) => ...``: the inner function is a ``Parse``), or ``None``."""
    cur, parent = fn, fn.parent
    while parent is not None and parent.type in ("parenthesized_expression", "as_expression",
                                                 "satisfies_expression", "non_null_expression"):
        cur, parent = parent, parent.parent
    if parent is None or parent.type != "variable_declarator" or parent.child_by_field_name("value") != cur:
        return None
    ann = parent.child_by_field_name("type")
    typ = ann.named_children[0] if ann is not None and ann.type == "type_annotation" and ann.named_child_count else ann
    while typ is not None and typ.type == "parenthesized_type" and typ.named_child_count:
        typ = typ.named_children[0]
    return typ.child_by_field_name("return_type") if typ is not None and typ.type == "function_type" else None


class ClosureMixin(_Base):
    """The scope-bound bindings of :class:`~lore.languages.javascript._parser.JsExtractor`."""

    if TYPE_CHECKING:  # what the extractor provides
        fn_nodes: set[tuple[int, int]]
        elements: dict[tuple[int, str], str]

        def dotted(self, node: _ts.Node | None) -> str: ...
        def primary(self, node: _ts.Node | None) -> str: ...
        def _class_of(self, owner: int) -> int | None: ...
        def _function_of(self, owner: int) -> int | None: ...

    def add_binding(self, owner: int, name: str, node: _ts.Node, *, annotation: str = "", value: str = "",
                    alias_of: str = "") -> None:
        """A binding of ``owner``; one made in an anonymous closure (``$constructor('X', (inst) => { const
        checks = [] })``, ``app.get('/', (c) => {...})``) holds on the closure's lines only, never shadowing
        the module's ``import * as checks`` after it."""
        n = len(self.pf.bindings)
        super().add_binding(owner, name, node, annotation=annotation, value=value, alias_of=alias_of)
        if len(self.pf.bindings) > n and "." not in name:
            end = self._closure_end(node)
            if end:
                self.pf.bindings[-1].until = end

    def _closure_end(self, node: _ts.Node) -> int:
        """The last line of the anonymous function ``node`` is in (``0`` when its function is a symbol, or none)."""
        cur = node.parent
        while cur is not None:
            if cur.type in CLOSURES:
                return 0 if _key(cur) in self.fn_nodes else cur.end_point[0] + 1
            if cur.type in ("class_body", "class", "class_declaration"):
                return 0
            cur = cur.parent
        return 0

    def on_closure(self, node: _ts.Node, owner: int) -> None:
        """The parameters of a function no name holds (``app.use(async (ctx) => ...)``): bindings on its
        lines, typed as declared, else by where the function is written (TypeScript's contextual typing):
        as argument ``i`` of a call, the call signature of that parameter's declared type; returned from
        a function declaring its return type, or the value of a typed variable, that type's."""
        if self.language == "javascript" or _key(node) in self.fn_nodes:
            return  # JavaScript declares no parameter types for a context to give
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if params is None:
            return
        plist = [params] if params.type == "identifier" else params.named_children
        context = ""
        for j, p in enumerate(plist):
            pname, tnode = _param_name(p)
            if not pname:
                continue
            if tnode is not None:
                ann = self.primary(tnode)
                if ann:
                    self.add_binding(owner, pname, p, annotation=ann)
                continue
            context = context or self._closure_context(node) or "-"
            if context != "-":
                self.add_binding(owner, pname, p, alias_of=f"{context}{CONTEXT_MARK}param{j}")

    def _closure_context(self, node: _ts.Node) -> str:
        """``app.use#arg0`` / ``Middleware#call`` for a function written there (see :meth:`on_closure`), or ``''``."""
        cur, parent = node, node.parent
        while parent is not None and parent.type in ("parenthesized_expression", "as_expression",
                                                     "satisfies_expression", "non_null_expression"):
            cur, parent = parent, parent.parent
        if parent is None:
            return ""
        if parent.type == "arguments" and parent.parent is not None:
            call = parent.parent
            fn = call.child_by_field_name("function") or call.child_by_field_name("constructor")
            callee = self.dotted(fn) if call.type in ("call_expression", "new_expression") else ""
            if not callee or "<" in callee or callee.endswith(")"):
                return ""
            i = next((k for k, a in enumerate(parent.named_children) if a == cur), -1)
            return f"{callee}{CONTEXT_MARK}arg{i}" if i >= 0 else ""
        holder = None
        if parent.type == "return_statement":
            holder = parent.parent
            while holder is not None and holder.type not in CLOSURES:
                holder = holder.parent
        elif parent.type == "arrow_function" and parent.child_by_field_name("body") == cur:
            holder = parent
        elif parent.type == "variable_declarator" and parent.child_by_field_name("value") == cur:
            declared = self.primary(parent.child_by_field_name("type"))
            return f"{declared}{CONTEXT_MARK}call" if declared else ""
        ret = holder.child_by_field_name("return_type") if holder is not None else None
        if holder is not None and ret is None:
            ret = _typed_value_return(holder)
        declared = self.primary(ret) if ret is not None else ""
        return f"{declared}{CONTEXT_MARK}call" if declared else ""

    def on_loop(self, node: _ts.Node, owner: int) -> None:
        """``for (const k in obj)``: ``k`` is a String; ``for (const r of routers)`` with ``routers: Router[]``
        declared in the file: ``r`` is a Router."""
        left = node.child_by_field_name("left")
        op = node.child_by_field_name("operator")
        if left is None or left.type != "identifier" or op is None:
            return
        name = self.text(left)
        if op.type == "in":
            self.add_binding(owner, name, left, annotation="String")
            return
        right = self.dotted(node.child_by_field_name("right"))
        elem = self._element_of(owner, right) if right and "(" not in right and "<" not in right else ""
        if elem:
            self.add_binding(owner, name, left, annotation=elem)

    def note_elements(self, owner: int, name: str, type_node: _ts.Node | None) -> None:
        """Remember what a declared collection holds (TypeScript: ``routers: Router[]``); JavaScript declares nothing."""
        elem = self.element_type(type_node)
        if elem:
            self.elements[(owner, name)] = elem

    def element_type(self, type_node: _ts.Node | None) -> str:
        """The type a declared collection holds (TypeScript); JavaScript declares nothing."""
        return ""

    def _element_of(self, owner: int, path: str) -> str:
        """The element type declared for ``path`` (a name or ``this.x``) seen from ``owner``, or ``''``."""
        if path.startswith("this."):
            cls = self._class_of(owner) if self.pf.symbols[owner].kind != "function" else None
            if cls is None:
                fn = self._function_of(owner)
                cls = self._class_of(fn) if fn is not None else None
            return self.elements.get((cls, "self." + path[5:]), "") if cls is not None else ""
        i: int | None = owner
        while i is not None:
            got = self.elements.get((i, path))
            if got:
                return got
            i = self.pf.symbols[i].parent
        return ""

    def _destructure(self, owner: int, pattern: _ts.Node, source: str) -> None:
        """``{ a, b: c, d = 1 }`` taken from ``source`` (a path or a declared type): ``a`` is ``source.a``,
        ``c`` is ``source.b``; nested patterns and rest elements are left alone."""
        for p in pattern.named_children:
            if p.type == "shorthand_property_identifier_pattern":
                key = local = self.text(p)
            elif p.type == "object_assignment_pattern":
                left = p.child_by_field_name("left")
                if left is None or left.type != "shorthand_property_identifier_pattern":
                    continue
                key = local = self.text(left)
            elif p.type == "pair_pattern":
                val = p.child_by_field_name("value")
                if val is not None and val.type == "assignment_pattern":
                    val = val.child_by_field_name("left")
                if val is None or val.type != "identifier":
                    continue
                key, local = self.text(p.child_by_field_name("key")).strip("'\""), self.text(val)
            else:
                continue
            if key and local and key.replace("$", "_").isidentifier():
                self.add_binding(owner, local, p, alias_of=f"{source}.{key}")
