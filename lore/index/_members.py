"""Members: what ``value.attr`` is for each kind of value (a module's, a class's, an instance's, a typed
container's, an external's), and the fields and items a path reads.

:class:`MembersMixin` is the base of :class:`~lore.index._lookup.LookupMixin`, which follows dotted
paths through it.
"""

from __future__ import annotations

from functools import cache
from typing import cast

from ..languages import LANGUAGES, rules_for
from ..languages.typescript._aliases import PARAM_PART
from ..parsers.records import TYPE_PARAM_USE
from ._containers import member as container_member
from ._containers import plain
from ._flow import over_union, union
from ._world import TYPE_KINDS, Value, WorldCore, weaker


@cache
def _runtime_members() -> dict[str, frozenset[str]]:
    """Every member of the runtime classes each language lists (``js.global.Error``: ``message``, ``stack``
    ...), by qualified name: each language's builtin prefix keeps its classes apart."""
    return {q: ms for lang in LANGUAGES for q, ms in rules_for(lang.name).builtin_members.items()}


class MembersMixin(WorldCore):
    """``value.attr`` for every kind of value; fields and items."""

    def member(self, v: Value, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        tag, payload = v
        if tag == "any":  # a union: the member of each value that has it
            return over_union(v, res, lambda e: self.member(e, attr, res, depth + 1))
        if tag == "gin":  # a generic instance: a member typed by a type parameter is what that stands for
            got = self.generic_member(v, attr, res, depth)  # type: ignore[attr-defined]
            return got if got is not None else self._param_part_member(v, attr, res, depth)
        if tag == "gim":
            return self.member(plain(v), attr, res, depth + 1)
        if tag in ("of", "ofm"):  # a typed container: its members that give elements, else as the plain instance
            elem = container_member(v, attr) if tag == "of" else None
            return (elem, res) if elem is not None else self.member(plain(v), attr, res, depth + 1)
        if tag == "opaque":  # a value of an external type: its members are external too, never guessed
            return ("opaque", f"{payload}.{attr}"), res
        if tag == "sym" and isinstance(payload, int):
            srow = self.syms.get(payload)
            if srow is None:
                return None
            if srow.kind in ("module", "namespace"):
                got = self.module_member(payload, attr, depth + 1)  # type: ignore[arg-type]
                if got is None and srow.kind == "namespace":  # C++ / TS namespaces reopen in other files
                    got = self.namespace_member(payload, attr, depth + 1)  # type: ignore[arg-type]
                return (got[0], weaker(res, "import")) if got is not None else None
            if srow.kind in ("interface", "type_alias"):
                # ``Response.json()`` beside ``type Response = TypedResponse`` and ``const Response =
                # ... as TypedResponseCtor``: a member read on the name is the value's, a type has none
                twin = self._value_twin(payload, depth + 1)  # type: ignore[arg-type]
                got = self.member(twin[0], attr, weaker(res, twin[1]), depth + 1) if twin is not None else None
                if got is not None:
                    return got
            if srow.kind == "function" and srow.parent_id is not None and self._rules_of(payload).values_beside_types:
                # ``drizzle.mock`` with ``namespace drizzle`` beside ``function drizzle``: the namespace's member
                for ns in self.children.get(srow.parent_id, {}).get(srow.name, ()):
                    if self.syms[ns].kind == "namespace":
                        got = self.module_member(ns, attr, depth + 1)  # type: ignore[attr-defined]
                        return (got[0], weaker(res, "import")) if got is not None else None
                return None
            if srow.kind in TYPE_KINDS:
                got = self._by_access(self.class_member(payload, attr, depth=depth + 1), True)  # type: ignore[arg-type]
                if got is None and srow.kind == "class" and not attr.startswith("__"):
                    got = self._metaclass_member(payload, attr, True, depth)  # type: ignore[arg-type]
                return (got[0], weaker(res, got[1] if got[1] != "self_method" else res)) if got else None
            return None
        if tag == "inst" and self.generic_base(payload) is not None:  # type: ignore[attr-defined]
            return self.generic_member(("gin", (payload, ())), attr, res, depth)  # type: ignore[attr-defined]
        if tag == "inst":
            got = self.inst_member(payload, attr, res, depth)  # type: ignore[arg-type]
            return got if got is not None else self._beside_augmentation(payload, attr, res, depth)  # type: ignore[arg-type]
        if tag == "extinst" and self._merged_onto(payload):  # declare module 'fw' { interface App {..} }
            # a project declaration, reached through a package's type: no longer the package's own binding
            got = self._merged_member(payload, attr, "annotated_type" if res in ("external", "builtin") else res, depth)
            if got is not None:
                return got
        if tag == "extinst" and attr not in _runtime_members().get(str(payload), (attr,)):
            # ``err.toResponse()`` with ``err: Error``: the runtime class lacks it, so no member is invented there
            # and no same-name guess elsewhere (opaque: unbound)
            return ("opaque", f"{payload}.{attr}"), res
        if tag in ("ext", "extinst", "extattr") and not self._strict:  # names of externals taken as written
            return ("ext", f"{payload}.{attr}"), weaker(res, "external")
        if tag == "ext" and not _is_class_name(str(payload)):  # a module path: os.path.join
            return ("ext", f"{payload}.{attr}"), weaker(res, "external")
        if tag in ("ext", "extinst"):  # a member of an external class or instance: a method, or opaque data
            return ("extattr", f"{payload}.{attr}"), weaker(res, "external")
        if tag == "extattr":  # a member of a member of an external class: nothing proves it exists
            return ("opaque", f"{payload}.{attr}"), res
        if tag == "ns":
            sub = self.module_value(f"{payload}.{attr}")
            return (sub, res) if sub is not None else None
        if tag == "pkg":  # the files of one package, definitions first: the first that has ``attr``
            for mid in payload:  # type: ignore[attr-defined]
                got = self.module_member(mid, attr, depth + 1)
                if got is not None:
                    return got[0], weaker(res, "import")
        return None

    def inst_member(self, class_id: int, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        """``attr`` of an instance of ``class_id``, as its class declares it (no type arguments)."""
        if attr == "__class__" and self._rules_of(class_id).follows_values:
            return ("sym", class_id), res  # self.__class__(...): another instance of the same class
        got = self._by_access(self.class_member(class_id, attr, depth=depth + 1), False)
        if got is None and self._merged_onto(class_id):  # declare module './local' { interface Ctx {..} }
            return self._merged_member(class_id, attr, res, depth)
        if got is None and not attr.startswith("__"):
            got = self._metaclass_member(class_id, attr, False, depth)
            if got is not None:
                return got[0], weaker(res, got[1])
        if got is None and self._rules_of(class_id).follows_values and not attr.startswith("__"):
            got = self._getattr_value(class_id, res, depth)
            return got
        if got is None:
            return None
        return got[0], weaker(res, got[1]) if got[1] not in ("self_method",) else res

    def _param_part_member(self, v: Value, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        """``attr`` of a generic instance of an alias whose value is its own parameter, alone or intersected
        (TypeScript's ``type Ctx<T> = T & {...}``, marked ``PARAM_PART``): the member of what the argument is."""
        class_id, bound = cast("tuple[int, tuple[tuple[str, Value], ...]]", v[1])
        srow = self.syms.get(class_id)
        c = self.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
        local = c.local_of.get(class_id) if c is not None else None
        uses = c.bindings_of(local).get(TYPE_PARAM_USE, ()) if c is not None and local is not None else ()
        args = dict(bound)
        for b in uses:  # ``Merge<A, B> = { [K in keyof (A & B)]: ... }``: B's members, then A's
            arg = args.get(b.annotation) if b.value == PARAM_PART else None
            got = self.member(arg, attr, res, depth + 1) if arg is not None else None
            if got is not None:
                return got
        return None

    def _merged_onto(self, key: object) -> list[int]:
        """The project's declarations that merge members onto the type ``key`` (a symbol id, or an external's
        name as imports spell it: ``fw.App``), from every language present whose rules have ``merged_onto``
        (TypeScript's ``declare module 'fw' { interface App {...} }``); once per key."""
        memo = self.__dict__.setdefault("_merged", {})
        got = memo.get(key)
        if got is None:
            merging = memo.get(None)
            if merging is None:  # the languages that merge, once per world
                merging = memo[None] = [r for r in (rules_for(lang) for lang in sorted({f.language for f in
                                                                                      self.files.values()}))
                                        if hasattr(r, "merged_onto")]
            if not merging:
                return []
            got = memo[key] = [sid for r in merging for sid in r.merged_onto(self, key)]
        return got  # type: ignore[no-any-return]

    def _merged_member(self, key: object, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        """``attr`` as a declaration merged onto ``key`` declares it (the first that does)."""
        for sid in self._merged_onto(key):
            got = self._by_access(self.class_member(sid, attr, depth=depth + 1), False)
            if got is not None:
                return got[0], weaker(res, got[1]) if got[1] != "self_method" else res
        return None

    def _beside_augmentation(self, sid: int, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        """``attr`` of a ``declare module 'fw' { interface App {...} }`` that a file's own name ``App`` reaches
        (the file declares a block of its own): what the other blocks merged onto ``fw.App`` declare, or
        the project's ``App`` it augments."""
        srow = self.syms.get(sid)
        find = getattr(self._rules_of(sid), "augmented_target", None) if srow and srow.kind == "interface" else None
        target = find(self, sid) if find is not None else None
        if target is None:
            return None
        got = self._merged_member(target, attr, res, depth)
        if got is None and isinstance(target, int):
            got = self.inst_member(target, attr, res, depth + 1)  # type: ignore[attr-defined]
        return got

    def _by_access(self, got: tuple[Value, str] | None, on_class: bool) -> tuple[Value, str] | None:
        """A member of one name a class declares twice, ``static create()`` beside ``create()``
        (TypeScript): the one a read through the class (``on_class``) or through an instance reaches
        (``rules.member_by_access``, where a language has it); ``got`` as it is otherwise."""
        if got is None or got[0][0] != "sym":
            return got
        # whether a member shares its name with another of its class: once per member (143k asks on Django,
        # nearly all of one Python method or attribute that has no twin)
        twins = self.__dict__.setdefault("_name_twins", {})
        sid = got[0][1]
        twin = twins.get(sid)
        if twin is None:
            row = self.syms.get(sid)  # type: ignore[call-overload]
            twin = twins[sid] = row is not None and len(self.children.get(row.parent_id, {}).get(row.name, ())) >= 2
        if not twin:
            return got
        srow = self.syms.get(got[0][1])  # type: ignore[call-overload]
        kids = self.children.get(srow.parent_id, {}).get(srow.name, ()) if srow is not None else ()
        rules = self._rules_of(srow.parent_id)  # type: ignore[union-attr]
        pick = getattr(rules, "member_by_access", None)
        ids = pick(self, list(kids), on_class) if pick is not None else kids
        return got if got[0][1] in ids else (("sym", rules.member_of_name(self, ids)), got[1])  # type: ignore[arg-type]

    def _value_twin(self, sym_id: int, depth: int) -> tuple[Value, str] | None:
        """The value bound under the name of the interface or type alias ``sym_id`` in its scope, in a
        language where one name is both (TypeScript: ``interface $ZodCheck`` and ``const $ZodCheck:
        $constructor<$ZodCheck>``): an interface has no members at run time, so ``$ZodCheck.init()`` is
        the value's."""
        srow = self.syms[sym_id]
        if srow.parent_id is None or not self._rules_of(sym_id).values_beside_types:
            return None
        c = self.ctx(srow.file_id)
        if c is None or srow.parent_id not in c.local_of:
            return None
        scope = c.local_of[srow.parent_id]
        binds = [cand[2] for cand in c.cands[scope].get(srow.name, ()) if cand[1] == "bind"]
        if not binds:
            return None
        got = self.binding_value(c, scope, binds[-1], depth + 1)  # type: ignore[attr-defined, arg-type]
        return got if got is not None and got[0][0] != "unknown" else None

    def _metaclass_member(self, class_id: int, attr: str, on_class: bool, depth: int) -> tuple[Value, str] | None:
        """``attr`` that a class's MRO lacks, from the metaclass that built it (its ``__metaclass__``
        attribute, which a language's extractor binds: Python's ``metaclass=M``): an attribute the metaclass
        sets on the classes it builds; read on the class itself, also the metaclass's methods and
        properties. Only repository members: the metaclass's base ``type`` proves nothing."""
        mc = self.class_member(class_id, "__metaclass__", depth=depth + 1)  # type: ignore[attr-defined]
        if mc is None or mc[0][0] != "sym" or mc[0][1] == class_id:
            return None
        mrow = self.syms.get(mc[0][1])  # type: ignore[arg-type,call-overload]
        if mrow is None or mrow.kind != "class" or mrow.file_id is None:
            return None
        if on_class:
            got = self.class_member(mc[0][1], attr, depth=depth + 1)  # type: ignore[arg-type,attr-defined]
        else:
            got = self._field_of(mc[0][1], attr, depth + 1)  # type: ignore[arg-type]
        if got is None or got[0][0] in ("ext", "extinst", "extattr", "opaque"):
            return None
        return got[0], weaker(mc[1], got[1] if got[1] != "self_method" else mc[1])

    def _getattr_value(self, class_id: int, res: str, depth: int) -> tuple[Value, str] | None:
        """An attribute a class lacks, read from its instance: what the class's ``__getattr__`` returns,
        when that is known (``def __getattr__(self, name) -> HookCaller``); else ``None``."""
        ga = self.class_member(class_id, "__getattr__", depth=depth + 1)  # type: ignore[attr-defined]
        if ga is None or ga[0][0] != "sym":
            return None
        srow = self.syms.get(ga[0][1])  # type: ignore[arg-type,call-overload]
        if srow is None or srow.file_id is None or srow.kind not in ("function", "method"):
            return None
        got = self.call_result(ga[0], res, depth + 1)  # type: ignore[attr-defined]
        if got is None or got[0][0] not in ("inst", "of", "any"):
            return None
        return got[0], weaker(res, got[1])

    def _is_method(self, got: tuple[Value, str] | None) -> bool:
        if got is None or got[0][0] != "sym":
            return False
        srow = self.syms.get(got[0][1])  # type: ignore[call-overload]
        return srow is not None and srow.kind == "method"

    def _field_of(self, class_id: int, name: str, depth: int) -> tuple[Value, str] | None:
        """Field ``name`` of a class or the classes it derives from (``fields_apart_from_methods``): its
        declared type, else nothing (a name that is not called never means the method of that name)."""
        for v in self.mro(class_id, depth):
            if v[0] == "sym":
                got = self.attr_type(v[1], name, depth + 1)  # type: ignore[arg-type]
                if got is not None:
                    return got
        return None

    def any_slot_member(self, v: Value, base: str, res: str, depth: int) -> tuple[Value, str] | None:
        """``obj.d[k]`` with a key we cannot read, ``obj`` an instance or a class: every slot of ``d`` that its
        class or a base fills (``self.d = {"a": A(), "b": B()}``), as ``d[k]`` of a local literal is."""
        tag, payload = v
        if tag not in ("inst", "sym") or not isinstance(payload, int) or depth > 8:
            return None
        srow = self.syms.get(payload)
        if srow is None or srow.kind not in TYPE_KINDS:
            return None
        prefix, found = base + "[", []
        for m in self.mro(payload, depth):
            c = self.ctx(self.syms[m[1]].file_id) if m[0] == "sym" else None  # type: ignore[index]
            local = c.local_of.get(m[1]) if c is not None else None  # type: ignore[call-overload]
            if local is None:
                continue
            slots = {k.removeprefix("self.") for k in c.bindings_of(local)}  # type: ignore[union-attr]
            for slot in sorted(k for k in slots if k.startswith(prefix) and k.endswith("]")
                               and "[" not in k[len(prefix):]):
                got = self.class_member(payload, slot, depth=depth + 1)  # type: ignore[attr-defined]
                if got is not None and got[0][0] not in ("unknown", "opaque"):
                    found.append(got[0])
        u = union(found)
        return (u, weaker(res, "container_flow")) if u is not None else None

    def _item(self, got: tuple[Value, str] | None) -> tuple[Value, str] | None:
        """``xs[k]`` of a typed container ``xs`` (an element, a mapping's value); ``Box[str]`` of a repository
        class: the class itself (a generic alias, called as the class is); nothing for other values."""
        if got is not None and got[0][0] == "sym":
            srow = self.syms.get(got[0][1])  # type: ignore[arg-type,call-overload]
            return got if srow is not None and srow.kind in TYPE_KINDS and srow.file_id is not None else None
        if got is None or got[0][0] != "of":
            return None
        m = container_member(got[0], "__getitem__")
        return self.call_result(m, got[1], 0) if m is not None else None  # type: ignore[attr-defined]


def _is_class_name(path: str) -> bool:
    """Whether an external dotted path names a class by convention (its last part is capitalized)."""
    return path.rsplit(".", 1)[-1][:1].isupper()
