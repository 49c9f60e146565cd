"""``ReturnType<typeof make>``: a value typed by what calling a function gives.

``repo: ReturnType<typeof createRepository>`` (a parameter, a variable, a member of an interface or a
``declare module`` block) holds what ``createRepository()`` returns, often an object literal whose methods
are symbols (:meth:`lore.languages.javascript._literals.LiteralMixin.returned_literal`). The parser writes
such a type as :data:`CALLED` + ``make`` (:meth:`TsExtractor.declared`); a binding made with it is a value
binding of the call ``make()`` (the annotation kept beside it: the resolver reads a binding with both as
the call's result, and a declared type wins over later assignments); a parameter, whose annotation no lookup
reads as a name (``<`` starts no name), gets that binding too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ._types import strip

if TYPE_CHECKING:
    from ...parsers._common import Extractor as _Base
else:
    _Base = object

CALLED = "<called>"  # ReturnType<typeof f> as an annotation string: what calling f gives
_AWAITING = frozenset({"Awaited", "Promise"})  # Awaited<ReturnType<typeof f>>: an async f's value, as lore reads it


def returned_by(node: _ts.Node | None) -> str:
    """``f`` (or ``a.f``) of ``ReturnType<typeof f>`` / ``Awaited<ReturnType<typeof f>>``, else ``''``."""
    node = strip(node)
    while node is not None and node.type == "generic_type":
        name = "".join(_ts.text(node.child_by_field_name("name")).split())
        targs = node.child_by_field_name("type_arguments")
        if targs is None or targs.named_child_count != 1 or name not in _AWAITING | {"ReturnType"}:
            return ""
        node = strip(targs.named_children[0])
        if name == "ReturnType":
            if node is None or node.type != "type_query" or node.named_child_count != 1:
                return ""
            query = node.named_children[0]
            return "".join(_ts.text(query).split()) if query.type in ("identifier", "member_expression") else ""
    return ""


class ReturnedTypeMixin(_Base):
    """Bindings of values typed ``ReturnType<typeof f>`` for :class:`~lore.languages.typescript._parser.TsExtractor`."""

    def add_binding(self, owner: int, name: str, node: _ts.Node, *, annotation: str = "", value: str = "",
                    alias_of: str = "") -> None:
        if annotation.startswith(CALLED) and not value and not alias_of:  # repo: ReturnType<typeof make>
            value = annotation[len(CALLED):]  # with the annotation kept: declared, it wins over assignments
        super().add_binding(owner, name, node, annotation=annotation, value=value, alias_of=alias_of)

    def returned_param(self, local: int, pat: _ts.Node | None, typ: _ts.Node | None) -> None:
        """``function f(repo: ReturnType<typeof make>)``: ``repo`` holds what ``make()`` returns."""
        made = returned_by(typ)
        if made and pat is not None and pat.type == "identifier":
            self.add_binding(local, _ts.text(pat), pat, annotation=CALLED + made)
