"""What a call gives back that depends on its first argument, taken per call site (issue 34).

A function one of whose ``return`` statements gives back the parameter that receives the call's first
argument, itself or through a call that does the same (``def __call__(self, d): ... return
self.decorate_class(d)`` with ``def decorate_class(self, cls): return cls``), returns at each call site
the value of the argument given *there*, not the union of every value every caller passes (that union,
the parameter's flow, is right for the function's body; at one call site it adds the classes other sites
pass: Django's ``decorator.__call__(ExceptionInSetUp)()`` was bound to ``AdminSeleniumTestCase``).

:meth:`GivenMixin.given_result` is that result: the argument's value for the returns that give it
back, the usual value of the other returns, their union. What the argument says decides:

- a known value (not a union): it;
- no value named for the parameter (no argument, a literal, keywords for other parameters only) and a
  default of ``None`` or none: nothing (``@admin.action(description=...)`` gives the inner decorator,
  not every function decorated elsewhere; a function with no other return gives an unknown value, the
  site stays unresolved rather than bound to what other sites pass);
- a union (a caller's own parameter: every caller's values), a value nothing resolves, a splat: the
  usual result, as before;
- and when another return, given a known argument, says nothing (Django's ``_get_queryset(klass)``:
  ``klass._default_manager.all()``, a manager its metaclass makes): the usual result too, which may hold
  what that return gives.

The parameter must not be assigned in the function (an ``isinstance`` narrowing of it is fine: it does
not change which value came in).

Where it applies: an assignment ``x = f(a)`` (the binding records its first argument) and a call on what
a call gives, ``f(a)()`` / ``f(a).m()`` (the inner call's record, at the same line and column, has the
argument).
"""

from __future__ import annotations

import re

from ._flow import elements, split_arg, union_of
from ._world import MAX_DEPTH, TYPE_KINDS, FileCtx, Value, WorldCore, split_path, weaker

_UNKNOWN: tuple[Value, str] = (("unknown", "<given back>"), "unresolved")
_ABSENT: tuple[Value, str] = (("unknown", "<no argument>"), "unresolved")  # the parameter takes no value here


def _calls(part: str) -> tuple[str, int]:
    """A path part without its call parentheses, and how many calls it makes: ``f()()`` -> ``('f', 2)``."""
    n = 0
    while part.endswith("()"):
        part, n = part[:-2], n + 1
    return part, n


class GivenMixin(WorldCore):
    """A call's result that depends on its first argument, per call site (see the module doc)."""

    def given_result(self, c: FileCtx, scope: int, callee: tuple[Value, str], path: str, args: list[str],
                     line: int, depth: int) -> tuple[Value, str] | None:
        """What the call ``path(*args)`` at ``line`` of ``scope`` gives (``args`` as a call record has
        them), ``callee`` being ``path``'s value; ``None`` when no function it may run gives back its
        first argument (the usual result)."""
        if depth > MAX_DEPTH:
            return None
        bound = None
        targets: list[tuple[Value, str | None]] = []
        for v in elements(callee[0]):
            fid = self._function_id(v)
            if fid is None and v[0] == "inst":  # an instance called: its class's __call__, bound
                m = self.class_member(v[1], "__call__")  # type: ignore[arg-type]
                fid = self._function_id(m[0]) if m is not None else None
                if fid is not None and self._may_give(fid):
                    targets.append((("sym", fid), self._given_param(fid, True, 0)))
                    continue
            if fid is None or not self._may_give(fid):
                targets.append((v, None))
                continue
            if bound is None:
                bound = self._bound_call(c, scope, path, line) if "." in path else True  # type: ignore[attr-defined]
            targets.append((v, self._given_param(fid, bound, 0)))
        if not any(p is not None for _v, p in targets):
            return None
        found: list[tuple[Value, str]] = []
        for v, param in targets:
            given = self._site_given(c, scope, args, v[1], param, line) if param is not None else None  # type: ignore[arg-type]
            got = self._results([(v, param)], given, callee[1], depth)
            if got is None:  # another return says nothing: the usual result, which may hold what it gives
                return None
            found += got
        found = [f for f in found if f[0][0] != "unknown"]
        return (union_of(found, "return_flow") or _UNKNOWN) if found else _UNKNOWN

    def _site_given(self, c: FileCtx, scope: int, args: list[str], fid: int, param: str, line: int):
        """What parameter ``param`` of ``fid`` (the one of the first argument) takes at this site: the
        argument's value; :data:`_ABSENT` when no argument names a value for it (none given, a literal,
        a keyword for another parameter) and its default is ``None`` or there is none; ``None`` when
        that is not known (a splat, a value nothing resolves, another default)."""
        hit = ""
        if args:
            kw, stars, hit = split_arg(args[0])
            if stars:
                return None
            if kw:
                hit = ""
                for a in args:
                    kw, stars, p = split_arg(a)
                    if stars:
                        return None
                    if kw == param:
                        hit = p
                        break
                else:
                    return _ABSENT if self._default_is_none(fid, param) else None
            elif not hit:
                return _ABSENT
        if not hit:
            return _ABSENT if self._default_is_none(fid, param) else None
        got = self._arg_value(c, scope, hit, line)  # type: ignore[attr-defined]
        # a union is what a parameter of the caller takes from every caller of its own: not this site's
        return got if got is not None and got[0][0] not in ("unknown", "opaque", "any") else None

    def _default_is_none(self, fid: int, param: str) -> bool:
        """Whether ``param`` of ``fid`` has no default or defaults to ``None`` (a call that leaves it out
        passes nothing callable)."""
        c = self.ctx(self.syms[fid].file_id)
        local = c.local_of.get(fid) if c is not None else None
        sig = c.pf.symbols[local].signature if c is not None and local is not None else ""
        m = re.search(rf"[(,*\s]{re.escape(param)}(?!\w)\s*(?::[^=,)]*)?(=\s*([^,)]*))?", sig)
        return m is not None and (m.group(1) is None or m.group(2).strip() == "None")

    def _results(self, targets: list[tuple[Value, str | None]], given, res: str, depth: int
                 ) -> list[tuple[Value, str]] | None:
        """What each target gives back: ``given`` (a value, :data:`_ABSENT` or ``None``: unknown, every
        value the parameter takes) for the returns that give back the parameter, the others' values;
        ``None`` when one of the others, given a value, says nothing we know (Django's ``_get_queryset``:
        ``klass._default_manager.all()`` of a model class, a manager the metaclass makes): the per-site
        answer would then hold the argument alone, and the usual one may hold what that return gives."""
        found: list[tuple[Value, str]] = []
        for v, param in targets:
            if param is None:
                got = self.call_result(v, res, depth + 1)  # type: ignore[attr-defined]
                if got is not None and got[0][0] not in ("unknown", "opaque"):
                    found.append(got)
                continue
            fid = v[1]
            sc = self.ctx(self.syms[fid].file_id)  # type: ignore[index]
            local = sc.local_of.get(fid) if sc is not None else None  # type: ignore[call-overload]
            if sc is None or local is None:
                continue
            for b in sc.bindings_of(local).get("<return>", ()):
                inner = None if b.alias_of == param else self._giving_call(sc, local, b, param, depth)
                if (b.alias_of == param or inner is not None) and given is not None:
                    if given is _ABSENT:
                        continue
                    if inner is None:
                        found.append((given[0], weaker(given[1], "return_flow")))
                    else:
                        deeper = self._results(inner, given, "return_flow", depth + 1)
                        if deeper is None:
                            return None
                        found += deeper
                    continue
                if not (b.value or b.alias_of):  # return None, a literal
                    continue
                got = self.binding_value(sc, local, b, depth + 1)  # type: ignore[attr-defined]
                if got is not None and got[0][0] not in ("unknown", "opaque"):
                    found.append(got)
                elif given is not None and given is not _ABSENT:
                    return None
        return found

    def _giving_call(self, c: FileCtx, local: int, b, param: str, depth: int
                     ) -> list[tuple[Value, str | None]] | None:
        """``return g(param, ...)`` where ``g`` gives back its first argument: ``g``'s targets (as
        :meth:`given_result` reads them); ``None`` for any other return."""
        if not b.value or b.arg != param or depth > MAX_DEPTH:
            return None
        got = self.resolve_path(c, local, b.value, b.line, depth + 1)  # type: ignore[attr-defined]
        if got is None or not any((fid := self._function_id(v)) is not None and self._may_give(fid)
                                  for v in elements(got[0])):
            return None
        bound = self._bound_call(c, local, b.value, b.line) if "." in b.value else True  # type: ignore[attr-defined]
        targets = []
        for v in elements(got[0]):
            fid = self._function_id(v)
            targets.append((v, self._given_param(fid, bound, depth + 1) if fid is not None else None))
        return targets if any(p is not None for _v, p in targets) else None

    def _function_id(self, v: Value) -> int | None:
        if v[0] != "sym":
            return None
        srow = self.syms.get(v[1])  # type: ignore[call-overload]
        return srow.id if srow is not None and srow.kind in ("function", "method") and srow.file_id is not None else None

    def _may_give(self, fid: int) -> bool:
        """Whether some ``return`` of function ``fid`` names one of its parameters, itself or as the first
        argument of a call: the shape :meth:`_given_param` needs, read from the records alone (cheap,
        and the same in every flow round)."""
        memo = self.__dict__.setdefault("_may_give_memo", {})
        got = memo.get(fid)
        if got is None:
            c = self.ctx(self.syms[fid].file_id)
            local = c.local_of.get(fid) if c is not None else None
            got = False
            if c is not None and local is not None:
                names = {p for p, _a in c.pf.symbols[local].params}
                got = any((b.alias_of or b.arg) in names for b in c.bindings_of(local).get("<return>", ()))
            memo[fid] = got
        return got

    def _given_param(self, fid: int, bound: bool, depth: int) -> str | None:
        """The parameter that receives a call's first argument, when some ``return`` of function ``fid``
        gives it back (itself, or through a call that gives back its first argument) and nothing in the
        function assigns it; ``None`` otherwise."""
        memo = self.__dict__.setdefault("_given_params", {})
        key = (fid, bound)
        if key in memo:
            return memo[key]
        memo[key] = None  # a cycle (f returns g(x), g returns f(x)) gives back nothing
        srow = self.syms[fid]
        c = self.ctx(srow.file_id)
        local = c.local_of.get(fid) if c is not None else None
        got = None
        if c is not None and local is not None and depth <= MAX_DEPTH:
            sym = c.pf.symbols[local]
            skip = 0
            if sym.kind == "method" and "staticmethod" not in sym.decorators:
                parent = sym.parent
                if parent is not None and c.pf.symbols[parent].kind in TYPE_KINDS and bound:
                    skip = 1  # obj.m(a): a is the second parameter
            if len(sym.params) > skip:
                param = sym.params[skip][0]
                binds = c.bindings_of(local)
                if not any(not b.until for b in binds.get(param, ())):  # never assigned (narrowed is fine)
                    for b in binds.get("<return>", ()):
                        if b.alias_of == param or self._giving_call(c, local, b, param, depth + 1) is not None:
                            got = param
                            break
        memo[key] = got
        return got

    def chained_callee(self, c: FileCtx, call) -> tuple[Value, str] | None:
        """The callee of ``f(a)()`` / ``f(a).m()``: what ``f`` gives back for the argument of the inner
        call (its own record, at the same line and column); ``None`` when that is not per site."""
        parts = split_path(call.callee)
        k = next((i for i, p in enumerate(parts) if p.endswith("()")), None)
        if k is None:
            return None
        name, calls = _calls(parts[k])
        inner_path = ".".join([*parts[:k], name])
        inner = self._inner_calls(c).get((call.caller, call.line, call.col, inner_path))
        if inner is None:
            return None
        got = self.resolve_path(c, call.caller, inner_path, call.line, 0)  # type: ignore[attr-defined]
        if got is None:
            return None
        cur = self.given_result(c, call.caller, got, inner_path, inner.args, call.line, 0)  # type: ignore[attr-defined]
        for i, part in enumerate(parts[k:]):  # then what the path does with it: calls, members
            attr, n = (name, calls - 1) if i == 0 else _calls(part)
            if i and cur is not None and cur[0][0] != "unknown":
                cur = self.member(cur[0], attr, cur[1], 1) or _UNKNOWN  # type: ignore[attr-defined]
            for _ in range(n):
                if cur is None or cur[0][0] == "unknown":
                    break
                cur = self.call_result(cur[0], cur[1], 1) or _UNKNOWN  # type: ignore[attr-defined]
        return cur

    def chained_value(self, c: FileCtx, scope: int, path: str, line: int) -> tuple[Value, str] | None:
        """``x = f(a)()``: the callee ``f(a)`` of the one call ``path`` on ``line`` of ``scope``, per site
        (see :meth:`chained_callee`); ``None`` when it is not per site or the line has several such calls."""
        calls = self._inner_calls(c).get((scope, line, path))
        if calls is None or len(calls) != 1:  # type: ignore[arg-type]
            return None
        return self.chained_callee(c, calls[0])  # type: ignore[index]

    def _inner_calls(self, c: FileCtx) -> dict[tuple, object]:
        memos: dict[int, dict[tuple, object]] = self.__dict__.setdefault("_inner_call_memo", {})
        got = memos.get(c.frow.id)
        if got is None:
            got = {}
            memos[c.frow.id] = got
            for k in c.pf.calls:
                if k.kind == "call":
                    got[(k.caller, k.line, k.col, k.callee)] = k
                    if k.callee.endswith(")"):  # by line, for assignments (which know no column)
                        got.setdefault((k.caller, k.line, k.callee), []).append(k)  # type: ignore[attr-defined]
        return got
