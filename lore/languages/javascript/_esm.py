"""ES modules for the JavaScript extractor: ``import``, ``export``, re-exports.

The module text is the specifier as written (``./util``); ``export default X`` binds the name
``default`` so ``import X from`` finds it; ``export { a as b }`` binds ``b`` to ``a``; TypeScript's
``export = X`` and ``import u = require('./x')`` are CommonJS (:mod:`._commonjs`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ._nodes import FUNCTION_VALUES
from ._nodes import key as _key

if TYPE_CHECKING:
    from ...parsers._common import Extractor as _Base
else:
    _Base = object


class EsModuleMixin(_Base):
    """The ES module handlers of :class:`~lore.languages.javascript._parser.JsExtractor`."""

    if TYPE_CHECKING:  # what the extractor provides
        literals: dict[tuple[int, int], int]

        def dotted(self, node: _ts.Node | None) -> str: ...
        def _function(self, node: _ts.Node, owner: int, name: str, kind: str, fn: _ts.Node,
                      span: _ts.Node | None = None) -> int: ...
        def _export_whole(self, owner: int, at: _ts.Node, *, alias_of: str = "", value: str = "") -> None: ...

    def on_import(self, node: _ts.Node, owner: int) -> None:
        src = node.child_by_field_name("source")
        spec = self.text(src)[1:-1] if src is not None else ""
        req = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        if req is not None:  # TypeScript: import u = require('./x')
            rsrc = req.child_by_field_name("source")
            ident = next((c for c in req.named_children if c.type == "identifier"), None)
            if rsrc is not None and ident is not None:
                self.add_import(owner, self.text(rsrc)[1:-1], node, "module.exports", self.text(ident))
            return
        if not spec:
            return
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if clause is None:
            self.add_import(owner, spec, node)
            return
        for c in clause.named_children:
            if c.type == "identifier":
                self.add_import(owner, spec, node, "default", self.text(c))
            elif c.type == "namespace_import":
                ident = next((x for x in c.named_children if x.type == "identifier"), None)
                self.add_import(owner, spec, node, None, self.text(ident))
            elif c.type == "named_imports":
                for sp in c.named_children:
                    if sp.type != "import_specifier":
                        continue
                    name = self.text(sp.child_by_field_name("name"))
                    alias = self.text(sp.child_by_field_name("alias")) or None
                    self.add_import(owner, spec, node, name, alias)

    def on_export(self, node: _ts.Node, owner: int) -> int | None:
        src = node.child_by_field_name("source")
        spec = self.text(src)[1:-1] if src is not None else ""
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if spec:
            if clause is None:
                ns = next((c for c in node.named_children if c.type == "namespace_export"), None)
                if ns is not None:  # export * as ns from './x'
                    self.add_import(owner, spec, node, None, self.text(ns.named_children[-1]))
                else:
                    self.add_import(owner, spec, node, "*")
                return None
            for sp in clause.named_children:
                name = self.text(sp.child_by_field_name("name"))
                alias = self.text(sp.child_by_field_name("alias")) or None
                self.add_import(owner, spec, node, name, alias)
            return None
        if clause is not None:
            for sp in clause.named_children:
                name = self.text(sp.child_by_field_name("name"))
                alias = self.text(sp.child_by_field_name("alias"))
                if alias and alias != name:
                    self.add_binding(owner, alias, sp, alias_of=name)
            return None
        if node.child_count > 1 and node.children[1].type == "=" and node.named_child_count:  # TypeScript: export = X
            whole = self.dotted(node.named_children[0])
            if whole and "<" not in whole and "(" not in whole:
                self._export_whole(owner, node, alias_of=whole)
            return None
        value = node.child_by_field_name("value")
        decl = node.child_by_field_name("declaration")
        is_default = any(c.type == "default" for c in node.children)
        if is_default:
            target = decl if decl is not None else value
            if target is None:
                return None
            if target.type in FUNCTION_VALUES and target.child_by_field_name("name") is None:
                return self._function(target, owner, "default", "function", target, span=node)
            obj = decl if decl is not None else value
            if obj is not None and obj.type == "object" and self.pf.symbols[owner].kind == "module":
                self.literals[_key(obj)] = owner  # export default { a, m() {} }: the module's own names
                return None
            name = self.text(target.child_by_field_name("name")) if target.type != "identifier" else self.text(target)
            if name and name != "default":
                self.add_binding(owner, "default", node, alias_of=name)
        return None
