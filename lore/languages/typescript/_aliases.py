"""A type alias's bases: ``type A = B``, ``type A = Required<B> & {...}``, ``type M = X | Y`` and
conditional types whose branches agree give A the members of the named parts (an ``extends`` relation
to each), so a value declared with the alias finds its members there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ...parsers.records import TYPE_PARAM_USE, Binding
from ._types import builtin_type, strip

if TYPE_CHECKING:
    from ..javascript._parser import JsExtractor as _Base
else:
    _Base = object

# the member name of the ``TYPE_PARAM_USE`` binding that says an alias's value is its own type parameter, alone or
# intersected (``type Ctx<T> = T & { extra(): void }``): a ``Ctx<Client>`` has ``Client``'s members besides
PARAM_PART = "<param-part>"

PRIMITIVES = frozenset({"string", "number", "boolean", "any", "unknown", "void", "never", "object", "undefined",
                        "null", "bigint", "symbol", "Array", "Record", "Map", "Set", "Function", "Object"})


class AliasMixin(_Base):
    """The alias bases of :class:`~lore.languages.typescript._parser.TsExtractor`."""

    def _alias_bases(self, local: int, value: _ts.Node | None) -> None:
        """``type A = B``, ``type A = Required<B> & {...}``: A has the members of B (its object part's are its own)."""
        if value is None:
            return
        runtime = builtin_type(value)
        if runtime:  # type AnyMap = Map<any, any>, type Names = string[]: the runtime's class
            self.add_relation(local, runtime, "extends", value)
            return
        own = [p for p in (value.named_children if value.type == "intersection_type" else [value])
               if p.type == "type_identifier" and self.text(p) in self.type_params.get(local, ())]
        if len(own) == 1:  # type Ctx<T> = T & {...}: what the argument is, a Ctx<Client> is too
            self.pf.bindings.append(Binding(local, TYPE_PARAM_USE, own[0].start_point[0] + 1,
                                            annotation=self.text(own[0]), value=PARAM_PART))
        elif not own:  # type Merge<A, B> = { [K in keyof (A & B)]: ... }: the members of B, then of A
            for param in reversed(self._mapped_params(local, value)):
                self.pf.bindings.append(Binding(local, TYPE_PARAM_USE, value.start_point[0] + 1,
                                                annotation=param, value=PARAM_PART))
        parts, seen, bases = [value], set(), []
        while parts:
            part = parts.pop(0)
            if part.type in ("intersection_type", "parenthesized_type", "union_type"):
                # A & B has the members of both; a value of A | B one of theirs (what TypeScript lets a
                # narrowed value, or a callback written for it, use)
                parts.extend(part.named_children)
            elif part.type == "conditional_type":  # A extends B ? C : D: C, when every branch names C
                branches = self._branches(part)
                if branches is not None and len({self.primary(n) for n in branches}) == 1:
                    parts.append(branches[0])
            elif part.type == "generic_type" and self.text(part.child_by_field_name("name")) in PRIMITIVES:
                continue  # ``Record<string, User>`` in an intersection: not a User (Required<B>, Omit<B, K> ... keep B's members)
            elif part.type in ("generic_type", "type_identifier", "nested_type_identifier"):
                base = self.primary(part)
                if base and base not in seen and not self.is_type_param(local, base):
                    seen.add(base)
                    bases.append((base, part))
        # the project's parts first: ``Omit<Request, 'json'> & TypedBody`` finds ``json`` on TypedBody, never
        # on the runtime's Request the alias left it out of (an external part's members come after)
        for base, part in sorted(bases, key=lambda bp: self.external_name(bp[0])):
            self.add_relation(local, base, "extends", part)

    if TYPE_CHECKING:
        def external_name(self, name: str) -> bool: ...

    def _mapped_params(self, local: int, value: _ts.Node) -> list[str]:
        """The type parameters whose keys a mapped type of alias ``local`` runs over (``{ [K in keyof T]:
        T[K] }``, ``{ [K in keyof (A & B)]: ... }``, also as a part of an intersection: ``Prettify<T> = {...} &
        {}``), in order; ``[]`` when the keys are anything else (``keyof Other``, ``'a' | 'b'``)."""
        parts = value.named_children if value.type == "intersection_type" else [value]
        out: list[str] = []
        for part in parts:
            sig = part.named_children[0] if part.type == "object_type" and part.named_child_count == 1 else None
            clause = sig.named_children[0] if sig is not None and sig.type == "index_signature" \
                and sig.named_child_count else None
            keys = clause.child_by_field_name("type") if clause is not None and clause.type == "mapped_type_clause" else None
            if keys is None or keys.type != "index_type_query" or not keys.named_child_count:
                continue
            of = strip(keys.named_children[0])
            names = of.named_children if of is not None and of.type == "intersection_type" else [of]
            if any(n is None or n.type != "type_identifier" or not self.is_type_param(local, self.text(n)) for n in names):
                return []
            out += [self.text(n) for n in names if n is not None]
        return out

    def _branches(self, node: _ts.Node) -> list[_ts.Node] | None:
        """The types a conditional type's branches give (``never`` aside, nested conditions read
        through), or ``None`` when one of them is no plain named type."""
        out: list[_ts.Node] = []
        for f in ("consequence", "alternative"):
            n = strip(node.child_by_field_name(f))
            if n is None:
                return None
            if n.type == "conditional_type":
                got = self._branches(n)
                if got is None:
                    return None
                out += got
            elif n.type in ("generic_type", "type_identifier", "nested_type_identifier") and self.primary(n):
                out.append(n)
            elif not (n.type == "predefined_type" and self.text(n) == "never"):
                return None
        return out or None
