"""A type assertion read by the call it is the receiver of: ``(x as Foo).m()`` (``(<Foo>x).m()``) calls
``Foo``'s ``m``, whatever ``x`` is declared as, since TypeScript checks the member on the asserted type.

The assertion becomes a local binding of its own (named after its place, :data:`CAST_MARK`) annotated
with the asserted type, and the call's receiver names it. A cast to ``any``, ``unknown`` or ``const``
(or a type lore cannot read) says nothing about the value, so the receiver stays the expression's
own (``(this as any).m()`` is ``this.m``); a cast to a runtime type (``(y as string)``) is the runtime's
class, as before. A cast to an object or function type written in place (``(s as { abort(): void
}).abort()``) has no declared member lore could bind: the receiver is unknown (``<expr>.abort``), never
the member of the expression's own type (``ReadableStream.abort``) that TypeScript would not call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ..javascript._nodes import JS_GLOBALS
from ._types import builtin_type, shape, strip

if TYPE_CHECKING:
    from ..javascript._parser import JsExtractor as _Base
else:
    _Base = object

CAST_MARK = "as:"  # binding names ``as:LINE:COL`` (no identifier holds a colon)
CASTS = frozenset({"as_expression", "type_assertion"})
_SAYS_NOTHING = frozenset({"any", "unknown", "const", "object", "never"})


class CastMixin(_Base):
    """Casts as receivers, for :class:`~lore.languages.typescript._parser.TsExtractor`."""

    _cast_owner: int | None = None

    def on_call(self, node: _ts.Node, owner: int) -> None:
        self._cast_owner = owner  # where a cast in this call's callee binds its type
        try:
            super().on_call(node, owner)
        finally:
            self._cast_owner = None

    def dotted(self, node: _ts.Node | None) -> str:
        owner = self._cast_owner
        if owner is None or node is None or node.type not in CASTS or node.named_child_count != 2:
            return super().dotted(node)
        written = node.named_children[-1] if node.type == "as_expression" else node.named_children[0]
        if written.type == "type_arguments" and written.named_child_count:
            written = written.named_children[0]
        typ = strip(written)
        if typ is None or builtin_type(typ) or self.text(typ) in _SAYS_NOTHING:
            return super().dotted(node)
        if shape(typ):
            return ""  # a type written in place: no member of it is a symbol; nor is the value's own type right
        ann = self.declared(typ)
        if not ann:
            return super().dotted(node)
        row, col = node.start_point
        name = f"{CAST_MARK}{row + 1}:{col}"
        self.add_binding(owner, name, node, annotation=ann)
        return name

    _external_seen: tuple[int, frozenset[str]] = (-1, frozenset())

    def external_name(self, name: str) -> bool:
        """Whether a type or value name is the runtime's (``Request``) or a package's (imported from a bare
        specifier, ``import { Builder } from 'pkg'``) rather than the project's."""
        head = name.split(".", 1)[0]
        if head in JS_GLOBALS:
            return True
        imports = self.pf.imports
        if self._external_seen[0] != len(imports):  # imports are read as the walk meets them
            self._external_seen = (len(imports), frozenset(
                (i.alias or i.name or "") for i in imports if not i.module.startswith((".", "/"))))
        return head in self._external_seen[1]
