"""Parameters declared with a function type written in place (``group(prefix: string, run: (g: App) =>
App)``): the parameter's annotation lists the function type's parameter types after
:data:`~lore.parsers.records.CALLBACK_MARK` (``=>App``), so a callback passed there (``app.group('/v1',
(g) => g.get())``) has its parameters typed by the callee, as TypeScript's contextual typing does
(resolved in :mod:`lore.index._values`). ``this`` in the function type is the class the callee is
declared in. Overload signatures of one interface whose callbacks differ give nothing (which one a
call takes is not decided here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ...parsers.records import CALLBACK_MARK
from ._types import function_type

if TYPE_CHECKING:
    from ..javascript._parser import JsExtractor as _Base
else:
    _Base = object

SEP = ";"


class CallbackMixin(_Base):
    """The callback parameter types of :class:`~lore.languages.typescript._parser.TsExtractor`."""

    def callback_params(self, fn: _ts.Node, local: int, owner: int) -> None:
        """Give each parameter of ``local`` declared with an inline function type its callback spec."""
        params = fn.child_by_field_name("parameters")
        sym = self.pf.symbols[local]
        if params is None or not sym.params:
            return
        names = [p for p, _a in sym.params]
        for p in params.named_children:
            pat = p.child_by_field_name("pattern") if p.type in ("required_parameter", "optional_parameter") else None
            tnode = p.child_by_field_name("type") if pat is not None and pat.type == "identifier" else None
            ftype = function_type(tnode) if tnode is not None else None
            if ftype is None or ftype.type != "function_type":
                continue
            name = self.text(pat)
            k = names.index(name) if name in names else -1
            if k < 0 or sym.params[k][1]:
                continue
            sym.params[k] = (name, CALLBACK_MARK + SEP.join(self._cb_param_types(ftype, owner)))

    def _cb_param_types(self, ftype: _ts.Node, owner: int) -> list[str]:
        params = ftype.child_by_field_name("parameters")
        out: list[str] = []
        for p in params.named_children if params is not None else ():
            tnode = p.child_by_field_name("type") if p.type in ("required_parameter", "optional_parameter") else None
            if tnode is not None and any(c.type == "this_type" for c in tnode.named_children):
                cls = self._class_of(owner)  # (b: this) => this: the class it is declared in
                out.append(self.pf.symbols[cls].name if cls is not None else "")
            else:
                out.append(self.declared(tnode) if tnode is not None else "")
        return out

    def overloaded_callbacks(self) -> None:
        """Signatures of one name in one interface (overloads) whose callback specs differ at a place:
        no spec there (the call's choice is not known here); equal ones stay."""
        marked = {(s.parent, s.name) for s in self.pf.symbols
                  if s.kind == "method" and any(a.startswith(CALLBACK_MARK) for _p, a in s.params)}
        if not marked:
            return
        groups: dict[tuple[int | None, str], list[int]] = {}
        for i, s in enumerate(self.pf.symbols):
            if (s.parent, s.name) in marked:
                groups.setdefault((s.parent, s.name), []).append(i)
        for same in groups.values():
            if len(same) < 2:
                continue
            width = max(len(self.pf.symbols[i].params) for i in same)
            for k in range(width):
                specs = {self.pf.symbols[i].params[k][1] if k < len(self.pf.symbols[i].params) else ""
                         for i in same}
                if len(specs) > 1:
                    for i in same:
                        ps = self.pf.symbols[i].params
                        if k < len(ps) and ps[k][1].startswith(CALLBACK_MARK):
                            ps[k] = (ps[k][0], "")
