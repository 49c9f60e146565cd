"""Keys that travel: the constants every caller passes into a parameter read as a key.

``def func1(key): ls[key]()`` called only as ``func1(1)`` reads the slot ``ls[1]``, the way a constant
key does (:mod:`lore.index._keys`); called as ``func1(0)`` and ``func1(1)``, the union of both slots.
The parser writes an int or str literal argument as ``=`` and its slot key (``=1``, ``='a'``), and a
default that is such a literal stays in the definition's signature.

The keys count only when every call of the function is seen, which is the soundness of the values
that travel (:mod:`lore.index._flow`: callers of the repository, nothing from outside it): a plain
function, not decorated, not a lambda; its name is never used as a value anywhere (passed as an
argument, assigned, stored in a container, returned, imported under another name); every call whose
callee ends in its name binds to it or to something else known (an unresolved one may be it); and
each call that binds to it gives the parameter a constant: a literal, a constant name (a name bound
once to a literal, or a parameter with keys of its own), or the omitted parameter's literal default.
A call passing anything else, with ``*args`` / ``**kwargs``, or with an argument list the parser
recorded as naming nothing, makes the parameter unknown (every slot, as before).
"""

from __future__ import annotations

import re

from ..languages import rules_for
from ..parsers.records import Call
from ._flow import split_arg
from ._world import FileCtx, WorldCore

_NAME = re.compile(r"[A-Za-z_]\w*")
_KEYED = re.compile(r"\[\*([A-Za-z_]\w*)\]")  # ls[*k]: a read keyed by the name k
KEYS_CAP = 16  # more distinct constants than this for one parameter: every slot
_SLOT_NAME = re.compile(r"[A-Za-z_]\w*\[(?:\d+|'[A-Za-z0-9_]+')\]")  # ls[0], d['a']: a literal container's slot
_SLOT = re.compile(r"\d+|'[A-Za-z0-9_]+'|\"[A-Za-z0-9_]+\"")  # a literal default that is a slot key


def default_key(signature: str, pname: str) -> str | None:
    """The default of ``pname`` in ``signature``: ``''`` when it has none, its slot key when it is an int
    or str literal, ``None`` for any other default.

    Examples
    --------
    >>> [default_key('def f(a, k: int = 1, m="x", n=None)', p) for p in ("a", "k", "m", "n")]
    ['', '1', "'x'", None]
    """
    m = re.search(rf"(?<![\w*]){re.escape(pname)}\s*(?::[^=,()]*)?=\s*([^,)]*)", signature.split("->")[0])
    if m is None:
        return ""
    text = m.group(1).strip()
    if not _SLOT.fullmatch(text):
        return None
    return text if text[0] != '"' else f"'{text[1:-1]}'"


class ParamKeysMixin(WorldCore):
    """The constants callers pass into a parameter (see the module doc)."""

    def param_keys(self, fid: int, idx: int) -> tuple[str, ...] | None:
        """The slot keys parameter ``idx`` of function ``fid`` may hold, sorted; ``None`` when it may hold
        anything else (or when nothing calls the function)."""
        memo = self.__dict__.setdefault("_param_key_memo", {})
        if (fid, idx) in memo:
            return memo[(fid, idx)]
        memo[(fid, idx)] = None  # a cycle of callers passing the parameter on says nothing
        got = memo[(fid, idx)] = self._param_keys(fid, idx)
        return got

    def _param_keys(self, fid: int, idx: int) -> tuple[str, ...] | None:
        srow = self.syms.get(fid)  # type: ignore[call-overload]
        if srow is None or srow.kind != "function" or srow.file_id is None or srow.name.startswith("<"):
            return None
        c = self.ctx(srow.file_id)
        local = c.local_of.get(fid) if c is not None else None
        if c is None or local is None or self.decorators_of(fid):  # type: ignore[attr-defined]
            return None
        sym = c.pf.symbols[local]
        pname = sym.params[idx][0]
        if re.search(rf"\*\s*{re.escape(pname)}\b", sym.signature):  # *args / **kwargs
            return None
        default = default_key(sym.signature, pname)
        calls, values, stored, through, escaped = self._key_uses()
        if default is None or srow.name in values:
            return None
        for file_id, base in stored.get(srow.name, ()):  # ls = [func1, f2]: each call through ls passes nothing
            if default or base in escaped or not self._stable(self.ctx(file_id), base):  # type: ignore[attr-defined,arg-type]
                return None
            if any(call.args or not call.callee.endswith("]") for _f, call in through.get(base, ())):
                return None  # a call through the container with arguments, or of a member of a slot
        keys: set[str] = set()
        seen = False
        if srow.name not in calls:  # a function that passes its parameter on (def outer(j): run(j))
            self._gather_calls(calls, {srow.name})
        for file_id, call in calls[srow.name]:
            cc = self.ctx(file_id)
            if cc is None:
                return None
            targets, got = self.flow_targets(cc, call.caller, call.callee, call.line)  # type: ignore[attr-defined]
            if got is None:
                return None  # a call of the name bound to nothing known: it may be this one
            shift = next((s for t, s in targets if t == fid), None)
            if shift is None:
                continue
            if call.kind != "call" or not call.args:  # no argument recorded: none, or none named
                return None
            passed = self._passed(cc, call, shift, idx, pname)
            if passed == "":
                passed = default
            if not passed:
                return None
            keys.update(passed if isinstance(passed, tuple) else (passed,))
            seen = True
            if len(keys) > KEYS_CAP:
                return None
        return tuple(sorted(keys)) if seen else None

    def _passed(self, c: FileCtx, call: Call, shift: int, idx: int, pname: str) -> str | tuple[str, ...] | None:
        """What ``call`` passes into parameter ``idx`` (``pname``): ``''`` when it passes nothing, the
        slot key(s) of a constant, ``None`` for anything else."""
        pos = shift
        for a in call.args:
            kw, stars, path = split_arg(a)
            if stars:
                return None
            if kw:
                if kw != pname:
                    continue
            elif pos != idx:
                pos += 1
                continue
            if path.startswith("="):
                return path[1:]
            if path.isidentifier():
                return self.constant_key(c, call.caller, path, 1)  # type: ignore[attr-defined]
            return None
        return ""

    def key_digest_items(self) -> list[tuple[int, str]]:
        """(file id, text) of the keys of every parameter a call reads as a key, for the refresh digest
        (:meth:`lore.index._flow.FlowMixin.flow_digests`): a caller elsewhere passing another constant
        changes how the function's file resolves."""
        calls = self._key_uses()[0]
        out = []
        for name in sorted(calls):
            for fid in sorted(self.by_name.get(name, ())):  # type: ignore[attr-defined]
                srow = self.syms.get(fid)  # type: ignore[call-overload]
                if srow is None or srow.kind != "function" or srow.file_id is None:
                    continue
                for idx in range(len(self.param_names(fid)[0])):  # type: ignore[attr-defined]
                    out.append((srow.file_id, f"{fid}:k{idx}={self.param_keys(fid, idx)}"))
        return out

    def _gather_calls(self, calls: dict[str, list[tuple[int, Call]]], names: set[str]) -> None:
        """Add the calls whose callee ends in one of ``names`` to ``calls`` (only those: memory)."""
        for name in names:
            calls.setdefault(name, [])
        for fid in sorted(self.files) if names else ():
            c = self.ctx(fid) if rules_for(self.files[fid].language).follows_values else None
            for call in c.pf.calls if c is not None else ():
                callee = call.callee
                last = callee[callee.rfind(".") + 1:]  # the last name (a slice: no list per call)
                if last in names:
                    calls[last].append((fid, call))

    def _key_uses(self) -> tuple[dict[str, list[tuple[int, Call]]], frozenset[str], dict[str, list[tuple[int, str]]],
                                 dict[str, list[tuple[int, Call]]], frozenset[str]]:
        """Over every file of a language that follows values (built once): the calls by the last name
        of their callee; every name used as a value (an argument, an assigned value, a return, a name
        imported under another name or whose import is a container's); the names stored only in a
        literal container slot (``ls = [func1]``: name -> (file, container)); the calls of a container
        slot (``ls[k]()``) by container; and the containers read as a whole (``for f in ls``)."""
        got = self.__dict__.get("_key_use_index")
        if got is not None:
            return got
        calls: dict[str, list[tuple[int, Call]]] = {}
        values: set[str] = set()
        stored: dict[str, list[tuple[int, str]]] = {}
        through: dict[str, list[tuple[int, Call]]] = {}
        escaped: set[str] = set()
        imported: set[str] = set()
        names: set[str] = set()
        # distinct texts first, their names read once at the end (most texts repeat)
        arg_texts: set[str] = set()
        value_texts: set[str] = set()
        read_texts: set[str] = set()
        # the flow solve (lore.index._flow) split every distinct argument text of these files already
        splits: dict[str, tuple[str, int, str]] | None = self.__dict__.pop("_arg_splits", None)
        for fid, c in self.value_contexts():
            keyed: set[str] = set()
            for call in c.pf.calls:
                callee = call.callee
                if "[" in callee:  # ls[k](), m.ls[k](): by the container's own name
                    through.setdefault(callee.split("[", 1)[0].rsplit(".", 1)[-1], []).append((fid, call))
                    keyed.update(_KEYED.findall(callee))
                elif (dot := callee.rfind(".")) >= 0:  # ls.get(k)(), ls.items(): a container read by a method
                    read_texts.add(callee[:dot])
                if call.args and splits is None:
                    arg_texts.update(call.args)
            for b in c.pf.bindings:
                if b.alias_of:
                    if _SLOT_NAME.fullmatch(b.name) and b.alias_of.isidentifier():
                        stored.setdefault(b.alias_of, []).append((fid, b.name.split("[", 1)[0]))
                    else:
                        value_texts.add(b.alias_of)
                if b.value:
                    read_texts.add(b.value)
            if keyed:  # the functions of this file with a parameter a call reads as a key
                names.update(sym.name for sym in c.pf.symbols if sym.kind == "function"
                             and any(p in keyed for p, _a in sym.params))
            for imp in c.pf.imports:
                if imp.name and imp.alias and imp.alias != imp.name:
                    values.add(imp.name)
                if imp.name:
                    imported.add(imp.alias or imp.name)
        self._gather_calls(calls, names)
        parts = splits.values() if splits is not None else map(split_arg, arg_texts)
        value_texts.update(p for _k, _s, p in parts if p and p[0] != "=")
        values.update(_NAME.findall("\n".join(value_texts)))
        escaped.update(_NAME.findall("\n".join(read_texts)))
        values.update(name for name, where in stored.items() if any(base in imported for _f, base in where))
        got = self.__dict__["_key_use_index"] = (calls, frozenset(values), stored, through, frozenset(escaped | values))
        return got
