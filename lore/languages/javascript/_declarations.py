"""What a JavaScript / TypeScript variable declaration binds its name to: a function (``const f = () =>
...``, typed by a declared function type), an import (``const x = require('./x')``), the members of a
destructured value, a declared type, a namespace of functions (``const api = { get() {} }``), or the value
it is given (``new Foo()``, ``make()``, a literal, another name). :meth:`DeclarationMixin._bind_value` is
shared by assignments and ``return`` statements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ...parsers.records import CONTEXT_MARK, RETURN_SPEC
from ._literals import names_a_key
from ._nodes import FUNCTION_VALUES
from ._nodes import key as _key

if TYPE_CHECKING:
    from ...parsers._common import Extractor as _Base
else:
    _Base = object

# a literal's value is an instance of the runtime's class, written as a construction of it
LITERAL_CLASSES = {"string": "String()", "template_string": "String()", "regex": "RegExp()", "array": "Array()",
                   "number": "Number()"}


class DeclarationMixin(_Base):
    """``on_var`` (variable declarators) and ``_bind_value`` of :class:`~lore.languages.javascript._parser.JsExtractor`."""

    if TYPE_CHECKING:  # what the extractor provides
        literals: dict[tuple[int, int], int]
        named: dict[tuple[int, str], int]

        def dotted(self, node: _ts.Node | None) -> str: ...
        def primary(self, node: _ts.Node | None) -> str: ...
        def declared(self, node: _ts.Node | None) -> str: ...
        def declared_return(self, type_node: _ts.Node) -> str: ...
        def _function(self, node: _ts.Node, owner: int, name: str, kind: str, fn: _ts.Node,
                      span: _ts.Node | None = None) -> int: ...
        def _doc_anchor(self, node: _ts.Node) -> _ts.Node: ...
        def _exported(self, node: _ts.Node, owner: int) -> bool: ...
        def _require_spec(self, value: _ts.Node | None) -> str: ...
        def _require(self, name_node: _ts.Node, spec: str, owner: int, node: _ts.Node) -> None: ...
        def _destructure(self, owner: int, pattern: _ts.Node, source: str) -> None: ...
        def note_elements(self, owner: int, name: str, type_node: _ts.Node | None) -> None: ...
        def _has_functions(self, obj: _ts.Node) -> bool: ...
        def _is_name_table(self, obj: _ts.Node, owner: int) -> bool: ...
        def _spread_module(self, spread: _ts.Node, owner: int) -> str: ...
        def add_binding(self, owner: int, name: str, node: _ts.Node, *, annotation: str = "", value: str = "",
                        alias_of: str = "") -> None: ...

    def on_var(self, node: _ts.Node, owner: int) -> int | None:
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        type_node = node.child_by_field_name("type")
        if name_node is None:
            return None
        if value is not None and value.type in FUNCTION_VALUES and name_node.type == "identifier":
            local = self._function(value, owner, self.text(name_node), "function", value, span=node)
            declared = self.primary(type_node) if type_node is not None else ""
            if declared:  # const h: Handler = (c) => ...: c is what Handler's call signature says
                sym = self.pf.symbols[local]
                sym.params = [(pn, a or f"{declared}{CONTEXT_MARK}call{CONTEXT_MARK}param{j}")
                              for j, (pn, a) in enumerate(sym.params)]
                if not sym.return_type:  # ... and it gives what that call signature returns
                    sym.return_type = f"{declared}{CONTEXT_MARK}call{CONTEXT_MARK}{RETURN_SPEC}"
            elif type_node is not None and not self.pf.symbols[local].return_type:
                self.pf.symbols[local].return_type = self.declared_return(type_node)
            return local
        spec = self._require_spec(value)
        if spec:
            self._require(name_node, spec, owner, node)
            return None
        if value is not None and value.type == "member_expression" and name_node.type == "identifier":
            spec = self._require_spec(value.child_by_field_name("object"))
            if spec:  # const Store = require('./lib').Store
                prop = self.text(value.child_by_field_name("property"))
                self.add_import(owner, spec, node, prop, self.text(name_node) if self.text(name_node) != prop else None)
                return None
        if name_node.type == "object_pattern" and value is not None:
            # const { a, b: c } = obj / = this / = f(): what the members of that value are
            declared = self.primary(type_node) if type_node is not None else ""
            src = declared or self.dotted(value)
            if src and "<" not in src:
                self._destructure(owner, name_node, src)
            return None
        if name_node.type != "identifier":
            return None
        name = self.text(name_node)
        if value is not None and value.named_child_count and (value.type == "satisfies_expression" or (
                value.type == "as_expression" and self.text(value.children[-1]) == "const")) \
                and value.named_children[0].type == "object":
            value = value.named_children[0]  # const api = {...} satisfies Api (or as const): the literal
        if type_node is not None:
            self.add_binding(owner, name, node, annotation=self.declared(type_node))
            self.add_types(owner, type_node, "annotation")
            self.note_elements(owner, name, type_node)
        elif value is not None and value.type == "object" and (self._has_functions(value) and not names_a_key(value, called=True)
                                                                or self._is_name_table(value, owner)):
            # const api = { get() {...}, put: () => ... }: a namespace of functions; also
            # export const Jwt = { sign, verify }: a table of the module's functions and imports
            local = self.add_symbol(node, owner, name, "namespace", body=value, doc_node=self._doc_anchor(node),
                                    exported=self._exported(node, owner))
            self.named.setdefault((owner, name), local)
            self.literals[_key(value)] = local
            for c in value.named_children:
                if c.type == "shorthand_property_identifier":  # { sign }: the name of the enclosing scope
                    self.add_binding(local, self.text(c), c, alias_of=self.text(c))
                    self.pf.bindings[-1].scope = owner
                elif c.type == "spread_element" and (spec := self._spread_module(c, owner)):
                    self.add_import(local, spec, c, "*")  # { ..._schemas }: every name of the module
            return local
        elif value is not None:
            self._bind_value(owner, name, node, value)
        return None

    def _bind_value(self, owner: int, name: str, at: _ts.Node, value: _ts.Node) -> None:
        t = value.type
        if t == "await_expression" and value.named_child_count:
            value = value.named_children[0]
            t = value.type
        if t == "new_expression":
            callee = self.dotted(value.child_by_field_name("constructor"))
            if callee == "Proxy":  # new Proxy(app, handler) is read as its target (TypeScript: a T), never a Proxy
                args = value.child_by_field_name("arguments")
                if args is not None and args.named_child_count:
                    self._bind_value(owner, name, at, args.named_children[0])
                return
            self.add_binding(owner, name, at, value=callee)
        elif t == "call_expression":
            callee = self.dotted(value.child_by_field_name("function"))
            if callee and not callee.startswith("<"):
                self.add_binding(owner, name, at, value=callee)
        elif t in LITERAL_CLASSES:  # const parts = [], s = 'x': an Array, a String
            self.add_binding(owner, name, at, value=LITERAL_CLASSES[t][:-2])
        elif t in ("identifier", "member_expression", "this"):
            src = self.dotted(value)
            if src and "<" not in src:
                self.add_binding(owner, name, at, alias_of=src)
        elif t == "ternary_expression":  # c ? new A() : b: either value, read as one binding per branch
            for field in ("consequence", "alternative"):
                branch = value.child_by_field_name(field)
                if branch is not None:
                    self._bind_value(owner, name, at, branch)
