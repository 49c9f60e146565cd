"""Values: what an annotation, an assignment, a call or a function's ``return`` statements stand for.

A value is a ``(tag, payload)`` pair (:data:`lore.index._world.Value`); each comes with the rule that
bound it, weakened along the way (:func:`lore.index._world.weaker`, :func:`typed_by`).
"""

from __future__ import annotations

from ..languages import BUILTIN_RESULTS
from ..parsers.records import CALLBACK_MARK, CONTEXT_MARK, REST_MARK, Binding
from ._annotations import names_class, primary_type, tuple_element, type_args
from ._awaited import AWAITED, awaited_value
from ._callback_elements import element_param, promised, pushed_element
from ._containers import member as container_member
from ._containers import plain
from ._containers import shape as container_shape
from ._containers import typed as typed_container
from ._eliminate import eliminated
from ._flow import FLOW_KINDS, elements, over_union, union, union_of
from ._generics import GenericsMixin
from ._typevars import TYPE_VARIABLES, bound_value
from ._world import MAX_DEPTH, TYPE_KINDS, FileCtx, Value, WorldCore, weaker

_CERTAIN = frozenset({"local_scope", "import", "module_global", "self_method"})


def typed_by(lookup: str, typing: str) -> str:
    """The rule recorded for a receiver typed by ``typing`` (annotation, constructor) whose type
    name was found by ``lookup``: the typing rule, unless the lookup itself was a guess."""
    return typing if lookup in _CERTAIN else weaker(lookup, typing)


def instance_of(world: WorldCore, v: Value) -> Value:
    if v[0] == "sym":
        srow = world.syms.get(v[1])  # type: ignore[arg-type]
        if srow is not None and srow.kind in TYPE_KINDS:
            return ("inst", v[1])
    if v[0] == "ext":
        return ("extinst", v[1])
    return v


_CASTS = {("ext", "typing.cast"), ("ext", "typing_extensions.cast")}


class ValuesMixin(GenericsMixin, WorldCore):
    """Return values, call results, bindings and annotations as values."""

    def returns(self, func_id: int, depth: int = 0) -> tuple[Value, str] | None:
        """The value a function returns: from its return annotation, else from its return statements."""
        if func_id in self._returns:
            return self._returns[func_id]
        frame = self._enter(("ret", func_id))
        if frame is None:
            return None
        srow = self.syms[func_id]
        c = self.ctx(srow.file_id)
        result = None
        try:
            if c is not None:
                local = c.local_of.get(func_id)
                declared = c.pf.symbols[local].return_type if local is not None else ""
                if declared and CONTEXT_MARK in declared:  # const mk: Factory = () => ...: Factory's call gives
                    result = self._signature_return(c, local, declared.split(CONTEXT_MARK, 1)[0])  # type: ignore[arg-type]
                elif declared:
                    result = self.type_value(c, local, declared, 0)  # type: ignore[arg-type]
                elif local is not None:
                    result = self._returned_value(c, local)
        finally:
            keep = self._leave(("ret", func_id), frame)
        if keep:
            self._returns[func_id] = result
        return result

    def _signature_return(self, c: FileCtx, scope: int, declared: str) -> tuple[Value, str] | None:
        """What calling a value of type ``declared`` gives: what its call signature returns."""
        typed = self.type_value(c, scope, declared, 1)
        typed = (plain(typed[0]), typed[1]) if typed is not None else None  # Handler<Ctx>: Handler's signature
        if typed is None or typed[0][0] not in ("inst", "sym"):
            return None
        sig = self.class_member(typed[0][1], "__call__", depth=1)  # type: ignore[arg-type, attr-defined]
        if sig is None or sig[0][0] != "sym":
            return None
        return self.returns(sig[0][1], 1)  # type: ignore[arg-type]

    def returned_element(self, func_id: int, k: int) -> tuple[Value, str] | None:
        """Element ``k`` of the tuple a function returns (``a, b = f()``): from its ``Tuple[...]`` return
        annotation, else from the ``k``-th element of its ``return x, y`` statements."""
        def compute() -> tuple[Value, str] | None:
            c = self.ctx(self.syms[func_id].file_id)
            local = c.local_of.get(func_id) if c is not None else None
            if c is None or local is None:
                return None
            annotation = c.pf.symbols[local].return_type
            if annotation:
                element = tuple_element(annotation, k)
                return self.type_value(c, local, element, 0) if element else None
            return self._returned_value(c, local, f"<return>[{k}]")

        return self._step("elt", self._elements, (func_id, k), compute)

    def call_element(self, v: Value, res: str, k: int, depth: int) -> tuple[Value, str] | None:
        """Element ``k`` of what a call of ``v`` returns (a repository function returning a tuple)."""
        if v[0] == "any":
            return over_union(v, res, lambda e: self.call_element(e, res, k, depth + 1))
        fid = v[1] if v[0] == "sym" else None
        srow = self.syms.get(fid) if isinstance(fid, int) else None
        if srow is None or srow.kind not in ("function", "method"):
            return None
        got = self.returned_element(srow.id, k)
        if got is None:  # (a,) = f() of f -> list[A]: what iterating the typed container it returns gives
            whole = self.call_result(v, res, depth + 1)
            iterated = whole[0][1][1] if whole is not None and whole[0][0] == "of" else None  # type: ignore[index]
            return (iterated, whole[1]) if iterated is not None else None  # type: ignore[index,return-value]
        return _given_back_rule(self, got, res)

    def _returned_value(self, c: FileCtx, local: int, gives: str = "<return>") -> tuple[Value, str] | None:
        """What an unannotated function returns: the value of its ``return`` statements when they all
        resolve to the same one (``return None`` aside). When they do not agree (or some say nothing),
        and the language follows values, the union of what the others return (``return_flow``)."""
        found: tuple[Value, str] | None = None
        agree = True
        values: list[Value] = []
        for b in c.bindings_of(local).get(gives, ()):
            got = self.binding_value(c, local, b, 0) if (b.value or b.alias_of) else None
            if got is None or got[0][0] in ("unknown", "opaque"):
                agree = False
                continue
            values.append(got[0])
            if found is not None and got[0] != found[0]:
                agree = False
            found = got if found is None else (found[0], weaker(found[1], got[1]))
        if agree or found is None:
            return found
        if not c.rules.follows_values:
            return None
        u = union(values)
        return (u, "return_flow") if u is not None else None

    def type_value(self, c: FileCtx, scope: int, annotation: str, depth: int) -> tuple[Value, str] | None:
        """An annotation string -> instance value (Optional[X], X | None and "X" unwrapped); the class
        itself for ``type[X]``."""
        name = primary_type(annotation)
        if not name:
            return None
        # a type's name is a lookup of its own, however deep the value that met the annotation
        got = self._fresh(("type", c.frow.id, scope, name), lambda: self.resolve_path(c, scope, name, 1 << 30, 0))
        if got is None:
            return None
        v, res = got
        if v in TYPE_VARIABLES and c.rules.follows_values:  # x: T, T = TypeVar("T", bound=B): some B
            bound = bound_value(self, c, scope, name, depth)
            if bound is not None:
                return bound
        if v[0] == "sym":  # a name declared as a value and as a type (TS declaration merging): the type
            v = self._type_twin(v)
        if names_class(annotation):
            return v, typed_by(res, "annotated_type")
        v = instance_of(self, v)
        if v[0] == "inst" and (made := self.generic_instance(c, scope, v[1], annotation, depth)) is not None:  # type: ignore[arg-type]
            return made, typed_by(res, "annotated_type")  # b: Box<Foo>: what b.get() gives is a Foo
        if v[0] == "extinst" and "[" in annotation and (c.rules.follows_values or c.rules.typed_containers):
            # list[Text] (Java: List<Text>): its elements too
            got = self._container(c, scope, v[1], type_args(annotation), depth)  # type: ignore[arg-type]
            if got is not None:
                return got
        return v, typed_by(res, "annotated_type")

    def _type_twin(self, v: Value) -> Value:
        """The type declared under the same name beside the value ``v`` names (``interface $constructor``
        beside ``function $constructor``), or ``v`` itself."""
        srow = self.syms.get(v[1])  # type: ignore[call-overload]
        if srow is None or srow.kind in TYPE_KINDS or srow.parent_id is None:
            return v
        for k in self.children.get(srow.parent_id, {}).get(srow.name, ()):
            if self.syms[k].kind in TYPE_KINDS:
                return ("sym", k)
        return v

    def _container(self, c: FileCtx, scope: int, container: str, args: list[str],
                   depth: int) -> tuple[Value, str] | None:
        """An external container whose element types the annotation gives (:mod:`._containers`), with the
        rule that typed its elements (the container's own members are external whatever it says)."""
        sh = container_shape(container, args)
        if sh is None:
            return None
        found: list[Value | None] = []
        rule = "annotated_type"
        for ann in sh:
            got = self.type_value(c, scope, ann, depth + 1)
            if got is None or got[0][0] == "unknown":
                found.append(None)
            else:
                found.append(got[0])
                if got[0][0] in ("sym", "inst"):  # an external element's edges say external whatever the rule
                    rule = weaker(rule, got[1])
        v = typed_container(container, found[0], found[1])
        return (v, rule) if v is not None else None

    def bindings_value(self, c: FileCtx, scope: int, binds: list[Binding], depth: int) -> tuple[Value, str] | None:
        """The value of one assignment that may bind several alternatives (``x = a or b``): their union."""
        if len(binds) == 1:
            return self.binding_value(c, scope, binds[0], depth)
        found = [got for b in binds if (got := self.binding_value(c, scope, b, depth)) is not None
                 and got[0][0] != "unknown"]
        return union_of(found) if found else None

    def binding_value(self, c: FileCtx, scope: int, b: Binding, depth: int) -> tuple[Value, str] | None:
        if depth > MAX_DEPTH:
            return None
        if b.arg[:1] == "<" and b.arg.startswith(AWAITED):  # x = await f(): see _awaited
            return awaited_value(self, c, scope, b, depth)
        if b.scope is not None:
            scope = b.scope
        # the value is read before the statement binds anything: ``x = [x]`` and ``a, b = b, a`` read
        # the bindings of earlier lines (a lookup on the binding's own line prefers those, see
        # LookupMixin._lookup_in_scope; the line before would also skip a binding on that line)
        line = b.line
        if b.annotation and b.value:  # ``x = cast(T, v)``: T, when the callee is typing's cast
            got = self.resolve_path(c, scope, b.value, line, depth + 1)
            if got is not None and got[0] in _CASTS:
                return self.type_value(c, scope, b.annotation, depth + 1)
            return self.call_result(got[0], got[1], depth + 1) if got is not None else None
        if b.annotation[:1] == "!" or b.until and b.annotation == "type":  # not an ``A``; one of x's classes
            return eliminated(self, c, scope, b, depth)
        if b.annotation:
            return self.type_value(c, scope, b.annotation, depth + 1)
        if b.value:
            got = None
            if b.value.endswith(")") and c.rules.follows_values:  # x = f(a)(): f's result for this a
                got = self.chained_value(c, scope, b.value, line)  # type: ignore[attr-defined]
            if got is None:
                got = self.resolve_path(c, scope, b.value, line, depth + 1)
            if got is None:
                return None
            if b.arg.startswith("<enter>"):
                if got[0] in _ENTERS_ARG and b.arg != "<enter>" and c.rules.follows_values:  # closing(x) as f: x
                    return self.resolve_path(c, scope, b.arg[len("<enter>"):], line, depth + 1)
                made = self.call_result(got[0], got[1], depth + 1)
                return self._entered(made) if made is not None and c.rules.follows_values else made
            if b.arg and c.rules.follows_values:
                given = self._arg_result(c, scope, got, b.value, b.arg, line, depth)
                if given is not None:
                    return given
            recv_path, dot, _m = b.value.rpartition(".")
            if dot and got[0][0] == "sym" and c.rules.returns_receiver(self, got[0][1]):  # type: ignore[arg-type]  # this.use(f)
                recv = self.resolve_path(c, scope, recv_path, line, depth + 1)
                kept = None
                if recv is not None and (recv[0][0] in ("inst", "gin") or recv[0][0] == "sym" and c.rules.follows_values):
                    kept = c.rules.receiver_value(self, got[0][1], recv[0])  # type: ignore[arg-type]
                if kept is not None:
                    return kept, typed_by(got[1], "constructor_type")
            return self.call_result(got[0], got[1], depth + 1)
        if b.alias_of and CONTEXT_MARK in b.alias_of:
            return self.contextual_value(c, scope, b.alias_of, line, depth + 1)
        if b.alias_of:
            return self.resolve_path(c, scope, b.alias_of, line, depth + 1)
        return None

    def contextual_value(self, c: FileCtx, scope: int, spec: str, line: int, depth: int) -> tuple[Value, str] | None:
        """A parameter typed by where its function is written (TypeScript's contextual typing), ``spec`` as
        the parser wrote it: ``app.use#arg0#param0`` (parameter 0 of a function passed as argument 0 of
        ``app.use``: of the call signature of that parameter's declared type) or ``Middleware#call#param1``
        (parameter 1 of the call signature of the declared type ``Middleware``: a function returned
        from one declaring it, or assigned to a variable of it). A memoized step (its lookups start
        at depth 0): the path to a callback's parameter is long."""
        memo = self.__dict__.setdefault("_contextual", {})
        return self._step("ctxp", memo, (c.frow.id, scope, spec, line),
                          lambda: self._contextual_value(c, scope, spec, line, 0))

    def _contextual_value(self, c: FileCtx, scope: int, spec: str, line: int, depth: int) -> tuple[Value, str] | None:
        parts = spec.rsplit(CONTEXT_MARK, 2)
        if len(parts) != 3 or not parts[2][len("param"):].isdigit():  # a '#' of other text: Literal["#"]
            return None
        head, how, param = parts
        j = int(param[len("param"):])
        if how == "call":
            typed = self.type_value(c, scope, head, depth + 1)
        elif how == "arg0" and (each := element_param(self, c, scope, head, j, line, depth)) is not None:
            return each[0], typed_by(each[1], "annotated_type")
        elif how.startswith("arg") and (pushed := pushed_element(self, c, scope, head, line, depth)) is not None:
            typed = pushed  # xs.push((o) => o.next()), xs: Interceptor[]: the element type's call signature
        else:
            got = self.resolve_path(c, scope, head, line, depth + 1)
            if got is None and how == "arg0" and j == 0 and head.endswith(".then"):
                got = promised(self, c, scope, head[:-len(".then")], line, depth)
                return (got[0], typed_by(got[1], "annotated_type")) if got is not None else None
            found = self._param_ann(got[0], int(how[len("arg"):]), depth + 1) if got is not None else None
            if found is not None and found[2].startswith(CALLBACK_MARK):  # run: (g: App) => App, written in place
                parts = found[2][len(CALLBACK_MARK):].split(";")
                ann = parts[j] if j < len(parts) else ""
                each = self.type_value(found[0], found[1], ann, depth + 1) if ann else None
                return (each[0], typed_by(each[1], "annotated_type")) if each is not None else None
            typed = self.type_value(found[0], found[1], found[2], depth + 1) if found is not None and found[2] else None
        typed = (plain(typed[0]), typed[1]) if typed is not None else None
        if typed is None or typed[0][0] not in ("inst", "sym"):
            return None
        sig = self.class_member(typed[0][1], "__call__", depth=depth + 1)  # type: ignore[arg-type, attr-defined]
        if sig is None or sig[0][0] != "sym":
            return None
        got = self._declared_param(sig[0], j, depth + 1)
        return (got[0], typed_by(got[1], "annotated_type")) if got is not None else None

    def _declared_param(self, fn: Value, i: int, depth: int) -> tuple[Value, str] | None:
        """The value the declared type of parameter ``i`` of function ``fn`` gives (a rest parameter
        takes every argument from its place on), or None."""
        found = self._param_ann(fn, i, depth)
        return self.type_value(found[0], found[1], found[2], depth + 1) if found is not None and found[2] else None

    def _param_ann(self, fn: Value, i: int, depth: int) -> tuple[FileCtx, int, str] | None:
        """The file, the symbol's local index and the declared annotation of parameter ``i`` of function
        ``fn`` (a constructor's for a class), or None."""
        if fn[0] != "sym":
            return None
        srow = self.syms.get(fn[1])  # type: ignore[call-overload]
        if srow is None:
            return None
        if srow.kind in TYPE_KINDS:  # new X(fn): X's constructor
            fc = self.ctx(srow.file_id)
            names = fc.rules.constructor_names if fc is not None else ()
            ctor = next((got for n in names if (got := self.class_member(fn[1], n, depth=depth + 1))), None)  # type: ignore[attr-defined, arg-type]
            return self._param_ann(ctor[0], i, depth + 1) if ctor is not None else None
        if srow.kind not in ("function", "method"):
            return None
        fc = self.ctx(srow.file_id)
        local = fc.local_of.get(fn[1]) if fc is not None else None  # type: ignore[call-overload]
        if fc is None or local is None:
            return None
        sym = fc.pf.symbols[local]
        params = sym.params
        if not params:
            return None
        if i >= len(params):
            if REST_MARK not in sym.decorators:  # f(...handlers): every later argument is one of them
                return None
            i = len(params) - 1
        return fc, local, params[i][1]

    def _arg_result(self, c: FileCtx, scope: int, callee: tuple[Value, str], path: str, arg: str, line: int,
                    depth: int) -> tuple[Value, str] | None:
        """What a call gives back that depends on its first argument ``arg`` (``None``: the callee alone
        decides). ``copy.copy(a)`` / ``deepcopy`` / ``dataclasses.replace``: a value of ``a``'s type;
        ``next(it)``: an element of ``it``; ``iter`` / ``list`` / ``sorted`` / ``deque`` (...): a container of
        the same elements; a repository function some of whose ``return`` statements give back the
        parameter of its first argument (``Attribute = _add_hash(Attribute, h)``): the argument given at
        this site (:mod:`lore.index._given`)."""
        v = callee[0]
        if v[0] == "ext":
            name = str(v[1])
            each = arg.startswith("<each>")  # a comprehension: its element, not the container
            if name == "builtins.type" and not each:  # type(self): the class of the instance
                got = self._arg_value(c, scope, arg, line)
                return (("sym", got[0][1]), got[1]) if got is not None and got[0][0] == "inst" else None
            if name == "functools.partial" and not each:  # partial(f, ...)(): calls f
                got = self._arg_value(c, scope, arg, line)
                return got if got is not None and got[0][0] == "sym" else None
            if name in _KEEPS_ARG and not each:
                got = self._arg_value(c, scope, arg, line)
                return got if got is not None and got[0][0] in ("inst", "of", "any") else None
            if name == "builtins.next" or name in _SAME_ELEMENTS:
                got = self._arg_value(c, scope, arg[len("<each>"):] if each else arg, line)
                if got is not None and got[0][0] != "of" and not each:  # xs = [A(), B()]: any of its slots
                    got = self._arg_value(c, scope, f"{arg}[*]", line)
                    each = True
                if got is None or (got[0][0] != "of" and not each) or got[0][0] in ("unknown", "opaque"):
                    return None
                iterated = got[0] if each else got[0][1][1]  # type: ignore[index]
                if name == "builtins.next":
                    return (iterated, got[1]) if iterated is not None else None
                made = typed_container(_SAME_ELEMENTS[name], iterated, iterated)
                return (made, got[1]) if made is not None else None
            return None
        if v[0] != "sym":
            return None
        return self.given_result(c, scope, callee, path, [arg], line, depth)  # type: ignore[attr-defined]

    def _entered(self, made: tuple[Value, str]) -> tuple[Value, str]:
        """What ``with m as x`` binds to ``x``, ``made`` being ``m``: what its class's ``__enter__`` /
        ``__aenter__`` returns when that is known (else the manager itself: most return ``self``); for a
        manager typed with what it gives (``AbstractContextManager[T]``, or the ``Iterator[T]`` of a
        ``@contextmanager`` function), that ``T``."""
        v, res = made
        if v[0] == "of":
            m = container_member(v, "__enter__")
            return (m[1][2], res) if m is not None else made  # type: ignore[index]
        if v[0] != "inst":
            return made
        for name in ("__enter__", "__aenter__"):
            enter: tuple[Value, str] | None = self.class_member(v[1], name)  # type: ignore[attr-defined,arg-type]
            if enter is None or enter[0][0] != "sym":
                continue
            if self._rules_of(enter[0][1]).returns_receiver(self, enter[0][1]):  # type: ignore[attr-defined, arg-type]
                return made  # def __enter__(self: T) -> T: the manager itself, not T's bound
            got = self.returns(enter[0][1])  # type: ignore[arg-type]
            if got is not None and got[0][0] in ("inst", "of", "any") and got[0] != v:
                return got[0], weaker(res, got[1])
            return made
        return made

    def _arg_value(self, c: FileCtx, scope: int, arg: str, line: int) -> tuple[Value, str] | None:
        """The value of a call's argument: a lookup of its own (its depth starts afresh, as a memoized
        step's does: ``n = next(it)`` after ``it = iter(xs)`` chains three lookups), a cycle ends it."""
        return self._fresh(("arg", c.frow.id, scope, arg, line), lambda: self.resolve_path(c, scope, arg, line, 0))

    def _fresh(self, key: tuple, lookup) -> tuple[Value, str] | None:
        """``lookup()`` (a resolution that starts at depth 0) unless ``key`` is already being looked up:
        a cycle (``Attribute = _add_hash(Attribute)`` read through its own annotation) ends there."""
        frame = self._enter(key)
        if frame is None:
            return None
        try:
            return lookup()
        finally:
            self._leave(key, frame)
            self._cycle_heads.discard(key)  # nothing memoized here to forget after the flow rounds

    def call_result(self, v: Value, res: str, depth: int) -> tuple[Value, str] | None:
        """The value a call of ``v`` produces."""
        tag, payload = v
        if tag == "any":
            return over_union(v, res, lambda e: self.call_result(e, res, depth + 1))
        if tag in ("ofm", "gim"):  # a method of a typed container (a generic instance) that gives its elements
            return payload[-1], res  # type: ignore[index]
        if tag in ("of", "gin"):
            return self.call_result(plain(v), res, depth + 1)
        if tag == "inst" and self._rules_of(payload).call_signatures_give:  # type: ignore[arg-type]
            sig = self.class_member(payload, "__call__", depth=depth + 1)  # type: ignore[arg-type, attr-defined]
            if sig is not None and sig[0][0] == "sym":  # new this.#ctor(): what its construct signature gives
                return self.call_result(sig[0], res, depth + 1)
            return None
        if tag in ("ext", "extattr") and str(payload) in BUILTIN_RESULTS:  # 'a'.split(): what the language fixes
            return ("extinst", BUILTIN_RESULTS[str(payload)]), res
        if tag in ("opaque", "extattr"):  # what an external method returns: a value nobody here defines
            return (("opaque", f"{payload}()"), res) if self._strict or self._opaque_results else None
        if tag == "sym":
            srow = self.syms.get(payload)  # type: ignore[arg-type]
            if srow is None:
                return None
            if srow.kind in TYPE_KINDS:
                return ("inst", payload), typed_by(res, "constructor_type")
            if srow.kind in ("function", "method"):
                got = self.returns(payload, depth + 1)  # type: ignore[arg-type]
                if got is not None:
                    return _given_back_rule(self, got, res)
            return None
        if tag == "ext":
            name = str(payload)
            last = name.rsplit(".", 1)[-1]
            if last[:1].isupper():  # a class by convention: its instances
                return ("extinst", name), typed_by(res, "constructor_type")
            if self._strict or self._opaque_results:  # what an external function returns: not ours to guess
                return ("opaque", f"{name}()"), res
            return None
        return None


# context managers whose __enter__ gives back their first argument (with closing(x) as f: f is x)
_ENTERS_ARG = frozenset({("ext", "contextlib.closing"), ("ext", "contextlib.nullcontext"),
                         ("ext", "contextlib.aclosing")})
# external functions whose result is a value of their first argument's type
_KEEPS_ARG = frozenset({"copy.copy", "copy.deepcopy", "dataclasses.replace"})
# builtins and containers made from an iterable: a container of the same elements (the class to use)
_SAME_ELEMENTS = {
    "builtins.iter": "typing.Iterator", "builtins.reversed": "typing.Iterator", "builtins.list": "builtins.list",
    "builtins.tuple": "builtins.tuple", "builtins.set": "builtins.set", "builtins.frozenset": "builtins.frozenset",
    "builtins.sorted": "builtins.list", "collections.deque": "collections.deque",
}


def _given_back_rule(world: WorldCore, got: tuple[Value, str], res: str) -> tuple[Value, str]:
    """What a call found by rule ``res`` gives back, ``got`` being what the callee returns: a function
    value came back by ``return_flow`` (the last step was a return), anything else typed by the call."""
    rv, rres = got
    if rres in FLOW_KINDS or any(_is_function(world, e) for e in elements(rv)):
        return rv, "return_flow"
    return rv, typed_by(res, "constructor_type")


def _is_function(world: WorldCore, v: Value) -> bool:
    if v[0] != "sym":
        return False
    srow = world.syms.get(v[1])  # type: ignore[arg-type]
    return srow is not None and srow.kind in ("function", "method")
