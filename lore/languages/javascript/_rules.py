"""JavaScript's resolution rules (TypeScript builds on them).

What an import names is the specifier as written; relative ones (``./util``) are joined to the
importing file's directory and tried as a file (``.js``/``.ts``... already stripped from module
names) and as a directory's ``index`` file. Bare specifiers (``react``) are external.
``module.exports = X`` (and TypeScript ``export = X``) makes a module stand for one value.
"""

from __future__ import annotations

import posixpath

from ...parsers.records import Import
from .._rules import CachedRules, ImportBinding, module_of_path

_JS_EXTS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")


# -- JavaScript / TypeScript ---------------------------------------------------------------------------
_JS_GLOBALS = frozenset({
    "console", "JSON", "Math", "Object", "Array", "Promise", "String", "Number", "Boolean", "Symbol", "Date",
    "RegExp", "Error", "TypeError", "Map", "Set", "WeakMap", "WeakSet", "Reflect", "Proxy", "parseInt",
    "parseFloat", "isNaN", "isFinite", "setTimeout", "clearTimeout", "setInterval", "clearInterval",
    "setImmediate", "queueMicrotask", "structuredClone", "fetch", "require", "process", "Buffer", "globalThis",
    "window", "document", "encodeURIComponent", "decodeURIComponent", "BigInt", "Intl", "URL", "alert",
})
_JS_METHODS = frozenset({
    "push", "pop", "shift", "unshift", "slice", "splice", "concat", "join", "map", "filter", "reduce", "forEach",
    "find", "findIndex", "some", "every", "includes", "indexOf", "sort", "reverse", "keys", "values", "entries",
    "then", "catch", "finally", "toString", "valueOf", "split", "trim", "replace", "match", "startsWith",
    "endsWith", "toLowerCase", "toUpperCase", "substring", "charAt", "get", "set", "has", "delete", "add",
    "clear", "log", "error", "warn", "info", "debug", "apply", "call", "bind", "flat", "flatMap", "fill",
    "padStart", "padEnd", "repeat", "test", "exec", "assign", "stringify", "parse", "resolve", "reject", "all",
    "constructor",  # super() of a base without one: the implicit constructor, never another class's by name
})


class JavaScriptRules(CachedRules):
    language = "javascript"
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    constructor_names = ("constructor",)
    builtin_functions = _JS_GLOBALS
    builtin_method_names = _JS_METHODS
    builtin_prefix = "js.global"
    uppercase_calls_construct = False  # only new X() constructs
    whole_module_exports = True
    family = ("javascript", "typescript", "tsx")

    def exports_value(self, world, mod, want: str | None, depth: int):
        """``module.exports = X`` (or TypeScript ``export = X``): ``require`` / a default or namespace import
        binds X, and a named import or ``const {m} = require(...)`` binds X's member ``m``."""
        if mod[0] != "sym":
            return None
        srow = world.syms.get(mod[1])
        if srow is None or srow.kind != "module":
            return None
        got = world.module_member(mod[1], "module.exports", depth)
        if got is None:
            return None
        value = got[0]
        if want is None or want == "default":
            return value, "import"
        if value[0] == "sym" and value[1] == mod[1]:  # module.exports = require of itself: no value
            return None
        return world.member(value, want, "import", depth + 1)

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
        elif "/" in module and not module.startswith("@"):
            base = module  # baseUrl-style absolute specifier inside the repository (tried, never guessed)
        else:
            return None
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
