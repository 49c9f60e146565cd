"""JavaScript's resolution rules (TypeScript builds on them).

What an import names is the specifier as written; relative ones (``./util``) are joined to the
importing file's directory and tried as a file (``.js``/``.ts``... already stripped from module
names) and as a directory's ``index`` file. A bare specifier that the root tsconfig.json's ``paths``
or ``baseUrl`` maps onto an indexed file is that file (:mod:`._config`: a monorepo importing its own
packages by name); other bare specifiers (``react``) are external.
``module.exports = X`` (and TypeScript ``export = X``) makes a module stand for one value.

A name-only guess (``x.m()`` with ``x`` of unknown type) reaches only the caller's own file and the
modules it imports, directly or through a barrel (an ``index`` file, ``export * from``,
``module.exports = require(...)``): a same-named definition in a module the file never imports is
not what it calls. Nor does a method of the caller's own file win over the others for ``x.m()``:
the guess stays ambiguous among them. A member of a member of an unknown value (``c.req.header()``)
is not guessed at all. ``x.m()`` never guesses a module-level or nested function (only a module value has the former,
and an imported one resolves by its import; the latter are local). Names of the runtime and the DOM (``Headers``,
``Response``, ``URL``) that no scope of the file binds are builtins, never a project class of the
same name. A getter read as a member (``c.req.header()``) gives what it returns. ``super(...)`` calls the base class's constructor, or the base class when it declares none.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from ...parsers.records import Import
from .._rules import CachedRules, ImportBinding, module_of_path, record_of, world_cache
from ._config import CONFIG_NAMES, nearest_config
from ._literals import RETURNED
from ._nodes import JS_GLOBALS as _JS_GLOBALS
from ._parser import GETTER, PRIVATE, STATIC
from ._returns import RETURN
from ._selfname import self_reference

_TSCONFIG = "javascript.tsconfig"  # world.project_data's key: (baseUrl, PathMap) of the root config, or None
_SELF = "javascript.self"  # world.project_data's key: the package's own name through its exports (a PathMap), or None
_JS_EXTS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")


# -- JavaScript / TypeScript ---------------------------------------------------------------------------
_BARREL_DEPTH = 4  # index files re-exporting index files: how far a guess may follow them
_JS_METHODS = frozenset({
    "push", "pop", "shift", "unshift", "slice", "splice", "concat", "join", "map", "filter", "reduce", "forEach",
    "find", "findIndex", "some", "every", "includes", "indexOf", "sort", "reverse", "keys", "values", "entries",
    "then", "catch", "finally", "toString", "valueOf", "split", "trim", "replace", "match", "startsWith",
    "endsWith", "toLowerCase", "toUpperCase", "substring", "charAt", "get", "set", "has", "delete", "add",
    "clear", "log", "error", "warn", "info", "debug", "apply", "call", "bind", "flat", "flatMap", "fill",
    "padStart", "padEnd", "repeat", "test", "exec", "assign", "stringify", "parse", "resolve", "reject", "all",
    "constructor",  # super() of a base without one: the implicit constructor, never another class's by name
})

# what the runtime's methods give back (ECMAScript fixes it): ``path.split('/').map(f)`` calls Array's map
_STRING_TO_STRING = ("trim", "trimStart", "trimEnd", "toLowerCase", "toUpperCase", "replace", "replaceAll", "slice",
                     "substring", "substr", "padStart", "padEnd", "repeat", "concat", "charAt", "normalize",
                     "toString", "toLocaleLowerCase", "toLocaleUpperCase", "at")
_ARRAY_TO_ARRAY = ("map", "filter", "slice", "concat", "flat", "flatMap", "reverse", "sort", "splice", "fill",
                   "toReversed", "toSorted", "toSpliced", "with")
_RESULTS = {
    **{f"String.{m}": "String" for m in _STRING_TO_STRING},
    "String.split": "Array", "String.match": "Array", "Array.join": "String", "Array.toString": "String",
    **{f"Array.{m}": "Array" for m in _ARRAY_TO_ARRAY},
    "Object.keys": "Array", "Object.values": "Array", "Object.entries": "Array", "Object.getOwnPropertyNames": "Array",
    "Array.from": "Array", "Array.of": "Array", "JSON.stringify": "String", "RegExp.exec": "Array",
    "Number.toFixed": "String", "Number.toString": "String", "Date.toISOString": "String", "String.fromCharCode": "String",
}

# the members ECMAScript and the web platform give the runtime classes a project class extends most
# (lib.es5.d.ts, lib.dom.d.ts); a class extending one of them gets no other member from it
# (every object has Object.prototype's; since round 14 a value of one of these classes, not only a subclass, has
# no other member: ``err.toResponse()`` with ``err: Error`` is left unbound, lore.index._members)
_OBJECT = frozenset({"constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
                     "propertyIsEnumerable"})
_ERROR = _OBJECT | {"message", "name", "stack", "cause"}
_BODY = _OBJECT | {"body", "bodyUsed", "headers", "arrayBuffer", "blob", "bytes", "clone", "formData", "json", "text"}
_BUILTIN_MEMBERS = {
    **{f"js.global.{e}": _ERROR for e in ("Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError",
                                           "EvalError", "URIError")},
    "js.global.AggregateError": _ERROR | {"errors"},
    "js.global.Map": _OBJECT | {"get", "set", "has", "delete", "clear", "forEach", "keys", "values", "entries", "size"},
    "js.global.Promise": _OBJECT | {"then", "catch", "finally"},
    "js.global.EventTarget": _OBJECT | {"addEventListener", "removeEventListener", "dispatchEvent"},
    "js.global.Response": _BODY | {"ok", "redirected", "status", "statusText", "type", "url"},
    "js.global.Request": _BODY | {"cache", "credentials", "destination", "integrity", "keepalive", "method", "mode",
                                  "redirect", "referrer", "referrerPolicy", "signal", "url", "duplex"},
}


class JavaScriptRules(CachedRules):
    language = "javascript"
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    constructor_names = ("constructor",)
    builtin_functions = _JS_GLOBALS
    builtin_method_names = _JS_METHODS
    builtin_prefix = "js.global"
    builtin_results = {f"js.global.{k}": f"js.global.{v}" for k, v in _RESULTS.items()}
    builtin_members = _BUILTIN_MEMBERS
    narrowing_holds_on_its_line = True
    narrows_paths = True  # if (this.error instanceof HTTPError) this.error.getResponse()
    callable_instances = False
    uppercase_calls_construct = False  # only new X() constructs
    whole_module_exports = True
    family = ("javascript", "typescript", "tsx")
    same_file_guess_for_members = False
    accessors = True
    values_beside_types = True  # TypeScript's declaration merging (interface X beside const X)
    call_signatures_give = True
    index_signatures = True  # interface Routes { [name: string]: Route }: routes.home is a Route
    typed_containers = True  # ``m: Map<string, Route>``: ``m.get(k)`` is a Route (TypeScript annotations)

    def member_of_name(self, world, ids: list[int]) -> int:
        """``get res()`` beside ``set res(r)``: reading the member runs the getter, whichever comes last."""
        for i in reversed(ids):
            _c, rec = record_of(world, i)
            if rec is not None and GETTER in rec.decorators:
                return i
        return ids[-1]

    def member_by_access(self, world, ids: list[int], on_class: bool) -> list[int]:
        """Of the members of one name in a class (``static create()`` beside ``create()``), the ones a read
        through the class (``C.create()``, ``on_class``) or through an instance (``new C().create()``)
        reaches: the static ones, or the others; all of them when none is static."""
        statics = [i for i in ids if _is_static(world, i)]
        if not statics or len(statics) == len(ids):
            return ids
        return statics if on_class else [i for i in ids if i not in statics]

    def accessor_value(self, world, sym_id: int, depth: int):
        """A getter (``get req(): HonoRequest``, marked ``<get>`` by the parser) read as a member: what it returns."""
        _c, rec = record_of(world, sym_id)
        if rec is None or GETTER not in rec.decorators:
            return None
        return world.call_result(("sym", sym_id), "self_method", depth + 1)

    def returns_receiver(self, world, method_id: int) -> bool:
        """A method declared ``: this`` or whose every ``return`` is ``return this`` (both ``<return>``
        bindings aliasing ``this``):
        TypeScript's polymorphic ``this``, so a base class's fluent method called on a subclass gives the
        subclass (``new App().use(f).listen()`` is ``App.listen``, never a member of ``use``'s class or
        of an external base such as ``EventEmitter``)."""
        c, rec = record_of(world, method_id)
        if rec is None or rec.kind != "method":
            return False
        rets = c.bindings_of(c.local_of[method_id]).get(RETURN, ())
        return bool(rets) and all(b.alias_of == "this" and not b.value and not b.annotation for b in rets)

    def super_value(self, world, class_id: int, name: str):
        """``super(...)`` in a constructor: the base class's constructor, or the base class itself when it
        has none of its own (its implicit constructor runs; ``new Base()`` binds the class the same way)."""
        if name == "constructor":
            order = world.mro(class_id)
            if len(order) > 1 and order[1][0] == "sym":
                base = order[1][1]
                kids = world.children.get(base, {}).get(name)
                return (("sym", kids[-1]) if kids else ("sym", base)), "self_method"
        return world.super_member(class_id, name)

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        dotted = len(parts) > 1
        if len(parts) > 2 and parts[0] != "this":  # c.req.header(): the name of a member of a member says little
            return []
        reach = self._reachable_files(world, ctx)
        out = []
        for s in cands:
            srow = world.syms[s]
            if srow.file_id not in reach:
                continue
            parent = world.syms.get(srow.parent_id) if srow.parent_id is not None else None
            if parent is not None and parent.name == RETURNED:  # a returned literal's: reached by its value only
                continue
            if dotted and _is_private(world, s):  # #query: only this.#query() reaches it, never c.query()
                continue
            if dotted and srow.kind == "function":  # a module's or a function's own function is no member
                if parent is None or parent.kind in ("module", "function", "method"):
                    continue
            out.append(s)
        return out

    def _reachable_files(self, world, ctx) -> set[int]:
        """The file itself and the files its imports name, directly or through barrels (once per file)."""
        cache = world_cache(world, "js-reach", dict)
        got = cache.get(ctx.frow.id)
        if got is None:
            got = cache[ctx.frow.id] = {ctx.frow.id}
            self._follow(world, ctx, got, 0, barrel_only=False)
        return got

    def _follow(self, world, ctx, seen: set[int], depth: int, *, barrel_only: bool) -> None:
        for ib in ctx.import_bindings:
            if ib is None or (barrel_only and not (ib.star or ib.name == "module.exports")):
                continue
            mod = self.module_value(world, ctx, ib.module)
            if mod is None or mod[0] != "sym":
                continue
            fid = world.module_file.get(mod[1])
            if fid is None or fid in seen:
                continue
            seen.add(fid)
            if depth < _BARREL_DEPTH:
                other = world.ctx(fid)
                if other is not None and other.rules.family == self.family:
                    is_index = posixpath.basename(other.frow.path).split(".", 1)[0] == "index"
                    self._follow(world, other, seen, depth + 1, barrel_only=not is_index)

    def exports_value(self, world, mod, want: str | None, depth: int):
        """``module.exports = X`` (or TypeScript ``export = X``): ``require`` / a default or namespace import
        binds X, and a named import or ``const {m} = require(...)`` binds X's member ``m``. A default
        import of a module that exports no default binds the module."""
        if mod[0] != "sym":
            return None
        srow = world.syms.get(mod[1])
        if srow is None or srow.kind != "module":
            return None
        got = world.module_member(mod[1], "module.exports", depth)
        if got is None:
            if want == "default" and world.module_member(mod[1], "default", depth) is None:
                # a default import of a module without a default export: the module (CommonJS interop;
                # ``export default { a, b }`` of the module's own names binds no default either)
                return mod, "import"
            return None
        value = got[0]
        if want is None or want == "default":
            return value, "import"
        if value[0] == "sym" and value[1] == mod[1]:  # module.exports = require of itself: no value
            return None
        return world.member(value, want, "import", depth + 1)

    def read_project(self, root, data: dict, world=None) -> None:
        """The root tsconfig.json's (or jsconfig.json's) ``baseUrl`` and ``paths``, read once for JavaScript,
        TypeScript and TSX alike (:mod:`._config`)."""
        if _TSCONFIG not in data or _SELF not in data:  # both keys touched: each family's digest holds both
            data.setdefault("inputs", set()).update(CONFIG_NAMES + ("package.json",))
            data[_TSCONFIG] = nearest_config(Path(root), "", {})
            data[_SELF] = self_reference(Path(root))  # import { z } from 'zod/v3' inside zod (._selfname)

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        relative = imp.module.startswith(".")
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True, relative=relative)
        if imp.name is None or imp.name == "module.exports":  # namespace import, require(): the whole module
            return ImportBinding(imp.alias or "", imp.module, None, relative=relative)
        return ImportBinding(imp.alias or imp.name, imp.module, imp.name, relative=relative)

    def _module_value(self, world, ctx, module: str):
        if module.startswith("."):
            base = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.frow.path), module))
            if base.startswith(".."):
                return None
            return _file_module(world, base)
        config = getattr(world, "project_data", {}).get(_TSCONFIG)  # read by read_project, carried as data
        if config is not None:  # tsconfig.json's paths and baseUrl: the project importing itself by name
            base_url, paths = config
            tries = paths.targets(module)
            if base_url is not None:  # then the specifier under baseUrl, before any installed package
                tries.append(f"{base_url}/{module}" if base_url else module)
            for target in tries:
                got = _file_module(world, target)
                if got is not None:
                    return got
        own = getattr(world, "project_data", {}).get(_SELF)
        for target in own.targets(module) if own is not None else ():  # the package's own name, by its exports
            got = _file_module(world, target)
            if got is not None:
                return got
        if "/" in module and not module.startswith("@"):
            return _file_module(world, module)  # baseUrl-style absolute specifier inside the repository (tried, never guessed)
        return None


def _is_private(world, sym_id: int) -> bool:
    rec = record_of(world, sym_id)[1]
    return rec is not None and PRIVATE in rec.decorators


def _is_static(world, sym_id: int) -> bool:
    rec = record_of(world, sym_id)[1]
    return rec is not None and STATIC in rec.decorators


def _file_module(world, base: str):
    """The module of a repository-relative path as an import names it: without its extension, or its folder's index."""
    for ext in _JS_EXTS:
        if base.endswith(ext):
            base = base[: -len(ext)]
            break
    if base == ".":
        base = ""
    index = f"{base}/index" if base else "index"
    for cand in (base, f"{base}.d", index, f"{index}.d"):  # x.ts / x.js, x.d.ts, x/index.*, x/index.d.ts
        got = module_of_path(world, cand)
        if got is not None:
            return got
    return None
