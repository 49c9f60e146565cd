"""Names: scopes, imports, module and namespace members, dotted paths.

:meth:`LookupMixin.resolve_path` is the entry of every resolution: ``a.b().c`` as written in one scope
of one file becomes a value and the rule that bound it.
"""

from __future__ import annotations

from collections import defaultdict

from ..languages import ImportBinding
from ..parsers.records import CONTEXT_MARK
from ._flow import union, union_of
from ._keys import ANY_KEY
from ._members import MembersMixin
from ._siblings import before_callback, by_use_line, narrowed_only, reaching, shuts
from ._stars import star_candidates
from ._world import MAX_DEPTH, TYPE_KINDS, FileCtx, Value, _first, split_path

_WHOLE = 1 << 30  # the line of a lookup that reads a scope whole (every binding counts)


class _Marker:
    """A named marker that stays itself through pickling (memos travel to worker processes and Ray actors,
    and a plain ``object()`` would come back as another object that ``is`` tests no longer recognise)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __reduce__(self) -> str:
        return self.name  # pickled as a reference to the module's global of that name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_UNBOUND = _Marker("_UNBOUND")  # no scope of the file binds the name
_NOT_LOOKED = _Marker("_NOT_LOOKED")


class LookupMixin(MembersMixin):
    """Names looked up in scopes, imports, modules and namespaces; dotted paths followed."""

    def module_value(self, name: str) -> Value | None:
        mid = self.modules.get(name)
        if mid is not None:
            return ("sym", mid)
        if name in self.namespaces:
            return ("ns", name)
        return None

    def module_member(self, mod_id: int, name: str, depth: int = 0) -> tuple[Value, str] | None:
        key = (mod_id, name)
        if key in self._members:
            return self._members[key]
        frame = self._enter(("mm", key))
        if frame is None:
            return None
        try:
            result = self._module_member(mod_id, name, 0)
        finally:
            keep = self._leave(("mm", key), frame)
        if keep:
            self._members[key] = result
        return result

    def _module_member(self, mod_id: int, name: str, depth: int) -> tuple[Value, str] | None:
        kids = self.children.get(mod_id, {}).get(name)
        file_id = self.module_file.get(mod_id)
        if kids and not self._skipped_def(file_id, kids[-1]):
            kid = self._merged_function(kids)
            return self.decorated_value(kid) or (("sym", kid), "import")
        if file_id is None and self.syms[mod_id].kind == "namespace":  # its imports and bindings (C++, Rust, TS)
            file_id = self.syms[mod_id].file_id
        c = self.ctx(file_id)
        if c is not None:
            module_local = c.local_of.get(mod_id, 0)
            got = self._lookup_in_scope(c, module_local, name, _WHOLE, depth + 1, module_level_only=True,
                                        with_imports=c.rules.imports_reexported)
            if got is not None:
                return got[0], "import"
        sub = f"{self.syms[mod_id].qualified_name}.{name}"
        v = self.module_value(sub)
        if v is not None:
            return v, "import"
        return None

    def _merged_function(self, kids: list[int]) -> int:
        """Which of a module's definitions of one name an import names: the last, except that a function
        merged with a namespace of its name (TypeScript: ``function drizzle`` and ``namespace drizzle``)
        is the function: calling it runs the function, and its members are the namespace's
        (:meth:`~lore.index._members.MembersMixin.member`)."""
        last = kids[-1]
        if len(kids) > 1 and self.syms[last].kind == "namespace" and self._rules_of(last).values_beside_types:
            funcs = [k for k in kids if self.syms[k].kind == "function"]
            if funcs:
                return funcs[-1]
        return last

    def _skipped_def(self, file_id: int | None, sym_id: int) -> bool:
        """Whether definition ``sym_id`` of a module may not bind its name there: one in a branch a default
        build skips (C), or the fallback of an import (Python); the module's scope table then decides."""
        c = self.ctx(file_id)
        skipped = c.cands.skipped if c is not None else None
        if skipped is None:  # no definition of the file sits in such a branch
            return False
        local = c.local_of.get(sym_id)  # type: ignore[union-attr]
        cond = c.pf.symbols[local].condition if local is not None else ""  # type: ignore[union-attr]
        return bool(cond) and skipped(cond)

    def namespace_member(self, ns_id: int, name: str, depth: int) -> tuple[Value, str] | None:
        """``name`` in another block of the same namespace path (``namespace geo {`` in several files)."""
        if not hasattr(self, "_ns_index"):  # path -> name -> the blocks declaring it (every block: toml11 has 77)
            index: dict[tuple[str, ...], dict[str, list[int]]] = defaultdict(dict)
            for srow in self.of_kinds(frozenset({"namespace"})):
                for kid in self.children.get(srow.id, {}):
                    index[self._ns_path(srow.id)].setdefault(kid, []).append(srow.id)
            self._ns_index = index
        for other in self._ns_index.get(self._ns_path(ns_id), {}).get(name, ()):
            if other != ns_id:
                return ("sym", self.children[other][name][-1]), "import"
        return None

    def _ns_path(self, sid: int) -> tuple[str, ...]:
        names: list[str] = []
        srow = self.syms.get(sid)
        while srow is not None and srow.kind == "namespace":
            names.append(srow.name)
            srow = self.syms.get(srow.parent_id) if srow.parent_id is not None else None
        return tuple(reversed(names))

    def _lookup_in_scope(
        self, c: FileCtx, scope: int, name: str, line: int, depth: int, *, module_level_only: bool = False,
        with_imports: bool = True,
    ) -> tuple[Value, str] | None:
        """``name`` as bound in exactly one scope: definitions, imports, bindings, parameters.

        ``with_imports=False``: what the file's imports bind is left out (seen from another file in a
        language whose imports are private to their file: Java, Go)."""
        sym = c.pf.symbols[scope]
        kind = sym.kind
        if name.endswith("[*]") and c.rules.follows_values:  # any slot of a literal container bound here
            if line < _WHOLE:
                self._by_line = True
            return self._any_slot(c, scope, name[:-3], line, depth)
        candidates = c.cands[scope].get(name)
        if candidates and not with_imports:
            candidates = [cand for cand in candidates if cand[1] != "import"]
        pick = None
        if candidates and not by_use_line(candidates):
            pick = candidates[0]
        elif candidates:
            # ``r = s.send(r.prepare())``: a use reads what the name held before its own line's statement
            # rebinds it; a binding of the same line counts only when there is none before it; a
            # narrowing (``if isinstance(x, A):``) only on the lines of its branch
            if line < _WHOLE:  # which binding counts depends on the line (see resolve_path's memo)
                self._by_line = True
                if any(cand[1] == "bind" and cand[2].shut for cand in candidates):  # type: ignore[attr-defined]
                    candidates = reaching(candidates, line)
            own = c.rules.narrowing_holds_on_its_line  # ``if (e instanceof A) return e.m();``: one line
            pool = ([cand for cand in candidates if (cand[0] < line or own and cand[0] == line and cand[1] == "narrow")
                     and (cand[1] != "narrow" or line <= cand[2].until)]  # type: ignore[union-attr]
                    or [cand for cand in candidates if cand[0] <= line and (cand[1] != "narrow" or line <= cand[2].until)]  # type: ignore[union-attr]
                    or [cand for cand in candidates if cand[1] != "narrow"])
            if pool:
                pick = max(pool, key=_first)
                if pick[1] in ("bind", "narrow"):  # ``x = a or b``, ``isinstance(x, (A, B))``: alternatives of one line
                    alts = [cand[2] for cand in pool if cand[0] == pick[0] and cand[1] == pick[1]]
                    if len(alts) > 1:
                        return self.bindings_value(c, scope, alts, depth + 1)  # type: ignore[arg-type]
                if pick[1] == "bind" and 0 < pick[2].branch_end < line < _WHOLE and len(pool) > 1:  # type: ignore[attr-defined]
                    return self._maybe_made(c, scope, pool, line, depth)
        if pick is None:  # nothing here binds the name (on this line)
            if not with_imports:
                return None
            if kind in ("function", "method"):
                for idx, (pname, ann) in enumerate(sym.params):
                    if pname == name:
                        return self._param_value(c, scope, idx, pname, ann, depth)
            stars = c.stars[scope]
            if not stars:
                return None
            index = star_candidates(self, c, scope) if "." not in name and "[" not in name else None
            for ib in (reversed(stars) if index is None else index.get(name, ())):  # a later ``from x
                got = self._import_value(c, ib, depth + 1, member=name)  # import *`` shadows an earlier one
                if got is not None:
                    return got
            return None
        if pick[1] == "bind":  # the common case, without the call
            return self.binding_value(c, scope, pick[2], depth + 1)  # type: ignore[arg-type]
        return self._candidate_value(c, scope, pick, depth)

    def _candidate_value(self, c: FileCtx, scope: int, cand: tuple[int, str, object],
                         depth: int) -> tuple[Value, str] | None:
        """The value one candidate of a scope's table binds (a definition, an import, a binding, a parameter)."""
        _, what, payload = cand
        if what == "param":  # read before the body rebinds it (see _ScopeTable)
            pname, ann = c.pf.symbols[scope].params[payload]  # type: ignore[index,call-overload]
            return self._param_value(c, scope, payload, pname, ann, depth)  # type: ignore[arg-type]
        if what == "def":
            sid = c.ids[payload]  # type: ignore[index,call-overload]
            if c.pf.symbols[payload].decorators:  # type: ignore[index,call-overload]
                got = self.decorated_value(sid)
                if got is not None:
                    return got
            return ("sym", sid), "module_global" if c.pf.symbols[scope].kind == "module" else "local_scope"
        if what == "import":
            return self._import_value(c, payload, depth + 1)  # type: ignore[arg-type]
        return self.binding_value(c, scope, payload, depth + 1)  # type: ignore[arg-type]

    def _maybe_made(self, c: FileCtx, scope: int, pool: list[tuple[int, str, object]], line: int,
                    depth: int) -> tuple[Value, str] | None:
        """A use after the branch a binding was made in (``x = A()``, then ``if c: x = B()``, then
        ``x.run()``): that binding may not have happened, so the name holds it or what it held before,
        back to the latest binding the use is sure of: the union of their values. When one of them is
        unknown the union would claim more than is known: then the latest binding alone, as before; the
        branches of one ``if`` statement are equally latest (``if a: x = A() elif b: x = x.f()``: A)."""
        found: list[tuple[Value, str]] = []
        for cand in sorted(pool, key=_first, reverse=True):  # latest first (sorted is stable: ties keep order)
            got = self._candidate_value(c, scope, cand, depth)
            if got is None or got[0][0] in ("unknown", "opaque"):
                if not found:
                    found = [v for d in pool if d[1] == "bind" and shuts(d[2].shut, cand[0])  # type: ignore[attr-defined]
                             and (v := self._candidate_value(c, scope, d, depth)) is not None
                             and v[0][0] not in ("unknown", "opaque")]
                    return union_of(found) if found else got
                return found[0]
            found.append(got)
            if not (cand[1] == "bind" and 0 < cand[2].branch_end < line):  # type: ignore[attr-defined]
                break
        return union_of(found)

    def _any_slot(self, c: FileCtx, scope: int, base: str, line: int, depth: int) -> tuple[Value, str] | None:
        """``d[k]`` with a key we cannot read, or a loop over ``d``: every slot ``d`` has in ``scope``."""
        if depth > MAX_DEPTH:
            return None
        prefix = base + "["
        found = []
        for slot, cands in c.cands[scope].items():
            if not (slot.startswith(prefix) and slot.endswith("]") and "[" not in slot[len(prefix):]):
                continue
            if slot.endswith("[*]"):  # d[k] = f with a key we cannot read: every such value
                for _line, what, payload in cands:
                    got = self.binding_value(c, scope, payload, depth + 1) if what == "bind" else None  # type: ignore[arg-type]
                    if got is not None and got[0][0] not in ("unknown", "opaque"):
                        found.append(got[0])
                continue
            got = self._lookup_in_scope(c, scope, slot, line, depth + 1)
            if got is not None and got[0][0] not in ("unknown", "opaque"):
                found.append(got[0])
        u = union(found)
        return (u, "container_flow") if u is not None else None

    def _param_value(self, c: FileCtx, scope: int, idx: int, pname: str, ann: str, depth: int) -> tuple[Value, str] | None:
        sym = c.pf.symbols[scope]
        if idx == 0 and sym.kind == "method" and "staticmethod" not in sym.decorators and c.rules.first_param_is_receiver:
            cls_local = sym.parent
            if cls_local is not None and c.pf.symbols[cls_local].kind in TYPE_KINDS:
                cid = c.ids[cls_local]
                if "classmethod" in sym.decorators or pname == "cls":
                    return ("sym", cid), "self_method"
                return ("inst", cid), "self_method"
        if ann and CONTEXT_MARK in ann:  # const h: Handler = (c) => ...: typed by Handler's call signature
            return self.contextual_value(c, scope, ann, _WHOLE, depth + 1)  # type: ignore[attr-defined]
        if ann:
            got = self.type_value(c, scope, ann, depth + 1)
            if got is not None and got[0] == ("extinst", f"{c.rules.builtin_prefix}.type") and c.rules.follows_values:
                v = union(self.param_values(c.ids[scope], idx))  # ``cls: type`` says only "some class":
                if v is not None:  # which one is what the callers pass
                    return v, "argument_flow"
            return got
        if c.rules.test_fixtures:  # a test's or fixture's parameter: what pytest passes (lore.index._fixtures)
            got = self.fixture_value(c, scope, pname)  # type: ignore[attr-defined]
            if got is not None:
                return got
        if c.rules.follows_values:  # what callers pass into it (lore.index._flow)
            v = union(self.param_values(c.ids[scope], idx))
            if v is not None:
                return v, "argument_flow"
        return ("unknown", pname), "unresolved"

    def _import_value(self, c: FileCtx, ib: ImportBinding, depth: int, member: str | None = None) -> tuple[Value, str] | None:
        """What an import binding (or ``member`` of a star-imported module) refers to."""
        mod = c.rules.module_value(self, c, ib.module)
        want = member if ib.star else ib.member
        if mod is not None and c.rules.whole_module_exports and not ib.star:  # JS: module.exports = X
            got = c.rules.exports_value(self, mod, want, depth + 1)
            if got is not None:
                return got
        if want is None:
            if mod is not None:
                return mod, "import"
            if ib.relative:
                return None
            return ("ext", ib.module), "external"
        if mod is not None and mod[0] == "sym":
            got = self.module_member(mod[1], want, depth + 1)  # type: ignore[arg-type]
            if got is not None:
                return got[0], "import"
            if ib.star:
                return None
            sub = self.module_value(f"{ib.module}.{want}")
            return (sub, "import") if sub is not None else None
        if mod is not None and mod[0] == "ns":
            sub = self.module_value(f"{ib.module}.{want}")
            return (sub, "import") if sub is not None else None
        if mod is not None and mod[0] == "pkg":  # a package of several files (Go, Java, C header + source)
            got = self.member(mod, want, "import", depth + 1)
            return got if got is not None or ib.relative or ib.star else None
        if ib.relative or ib.star:
            return None
        return ("ext", f"{ib.module}.{want}"), "external"

    def lookup_name(self, c: FileCtx, scope: int, name: str, line: int, depth: int) -> tuple[Value, str] | None:
        """``name`` looked up from ``scope`` outwards, then among builtins."""
        syms = c.pf.symbols
        recv = c.rules.implicit_receivers.get(name)
        if recv is not None:  # this / Self: the enclosing class
            cls = c.enclosing_class(scope)
            if cls is not None:
                return ("inst" if recv == "inst" else "sym", c.ids[cls]), "self_method"
        got = self._lookup_in_scope(c, scope, name, line, depth + 1)
        if got is not None:
            return None if got[0][0] == "unknown" else got  # a parameter of unknown type shadows outer names
        if c.rules.inherited_before_outer and syms[scope].kind in ("class", "enum"):
            got = self._inherited(c, scope, name)
            if got is not None:
                return got
        outer = syms[scope].parent
        if outer is None:
            return self._outside(c, scope, name)
        if not self._flow_state or self._active:
            found = self._outward(c, outer, name, depth)
        else:
            # the scopes further out are read whole (no use line): one answer per scope and name in a
            # file, shared by every function of it (``len``, ``models``, an imported name)
            memo = self._top_memo(c)[2]
            key = (outer, name, depth)
            found = memo.get(key, _NOT_LOOKED)
            if found is _NOT_LOOKED:
                found = memo[key] = self._outward(c, outer, name, depth)
        return self._outside(c, scope, name) if found is _UNBOUND else found  # type: ignore[return-value]

    def _outward(self, c: FileCtx, scope: int, name: str, depth: int) -> object:
        """``name`` as the scopes from ``scope`` (an enclosing scope of the use: every binding counts)
        outwards bind it: a value, ``None`` (bound to nothing we know), or ``_UNBOUND`` (no scope binds it)."""
        syms = c.pf.symbols
        visible_classes = c.rules.class_scopes_visible_to_methods
        i: int | None = scope
        inherited = c.rules.inherited_before_outer
        while i is not None:
            if visible_classes or syms[i].kind != "class":
                got = self._lookup_in_scope(c, i, name, _WHOLE, depth + 1)
                if got is not None:
                    return None if got[0][0] == "unknown" else got
                if inherited and syms[i].kind in ("class", "enum"):
                    got = self._inherited(c, i, name)
                    if got is not None:
                        return got
            i = syms[i].parent
        return _UNBOUND

    def _inherited(self, c: FileCtx, cls: int, name: str) -> tuple[Value, str] | None:
        """``name`` as a repository class of the MRO of class ``cls`` (local) other than itself defines it
        (``rules.inherited_before_outer``); a library base's members are not looked at here."""
        got = self.class_member(c.ids[cls], name, skip_self=True)
        if got is None or got[0][0] not in ("sym", "inst"):
            return None
        return got[0], "self_method" if got[1] in ("self_method", "local_scope") else got[1]

    def _outside(self, c: FileCtx, scope: int, name: str) -> tuple[Value, str] | None:
        """``name`` bound in no scope of the file, seen from ``scope``: a member of the package, or a builtin."""
        rules = c.rules
        got = rules.package_member(self, c, scope, name)
        if got is not None:
            return got
        if name in rules.builtin_functions:
            return ("ext", f"{rules.builtin_prefix}.{name}"), "builtin"
        return None

    def _top_memo(self, c: FileCtx) -> tuple[dict, dict, dict]:
        """The memo of top-level lookups in file ``c``: (paths, heads, outer scopes); a new file starts
        a new one."""
        got = self._paths
        if got[0] is not c:
            got = self._paths = (c, {}, {}, {})
        return got[1], got[2], got[3]

    def _head_value(self, c: FileCtx, scope: int, name: str, line: int, depth: int) -> tuple[Value, str] | None:
        """:meth:`lookup_name` for the first name of a path, remembered per scope at the top level when
        one binding or none names it there (``self``, ``models``: most paths of a scope share a few heads)."""
        if not self._flow_state or self._active or "[" in name or by_use_line(c.cands[scope].get(name, ())):
            return self.lookup_name(c, scope, name, line, depth)
        heads = self._top_memo(c)[1]
        key = (scope, name, depth)
        if key in heads:
            return heads[key]
        got = heads[key] = self.lookup_name(c, scope, name, line, depth)
        return got

    def resolve_path(self, c: FileCtx, scope: int, path: str, line: int, depth: int = 0) -> tuple[Value, str] | None:
        """Resolve a dotted path as written in ``scope`` of file ``c`` to a value and the rule used."""
        if depth > MAX_DEPTH or not path:
            return None
        key = None
        if self._flow_state and not self._active:  # a top-level lookup of a flow round or the edge pass
            paths = self._top_memo(c)[0]
            key = (scope, path, depth)
            if key in paths:
                return paths[key]
        outer, self._by_line = self._by_line, False
        strict, self._strict = self._strict, c.rules.follows_values
        opaque, self._opaque_results = self._opaque_results, c.rules.external_results_opaque
        try:
            got = self._resolve_path(c, scope, path, line, depth)
        finally:
            self._strict = strict
            self._opaque_results = opaque
            by_line, self._by_line = self._by_line, outer or self._by_line
        if key is not None and not by_line:  # no lookup chose among bindings by line: every line reads this
            paths[key] = got
        return got

    def _resolve_path(self, c: FileCtx, scope: int, path: str, line: int, depth: int) -> tuple[Value, str] | None:
        if "[*" in path and ANY_KEY.search(path):  # d[*k]: the slot of k's constant, else any slot
            return self.keyed_path(c, scope, path, line, depth)  # type: ignore[attr-defined]
        if path.endswith("]") and "()[" in path:  # ``f()[k]``: element k of the tuple f returns (a, b = f())
            callee, _, k = path.rpartition("()[")
            if k[:-1].isdigit():
                got = self._resolve_path(c, scope, callee, line, depth + 1)
                return self.call_element(got[0], got[1], int(k[:-1]), depth + 1) if got is not None else None  # type: ignore[attr-defined]
        parts = split_path(path)
        head = parts[0]
        if head == "super()":
            cls = c.enclosing_class(scope)
            if cls is None or len(parts) < 2:
                return None
            attr = parts[1].rstrip("()")
            got = c.rules.super_value(self, c.ids[cls], attr)
            if got is None:
                return None
            cur: tuple[Value, str] | None = (got[0], "self_method")
            for _ in range(_calls(parts[1])[1]):
                cur = self.call_result(cur[0], cur[1], depth + 1) if cur is not None else None
            rest = parts[2:]
        elif head == "<str>":
            cur = ("extinst", f"{c.rules.builtin_prefix}.str"), "builtin"
            rest = parts[1:]
        elif head.startswith(("<sym:", "<lambda:")):  # a definition named by the parser (decorated, lambda)
            local = c.local_named(head)
            if local is None:
                return None
            cur = ("sym", c.ids[local]), "local_scope"
            if "@" in head:  # <sym:N@k>: with the k innermost decorators applied (stacked decorators)
                cur = self.decorated_value(c.ids[local], int(head[head.index("@") + 1:-1])) or cur
            rest = parts[1:]
        else:
            name, calls = _calls(head)
            if not name or (name.startswith("<") and not name.startswith("<lit:")):  # <lit:..>: a literal's slots
                return None
            stored = None
            if not calls and len(parts) > 1 and (c.rules.follows_values or c.rules.narrows_paths):
                attr, calls = _calls(parts[1])
                pair = f"{name}.{attr}"  # obj.attr assigned in this scope: what was stored there
                if pair in c.cands[scope] and (c.rules.follows_values or narrowed_only(c.cands[scope][pair])):
                    stored = self._lookup_in_scope(c, scope, pair, line, depth + 1)
                    if stored is not None and (stored[0][0] == "unknown" or stored[0][0] not in ("inst", "any")
                                               and narrowed_only(c.cands[scope][pair])):
                        stored = None  # ``isinstance(self.x, str)``: a class the project lacks tells nothing new
            if stored is not None:
                cur, rest = stored, parts[2:]
            else:
                name, calls = _calls(head)
                at = before_callback(c.cands[scope].get(name), path, line) if c.rules.narrowing_holds_on_its_line else line
                cur, rest = self._head_value(c, scope, name, at, depth + 1), parts[1:]  # type: ignore[arg-type]
                if not calls and rest and c.rules.fields_apart_from_methods and self._is_method(cur):
                    cls = c.enclosing_class(scope)
                    cur = self._field_of(c.ids[cls], name, depth + 1) if cls is not None else None
                if cur is None and name.endswith("]") and "[" in name and c.rules.follows_values:  # xs[0]
                    cur = self._item(self._head_value(c, scope, name[:name.index("[")], line, depth + 1))
                    if cur is None and _any_key(name) and not name.endswith("[*]"):  # xs[0] of xs.append(v)
                        cur = self._head_value(c, scope, name[:name.rindex("[")] + "[*]", line, depth + 1)
            for _ in range(calls):  # a part written as a call stands for what the call returns (f()() twice)
                cur = self.call_result(cur[0], cur[1], depth + 1) if cur is not None else None
        for i, part in enumerate(rest, 1):
            if cur is None:
                return None
            attr, calls = _calls(part)
            nxt = self.member(cur[0], attr, cur[1], depth + 1)
            if (not calls and i < len(rest) and c.rules.fields_apart_from_methods and cur[0][0] == "inst"
                    and self._is_method(nxt)):  # a.b.c(): b is read, not called
                nxt = self._field_of(cur[0][1], attr, depth + 1)  # type: ignore[arg-type]
            if nxt is None and attr.endswith("]") and "[" in attr and c.rules.follows_values:  # self.xs[0]
                nxt = self._item(self.member(cur[0], attr[:attr.index("[")], cur[1], depth + 1))
                if nxt is None and _any_key(attr):  # self.d[k], self.xs[0]: any slot d / xs was given
                    nxt = self.any_slot_member(cur[0], attr[:attr.rindex("[")], cur[1], depth + 1)
            recv, cur = cur, nxt
            for nth in range(calls):
                made = self.call_result(cur[0], cur[1], depth + 1) if cur is not None else None
                if nth == 0 and cur is not None and cur[0][0] == "sym" and (recv[0][0] in ("inst", "gin") or recv[0][0]
                                                                           == "sym" and c.rules.follows_values) \
                        and (kept := c.rules.receiver_value(self, cur[0][1], recv[0])) is not None:  # type: ignore[arg-type]
                    # sub.use() with use() giving its receiver: sub, not an instance of use's class
                    made = kept, made[1] if made is not None else recv[1]
                cur = made
        return cur


def _any_key(part: str) -> bool:
    """Whether a path part reads a container slot that any slot may fill: a key we cannot read
    (``d[*]``) or an index (``xs[0]``: a list filled by ``append`` has no slot of that number)."""
    if not part.endswith("]") or "[" not in part:
        return False
    key = part[part.rindex("[") + 1:-1]
    return key == "*" or key.isdigit()


def _calls(part: str) -> tuple[str, int]:
    """A path part without its call parentheses, and how many calls it makes: ``f()()`` -> ``('f', 2)``."""
    n = 0
    while part.endswith("()"):
        part, n = part[:-2], n + 1
    return part, n

