"""Classes: their bases, their linearised ancestors (MRO), members looked up through them, attribute types.

Each step is memoized per world (see :meth:`lore.index._world.WorldCore._enter` for why a result met
through a cycle is returned but not kept).
"""

from __future__ import annotations

from ..languages import rules_for
from ..parsers.records import INDEX_MEMBER
from ._flow import FLOW_KINDS, union
from ._world import TYPE_KINDS, Value, WorldCore, local_parent

MAX_SUBCLASSES = 64  # subclasses visited for one lookup (template methods, super() from subclass instances)


class HierarchyMixin(WorldCore):
    """Bases, MRO, class members and attribute types of the world's classes."""

    def bases(self, class_id: int, depth: int = 0) -> list[Value]:
        srow = self.syms.get(class_id)
        if srow is None:
            return []
        c = self.ctx(srow.file_id)
        if c is None:
            return []
        local = c.local_of.get(class_id)
        out: list[Value] = []
        for rel in c.pf.relations:
            if rel.source == local and rel.kind in ("extends", "implements", "embeds"):
                # bases are evaluated before the class statement binds its name (``class Foo(Foo)``)
                line = min(rel.line, c.pf.symbols[local].start_line) - 1 if local is not None else rel.line
                got = self.resolve_path(c, local_parent(c, local), rel.target, line, depth + 1)
                if got is not None and got[0] != ("sym", class_id):
                    out.append(got[0])
        return out

    def mro(self, class_id: int, depth: int = 0) -> list[Value]:
        """Linearised ancestors of a class, itself first: Python's C3 linearisation; where C3 has no
        answer (an inconsistent hierarchy, or a base we could not follow), depth-first, left to right,
        deduplicated."""
        if class_id in self._mro:
            return self._mro[class_id]
        frame = self._enter(("mro", class_id))
        if frame is None:
            return [("sym", class_id)]
        try:
            bases = self.bases(class_id, 0)
            chains = []
            for base in bases:
                if base[0] == "sym" and self.syms.get(base[1]) is not None and self.syms[base[1]].kind in TYPE_KINDS:
                    chains.append(list(self.mro(base[1], 0)))  # type: ignore[arg-type]
                else:
                    chains.append([base])
            merged = _c3_merge([list(ch) for ch in chains] + [list(bases)])
            if merged is not None:
                order: list[Value] = [("sym", class_id)] + [v for v in merged if v != ("sym", class_id)]
            else:
                seen: set = {("sym", class_id)}
                order = [("sym", class_id)]
                for chain in chains:
                    for v in chain:
                        if v not in seen:
                            seen.add(v)
                            order.append(v)
        finally:
            keep = self._leave(("mro", class_id), frame)
        if keep:
            self._mro[class_id] = order
        return order

    def class_member(self, class_id: int, name: str, *, skip_self: bool = False, depth: int = 0) -> tuple[Value, str] | None:
        """``name`` looked up on a class through its MRO: a method, a nested class or a typed attribute."""
        key = (class_id, name, skip_self)
        if key in self._class_members:
            return self._class_members[key]
        frame = self._enter(("cm", key))
        if frame is None:
            return None
        try:
            got = self._class_member(class_id, name, skip_self, 0)
        finally:
            keep = self._leave(("cm", key), frame)
        if keep:
            self._class_members[key] = got
        return got

    def _class_member(self, class_id: int, name: str, skip_self: bool, depth: int) -> tuple[Value, str] | None:
        assigned = False  # a repository class of the MRO sets ``self.<name>``, to a value we could not follow
        for i, v in enumerate(self.mro(class_id, depth)):
            if skip_self and i == 0:
                continue
            if v[0] == "sym":
                cid = v[1]
                kids = self.children.get(cid, {}).get(name)
                if kids:
                    rules = self._rules_of(cid)  # type: ignore[arg-type]
                    if len(kids) > 1 and rules.same_name_members_are_alternatives:
                        # Rust: impl From<u8> and impl From<char> for T give T two ``from``; which one a
                        # call picks depends on its argument's type: every one, sharing the confidence
                        u = union(("sym", k) for k in kids)
                        if u is not None:
                            return u, "self_method"
                    # Java: overloads of one name are chosen later, by the call's arguments (member_of_name)
                    kid = kids[-1] if len(kids) == 1 else rules.member_of_name(self, kids)
                    if rules.accessors:  # ``get req(): HonoRequest``: reading the member runs it
                        got = rules.accessor_value(self, kid, depth)
                        if got is not None:
                            return got
                    return self.decorated_value(kid) or (("sym", kid), "self_method")
                if self._rules_of(cid).detached_methods:  # Go, Rust, C++: methods declared in another file
                    got = self._rules_of(cid).detached_member(self, cid, name)
                    if got is not None:
                        return got
                attr = self.attr_type(cid, name, depth + 1)  # type: ignore[arg-type]
                if attr is not None:
                    return attr
                assigned = assigned or name in self._assigned_attrs(cid)  # type: ignore[arg-type]
            elif v[0] in ("ext", "extinst"):  # a member of an external base: its method, or data (extattr)
                if v[1] in MARKER_BASES and not _is_dunder(name):
                    continue  # Protocol, ABC, Generic: they give a class no methods of its own to call
                if assigned:  # ours, not the library's: never an external symbol the import does not prove
                    return None
                known = self._rules_of(class_id).builtin_members.get(v[1])  # type: ignore[call-overload]
                if known is not None and name not in known:
                    return None  # the runtime class has no such member: a name it lacks is not invented there
                return ("extattr", f"{v[1]}.{name}"), "external"
        if self._rules_of(class_id).index_signatures and name != INDEX_MEMBER:
            # no class of the MRO declares ``name``: an index signature (``[key: string]: Route``) types it
            for i, v in enumerate(self.mro(class_id, depth)):
                if v[0] == "sym" and not (skip_self and i == 0):
                    attr = self.attr_type(v[1], INDEX_MEMBER, depth + 1)  # type: ignore[arg-type]
                    if attr is not None:
                        return attr
        if not skip_self and self._rules_of(class_id).follows_values and not _is_dunder(name):
            # a template method (``self.hook()``) that only subclasses define; never a protocol method:
            # ``Base()`` does not run a subclass's ``__init__``
            return self._subclass_member(class_id, name)
        return None

    def _subclass_member(self, class_id: int, name: str) -> tuple[Value, str] | None:
        """``name`` that a class's MRO lacks but its subclasses define (a template method: ``self.hook()``
        in a base, ``hook`` in each subclass): every subclass's own definition, nearest first."""
        found: list[Value] = []
        todo = list(self.subclasses(class_id))
        seen: set[int] = set()
        while todo and len(seen) < MAX_SUBCLASSES:
            sub = todo.pop(0)
            if sub in seen:
                continue
            seen.add(sub)
            kids = self.children.get(sub, {}).get(name)
            if kids:
                found.append(("sym", kids[-1]))
                continue
            attr = self.attr_type(sub, name)
            if attr is not None:
                found.append(attr[0])
                continue
            todo.extend(self.subclasses(sub))
        u = union(found)
        return (u, "self_method") if u is not None else None

    def super_member(self, class_id: int, name: str) -> tuple[Value, str] | None:
        """What ``super().name`` means in a method of ``class_id``: the next definition after ``class_id``
        in the MRO of the instance's class, for the class itself and for each subclass that inherits the
        method (a mixin's ``super().save()`` reaches the other bases of the classes that mix it in).
        Never the method it sits in."""
        key = (class_id, name)
        if key in self._supers:
            return self._supers[key]
        frame = self._enter(("super", key))
        if frame is None:
            return None
        result = None
        try:
            found: list[Value] = []
            own = self.class_member(class_id, name, skip_self=True)
            if own is not None:
                found.append(own[0])
            if self._rules_of(class_id).follows_values:
                todo, seen = list(self.subclasses(class_id)), set[int]()
                while todo and len(seen) < MAX_SUBCLASSES:
                    sub = todo.pop(0)
                    if sub in seen:
                        continue
                    seen.add(sub)
                    todo.extend(self.subclasses(sub))
                    order = self.mro(sub)
                    if ("sym", class_id) not in order:
                        continue
                    for v in order[order.index(("sym", class_id)) + 1:]:
                        if v[0] == "sym":
                            kids = self.children.get(v[1], {}).get(name)  # type: ignore[call-overload]
                            if kids:
                                found.append(("sym", kids[-1]))
                                break
                        elif v[0] in ("ext", "extinst"):
                            found.append(("extattr", f"{v[1]}.{name}"))
                            break
            found = [v for v in found if v[0] != "sym" or self.syms[v[1]].parent_id != class_id]  # type: ignore[index]
            u = union(found)
            result = (u, "self_method") if u is not None else None
        finally:
            keep = self._leave(("super", key), frame)
        if keep:
            self._supers[key] = result
        return result

    def _assigned_attrs(self, class_id: int) -> frozenset[str]:
        """The attribute names a class's methods assign (``self.x = ...``), whether or not the value is known
        (syntax only: memoized per class for the world's life)."""
        got = self._assigned.get(class_id)
        if got is None:
            srow = self.syms[class_id]
            c = self.ctx(srow.file_id)
            local = c.local_of.get(class_id) if c is not None else None
            got = frozenset() if c is None or local is None else frozenset(
                n[5:] for n in c.bindings_of(local) if n.startswith("self."))
            self._assigned[class_id] = got
        return got

    def attr_type(self, class_id: int, name: str, depth: int = 0) -> tuple[Value, str] | None:
        """The type of one attribute of a class (``self.x: T``, ``self.x = T()``, ``self.x = a or b``).

        Memoized per (class, attribute), not per class: ``self.k3 = self.graph()`` reads another
        attribute of the same class, which a whole-class table would meet as a cycle, so its answer
        would depend on which attribute some earlier lookup happened to start from."""
        key = (class_id, name)
        if key in self._attr_types:
            return self._attr_types[key]
        frame = self._enter(("at", key))
        if frame is None:
            return None
        srow = self.syms[class_id]
        c = self.ctx(srow.file_id)
        got: tuple[Value, str] | None = None
        try:
            local = c.local_of.get(class_id) if c is not None else None
            binds = c.bindings_of(local).get("self." + name) if c is not None and local is not None else None
            if binds:
                declared = [b for b in binds if b.annotation and not b.value]
                if declared:  # ``self.x: T``: the declared type
                    last = [b for b in declared if b.line == declared[-1].line]
                elif self._rules_of(class_id).follows_values:
                    last = binds  # every method's ``self.x = ...``: the union of what they assign (as Jedi)
                else:
                    last = [b for b in binds if b.line == binds[-1].line]  # alternatives: ``a or b``
                got = self.bindings_value(c, local, last, 0)  # type: ignore[arg-type]
                if got is not None and got[1] in FLOW_KINDS:  # the value came in from elsewhere
                    got = (got[0], "attribute_flow")
        finally:
            keep = self._leave(("at", key), frame)
        if keep:
            self._attr_types[key] = got
        return got

    def subclasses(self, class_id: int) -> list[int]:
        """The repository classes that name ``class_id`` among their bases (direct subclasses, sorted).

        Built once over every class of the languages that follow values (their bases resolved), for
        ``self.m()`` calls that only subclasses define and for ``super()`` seen from the instances of
        subclasses: only such classes are ever asked (and a refresh of other languages' files keeps it).
        """
        if self._subclasses is None:
            index: dict[int, list[int]] = {}
            self._subclasses = {}  # lookups made while the index is built see no subclasses (reset after)
            for srow in self.of_kinds(frozenset({"class"})):  # in id order
                sid = srow.id
                if srow.file_id is None or not rules_for(self.files[srow.file_id].language).follows_values:
                    continue  # only the subclasses of a class whose language follows values are asked for
                for base in self.bases(sid):
                    if base[0] == "sym" and base[1] != sid:
                        index.setdefault(base[1], []).append(sid)  # type: ignore[arg-type]
            self._subclasses = index
        return self._subclasses.get(class_id, [])


def _c3_merge(seqs: list[list[Value]]) -> list[Value] | None:
    """C3 merge of linearisations (``None`` when no consistent order exists); linear in their total
    length, tails counted rather than searched.

    Examples
    --------
    >>> A, B, C, O = ("sym", 1), ("sym", 2), ("sym", 3), ("sym", 0)
    >>> _c3_merge([[B, A, O], [C, A, O], [B, C]])
    [('sym', 2), ('sym', 3), ('sym', 1), ('sym', 0)]
    """
    seqs = [s for s in seqs if s]
    in_tail: dict[Value, int] = {}
    for s in seqs:
        for v in s[1:]:
            in_tail[v] = in_tail.get(v, 0) + 1
    pos = [0] * len(seqs)
    out: list[Value] = []
    while True:
        head = None
        for i, s in enumerate(seqs):
            if pos[i] < len(s) and not in_tail.get(s[pos[i]], 0):
                head = s[pos[i]]
                break
        if head is None:
            return out if all(pos[i] >= len(s) for i, s in enumerate(seqs)) else None
        out.append(head)
        for i, s in enumerate(seqs):
            if pos[i] < len(s) and s[pos[i]] == head:
                pos[i] += 1
                if pos[i] < len(s):
                    in_tail[s[pos[i]]] -= 1


# external bases that mark a class (a protocol, an abstract base, a generic) without giving it methods:
# a name they lack is looked up in the bases after them (``class G(Mixin, Graph)``, ``Mixin(Protocol)``)
MARKER_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "typing.Generic", "typing_extensions.Generic",
                          "abc.ABC", "builtins.object"})


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")
