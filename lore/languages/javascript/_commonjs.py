"""CommonJS for the JavaScript extractor: ``require``, ``module.exports``, ``exports.f``.

``module.exports = X`` (and TypeScript ``export = X``) binds ``module.exports``, which the resolver
takes as the value of the whole module; ``module.exports = require('./x')`` re-exports ``./x``;
``module.exports = {...}``: the module holds the literal's names; ``exports.f = g`` binds ``f``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ._nodes import EXPORTS, FUNCTION_VALUES
from ._nodes import key as _key


class CommonJsMixin:
    """The CommonJS handlers of :class:`~lore.languages.javascript._parser.JsExtractor`."""

    if TYPE_CHECKING:  # what the extractor provides
        literals: dict[tuple[int, int], int]

        def text(self, node: _ts.Node | None) -> str: ...
        def dotted(self, node: _ts.Node | None) -> str: ...
        def add_import(self, owner: int, module: str, node: _ts.Node, name: str | None = None,
                       alias: str | None = None, level: int = 0) -> None: ...
        def add_binding(self, owner: int, name: str, node: _ts.Node, *, annotation: str = "", value: str = "",
                        alias_of: str = "") -> None: ...
        def _function(self, node: _ts.Node, owner: int, name: str, kind: str, fn: _ts.Node,
                      span: _ts.Node | None = None) -> int: ...
        def _bind_value(self, owner: int, name: str, at: _ts.Node, value: _ts.Node) -> None: ...
        def _string_arg(self, call: _ts.Node) -> str: ...

    def _require_spec(self, value: _ts.Node | None) -> str:
        """``'./x'`` of ``require('./x')`` (``''`` for anything else)."""
        if value is None or value.type != "call_expression" or self.text(value.child_by_field_name("function")) != "require":
            return ""
        return self._string_arg(value)

    def _export_whole(self, owner: int, at: _ts.Node, *, alias_of: str = "", value: str = "") -> None:
        """``module.exports = X``: the value of the whole module, also its ``default`` (ES interop)."""
        self.add_binding(owner, "module.exports", at, alias_of=alias_of, value=value)
        if alias_of != "default":
            self.add_binding(owner, "default", at, alias_of=alias_of, value=value)

    def _require(self, name_node: _ts.Node, spec: str, owner: int, node: _ts.Node) -> None:
        if name_node.type == "identifier":  # what require() returns: the module's module.exports
            self.add_import(owner, spec, node, "module.exports", self.text(name_node))
        elif name_node.type == "object_pattern":
            for p in name_node.named_children:
                if p.type == "shorthand_property_identifier_pattern":
                    self.add_import(owner, spec, node, self.text(p), None)
                elif p.type == "pair_pattern":
                    key = self.text(p.child_by_field_name("key"))
                    val = self.text(p.child_by_field_name("value"))
                    self.add_import(owner, spec, node, key, val if val != key else None)

    def _exported_name(self, left: _ts.Node | None) -> str:
        """The name a value assigned to ``left`` is exported as: ``exports.f`` -> f, ``module.exports`` -> default."""
        target = self.dotted(left)
        if target == "module.exports":
            return "default"
        head, _, last = target.rpartition(".")
        return last if head in EXPORTS else ""

    def _module_exports(self, node: _ts.Node, owner: int, right: _ts.Node) -> int | None:
        """``module.exports = X``: what ``require`` of this file returns."""
        spec = self._require_spec(right)
        if spec:  # module.exports = require('./lib'): the module re-exports ./lib
            self.add_import(owner, spec, node, "module.exports", "module.exports")
            return None
        if right.type in FUNCTION_VALUES:
            name = self.text(right.child_by_field_name("name")) or "default"
            self._export_whole(owner, node, alias_of=name)
            return self._function(right, owner, name, "function", right, span=node)
        if right.type == "class":
            name = self.text(right.child_by_field_name("name")) or "default"
            self._export_whole(owner, node, alias_of=name)
            return None  # the class itself is a definition of its own (def.class)
        if right.type == "object":  # module.exports = { a, b: c, m() {} }: the module's own names
            self.literals[_key(right)] = owner
            return None
        self._bind_value(owner, "module.exports", node, right)
        self._bind_value(owner, "default", node, right)
        return None

