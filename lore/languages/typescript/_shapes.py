"""Object types written in place: ``handler: { mapResponse(r): unknown }`` in an interface or a class field,
and ``opts: { client: Client; log(m: string): void }`` for a parameter, are interfaces of their own holding
their members, so ``adapter.handler.mapResponse()`` and ``opts.client.query()`` bind what is declared there.

A property's or a field's is named after it. A parameter's is named after the parameter with
:data:`SHAPE_MARK` appended (``opts$``: the parameter itself holds the name ``opts`` in the function's
scope), and the parameter is declared with it; a destructured parameter's (``({ app, path }: { app: App;
path: string })``) after its position (``arg0$``), each name it takes being that member. Its lines start at its first member: the function's own
first line must keep meaning the function (what stands at a line is its innermost definition), so a
shape whose first member is written on that line is not made at all, and the parameter stays untyped
as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ._types import function_type

if TYPE_CHECKING:
    from ..javascript._parser import JsExtractor as _Base
else:
    _Base = object

SHAPE_MARK = "$"
PARAMS = ("required_parameter", "optional_parameter")


def intersected_shape(node: _ts.Node) -> _ts.Node | None:
    """The one object part of a parameter's intersection whose other parts are named types
    (``Request & { store: Store }``, ``Ctx & { user: User }``), else ``None``."""
    parts = node.named_children
    shapes = [p for p in parts if p.type == "object_type"]
    named = [p for p in parts if p.type in ("type_identifier", "nested_type_identifier", "generic_type")]
    return shapes[0] if len(shapes) == 1 and len(named) == len(parts) - 1 else None


class ShapeMixin(_Base):
    """Object types written in place, for :class:`~lore.languages.typescript._parser.TsExtractor`."""

    if TYPE_CHECKING:
        def _alias_bases(self, local: int, value: _ts.Node | None) -> None: ...

    def on_shape(self, node: _ts.Node, owner: int) -> int | None:
        both = node.parent if node.parent is not None and node.parent.type == "intersection_type" else None
        holder = (both or node).parent
        holder = holder.parent if holder is not None else None
        if holder is None or not node.named_child_count:
            return None
        if holder.type in PARAMS:
            plist = holder.parent.named_children if holder.parent is not None else []
            name = self._shape_param(holder, owner, [p for p in plist if p.type in PARAMS].index(holder))
            if not name:
                return None
            local = self.add_symbol(node, owner, name, "interface", body=node, doc_node=holder, is_declaration=True)
            first = node.named_children[0]
            sym = self.pf.symbols[local]
            sym.start_line, sym.start_col = first.start_point[0] + 1, first.start_point[1]
            if both is not None:  # Request & { store: Store }: the named parts' members after its own
                self._alias_bases(local, both)
            return local
        if both is not None:
            return None
        name = self.text(holder.child_by_field_name("name")).lstrip("#").strip("'\"")
        if not name or not name.replace("$", "_").isidentifier():
            return None
        return self.add_symbol(node, owner, name, "interface", body=node, doc_node=holder, is_declaration=True)

    def _shape_param(self, param: _ts.Node, fn_local: int, index: int) -> str:
        """The name of the interface a parameter's object type becomes (``opts$``; a destructured one's,
        ``{ app }: {...}``, after its position, ``arg0$``), or ``''`` when it is not made (a first member on
        the function's first line)."""
        pat = param.child_by_field_name("pattern")
        typ = param.child_by_field_name("type")
        shape = typ.named_children[0] if typ is not None and typ.named_child_count else None
        if shape is not None and shape.type == "intersection_type":
            shape = intersected_shape(shape)
        if pat is None or pat.type not in ("identifier", "object_pattern") or shape is None \
                or shape.type != "object_type" or not shape.named_child_count:
            return ""
        fn = self.pf.symbols[fn_local]
        if fn.kind not in ("function", "method") or shape.named_children[0].start_point[0] + 1 <= fn.start_line:
            return ""  # an overload signature's (no symbol of its own), or one the function's first line holds
        return (self.text(pat) if pat.type == "identifier" else f"arg{index}") + SHAPE_MARK

    def shape_params(self, fn: _ts.Node, local: int) -> None:
        """Declare each parameter whose object type becomes an interface (:meth:`on_shape`) with it."""
        params = fn.child_by_field_name("parameters")
        if params is None:
            return
        named = {}
        for i, p in enumerate(p for p in params.named_children if p.type in PARAMS):
            name = self._shape_param(p, local, i)
            pat = p.child_by_field_name("pattern")
            if not name and pat is not None and pat.type == "object_pattern":
                self._one_line_shape(local, p, pat)
            if name and pat is not None and pat.type == "object_pattern":
                self._destructure(local, pat, name)  # ({ app }: { app: App }): app is the interface's app
            elif name:
                named[name[: -len(SHAPE_MARK)]] = name
        if named:
            sym = self.pf.symbols[local]
            # an intersection's parameter had its named part (``Request``): the interface holds that part's members too
            sym.params = [(p, named.get(p, a)) for p, a in sym.params]

    def _one_line_shape(self, fn_local: int, param: _ts.Node, pattern: _ts.Node) -> None:
        """``({ app, path: p }: { app: App; path: string })`` written on the function's first line (no
        interface is made for it, see the module's docstring): each name it takes is declared with its
        property's type (``app`` is an ``App``); a method or a property of a function type declares nothing."""
        typ = param.child_by_field_name("type")
        shape = typ.named_children[0] if typ is not None and typ.named_child_count else None
        if shape is None or shape.type != "object_type":
            return
        types: dict[str, str] = {}
        for m in shape.named_children:
            ann = m.child_by_field_name("type") if m.type == "property_signature" else None
            key = self.text(m.child_by_field_name("name")).strip("'\"") if ann is not None else ""
            if key and ann is not None and function_type(ann) is None:
                types[key] = self.declared(ann)
        for p in pattern.named_children:
            if p.type == "shorthand_property_identifier_pattern":
                key = local = self.text(p)
            elif p.type == "pair_pattern" and (val := p.child_by_field_name("value")) is not None \
                    and val.type == "identifier":
                key, local = self.text(p.child_by_field_name("key")).strip("'\""), self.text(val)
            else:
                continue
            if types.get(key):
                self.add_binding(fn_local, local, p, annotation=types[key])
