"""Edges: every raw record of a file (imports, relationships, calls, type mentions) resolved into store rows.

The lookups come from the world (:class:`lore.index.resolve.World`); what a lookup cannot bind falls to
the name heuristics here (``same_file_name``, ``unique_name``, ``ambiguous_name``), never silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.schema import CONFIDENCE, NAME_GUESSES
from ._containers import TAGS as CONTAINER_TAGS
from ._containers import plain
from ._flow import elements, split_arg
from ._hierarchy import MARKER_BASES
from ._world import MAX_AMBIGUOUS, TYPE_KINDS, FileCtx, Value, WorldCore, local_parent, split_path


@dataclass
class Edges:
    """Rows produced for one batch of resolved files (tuples in store column order)."""

    refs: list[tuple] = field(default_factory=list)  # caller, callee_id, callee_name, line, col, kind, res, conf
    types: list[tuple] = field(default_factory=list)  # symbol, type_id, type_name, kind, context, line, res, conf
    imports: list[tuple] = field(default_factory=list)  # file, symbol, module, name, alias, level, line, tfile, tid, res, conf
    rels: list[tuple] = field(default_factory=list)  # source, target_id, target_name, kind, line, res, conf


class FileResolver:
    """Resolves every raw record of one file into edge rows."""

    def __init__(self, world: WorldCore, c: FileCtx, out: Edges) -> None:
        self.w, self.c, self.out = world, c, out
        self.rules = c.rules

    def run(self) -> None:
        # every lookup of the file in its language's mode (resolve_path sets it per path; imports and
        # overrides look up directly): a memoized step then finds the same whichever lookup ran it first
        w = self.w
        strict, w._strict = w._strict, self.rules.follows_values
        opaque, w._opaque_results = w._opaque_results, self.rules.external_results_opaque
        try:
            self._imports()
            self._relationships()
            self._calls()
            self._types()
            self._bindings_fields()
        finally:
            w._strict = strict
            w._opaque_results = opaque

    # -- imports ----------------------------------------------------------------------------------
    def _imports(self) -> None:
        c, w = self.c, self.w
        fid = c.frow.id
        for imp, ib in zip(c.pf.imports, c.import_bindings, strict=True):
            tfile = tid = None
            res = "unresolved"
            if ib is not None:
                got = w._import_value(c, ib, 1) if not ib.star else (c.rules.module_value(w, c, ib.module), "import")
                if got is not None and got[0] is not None:
                    v, res = got
                    if v[0] == "pkg":  # a package of several files: its first file stands for it
                        v = ("sym", v[1][0])  # type: ignore[index]
                    tid = self._value_id(v)
                    if v[0] == "sym":
                        srow = w.syms.get(v[1])  # type: ignore[arg-type]
                        tfile = srow.file_id if srow else None
                    elif v[0] == "ns":
                        res, tid = "import", None
                elif not ib.relative and ib.star:
                    tid, res = w.external(ib.module), "external"
            conf = CONFIDENCE[res]
            self.out.imports.append(
                (fid, c.ids[imp.owner], imp.module, imp.name, imp.alias, imp.level, imp.line, tfile, tid, res, conf)
            )

    def _value_id(self, v: Value) -> int | None:
        tag, payload = plain(v) if v[0] in CONTAINER_TAGS else v
        if tag in ("sym", "inst"):
            return payload  # type: ignore[return-value]
        if tag in ("ext", "extinst", "extattr"):
            return self.w.external(str(payload))
        return None

    # -- relationships ----------------------------------------------------------------------------
    def _relationships(self) -> None:
        c, w = self.c, self.w
        syms = c.pf.symbols
        for i, s in enumerate(syms):
            if s.parent is not None:
                self.out.rels.append((c.ids[s.parent], c.ids[i], s.qualified_name, "contains", s.start_line, "local_scope", 1.0))
        for rel in c.pf.relations:
            got = w.resolve_path(c, local_parent(c, rel.source), rel.target, rel.line, 1)
            tid, res = self._target(got)
            self.out.rels.append((c.ids[rel.source], tid, rel.target, rel.kind, rel.line, res, CONFIDENCE[res]))
        # overrides: a method that redefines a name found further up its class's MRO
        for i, s in enumerate(syms):
            if s.kind != "method" or s.parent is None or syms[s.parent].kind not in TYPE_KINDS:
                continue
            if s.name in ("__init__",) and False:
                continue
            got = w.class_member(c.ids[s.parent], s.name, skip_self=True)
            if got is not None and got[0][0] == "sym":
                tid = got[0][1]
                self.out.rels.append((c.ids[i], tid, w.syms[tid].qualified_name, "overrides", s.start_line, "self_method", CONFIDENCE["self_method"]))  # type: ignore[index]

    def _target(self, got: tuple[Value, str] | None) -> tuple[int | None, str]:
        if got is None:
            return None, "unresolved"
        v, res = got
        if v[0] == "unknown":
            return None, "unresolved"
        tid = self._value_id(v)
        if tid is None:
            return None, "unresolved"
        if v[0] in CONTAINER_TAGS:
            v = plain(v)
        if v[0] in ("ext", "extinst", "extattr"):
            res = "builtin" if str(v[1]).startswith(self.rules.builtin_prefix + ".") else "external"
        return tid, res

    # -- calls --------------------------------------------------------------------------------------
    def _calls(self) -> None:
        c, w = self.c, self.w
        callbacks = c.rules.callback_args
        for call in c.pf.calls:
            if call.kind == "default":  # a default value: what it passes is followed by lore.index._flow
                continue
            caller = c.ids[call.caller]
            got = w.site_callee(c, call)
            if call.kind in ("implicit", "raise"):
                targets = self._protocol_targets(got, call.callee, call.caller, call.line, call.kind)
            elif call.kind == "decorator" and call.callee.endswith("()"):
                # ``@factory(...)``: the decorator that factory returns, applied to the function; kept
                # only when it binds to repository code (an external decorator adds nothing)
                targets = [t for t in self._call_targets(got, call.callee, call.caller, call.line, call.kind)
                           if t[0] is not None and t[1] not in ("external", "builtin", "unresolved")
                           and t[1] not in _HEURISTIC]
            else:
                targets = self._call_targets(got, call.callee, call.caller, call.line, call.kind)
                if c.rules.overloads:  # Java, C++: which functions of the name the call's arguments choose
                    targets = c.rules.choose_overload(w, c, call, targets)
            for tid, res, conf in targets:
                self.out.refs.append((caller, tid, call.callee, call.line, call.col, call.kind, res, conf))
            if callbacks and call.args and got is not None:
                self._callbacks(call, got[0], callbacks)

    def _callbacks(self, call, v: Value, callbacks: dict[str, tuple[int | str, ...]]) -> None:
        """``map(f, xs)``, ``sorted(xs, key=f)``: a library function that calls what it is given calls it
        on behalf of the caller (``argument_flow``)."""
        if v[0] in CONTAINER_TAGS:
            v = plain(v)
        if v[0] not in ("ext", "extattr"):
            return
        slots = callbacks.get(str(v[1]))
        if not slots:
            return
        c, w = self.c, self.w
        caller = c.ids[call.caller]
        pos = 0
        for a in call.args:
            kw, stars, path = split_arg(a)
            if stars:
                break
            slot: int | str = kw if kw else pos
            if not kw:
                pos += 1
            if (slot not in slots and not (isinstance(slot, int) and "*" in slots)) or not path:
                continue
            got = w.resolve_path(c, call.caller, path, call.line, 0)
            if got is None or plain(got[0])[0] in ("ext", "extinst", "extattr", "opaque", "unknown"):
                continue
            for tid, _res, conf in self._bind(got[0], "argument_flow", path, call.caller, call.line, "call") or []:
                if tid is not None:
                    self.out.refs.append((caller, tid, path, call.line, call.col, "call", "argument_flow", conf))

    def _protocol_targets(self, got: tuple[Value, str] | None, callee: str, caller_local: int, line: int,
                          kind: str) -> list[tuple[int | None, str, float]]:
        """Calls the language makes implicitly: kept only when they bind for certain, never guessed.

        ``implicit`` (``__iter__`` / ``__next__`` of a for loop, ``__enter__`` / ``__exit__`` of a with
        statement): only a method of repository code (the protocol methods of builtins and libraries
        are noise). ``raise E``: an instantiation when ``E`` resolves to a class of the repository
        (``raise ValueError`` adds nothing a reader needs; raising an exception object calls nothing).
        """
        if got is None or got[0][0] != "sym":
            return []
        srow = self.w.syms.get(got[0][1])  # type: ignore[arg-type]
        if srow is None or srow.file_id is None:
            return []
        if kind == "implicit":
            return [(srow.id, got[1], CONFIDENCE[got[1]])] if srow.kind in ("function", "method") else []
        return self._call_targets(got, callee, caller_local, line, "new") if srow.kind in TYPE_KINDS else []

    def _declared(self, tid: int, res: str) -> list[tuple[int | None, str, float]]:
        """A call bound to ``tid``; a declaration (C/C++ prototype) stands for its k definitions, 1/k each."""
        rules = self.w._rules_of(tid)
        defs = rules.definitions(self.w, tid) if rules.separate_declarations else None
        if defs:
            return [(d, res, CONFIDENCE[res] / len(defs)) for d in defs]
        return [(tid, res, CONFIDENCE[res])]

    def _call_targets(self, got: tuple[Value, str] | None, callee: str, caller_local: int, line: int,
                      kind: str = "call") -> list[tuple[int | None, str, float]]:
        if got is not None and got[0][0] != "unknown":
            if got[0][0] == "opaque":  # a value of an external type: its methods are not ours, never guessed
                return [(None, "unresolved", 0.0)]
            bound = self._bind(got[0], got[1], callee, caller_local, line, kind)
            if bound:
                return bound
        if split_path(callee)[0] == "super()":  # super() that found nothing: never a guess by name
            return [(None, "unresolved", 0.0)]
        if got is None and self.rules.follows_values and self._closed_receiver(callee, caller_local, line):
            return [(None, "unresolved", 0.0)]
        return self._heuristic(callee, caller_local)

    def _closed_receiver(self, callee: str, caller_local: int, line: int) -> bool:
        """``x.m()`` where ``x`` is a repository class or its instance whose every ancestor is known and
        none defines ``m``: the class says what ``x`` has, so a method elsewhere named ``m`` is no guess
        (``self.__eq__`` is not another class's ``__eq__``). A base we could not follow, an attribute
        the class assigns, ``__getattr__``: the class is open, and the guess stays."""
        w = self.w
        parts = split_path(callee)
        if len(parts) < 2 or parts[0] == "super()":
            return False
        # the longest prefix that resolves: the member after it is what nothing defines (``p.a.m()``
        # with ``p`` of a closed class that lacks ``a``: nothing to guess either)
        recv, k = None, len(parts) - 1
        while k >= 1 and recv is None:
            recv = w.resolve_path(self.c, caller_local, ".".join(parts[:k]), line, 0)
            k -= 1
        if recv is None:
            return False
        name = parts[k + 1]
        if name.endswith(")"):
            return False
        vals = elements(recv[0])
        if not vals:
            return False
        for v in vals:
            if v[0] not in ("inst", "sym"):
                return False
            srow = w.syms.get(v[1])  # type: ignore[arg-type,call-overload]
            if srow is None or srow.kind not in TYPE_KINDS or srow.file_id is None:
                return False
            for a in w.mro(v[1]):  # type: ignore[arg-type]
                if a[0] == "sym":
                    kids = w.children.get(a[1], {})  # type: ignore[call-overload]
                    if "__getattr__" in kids or "__getattribute__" in kids or name in w._assigned_attrs(a[1]):  # type: ignore[attr-defined]
                        return False
                elif a[0] != "ext" or (a[1] not in MARKER_BASES and a[1] != "builtins.object"):
                    return False
        return True

    def _bind(self, v: Value, res: str, callee: str, caller_local: int, line: int,
              kind: str) -> list[tuple[int | None, str, float]] | None:
        """The call edges of calling value ``v`` (``None`` when it is nothing callable we know)."""
        w, c = self.w, self.c
        if v[0] == "any":  # every value that may arrive here, the confidence shared among them
            out: list[tuple[int | None, str, float]] = []
            for e in elements(v):
                for t in self._bind(e, res, callee, caller_local, line, kind) or []:
                    if t[0] is not None and t not in out:
                        out.append(t)
            k = len(out)
            return [(tid, r, conf / k) for tid, r, conf in out] if out else None
        if True:
            tag, payload = plain(v) if v[0] in CONTAINER_TAGS else v
            if tag == "sym":
                srow = w.syms.get(payload)  # type: ignore[arg-type]
                if srow is not None and srow.kind in TYPE_KINDS:
                    # constructor: the type reference, and the call edge to __init__ (or the class itself);
                    # ``super(...)`` (JS: a base without a constructor of its own) makes no instance
                    if not callee.startswith("super()"):
                        self.out.types.append((c.ids[caller_local], payload, callee, "instantiation", "", line, res, CONFIDENCE[res]))  # noqa: E501
                    for ctor in c.rules.constructor_names:
                        m = w._rules_of(payload).constructor(w, payload, ctor)  # type: ignore[arg-type]
                        if m is not None and m[0][0] == "sym":
                            return self._declared(m[0][1], res)  # type: ignore[arg-type]
                    return [(payload, res, CONFIDENCE[res])]  # type: ignore[list-item]
                if srow is not None and srow.kind in ("function", "method"):
                    return self._declared(payload, res)  # type: ignore[arg-type]
                if srow is not None and srow.kind == "external":
                    return [(payload, "external", 1.0)]  # type: ignore[list-item]
            elif tag == "inst" and (c.rules.callable_instances or "." not in callee):
                m = w.class_member(payload, "__call__")  # type: ignore[arg-type]
                if m is not None and m[0][0] == "sym":
                    return [(m[0][1], res, CONFIDENCE[res])]  # type: ignore[list-item]
            elif tag in ("ext", "extinst", "extattr"):
                name = str(payload)
                r = "builtin" if name.startswith(c.rules.builtin_prefix + ".") else "external"
                if r == "external" and tag != "extattr" and (
                        kind == "new" or (c.rules.uppercase_calls_construct and name.rsplit(".", 1)[-1][:1].isupper())):
                    self.out.types.append((c.ids[caller_local], w.external(name), callee, "instantiation", "", line, r, 1.0))
                return [(w.external(name), r, 1.0)]
        return None

    def _heuristic(self, callee: str, caller_local: int) -> list[tuple[int | None, str, float]]:
        w, c = self.w, self.c
        parts = split_path(callee)
        if parts and parts[-1].endswith("()"):
            return [(None, "unresolved", 0.0)]  # f()(): what f returns is unknown; its name says nothing
        name = parts[-1] if parts else ""
        dotted_call = len(parts) > 1
        members_only = not self.rules.guesses_by_name
        if members_only and not (dotted_call and self.rules.guesses_members):
            return [(None, "unresolved", 0.0)]
        if not name or (dotted_call and name in c.rules.builtin_method_names):
            return [(None, "unresolved", 0.0)]
        cands = self._same_family(w.by_name.get(name, []))  # never a name of another language
        if self.rules.separate_declarations:  # a C/C++ declaration and its definition are one candidate
            cands = list(dict.fromkeys(d for s in cands for d in (self.rules.definitions(w, s) or (s,))))
        if dotted_call and self.rules.follows_values:
            # ``x.m()`` with ``x`` of unknown type: a method, never a module-level function of that name
            cands = [s for s in cands if w.syms[s].kind == "method"]
        elif dotted_call:
            cands = [s for s in cands if w.syms[s].kind in ("method", "function")]
        else:
            cands = [s for s in cands if w.syms[s].kind != "method"]
        me = c.ids[caller_local]
        cands = [s for s in cands if s != me]  # a name heuristic never makes a self-loop
        if cands and not w.is_test_file(c.frow.id):  # code outside the tests never calls into them
            cands = [s for s in cands if not w.is_test_file(w.syms[s].file_id)]
        if cands:  # what the language lets a guess reach (JS/TS: modules the file imports; Rust: privacy)
            cands = self.rules.guess_candidates(w, c, cands, parts)
        if members_only:  # only x.m() on a receiver of unknown type, and only the one method of that name
            cands = [s for s in cands if w.syms[s].kind == "method"]
            cands = self._overridden(cands) if len(cands) > 1 else cands
            return [(cands[0], "unique_name", CONFIDENCE["unique_name"])] if len(cands) == 1 else [(None, "unresolved", 0.0)]
        if not cands:
            return [(None, "unresolved", 0.0)]
        same = [s for s in cands if w.syms[s].file_id == c.frow.id]
        if len(same) == 1 and (not dotted_call or self.rules.same_file_guess_for_members):
            return [(same[0], "same_file_name", CONFIDENCE["same_file_name"])]
        if len(cands) > 1 and dotted_call:
            cands = self._overridden(cands)
        if len(cands) == 1:
            return [(cands[0], "unique_name", CONFIDENCE["unique_name"])]
        if len(cands) <= MAX_AMBIGUOUS and self.rules.ambiguous_guesses:
            k = len(cands)
            return [(s, "ambiguous_name", CONFIDENCE["ambiguous_name"] / k) for s in sorted(cands)]
        return [(None, "unresolved", 0.0)]

    def _overridden(self, cands: list[int]) -> list[int]:
        """Methods of one name where one is defined in a class every other candidate's class derives
        from: ``x.m()`` on a value of unknown type calls the method they all override, as a reader
        of the base class's interface would say (the overrides are what it may dispatch to)."""
        w = self.w
        classes = [w.syms[s].parent_id for s in cands]
        if any(k is None or w.syms[k].kind not in TYPE_KINDS for k in classes):
            return cands
        # the overridden method's class is in every candidate's MRO, the first's too: only those few
        # are tried against all the others (common names have hundreds of candidates; this is per call)
        first = w.mro(classes[0])  # type: ignore[arg-type]
        for s, k in zip(cands, classes, strict=True):
            if (k == classes[0] or ("sym", k) in first) and all(o == k or ("sym", k) in w.mro(o) for o in classes):  # type: ignore[arg-type]
                return [s]
        return cands

    # -- type references ----------------------------------------------------------------------------
    def _types(self) -> None:
        c, w = self.c, self.w
        for tr in c.pf.type_refs:
            scope = tr.owner if c.pf.symbols[tr.owner].kind not in TYPE_KINDS or tr.kind != "field" else tr.owner
            got = w.resolve_path(c, scope if tr.kind not in ("param", "return") else local_parent(c, tr.owner), tr.type_name, tr.line, 1)
            tid, res = self._target(got)
            if tid is None:
                tid, res = self._type_heuristic(tr.type_name)
            conf = CONFIDENCE[res]
            self.out.types.append((c.ids[tr.owner], tid, tr.type_name, tr.kind, "", tr.line, res, conf))

    def _same_family(self, ids: list[int]) -> list[int]:
        """The symbols of ``ids`` defined in a language this file can call (in a polyglot repository)."""
        w = self.w
        langs = self.rules.family or (self.c.frow.language,)
        out = []
        for s in ids:
            f = w.files.get(w.syms[s].file_id)  # type: ignore[arg-type]
            if f is not None and f.language in langs:
                out.append(s)
        return out

    def _type_heuristic(self, type_name: str) -> tuple[int | None, str]:
        w = self.w
        name = type_name.rsplit(".", 1)[-1]
        cands = [s for s in self._same_family(w.by_name.get(name, [])) if w.syms[s].kind in TYPE_KINDS]
        same = [s for s in cands if w.syms[s].file_id == self.c.frow.id]
        if len(same) == 1:
            return same[0], "same_file_name"
        if len(cands) == 1:
            return cands[0], "unique_name"
        return None, "unresolved"

    def _bindings_fields(self) -> None:
        """``self.x = Foo()`` in a method types the attribute ``x`` of the class: a ``field`` reference."""
        c, w = self.c, self.w
        for b in c.pf.bindings:
            if not b.name.startswith("self.") or not b.value:
                continue
            if c.pf.symbols[b.owner].kind not in TYPE_KINDS:
                continue
            got = w.attr_type(c.ids[b.owner], b.name[5:])
            if got is None:
                continue
            v, res = plain(got[0]), got[1]
            if v[0] not in ("inst", "extinst"):
                continue
            tid = self._value_id(v)
            self.out.types.append((c.ids[b.owner], tid, b.value, "field", b.name[5:], b.line, res, CONFIDENCE[res]))


_HEURISTIC = NAME_GUESSES


def resolve_files(world: WorldCore, file_ids: list[int]) -> Edges:
    """Resolve every record of ``file_ids`` (their contexts must be loadable) into edge rows."""
    out = Edges()
    world.solve_flow()  # values that travel: solved once per world, before any edge (idempotent)
    for fid in file_ids:
        c = world.ctx(fid)
        if c is None:
            continue
        FileResolver(world, c, out).run()
    return out
