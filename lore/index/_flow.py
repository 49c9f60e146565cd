"""Values that travel: what flows into each parameter, found by a flow-insensitive fixpoint.

PyCG and Jarvis build an assignment graph over the whole program and propagate sets of functions
and classes along it. lore's resolver already follows values within a scope on demand (assignments,
literal container slots, returns, attributes, imports); what it cannot see on demand is the other
direction: which values *callers* pass into a parameter. This module computes exactly that, once,
over every file of a language whose rules say ``follows_values``:

* nodes are parameters ``(function id, position)``; a call site with arguments adds the values of
  its arguments (functions, methods, classes, lambdas, instances) to the parameters of every
  function its callee resolves to (bound methods and constructors skip ``self``; keywords match by
  name; defaults are arguments given by the definition itself, in the enclosing scope; a decorator
  is a call with the decorated function as its argument);
* an argument that is itself a parameter (``def outer(f): inner(f)``) is resolved through the
  current solution, so values travel along chains of calls; rounds repeat only the call sites of
  functions whose parameters grew, until nothing changes (at most :data:`MAX_ROUNDS`);
* a parameter that receives more than :data:`FLOW_CAP` distinct values says too little: it becomes
  unknown (order-independent, so a refresh and a full build agree).

The resolver reads the solution when it meets a parameter without an annotation
(:meth:`FlowMixin.param_values`); edges bound that way say ``argument_flow``. Everything else
(returns, containers, attributes, decorators) is followed on demand by the resolver on top of it.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from ..parsers.records import Call
from ._containers import plain
from ._world import TYPE_KINDS, FileCtx, Value, WorldCore, local_parent, split_path, weaker

FLOW_CAP = 16  # more distinct values than this flowing into one parameter: it says too little (unknown)
MAX_ROUNDS = 12  # rounds of the fixpoint (each repeats only the call sites whose inputs grew)
# how a value reached a call site, strongest first (the last step names the edge's resolution)
FLOW_KINDS = ("decorator_flow", "return_flow", "attribute_flow", "container_flow", "argument_flow")
_STAR = re.compile(r"(\*\*?)\s*([A-Za-z_][A-Za-z0-9_]*)")
_HEAD = re.compile(r"\**(?:[A-Za-z_][A-Za-z0-9_]*=)?([^.\[(]*)")


@lru_cache(maxsize=1 << 16)
def _head(path: str) -> str:
    """The name a path starts with (``*xs`` -> ``xs``, ``k=f.g`` -> ``f``)."""
    return _HEAD.match(path).group(1)  # type: ignore[union-attr]


def elements(v: Value) -> tuple[Value, ...]:
    """The values a value stands for: the members of a union (``("any", (...))``), else itself."""
    return v[1] if v[0] == "any" else (v,)  # type: ignore[return-value]


def union(values) -> Value | None:
    """One value for several (a union, sorted, deduplicated); ``None`` for none or more than FLOW_CAP."""
    flat: set[Value] = set()
    for v in values:
        flat.update(elements(v))
    if not flat or len(flat) > FLOW_CAP:
        return None
    if len(flat) == 1:
        return next(iter(flat))
    return ("any", tuple(sorted(flat, key=repr)))


def over_union(v: Value, res: str, step) -> tuple[Value, str] | None:
    """``step(element)`` for each member of the union ``v``: the union of what they give, at the weakest
    resolution among them and ``res``; ``None`` when no member gives anything (or too much)."""
    return union_of([got for e in elements(v) if (got := step(e)) is not None], res)


def union_of(found: list[tuple[Value, str]], res: str | None = None) -> tuple[Value, str] | None:
    """One (value, resolution) for several: the union of the values at the weakest resolution among
    them (and ``res``); ``None`` when there are none (or more than FLOW_CAP values)."""
    u = union(got[0] for got in found)
    if u is None:
        return None
    weakest = res if res is not None else found[0][1]
    for got in found:
        weakest = weaker(weakest, got[1])
    return u, weakest


def split_arg(arg: str) -> tuple[str, int, str]:
    """An argument as the parser records it -> ``(keyword, stars, path)``: ``"k=f"`` -> ``("k", 0, "f")``,
    ``"*xs"`` -> ``("", 1, "xs")``.

    Examples
    --------
    >>> split_arg("cb=mod.f"), split_arg("**kw"), split_arg("g"), split_arg("=1"), split_arg("k=='a'")
    (('cb', 0, 'mod.f'), ('', 2, 'kw'), ('', 0, 'g'), ('', 0, '=1'), ('k', 0, "='a'"))
    """
    stars = len(arg) - len(arg.lstrip("*"))
    arg = arg[stars:]
    kw, eq, path = arg.partition("=")
    if not eq or not kw:  # a positional constant (``=1``) keeps its mark
        return "", stars, arg
    return kw, stars, path


class FlowMixin(WorldCore):
    """The values callers pass into parameters, solved once for the whole index (see the module doc)."""

    def param_values(self, func_id: int, idx: int) -> tuple[Value, ...]:
        """Every function, method, class, lambda or instance that flows into parameter ``idx`` of ``func_id``."""
        if not self._flow_state:
            self.solve_flow()
        got = self._flow_params.get((func_id, idx))
        return tuple(sorted(got, key=repr)) if got else ()

    def adopt_flow(self, solution: dict[tuple[int, int], set | None], subclasses: dict[int, list[int]]) -> None:
        """Take ``solution`` and the subclass index (computed by an earlier run over records that read the
        same) instead of solving."""
        self._flow_params = dict(solution)
        self._subclasses = dict(subclasses)
        self._flow_state = 2

    def subclass_index(self) -> dict[int, list[int]]:
        """Every repository class with subclasses -> its direct subclasses (built on first use)."""
        self.subclasses(0)
        return dict(self._subclasses or {})

    def flow_solution(self) -> dict[tuple[int, int], set | None]:
        """The solved parameter values: (function id, position) -> values (``None``: too many to say)."""
        self.solve_flow()
        return self._flow_params

    def solve_flow(self) -> None:
        """Compute the parameter values of every function (idempotent; the indexer calls it before forking)."""
        if self._flow_state:
            return
        self._flow_state = 1
        converged = False
        try:
            sites: list[tuple[FileCtx, Call, tuple[int, ...], list[tuple[str, int, str]],
                              tuple[tuple[int, int], ...] | bool]] = []
            split: dict[str, tuple[str, int, str]] = {}
            noted = self.__dict__["_uses_noted"] = {}  # file id -> its uses noted yet (_uses_of)
            for fid, c in self.value_contexts():
                noted[fid] = False
                owners_of: dict[int, tuple[int, ...]] = {}
                for call in c.pf.calls:
                    if not call.args:
                        continue
                    args = []
                    live = False  # only constants (f(1, 'a')): no value travels, and the callee need not be asked
                    for a in call.args:  # argument texts repeat a lot: split each distinct one once
                        got = split.get(a)
                        if got is None:
                            got = split[a] = split_arg(a)
                        args.append(got)
                        if not live and got[2] and got[2][0] != "=":
                            live = True
                    if live and (call.kind == "default" or self._may_define(c, call.caller, call.callee)):
                        owners = owners_of.get(call.caller)
                        if owners is None:
                            owners = owners_of[call.caller] = self._owners(c, call.caller)
                        carry = True if call.kind == "default" else self._carry_keys(c, call.caller, args)
                        sites.append((c, call, owners, args, carry))
            # the keys that travel (lore.index._keys_params) read these splits too
            self.__dict__["_arg_splits"] = split
            self.subclasses(0)  # the subclass index, built once before any round reads it
            at: dict[int, list[int]] = {}  # an owner id -> its sites' positions
            for i, site in enumerate(sites):
                for owner in site[2]:
                    at.setdefault(owner, []).append(i)
            pending = sites
            for _ in range(MAX_ROUNDS):
                self._reset_memos()
                changed: set[int] = set()
                for c, call, _owners, args, carry in pending:
                    try:
                        self._flow_site(c, call, args, carry, changed)
                    except RecursionError:  # a pathological chain of lookups: this site passes nothing
                        continue
                if not changed:
                    converged = True  # this round ran on the final solution: what it memoized stays true
                    break
                grown = set(changed)
                for fid in changed:  # a class whose method's parameters grew may type its attributes anew
                    parent = self.syms[fid].parent_id
                    if parent is not None and self.syms[parent].kind in TYPE_KINDS:
                        grown.add(parent)
                # the sites grown ids own, in order (not a scan of every site)
                pending = [sites[i] for i in sorted({i for fid in grown for i in at.get(fid, ())})]
        finally:
            if not converged:
                self._reset_memos()
            memos = {**self._round_memos(), "mro": self._mro}  # by the tags the steps enter with
            for tag, key in self._cycle_heads:
                memos[tag].pop(key, None)
            self._cycle_heads.clear()
            self._flow_state = 2
            self._used.clear()  # what only the rounds read: the edge pass never does
            self.__dict__.pop("_uses_noted", None)
            self._scope_param_cache.clear()

    def _owners(self, c: FileCtx, local: int) -> tuple[int, ...]:
        out = []
        i: int | None = local
        while i is not None:
            out.append(c.ids[i])
            i = c.pf.symbols[i].parent
        return tuple(out)

    def _round_memos(self) -> dict[str, dict]:
        """The memoized steps that may read parameter values, by the tag each step enters with."""
        return {"mm": self._members, "ret": self._returns, "at": self._attr_types, "cm": self._class_members,
                "dec": self._decorated, "super": self._supers, "fix": self._fixture_results, "elt": self._elements}

    def _reset_memos(self) -> None:
        """Forget memoized steps that may read parameter values (between rounds, and once solved)."""
        for memo in self._round_memos().values():
            memo.clear()
        self.__dict__.pop("_given_params", None)  # lore.index._given: may read parameter values
        self._paths = (None, {}, {}, {})

    def _flow_site(self, c: FileCtx, call: Call, args: list[tuple[str, int, str]],
                   carry: tuple[tuple[int, int], ...] | bool, changed: set[int]) -> None:
        if call.kind == "default":  # defaults: arguments the definition gives, in the enclosing scope
            targets = [(c.ids[call.caller], 0)]
            scope = local_parent(c, call.caller)
        else:
            scope = call.caller
            if carry is not True and not any(self._flow_params.get(k) for k in carry):  # type: ignore[union-attr]
                return  # only parameters nothing flows into (yet): the callee need not be looked up
            # what the callee's resolution depends on (plain values: the solution may be pickled)
            key = (c.frow.id, scope, call.callee, call.line)
            targets = self._site_targets.get(key)  # type: ignore[assignment]
            if targets is None:
                targets, got = self.flow_targets(c, call.caller, call.callee, call.line)
                if got is not None and got[1] not in FLOW_KINDS and got[0][0] != "any":
                    # bound by rules no parameter value took part in: the same in every later round and
                    # in the edge pass, which reads it from here instead of resolving the callee again
                    self._site_targets[key] = targets
                    self._site_got[key] = got
        if not targets:
            return
        vals: dict[int, tuple[Value, ...]] = {}  # argument position -> its values, resolved on first need
        for fid, shift in targets:
            names, star = self.param_names(fid)
            used = self._used.get(fid)
            if used is None:
                used = self._uses_of(fid)
            pos: int | None = shift
            for k, (kw, stars, path) in enumerate(args):
                if stars == 1:
                    pos = None  # *xs: the positions after it are unknown
                    continue
                if stars:
                    continue
                if kw:
                    idx = names.index(kw) if kw in names else None
                elif pos is None:
                    continue
                else:
                    idx, pos = pos, pos + 1
                    if idx >= len(names) or (star is not None and idx >= star):
                        idx = None
                if idx is None or not path or path[0] == "=" or names[idx] not in used:
                    continue  # a constant (=1); a parameter the function never calls, reads a member of, stores, passes
                got_vals = vals.get(k)
                if got_vals is None:
                    got = self.resolve_path(c, scope, path, call.line, 0)
                    got_vals = vals[k] = tuple(v for v in elements(got[0]) if self._flows(v)) if got else ()
                if got_vals and self._flow_add(fid, idx, got_vals):
                    changed.add(fid)

    def site_callee(self, c: FileCtx, call) -> tuple[Value, str] | None:
        """The resolved callee of a call site: kept from the flow rounds when rules alone bound it."""
        got = self._site_got.get((c.frow.id, call.caller, call.callee, call.line))  # _flow_site's key
        if got is not None:
            return got
        got = self.resolve_path(c, call.caller, call.callee, call.line, 0)
        if "()" in call.callee and c.rules.follows_values and (got is None or got[1] in FLOW_KINDS):
            # f(a)(): what f gives back for this site's a, where the usual answer came through values
            # that flowed (the union of every caller's) or is none
            per_site = self.chained_callee(c, call)  # type: ignore[attr-defined]
            if per_site is not None:
                return per_site
        return got

    def _uses_of(self, fid: int) -> frozenset[str]:
        """``_used`` of ``fid``, its file noted on first need (most test modules: never)."""
        file_id = self.syms[fid].file_id
        noted = self.__dict__["_uses_noted"]
        if noted.get(file_id) is False:
            noted[file_id] = True
            self._note_uses(self.ctx(file_id))  # type: ignore[arg-type]
        return self._used.get(fid, frozenset())

    def _note_uses(self, c: FileCtx) -> None:
        """The names each function of a file uses as the head of a path (called, a member read, passed
        on, stored, returned), its nested scopes included: only those parameters are worth values."""
        syms = c.pf.symbols
        heads: dict[int, set[str]] = {}
        for call in c.pf.calls:
            got = heads.get(call.caller)
            if got is None:
                got = heads[call.caller] = set()
            got.add(call.callee)
            got.update(call.args)
        for b in c.pf.bindings:
            src = b.value or b.alias_of
            if src:
                local = b.scope if b.scope is not None else b.owner
                got = heads.get(local)
                if got is None:
                    got = heads[local] = set()
                got.add(src)
        used: dict[int, set[str]] = {}
        for local, paths in heads.items():
            names = {_head(p) for p in paths if p}
            i: int | None = local
            while i is not None:
                if syms[i].kind in ("function", "method"):
                    used.setdefault(i, set()).update(names)
                i = syms[i].parent
        for local, names in used.items():
            self._used[c.ids[local]] = frozenset(names)

    def _may_define(self, c: FileCtx, scope: int, callee: str) -> bool:
        """Whether a callee may be a repository function: a name some definition has, or a name bound
        in the enclosing functions (a parameter, an alias) whose value may be one."""
        parts = split_path(callee)
        last = parts[-1][:-2] if parts[-1].endswith("()") else parts[-1]
        if last in self.by_name:
            return True
        if len(parts) == 1 and not callee.endswith("()"):
            if callee in self._scope_params(c, scope):
                return True
            i: int | None = scope
            while i is not None:
                if callee in c.cands[i]:
                    return True
                i = c.pf.symbols[i].parent
        return False

    def _carry_keys(self, c: FileCtx, scope: int, args: list) -> tuple[tuple[int, int], ...] | bool:
        """:meth:`_may_carry` of a site's arguments: ``True``, or the parameters passed on."""
        keys = []
        for a in args:
            got = self._may_carry(c, scope, a)
            if got is True:
                return True
            if got:
                keys.append(got)
        return tuple(keys)

    def _may_carry(self, c: FileCtx, scope: int, arg: tuple[str, int, str]) -> tuple[int, int] | bool:
        """Whether an argument may carry a value; for a parameter of the enclosing function (most
        arguments are parameters passed along), its key in the solution: only once a value flows into it."""
        _kw, stars, path = arg
        if not path or stars or path[0] == "=":  # a constant (``=1``): no value that travels
            return False
        head = path.split(".", 1)[0]
        if head.startswith("<"):  # a lambda, a decorated definition
            return True
        got = self._scope_params(c, scope).get(head)
        if got is not None and got[1] >= 0:
            return got
        if got is not None and path.count(".") == 1 and "(" not in path and "[" not in path:
            return True  # self.x: an attribute of the instance, often typed
        # otherwise only a name some definition of the repository has (a function, a method, a class,
        # ``Cls()``), or a local name bound to one: most arguments are data, and resolving each would
        # cost more than it finds
        last = path.rsplit(".", 1)[-1]
        if (last[:-2] if last.endswith("()") else last) in self.by_name:
            return True
        if "." in path or "(" in path:
            return False
        i: int | None = scope
        while i is not None:
            for _line, what, payload in c.cands[i].get(head, ()):
                if what in ("param", "narrow"):
                    continue
                if what != "bind":
                    return what == "def"
                src = payload.alias_of or payload.value  # type: ignore[attr-defined]
                if src:
                    tail = src.rsplit(".", 1)[-1]
                    return src.startswith("<") or (tail[:-2] if tail.endswith("()") else tail) in self.by_name
            i = c.pf.symbols[i].parent
        return False

    def _scope_params(self, c: FileCtx, scope: int) -> dict[str, tuple[int, int]]:
        """Parameter name -> (function id, position) for the functions enclosing ``scope`` (innermost
        wins); a method's receiver has position -1 (it always carries its class)."""
        key = (c.frow.id, scope)
        got = self._scope_param_cache.get(key)
        if got is None:
            got = {}
            syms = c.pf.symbols
            i: int | None = scope
            while i is not None:
                sym = syms[i]
                if sym.kind in ("function", "method"):
                    for idx, (pname, _ann) in enumerate(sym.params):
                        receiver = idx == 0 and sym.kind == "method" and "staticmethod" not in sym.decorators
                        got.setdefault(pname, (c.ids[i], -1 if receiver or _ann else idx))
                i = sym.parent
            self._scope_param_cache[key] = got
        return got

    def _flows(self, v: Value) -> bool:
        """Whether a value is worth following into a parameter: repository callables and instances."""
        tag, payload = v
        if tag not in ("sym", "inst"):
            return False
        srow = self.syms.get(payload)  # type: ignore[arg-type,call-overload]
        if srow is None or srow.file_id is None:
            return False
        return tag == "inst" or srow.kind in ("function", "method") or srow.kind in TYPE_KINDS

    def _flow_add(self, fid: int, idx: int, vals: tuple[Value, ...]) -> bool:
        key = (fid, idx)
        cur = self._flow_params.get(key, set())
        if cur is None:
            return False
        new = cur | set(vals)
        if len(new) == len(cur):
            return False
        self._flow_params[key] = None if len(new) > FLOW_CAP else new
        return True

    def param_names(self, func_id: int) -> tuple[list[str], int | None]:
        """The parameter names of a function and the position of its ``*args`` (``None`` if it has none)."""
        got = self._param_names.get(func_id)
        if got is None:
            srow = self.syms[func_id]
            c = self.ctx(srow.file_id)
            local = c.local_of.get(func_id) if c is not None else None
            if c is None or local is None:
                got = ([], None)
            else:
                sym = c.pf.symbols[local]
                names = [p for p, _ in sym.params]
                star = None
                for stars, name in _STAR.findall(sym.signature.split("->")[0]):
                    if stars == "*" and name in names:
                        star = names.index(name)
                        break
                got = (names, star)
            self._param_names[func_id] = got
        return got

    def flow_targets(self, c: FileCtx, scope: int, path: str, line: int
                     ) -> tuple[list[tuple[int, int]], tuple[Value, str] | None]:
        """The functions a call of ``path`` runs, each with how many leading parameters the call does
        not fill (1 for a bound method or a constructor's ``self``), and the resolved callee."""
        got = self.resolve_path(c, scope, path, line, 0)
        if got is None:
            return [], None
        out: list[tuple[int, int]] = []
        bound: bool | None = None
        for v in elements(got[0]):
            tag, payload = plain(v)  # a generic instance (lore.index._generics) is called as its class's
            if tag == "inst":
                m = self.class_member(payload, "__call__")  # type: ignore[arg-type,call-overload]
                if m is not None and m[0][0] == "sym" and self.syms[m[0][1]].file_id is not None:  # type: ignore[index]
                    out.append((m[0][1], 1))  # type: ignore[arg-type,call-overload]
                continue
            if tag != "sym":
                continue
            srow = self.syms.get(payload)  # type: ignore[arg-type,call-overload]
            if srow is None or srow.file_id is None:
                continue
            if srow.kind in TYPE_KINDS:
                m = self.class_member(payload, "__init__")  # type: ignore[arg-type,call-overload]
                if m is not None and m[0][0] == "sym" and self.syms[m[0][1]].file_id is not None:  # type: ignore[index]
                    out.append((m[0][1], 1))  # type: ignore[arg-type,call-overload]
            elif srow.kind == "function":
                out.append((payload, 0))  # type: ignore[arg-type,call-overload]
            elif srow.kind == "method":
                decorators = self.decorators_of(payload)  # type: ignore[arg-type,call-overload]
                if "staticmethod" in decorators:
                    out.append((payload, 0))  # type: ignore[arg-type,call-overload]
                elif "classmethod" in decorators:
                    out.append((payload, 1))  # type: ignore[arg-type,call-overload]
                else:
                    if bound is None:
                        bound = self._bound_call(c, scope, path, line)
                    out.append((payload, 1 if bound else 0))  # type: ignore[arg-type,call-overload]
        return out, got

    def _bound_call(self, c: FileCtx, scope: int, path: str, line: int) -> bool:
        """Whether a method called as ``path`` is bound (``obj.m()``, a method value) or not (``Cls.m(obj)``)."""
        parts = split_path(path)
        if len(parts) == 1 or parts[0] == "super()":
            return True
        recv = self.resolve_path(c, scope, ".".join(parts[:-1]), line, 0)
        if recv is None:
            return True
        return not any(v[0] == "sym" and self.syms.get(v[1]) is not None  # type: ignore[arg-type,call-overload]
                       and self.syms[v[1]].kind in TYPE_KINDS for v in elements(recv[0]))  # type: ignore[index]

    def decorators_of(self, sym_id: int) -> list[str]:
        srow = self.syms.get(sym_id)
        c = self.ctx(srow.file_id) if srow is not None else None
        local = c.local_of.get(sym_id) if c is not None else None
        return c.pf.symbols[local].decorators if local is not None else []  # type: ignore[union-attr]

    def decorated_value(self, sym_id: int, upto: int = -1) -> tuple[Value, str] | None:
        """What the name of a decorated function stands for when a repository decorator wraps it.

        ``@dec def f`` binds ``f`` to ``dec(f)``: when ``dec`` (or what ``@factory(...)`` returns) is a
        repository function that returns a function nested in it (the usual wrapper), the name stands
        for that wrapper (``decorator_flow``), which calls ``f`` through its parameter. Decorators that
        return their argument, classes (``cached_property``), externals and builtins leave the name
        to the function itself: ``None``. ``upto``: apply only that many of the innermost decorators.
        """
        key = (sym_id, upto)
        if key in self._decorated:
            return self._decorated[key]
        frame = self._enter(("dec", key))
        if frame is None:
            return None
        result = None
        try:
            srow = self.syms[sym_id]
            c = self.ctx(srow.file_id)
            local = c.local_of.get(sym_id) if c is not None else None
            # a class decorator hands back a class (``@attr.s``, ``@dataclass``): even when one of its
            # paths returns a nested function (``@attr.s()`` called first), the name stays the class
            if c is not None and local is not None and srow.kind not in TYPE_KINDS:
                sym = c.pf.symbols[local]
                scope = sym.parent if sym.parent is not None else 0
                texts = list(reversed(sym.decorators))
                for text in texts[:upto] if upto >= 0 else texts:
                    got = self.resolve_path(c, scope, text, sym.start_line, 0) if "<" not in text else None
                    wrapper = self._wrapper_of(got[0]) if got is not None else None
                    if wrapper is None:
                        break
                    result = (wrapper, "decorator_flow")
        finally:
            keep = self._leave(("dec", key), frame)
        if keep:
            self._decorated[key] = result
        return result

    def _wrapper_of(self, decorator: Value) -> Value | None:
        """The function(s) a decorator returns, when each is nested in the decorator that returns it."""
        out = []
        for v in elements(decorator):
            if v[0] != "sym":
                return None
            srow = self.syms.get(v[1])  # type: ignore[arg-type,call-overload]
            if srow is None or srow.file_id is None or srow.kind not in ("function", "method"):
                return None
            got = self.returns(v[1])  # type: ignore[arg-type,call-overload]
            if got is None:
                return None
            for r in elements(got[0]):
                rrow = self.syms.get(r[1]) if r[0] == "sym" else None  # type: ignore[arg-type,call-overload]
                if rrow is None or rrow.kind != "function" or rrow.parent_id != v[1]:
                    return None
                out.append(r)
        return union(out)

    def flow_digests(self) -> dict[int, str]:
        """Per file, a digest of what flows into the parameters of its functions (files with none are
        left out). A refresh compares them with the last run's: a file whose digest changed resolves
        differently even if nothing in it changed (a caller elsewhere now passes another function)."""
        self.solve_flow()
        per_file: dict[int, list[str]] = {}
        for (fid, idx), vals in self._flow_params.items():
            srow = self.syms.get(fid)
            if srow is None or srow.file_id is None:
                continue
            shown = "*" if vals is None else ",".join(sorted(repr(v) for v in vals))
            per_file.setdefault(srow.file_id, []).append(f"{fid}:{idx}={shown}")
        for file_id, item in self.key_digest_items():  # type: ignore[attr-defined]  # lore.index._keys_params
            per_file.setdefault(file_id, []).append(item)
        return {file_id: hashlib.sha1(";".join(sorted(items)).encode()).hexdigest()[:16]
                for file_id, items in per_file.items()}
