"""Class fields and the properties of interfaces and object types, for
:class:`~lore.languages.typescript._parser.TsExtractor`.

A property or a field whose type is a function type (``parseJson?: (text: string) => unknown``,
``#resolve: (value: Response) => void``) is a method declaration: calls through it bind there. Any other
property is a typed field (``self.name`` bound to its declared type); ``verifyAccess: typeof verifyAccess``
holds that value. A ``string`` index signature types every member the type does not declare.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...parsers import _ts
from ...parsers.records import CONTEXT_MARK, INDEX_MEMBER, RETURN_SPEC
from ..javascript._nodes import FUNCTION_VALUES
from ._types import function_type, queried

# ``this.#query(``, ``this.filter?.(``, ``this.map!(``: a member of ``this`` called in place (the name without ``#``)
_THIS_CALL = re.compile(r"\bthis\s*\.\s*#?([A-Za-z_$][\w$]*)\s*!?\s*(?:\?\.\s*)?\(")

if TYPE_CHECKING:
    from ..javascript._parser import JsExtractor as _Base
else:
    _Base = object


class FieldMixin(_Base):
    """``on_field`` of the TypeScript extractor."""

    if TYPE_CHECKING:  # what the extractor provides
        def declared(self, node: _ts.Node | None) -> str: ...
        def primary(self, node: _ts.Node | None) -> str: ...
        def member_name(self, node: _ts.Node | None) -> str: ...
        def mark_private(self, local: int, name_node: _ts.Node | None) -> None: ...
        def declare_type_params(self, local: int, plist: _ts.Node | None) -> None: ...
        def _params(self, fn: _ts.Node, local: int, owner: int) -> None: ...

    def on_field(self, node: _ts.Node, owner: int) -> int | None:
        okind = self.pf.symbols[owner].kind
        if node.type == "index_signature":
            self._index_signature(node, owner)
            return None
        if node.type == "public_field_definition" and okind == "class":
            value = node.child_by_field_name("value")
            ann = node.child_by_field_name("type")
            fn = function_type(ann) if ann is not None and (value is None or value.type not in FUNCTION_VALUES) else None
            name = self.member_name(node.child_by_field_name("name"))
            if fn is not None and name:  # #resolve: (value: Response) => void: a method the class declares
                local = self.add_symbol(node, owner, name, "method", doc_node=node, is_declaration=True)
                self.mark_private(local, node.child_by_field_name("name"))
                self._params(fn, local, owner)
                ret = fn.child_by_field_name("return_type")
                if ret is not None:
                    self.pf.symbols[local].return_type = self.declared(ret)
                return local
            if name and ann is not None and value is None and (self._called_field(node, name)
                                                                or self._names_function_alias(ann)):
                # #query: InternalQuery (any type) called as this.#query(), or a field typed by a function-type
                # alias of this file (fetch: Handler): the field holds a function, and TypeScript answers it
                local = self.add_symbol(node, owner, name, "method", doc_node=node, is_declaration=True)
                self.mark_private(local, node.child_by_field_name("name"))
                declared = self.primary(ann)
                if declared:  # what the call gives: what the declared type's call signature returns
                    self.pf.symbols[local].return_type = f"{declared}{CONTEXT_MARK}call{CONTEXT_MARK}{RETURN_SPEC}"
                return local
        if node.type != "property_signature" or okind not in ("interface", "type_alias"):
            return super().on_field(node, owner)
        name = self.text(node.child_by_field_name("name")).strip("'\"")
        ann = node.child_by_field_name("type")
        if not name or ann is None:
            return None
        fn = function_type(ann)
        if fn is None and self._names_function_alias(ann):
            # getUrl: GetUrl with ``type GetUrl = (opts: O) => string`` in this file: a method as well, giving
            # what the alias's call signature returns
            local = self.add_symbol(node, owner, name, "method", doc_node=node, is_declaration=True)
            self.pf.symbols[local].return_type = f"{self.primary(ann)}{CONTEXT_MARK}call{CONTEXT_MARK}{RETURN_SPEC}"
            return local
        if fn is not None:  # parseJson?: (text: string) => unknown: a method the options declare
            local = self.add_symbol(node, owner, name, "method", doc_node=node, is_declaration=True)
            sym = self.pf.symbols[local]
            self.declare_type_params(local, fn.child_by_field_name("type_parameters"))
            self._params(fn, local, owner)
            ret = fn.child_by_field_name("return_type")
            if ret is not None:
                sym.return_type = self.declared(ret)
            return local
        if queried(ann):  # verifyAccess: typeof verifyAccess: the member holds that value
            self.add_binding(owner, f"self.{name}", node, alias_of=queried(ann))
        else:
            self.add_binding(owner, f"self.{name}", node, annotation=self.declared(ann))
        self.add_types(owner, ann, "field")
        return None

    def method_property(self, param: _ts.Node, fn: _ts.Node, cls: int, name: str, tnode: _ts.Node | None) -> bool:
        """``constructor(\n private mapper?: (rows: Row[]) => T,\n)``: a parameter property of a function
        type, or one the class calls as ``this.mapper()``, is a method the class declares (TypeScript answers
        it; a package's base class never gets it invented). Only on a line of its own: the constructor's
        first line must keep meaning the constructor."""
        if tnode is None or param.start_point[0] == fn.start_point[0]:
            return False
        ftype = function_type(tnode)
        if ftype is None and not self._called_field(fn, name):  # fn's parent: the class body
            return False
        local = self.add_symbol(param, cls, name, "method", doc_node=param, is_declaration=True)
        if ftype is not None:
            self._params(ftype, local, cls)
        declared = self.primary(tnode) if ftype is None else ""
        ret = ftype.child_by_field_name("return_type") if ftype is not None else None
        if ret is not None or declared:
            self.pf.symbols[local].return_type = self.declared(ret) if ret is not None else \
                f"{declared}{CONTEXT_MARK}call{CONTEXT_MARK}{RETURN_SPEC}"
        return True

    def _names_function_alias(self, ann: _ts.Node) -> bool:
        """Whether annotation ``ann`` is (``?:``, ``| undefined`` aside) the name of a type alias of a function
        type declared at the top of this file (``type GetUrl = (o: O) => string``, generic ones too)."""
        node = ann.named_children[0] if ann.type == "type_annotation" and ann.named_child_count else ann
        if node.type == "union_type":
            parts = [m for m in node.named_children if _ts.text(m) not in ("undefined", "null")]
            node = parts[0] if len(parts) == 1 else node
        if node.type == "generic_type":
            node = node.child_by_field_name("name") or node
        if node.type != "type_identifier":
            return False
        names: frozenset[str] | None = self.__dict__.get("_function_aliases")
        if names is None:
            root = node
            while root.parent is not None:
                root = root.parent
            found = set()
            for top in root.named_children:
                decl = top.child_by_field_name("declaration") if top.type == "export_statement" else top
                value = decl.child_by_field_name("value") if decl is not None and decl.type == "type_alias_declaration" else None
                if value is not None and value.type in ("function_type", "constructor_type"):
                    found.add(_ts.text(decl.child_by_field_name("name")))  # type: ignore[union-attr]
            names = self.__dict__["_function_aliases"] = frozenset(found)
        return _ts.text(node) in names

    def _called_field(self, field: _ts.Node, name: str) -> bool:
        """Whether the class holding ``field`` calls it as ``this.name(...)`` (``this.#name(...)``,
        ``this.name?.(...)``): the names a class's body calls through ``this`` are read once per class."""
        body = field.parent
        if body is None:
            return False
        memo: dict[tuple[int, int], frozenset[str]] = self.__dict__.setdefault("_this_called", {})
        k = (body.start_byte, body.end_byte)
        if k not in memo:
            memo[k] = frozenset(m.group(1) for m in _THIS_CALL.finditer(_ts.text(body)))
        return name.lstrip("#") in memo[k]  # ``#next`` beside a public ``next`` keeps its ``#``

    def declared_return(self, type_node: _ts.Node) -> str:
        """``const mk: () => Foo = ...``: ``Foo``."""
        fn = function_type(type_node)
        ret = fn.child_by_field_name("return_type") if fn is not None else None
        return self.primary(ret) if ret is not None else ""

    def _index_signature(self, node: _ts.Node, owner: int) -> None:
        """``[key: string]: Route`` in an interface, an object type or a class: a member of any name the
        type does not declare is a Route (``routes.home.handle()``); a ``number`` index or a mapped type
        (``[K in keyof T]``) names no member."""
        okind = self.pf.symbols[owner].kind
        index = node.child_by_field_name("index_type")
        if okind not in ("interface", "type_alias", "class") or index is None or self.text(index) != "string":
            return
        ann = self.primary(node.child_by_field_name("type"))
        if ann:
            self.add_binding(owner, f"self.{INDEX_MEMBER}", node, annotation=ann)
