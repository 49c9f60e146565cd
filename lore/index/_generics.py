"""Generic instances: a value of a repository class with its type arguments (TypeScript's ``Box<Foo>``).

A class (or interface) that declares type parameters lists them in order as ``TYPE_PARAM`` bindings
(:data:`lore.parsers.records.TYPE_PARAM`, each with its default). An annotation that gives arguments
(``b: Box[Foo]``, as the parser writes ``Box<Foo>``), or a class whose parameters have defaults, makes the
value ``("gin", (class_id, (("T", value), ...)))``: the instance with what each parameter stands for.
Its member typed by a parameter is what that parameter stands for: a field ``v: T`` is a ``Foo``, and a
method declared ``get(): T`` (or ``Promise<T>``) is ``("gim", (method_id, value))``, whose call gives it.

Everything else about such a value is the plain instance or method: its other members, and
the edges of a call on it, are exactly what they are without type arguments
(:func:`lore.index._containers.plain`), so a parameter that stands
for nothing known changes nothing. Only members declared by the class itself are read with its
arguments (an inherited member's parameters are its base's).
"""

from __future__ import annotations

from typing import cast

from ..parsers.records import TYPE_BASE, TYPE_PARAM, TYPE_PARAM_USE
from ._annotations import primary_type, type_args
from ._containers import plain
from ._world import FileCtx, Value, WorldCore, weaker


class GenericsMixin(WorldCore):
    """Generic instances: made from annotations, read through their members."""

    def type_params(self, class_id: int) -> tuple[tuple[str, str], ...]:
        """``((name, default annotation), ...)`` of a repository class's type parameters, in order."""
        memo = self.__dict__.setdefault("_type_params", {})
        got = memo.get(class_id)
        if got is None:
            srow = self.syms.get(class_id)
            c = self.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
            local = c.local_of.get(class_id) if c is not None else None
            binds = c.bindings_of(local).get(TYPE_PARAM, ()) if c is not None and local is not None else ()
            got = memo[class_id] = tuple((b.value, b.annotation) for b in binds)
        return got

    def generic_instance(self, c: FileCtx, scope: int, class_id: int, annotation: str,
                         depth: int) -> Value | None:
        """The instance of ``class_id`` that ``annotation`` (read in ``scope``) gives, with what its type
        parameters stand for (its arguments, else the parameters' defaults); ``None`` when none is known."""
        params = self.type_params(class_id)
        if not params:
            return None
        args = type_args(annotation) if primary_type(annotation) and "[" in annotation else []
        bound: list[tuple[str, Value]] = []
        for k, (name, default) in enumerate(params):
            if k < len(args):
                got = self.type_value(c, scope, args[k], depth + 1)
            elif default:
                fc = self.ctx(self.syms[class_id].file_id)  # type: ignore[arg-type]
                local = fc.local_of.get(class_id) if fc is not None else None
                got = self.type_value(fc, local, default, depth + 1) if fc is not None and local is not None else None
            else:
                got = None
            if got is not None and got[0][0] not in ("unknown", "opaque"):
                bound.append((name, got[0]))
        return ("gin", (class_id, tuple(bound))) if bound else None

    def generic_base(self, class_id: int) -> Value | None:
        """The generic instance of the base a class extends with type arguments (``class Sub extends
        Base<Foo>``: a ``Base`` whose ``T`` is a ``Foo``), or ``None``."""
        memo = self.__dict__.setdefault("_generic_bases", {})
        if class_id in memo:
            return memo[class_id]
        memo[class_id] = None  # a cycle (a class that extends itself through aliases) finds nothing
        srow = self.syms.get(class_id)
        c = self.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
        local = c.local_of.get(class_id) if c is not None else None
        binds = c.bindings_of(local).get(TYPE_BASE, ()) if c is not None and local is not None else ()
        got = self.type_value(c, local, binds[-1].annotation, 1) if binds else None  # type: ignore[arg-type]
        memo[class_id] = got[0] if got is not None and got[0][0] == "gin" else None
        if not binds and srow is not None:  # a C++ placeholder: its header's class names the bases
            twin = next((t for t in self._rules_of(class_id).class_twins(self, class_id)  # type: ignore[attr-defined]
                         if self.syms[t].file_id != srow.file_id), None)
            memo[class_id] = self.generic_base(twin) if twin is not None else None
        return memo[class_id]

    def _param_use(self, class_id: int, member: str) -> str:
        """The constrained type parameter of ``class_id`` that types ``member`` (``self.x`` or a method's
        name), or ``''``."""
        srow = self.syms.get(class_id)
        c = self.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
        local = c.local_of.get(class_id) if c is not None else None
        uses = c.bindings_of(local).get(TYPE_PARAM_USE, ()) if c is not None and local is not None else ()
        return next((b.annotation for b in uses if b.value == member), "")

    def generic_member(self, v: Value, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        """Member ``attr`` of generic instance ``v``: typed by a parameter, what it stands for (a
        member inherited from a generic base: what the base's parameter stands for)."""
        class_id, bound = cast("tuple[int, tuple[tuple[str, Value], ...]]", v[1])
        got = self.inst_member(class_id, attr, res, depth + 1)  # type: ignore[attr-defined]
        args = dict(bound)
        base = self.generic_base(class_id)
        if got is not None and got[0][0] == "sym":
            srow = self.syms.get(got[0][1])  # type: ignore[call-overload]
            if srow is not None and srow.parent_id != class_id and base is not None:
                inherited = self.generic_member(base, attr, res, depth + 1)
                return inherited if inherited is not None and plain(inherited[0]) == got[0] else got
            if srow is None or srow.parent_id != class_id or srow.kind not in ("function", "method"):
                return got
            c = self.ctx(srow.file_id)  # type: ignore[arg-type]
            local = c.local_of.get(srow.id) if c is not None else None
            ret = primary_type(c.pf.symbols[local].return_type) if c is not None and local is not None else ""
            ret = self._param_use(class_id, srow.name) or ret
            return (("gim", (srow.id, args[ret])), got[1]) if ret in args else got
        c = self.ctx(self.syms[class_id].file_id)  # type: ignore[arg-type]
        local = c.local_of.get(class_id) if c is not None else None
        binds = c.bindings_of(local).get("self." + attr, ()) if c is not None and local is not None else ()
        declared = [b.annotation for b in binds if b.annotation and not b.value]
        param = self._param_use(class_id, "self." + attr) if declared else ""
        if param in args:  # _def: Def (Def extends ZodTypeDef): what the arguments give Def
            return args[param], weaker(res, "annotated_type")
        if declared and primary_type(declared[-1]) in args and "[" not in declared[-1]:
            return args[primary_type(declared[-1])], weaker(res, "annotated_type")
        if not binds and base is not None and attr not in self.children.get(class_id, {}):
            return self.generic_member(base, attr, res, depth + 1)  # a field the base declares
        return got  # the class's own (a getter's value: never a base's member of that name)
