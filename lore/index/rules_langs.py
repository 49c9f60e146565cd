"""Resolution rules of the non-Python languages, registered into :data:`lore.index.rules.RULES`.

Module names of non-Python files are their paths without extension (``src/util/strings.ts`` ->
``src.util.strings``); what an import names is language knowledge, found here:

* JavaScript / TypeScript: the specifier as written; relative ones (``./util``) are joined to the
  importing file's directory and tried as a file (``.js``/``.ts``... already stripped from module
  names) and as a directory's ``index`` file. Bare specifiers (``react``) are external.
* Go: a package is a directory; an import path under the module path of a ``go.mod`` of the repository
  (``example.com/app/internal/store`` with ``module example.com/app``) is the directory below that
  ``go.mod``; otherwise a vendored copy (``vendor/<path>``) or a directory whose path ends with the whole
  import path (GOPATH layouts); anything else is external, never matched by a shorter tail. Only files
  outside every ``go.mod`` fall back to the longest tail of the path that names a directory. Files of
  one directory see each other's top-level names.
* Java: a package is a directory ending with the package path (``src/main/java/com/x``); ``import
  com.x.Foo`` binds the class; classes of the same package are visible without import.
* Rust: ``crate::``/``self::``/``super::`` paths and ``mod x;`` map to ``x.rs`` or ``x/mod.rs``
  (the crate root is the nearest ``src`` directory, or ``lib.rs``/``main.rs``'s directory).
* C / C++: ``#include "x.h"`` is a star import of the header, found next to the including file or by
  path suffix; a header and the source file of the same stem are one package, so a call through a
  declaration lands on the definition (free functions across translation units).

Caches that depend on the whole set of files (directory -> modules) live on the world object.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from ..parsers.records import Import
from .rules import RULES, ImportBinding, LanguageRules

_JS_EXTS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")


def _cache(world, key: str, build):
    """A per-world cache (the world is rebuilt on every index run)."""
    store = world.__dict__.setdefault("_lang_cache", {})
    if key not in store:
        store[key] = build()
    return store[key]


def _is_gomod(path: str) -> bool:
    return path == "go.mod" or path.endswith("/go.mod")


def _dir_modules(world, languages: tuple[str, ...]) -> dict[str, list[int]]:
    """Directory -> module symbol ids of the source files of ``languages`` in it (sources before headers;
    ``go.mod`` files are not part of their package)."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for f in sorted(world.files.values(), key=lambda f: (f.path.endswith((".h", ".hpp", ".hh")), f.path)):
            if f.language in languages and not _is_gomod(f.path):
                out[posixpath.dirname(f.path)].append(f.module_id)
        return dict(out)

    return _cache(world, "dirs:" + ",".join(languages), build)


def _path_modules(world) -> dict[str, int]:
    return _cache(world, "paths", lambda: {f.path: f.module_id for f in world.files.values()})


def _module_of_path(world, path: str):
    """The module value of a file path without extension (``src/util`` -> module ``src.util``)."""
    mid = world.modules.get(path.replace("/", "."))
    return ("sym", mid) if mid is not None else None


def _siblings_member(world, ctx, name: str, languages: tuple[str, ...]):
    """``name`` at the top level of another file in the same directory (Go and Java packages)."""
    d = posixpath.dirname(ctx.frow.path)
    names = _cache(world, "siblings:" + ",".join(languages), dict)
    table = names.get(d)
    if table is None:  # the directory's top-level names, built once: name -> [(module id, symbol id)]
        table = defaultdict(list)
        for mid in _dir_modules(world, languages).get(d, ()):
            for n, kids in world.children.get(mid, {}).items():
                table[n].append((mid, kids[-1]))
        names[d] = table
    own = ctx.frow.module_id
    for mid, sid in table.get(name, ()):
        if mid != own:
            return ("sym", sid), "module_global"
    return None


def _inherited_member(world, ctx, scope: int, name: str, own: bool = False):
    """A field or method the enclosing class inherits (or, ``own``, has in another file), named without
    ``this`` (Java, C++)."""
    cls = ctx.enclosing_class(scope)
    if cls is None:
        return None
    got = world.class_member(ctx.ids[cls], name, skip_self=not own)
    if got is None or got[0][0] not in ("sym", "inst", "extinst"):
        return None
    return got[0], "self_method" if got[1] in ("self_method", "local_scope") else got[1]


def _detached_method(world, type_id: int, name: str, area) -> int | None:
    """Method ``name`` of a type declared in another file (``<file>.Type.name`` at its top level), where
    ``area(path)`` (the package directory, the crate root) is the same as the type's."""
    t = world.syms[type_id]
    f = world.files.get(t.file_id)
    if f is None:
        return None
    where = area(f.path)
    suffix = f".{t.name}.{name}"
    for mid in world.by_name.get(name, ()):
        m = world.syms[mid]
        if m.kind != "method" or m.parent_id == type_id or not m.qualified_name.endswith(suffix):
            continue
        parent = world.syms.get(m.parent_id)
        mf = world.files.get(m.file_id)
        if parent is not None and parent.kind == "module" and mf is not None and area(mf.path) == where:
            return mid
    return None


class _Rules(LanguageRules):
    """Import targets are looked up once per (file, module text): a star include is consulted for every name."""

    def module_value(self, world, ctx, module: str):
        cache = _cache(world, "module-values", dict)
        key = (ctx.frow.id, module)
        if key not in cache:
            cache[key] = self._module_value(world, ctx, module)
        return cache[key]

    def _module_value(self, world, ctx, module: str):
        return world.module_value(module)


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


class JavaScriptRules(_Rules):
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
            got = _module_of_path(world, cand)
            if got is not None:
                return got
        return None


class TypeScriptRules(JavaScriptRules):
    language = "typescript"


# -- Go -------------------------------------------------------------------------------------------------
_GO_STD = frozenset({
    "archive", "bufio", "bytes", "cmp", "compress", "container", "context", "crypto", "database", "debug",
    "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html", "image", "index", "io",
    "iter", "log", "maps", "math", "mime", "net", "os", "path", "plugin", "reflect", "regexp", "runtime",
    "slices", "sort", "strconv", "strings", "sync", "syscall", "testing", "text", "time", "unicode",
    "unique", "unsafe", "C",
})


class GoRules(_Rules):
    language = "go"
    first_param_is_receiver = True  # the receiver (s *Server) is recorded as parameter 0
    uppercase_calls_construct = False  # exported functions start with a capital; T{} constructs
    imports_reexported = False
    builtin_functions = frozenset({
        "len", "cap", "append", "make", "new", "panic", "print", "println", "copy", "delete", "close",
        "recover", "min", "max", "clear", "complex", "real", "imag",
    })
    builtin_method_names = frozenset({"Error", "String", "Lock", "Unlock", "Close", "Done", "Wait", "Add"})
    builtin_prefix = "go.builtin"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        if imp.alias == ".":
            return ImportBinding("", imp.module, None, star=True)
        if imp.alias == "_":
            return ImportBinding("", imp.module, None)
        parts = imp.module.split("/")
        name = parts[-1]
        if len(parts) > 1 and name[:1] == "v" and name[1:].isdigit():  # example.com/lib/v2 is package lib
            name = parts[-2]
        return ImportBinding(imp.alias or name.replace("-", "_"), imp.module, None)

    def _module_value(self, world, ctx, module: str):
        parts = module.split("/")
        if parts[0] in _GO_STD and "." not in parts[0]:
            return None
        dirs = _dir_modules(world, ("go",))
        here = ctx.frow.path.split("/")

        def nearest(cands: list[str]):  # several (vendored copies, other modules): the nearest to the importer
            best = max(cands, key=lambda d: (_common_prefix(d.split("/"), here), -len(d)))
            return ("pkg", tuple(dirs[best]))

        governed = False
        for mpath, mdir in _go_modules(world):  # longest module path first
            if mdir == "" or ctx.frow.path.startswith(mdir + "/"):
                governed = True
            if module == mpath or module.startswith(mpath + "/"):
                d = posixpath.join(mdir, module[len(mpath):].lstrip("/")).strip("/") if mdir else \
                    module[len(mpath):].lstrip("/")
                ids = dirs.get(d)
                return ("pkg", tuple(ids)) if ids else None  # inside a module of the repository: never guessed
        suffixes = _cache(world, "go-suffixes", lambda: _suffix_index(dirs))
        vendored = [d for d in suffixes.get(module, ()) if d == f"vendor/{module}" or d.endswith(f"/vendor/{module}")]
        if vendored:
            return nearest(vendored)
        whole = suffixes.get(module)
        if whole and len(parts) > 1:  # GOPATH layout: .../src/github.com/x/y
            return nearest(whole)
        if governed:
            return None  # a module of its own that the repository does not hold: external
        for k in range(len(parts)):  # no go.mod: the longest tail of the import path that ends a directory
            cands = suffixes.get("/".join(parts[k:]))
            if cands:
                return nearest(cands)
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        return _siblings_member(world, ctx, name, ("go",))

    detached_methods = True

    def detached_member(self, world, type_id: int, name: str):
        """``func (r *Repo) m()`` in another file of Repo's package: a module-level method ``<file>.Repo.m``."""
        mid = _detached_method(world, type_id, name, posixpath.dirname)
        return (("sym", mid), "self_method") if mid is not None else None


# -- Java -----------------------------------------------------------------------------------------------
class JavaRules(_Rules):
    language = "java"
    imports_reexported = False
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)  # as javap names them: named like the class, a constructor would shadow it
    uppercase_calls_construct = False  # only new X() constructs
    builtin_functions = frozenset({  # java.lang, visible without import (and the usual java.util names)
        "System", "String", "Math", "StrictMath", "Integer", "Long", "Double", "Float", "Short", "Byte", "Boolean",
        "Character", "Number", "Void", "Object", "Class", "ClassLoader", "Enum", "Record", "Thread", "ThreadLocal",
        "Runtime", "Process", "ProcessBuilder", "StringBuilder", "StringBuffer", "CharSequence", "Comparable",
        "Iterable", "Runnable", "AutoCloseable", "Cloneable", "Appendable", "Readable", "Override", "Deprecated",
        "SuppressWarnings", "FunctionalInterface", "SafeVarargs", "Throwable", "Exception", "Error",
        "RuntimeException", "IllegalArgumentException", "IllegalStateException", "NullPointerException",
        "UnsupportedOperationException", "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException",
        "ClassCastException", "ArithmeticException", "NumberFormatException", "InterruptedException",
        "CloneNotSupportedException", "ReflectiveOperationException", "ClassNotFoundException",
        "SecurityException", "StackOverflowError", "OutOfMemoryError", "AssertionError", "InternalError",
        "Objects", "Arrays", "Collections", "List", "Map", "Set", "Optional", "Iterator", "Collection",
    })
    builtin_method_names = frozenset({
        "<init>",  # super() of a base without a constructor: the implicit one, never another class's by name
        "println", "print", "printf", "format", "equals", "hashCode", "toString", "get", "put", "add", "remove",
        "size", "isEmpty", "contains", "stream", "map", "filter", "collect", "forEach", "length", "append",
        "valueOf", "of", "orElse", "iterator", "next", "hasNext", "close", "getClass", "compareTo", "keySet",
        "values", "entrySet", "addAll", "clear", "substring", "trim", "split", "startsWith", "endsWith",
    })
    builtin_prefix = "java.lang"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True)
        if not imp.name:
            return None
        return ImportBinding(imp.alias or imp.name, imp.module, imp.name)

    def _module_value(self, world, ctx, module: str):
        dirs = _java_packages(world)
        ids = dirs.get(module.replace(".", "/"))
        if ids:
            return ("pkg", tuple(ids))
        head, _, last = module.rpartition(".")  # import static a.b.C.m: the class a.b.C
        if head:
            ids = dirs.get(head.replace("/", "."))
            ids = dirs.get(head.replace(".", "/")) or ids
            for mid in ids or ():
                kids = world.children.get(mid, {}).get(last)
                if kids:
                    return ("sym", kids[-1])
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        return _inherited_member(world, ctx, scope, name) or _siblings_member(world, ctx, name, ("java",))


def _go_modules(world) -> list[tuple[str, str]]:
    """(module path, directory) of every ``go.mod`` of the repository, longest module path first."""

    def build() -> list[tuple[str, str]]:
        out = []
        for f in world.files.values():
            if f.language != "go" or not _is_gomod(f.path):
                continue
            c = world.ctx(f.id)
            sig = c.pf.symbols[0].signature if c is not None and c.pf.symbols else ""
            if sig.startswith("module "):
                out.append((sig[len("module "):].strip(), posixpath.dirname(f.path)))
        return sorted(out, key=lambda t: (-len(t[0]), t))

    return _cache(world, "go-modules", build)


def _suffix_index(dirs: dict[str, list[int]]) -> dict[str, list[str]]:
    """Every tail of every directory path (``a/b/c`` -> ``a/b/c``, ``b/c``, ``c``) -> the directories."""
    out: dict[str, list[str]] = defaultdict(list)
    for d in dirs:
        parts = d.split("/") if d else []
        for k in range(len(parts)):
            out["/".join(parts[k:])].append(d)
    return dict(out)


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _java_packages(world) -> dict[str, list[int]]:
    """Package path (``com/x``) -> module ids, for every suffix of every directory holding Java files."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for d, ids in _dir_modules(world, ("java",)).items():
            parts = d.split("/") if d else []
            for k in range(len(parts)):
                out["/".join(parts[k:])].extend(ids)
        return dict(out)

    return _cache(world, "java-packages", build)


# -- Rust -----------------------------------------------------------------------------------------------
class RustRules(_Rules):
    language = "rust"
    implicit_receivers = {"self": "inst", "Self": "type"}
    first_param_is_receiver = False
    builtin_functions = frozenset({"Some", "None", "Ok", "Err", "Box", "Vec", "String", "drop", "Default"})
    builtin_method_names = frozenset({
        "unwrap", "expect", "clone", "to_string", "into", "iter", "map", "collect", "push", "len", "is_empty",
        "as_ref", "as_str", "to_owned", "get", "insert", "remove", "contains", "ok", "err", "and_then",
        "unwrap_or", "unwrap_or_default", "iter_mut", "into_iter", "filter", "borrow", "borrow_mut", "lock",
        "fmt", "eq", "cmp", "partial_cmp", "hash", "next", "extend", "join", "split", "trim", "parse",
    })
    builtin_prefix = "rust.prelude"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        relative = imp.module.startswith("path:") or imp.module.split(".")[0] in ("crate", "self", "super")
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True, relative=relative)
        if imp.name is None:
            name = imp.alias or imp.module.rsplit(".", 1)[-1]
            return ImportBinding(name, imp.module, None, relative=relative)
        return ImportBinding(imp.alias or imp.name, imp.module, imp.name, relative=relative)

    def _module_value(self, world, ctx, module: str):
        path = ctx.frow.path
        if module.startswith("path:"):  # #[path = "../x.rs"] mod m;
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), module[5:]))
            return _module_of_path(world, posixpath.splitext(target)[0])
        parts = module.split(".")
        stem = posixpath.splitext(posixpath.basename(path))[0]
        here = posixpath.dirname(path) if stem in ("mod", "lib", "main") else posixpath.splitext(path)[0]
        if parts[0] == "crate":
            base = _crate_root(path)
            parts = parts[1:]
        elif parts[0] == "self":
            base, parts = here, parts[1:]
        elif parts[0] == "super":
            base = here
            while parts and parts[0] == "super":
                base, parts = posixpath.dirname(base), parts[1:]
        else:  # use circle::Circle: a submodule of this module, else a crate of the repository, else external
            base = here
        got = _rust_path(world, base, parts)
        if got is not None:
            return got
        root = _rust_crates(world).get(parts[0]) if base == here and parts[0] not in ("self", "super") else None
        if root is not None:  # tokio::sync::Mutex in tokio's own tests, or from another crate of the workspace
            if len(parts) == 1:
                return _module_of_path(world, f"{root}/lib")
            return _rust_path(world, root, parts[1:])
        return None

    detached_methods = True

    def detached_member(self, world, type_id: int, name: str):
        """``impl Type`` / ``impl Trait for Type`` in another file of the crate: the placeholder ``Type`` there
        holds those methods and trait relations; a type and its placeholders see each other's members."""
        twins = _rust_twins(world, type_id)
        if len(twins) == 1 and _rust_twins(world, twins[0]) != [type_id]:  # a placeholder: also its siblings
            twins = [twins[0], *(t for t in _rust_twins(world, twins[0]) if t != type_id)]
        return _twin_member(world, twins, name)

    def package_member(self, world, ctx, scope: int, name: str):
        if name in ("crate", "self", "super") or name in _rust_crates(world):  # crate::a::f(), tokio::spawn()
            v = self.module_value(world, ctx, name)
            return (v, "import") if v is not None else None
        return None


def _rust_path(world, base: str, parts: list[str]):
    """The module ``base/parts...`` names: the longest prefix that is a file (``x.rs``, ``x/mod.rs``, the crate
    root), then its members (inline ``mod x { }`` blocks, items, re-exports) for the rest."""
    for k in range(len(parts), -1, -1):
        target = "/".join([base, *parts[:k]]) if base else "/".join(parts[:k])
        got = None
        for cand in (target, f"{target}/mod", f"{target}/lib", f"{target}/main"):
            got = _module_of_path(world, cand.strip("/"))
            if got is not None:
                break
        if got is None:
            continue
        for part in parts[k:]:
            m = world.member(got, part, "import", 1)
            if m is None:
                return None
            got = m[0]
        return got
    return None


def _rust_crates(world) -> dict[str, str]:
    """Crate name -> its ``src`` directory, for every library crate of the repository: a ``src/lib.rs``
    whose package directory names the crate (``tokio`` or ``tokio-1.24.2``; ``-`` read as ``_``)."""

    def build() -> dict[str, str]:
        out: dict[str, str] = {}
        for f in sorted(world.files.values(), key=lambda f: f.path):
            if f.language != "rust" or not (f.path == "src/lib.rs" or f.path.endswith("/src/lib.rs")):
                continue
            src = posixpath.dirname(f.path)
            package = posixpath.basename(posixpath.dirname(src)) if "/" in src else ""
            head, _, version = package.rpartition("-")
            if head and version[:1].isdigit():  # a registry directory: name-1.2.3
                package = head
            if package:
                out.setdefault(package.replace("-", "_"), src)
        return out

    return _cache(world, "rust-crates", build)


def _twin_member(world, twins: list[int], name: str):
    """``name`` among the twins of a type (the pieces one type is declared in: a C++ class and the placeholders of
    its out-of-line methods, a Rust type and its impl blocks in other files): their own members and fields,
    then what their bases (C++ base classes, Rust traits) provide. Never through the twins' own twins: each
    group is visited once per lookup, whatever its size."""
    for t in twins:
        kids = world.children.get(t, {}).get(name)
        if kids:
            return ("sym", kids[-1]), "self_method"
    for t in twins:
        attrs = world.attr_types(t)
        if name in attrs:
            return attrs[name]
    for t in twins:
        for v in world.mro(t)[1:]:
            if v[0] == "sym":
                got = world.class_member(v[1], name)
                if got is not None:
                    return got
            elif v[0] in ("ext", "extinst"):
                return ("ext", f"{v[1]}.{name}"), "external"
    return None


def _rust_twins(world, type_id: int) -> list[int]:
    """A placeholder's real type (its ``impl`` path resolved in its file), or a type's placeholders in the crate."""
    cache = _cache(world, "rust-twins", dict)
    if type_id in cache:
        return cache[type_id]
    cache[type_id] = []
    out: list[int] = []
    c, sym = _record(world, type_id)
    if sym is not None and sym.is_declaration and sym.signature.startswith("impl "):
        scope = sym.parent if sym.parent is not None else 0
        got = world.resolve_path(c, scope, sym.signature[5:].replace("::", "."), 1 << 30, 1)
        if got is not None and got[0][0] == "sym" and got[0][1] != type_id:
            real = world.syms.get(got[0][1])
            if real is not None and real.kind in ("struct", "enum", "trait", "type_alias", "class"):
                out.append(got[0][1])
    elif sym is not None:
        t = world.syms[type_id]
        home = world.files.get(t.file_id)
        crate = _crate_root(home.path) if home is not None else None
        for cand in world.by_name.get(t.name, ()):
            crow = world.syms[cand]
            f = world.files.get(crow.file_id)
            if cand == type_id or crow.kind != "struct" or f is None or f.language != "rust" or _crate_root(f.path) != crate:
                continue
            if _rust_twins(world, cand) == [type_id]:
                out.append(cand)
    cache[type_id] = out
    return out


def _crate_root(path: str) -> str:
    parts = path.split("/")[:-1]
    if "src" in parts:
        k = len(parts) - 1 - parts[::-1].index("src")
        return "/".join(parts[: k + 1])
    return "/".join(parts)


# -- C / C++ --------------------------------------------------------------------------------------------
_C_LIB = frozenset({
    "printf", "fprintf", "sprintf", "snprintf", "puts", "putchar", "scanf", "sscanf", "malloc", "calloc",
    "realloc", "free", "memcpy", "memmove", "memset", "memcmp", "strlen", "strcmp", "strncmp", "strcpy",
    "strncpy", "strcat", "strchr", "strrchr", "strstr", "strdup", "abort", "exit", "assert", "fopen", "fclose",
    "fread", "fwrite", "fgets", "fputs", "atoi", "atol", "strtol", "strtoul", "qsort", "abs", "sizeof",
    "va_start", "va_end", "va_arg", "isalpha", "isdigit", "isspace", "toupper", "tolower", "getenv",
    "static_cast", "dynamic_cast", "const_cast", "reinterpret_cast",  # C++ casts, parsed as template calls
})


_LIBC_HEADERS = frozenset({
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h", "limits.h",
    "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h", "stdbool.h",
    "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h", "threads.h",
    "time.h", "uchar.h", "wchar.h", "wctype.h", "unistd.h", "fcntl.h", "pthread.h", "dirent.h", "dlfcn.h",
    "poll.h", "sched.h", "semaphore.h", "strings.h", "syslog.h", "termios.h", "windows.h", "malloc.h",
    "memory.h", "io.h", "direct.h", "process.h", "intrin.h", "immintrin.h", "emmintrin.h", "xmmintrin.h",
    "arm_neon.h", "cpuid.h", "stdckdint.h", "alloca.h", "execinfo.h", "netdb.h",
})
MAX_DEFINITIONS = 4  # a prototype with more definitions than this (platform variants...) stays a declaration


class CRules(_Rules):
    """C and C++ share these: a ``.h`` file is C by its extension but may hold C++ (the parser then reads
    it as C++), and the C++ rules cost nothing on plain C (no ``this``, no classes, no ``A::m``).

    A declaration (a prototype in a header, a method declared in a class body) and its definitions are
    paired by their name inside the namespaces and classes (``ui.Widget.draw``), whatever the files:
    calls bound to the declaration go to the k exported definitions (1/k each; those in files that
    include the declaring header first); the members of a class and of the placeholder holding its
    out-of-line methods are visible through each other.
    """

    language = "c"
    first_param_is_receiver = False
    builtin_functions = _C_LIB
    builtin_prefix = "c.stdlib"
    languages = ("c", "cpp")
    family = ("c", "cpp")
    implicit_receivers = {"this": "inst"}
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)  # as Java: named like the class, a constructor would shadow it
    detached_methods = True
    uppercase_calls_construct = False  # C macros and functions are often upper case; new T / T x(...) construct
    separate_declarations = True

    def definitions(self, world, sym_id: int) -> list[int] | None:
        cache = _cache(world, "c-definitions", dict)
        if sym_id not in cache:
            cache[sym_id] = _definitions(world, sym_id)
        return cache[sym_id]

    def detached_member(self, world, type_id: int, name: str):
        """Members of the other classes of the same name inside the same namespaces: a header's class and the
        placeholder holding its methods defined out of line in a source file (each finds the other's members:
        methods, fields, bases)."""
        rel = _relative_name(world, type_id)
        return _twin_member(world, [t for t in _c_classes(world).get(rel, ())[:16] if t != type_id], name)

    def package_member(self, world, ctx, scope: int, name: str):
        got = _inherited_member(world, ctx, scope, name, own=True)
        if got is not None:
            return got
        syms = ctx.pf.symbols
        i: int | None = scope
        while i is not None:  # the other blocks of the enclosing namespaces (namespace ui { } in several files)
            if syms[i].kind == "namespace":
                got = world.namespace_member(ctx.ids[i], name, 1)
                if got is not None:
                    return got
            i = syms[i].parent
        if name == "std":  # the standard library (even where the repository specializes in namespace std)
            return ("ext", "std"), "external"
        closure = self.include_closure(world, ctx)
        for mid in closure:  # what the includes declare, transitively
            kids = world.children.get(mid, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "import"
        for mid in closure:  # what they bring in with using-declarations and using-directives (C++)
            c2 = world.ctx(world.module_file.get(mid))
            if c2 is None:
                continue
            for _line, what, ib in c2.candidates(0).get(name, ()):
                if what == "import" and ib.module.startswith("namespace:"):
                    got = world._import_value(c2, ib, 1)
                    if got is not None:
                        return got[0], "import"
            for ib in c2.stars[0]:
                got = world._import_value(c2, ib, 1, member=name)
                if got is not None:
                    return got[0], "import"
        return None

    def include_closure(self, world, ctx) -> list[int]:
        """Module ids a file sees through ``#include``, nearest first: each included header with the source files
        of its stem (definitions first), then what those headers include, breadth first. Computed once per file
        from the include texts alone, so a name lookup is a flat search, never a walk through include cycles."""
        cache = _cache(world, "c-includes", dict)
        got = cache.get(ctx.frow.id)
        if got is not None:
            return got
        out: list[int] = []
        seen = {ctx.frow.module_id}
        queue = [ctx]
        while queue:
            c = queue.pop(0)
            for imp in c.pf.imports:
                if imp.module.startswith("namespace "):
                    continue
                v = self.module_value(world, c, imp.module)
                if v is None or v[0] != "pkg":
                    continue
                for mid in v[1]:
                    if mid in seen:
                        continue
                    seen.add(mid)
                    out.append(mid)
                    fid = world.module_file.get(mid)
                    f = world.files.get(fid) if fid is not None else None
                    if f is not None and not f.path.endswith(_C_SOURCE_EXTS):  # a header: what it includes too
                        cc = world.ctx(fid)
                        if cc is not None:
                            queue.append(cc)
        cache[ctx.frow.id] = out
        return out

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        if imp.module.startswith("namespace "):  # C++ using-directives, using-declarations, namespace aliases
            path = imp.module[len("namespace "):].replace("::", ".").strip(".")
            if imp.name == "*":
                return ImportBinding("", f"namespace:{path}", None, star=True)
            if imp.name:
                return ImportBinding(imp.name, f"namespace:{path}.{imp.name}", None)
            return ImportBinding(imp.alias or path.rsplit(".", 1)[-1], f"namespace:{path}", None)
        # #include binds no name itself: package_member searches the include closure (flat, cycle-free)
        return ImportBinding("", imp.module, None, relative=not imp.module.startswith("<"))

    def _module_value(self, world, ctx, module: str):
        if module.startswith("namespace:"):
            return _namespace_value(world, module[len("namespace:"):])
        spec = module
        if module.startswith("<"):  # <x.h>: a header of the repository (an -I directory) unless the C library's
            spec = module.strip("<>")
            if spec in _LIBC_HEADERS or spec.startswith(("sys/", "linux/", "bits/", "mach/")):
                return None
            found = _include_suffix(world, spec)
        else:
            paths = _path_modules(world)
            here = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.frow.path), spec))
            found = here if here in paths else _include_suffix(world, spec)
        if found is None:
            return None
        paths = _path_modules(world)
        # the header and the source files of the same stem (next to it first): definitions before declarations
        sources = _c_sources(world).get(posixpath.splitext(posixpath.basename(found))[0], [])
        here_dir = posixpath.dirname(found)
        ids = [mid for p, mid in sorted(sources, key=lambda t: (posixpath.dirname(t[0]) != here_dir, t[0]))]
        ids.append(paths[found])
        return ("pkg", tuple(dict.fromkeys(ids)))


def _relative_name(world, sid: int) -> str:
    """A symbol's qualified name inside its file (``ui.Widget.draw`` of ``src.widget.ui.Widget.draw``)."""
    srow = world.syms[sid]
    f = world.files.get(srow.file_id)
    q = srow.qualified_name
    if f is not None and q.startswith(f.module + "."):
        return q[len(f.module) + 1:]
    return q


def _c_classes(world) -> dict[str, list[int]]:
    """Relative name -> classes and structs of the C/C++ files (a class and its out-of-line placeholders)."""

    def build() -> dict[str, list[int]]:
        langs = {f.id for f in world.files.values() if f.language in ("c", "cpp")}
        out: dict[str, list[int]] = defaultdict(list)
        for sid, srow in world.syms.items():
            if srow.kind in ("class", "struct") and srow.file_id in langs:
                out[_relative_name(world, sid)].append(sid)
        return dict(out)

    return _cache(world, "c-classes", build)


def _record(world, sid: int):
    srow = world.syms[sid]
    c = world.ctx(srow.file_id)
    local = c.local_of.get(sid) if c is not None else None
    return (c, c.pf.symbols[local]) if local is not None else (None, None)


def _definitions(world, sym_id: int) -> list[int] | None:
    srow = world.syms.get(sym_id)
    if srow is None or srow.kind not in ("function", "method"):
        return None
    c, sym = _record(world, sym_id)
    if sym is None or not sym.is_declaration:
        return None
    rel = _relative_name(world, sym_id)
    found = []
    for cand in world.by_name.get(srow.name, ()):
        crow = world.syms[cand]
        cf = world.files.get(crow.file_id)
        if cand == sym_id or crow.kind not in ("function", "method") or cf is None or cf.language not in ("c", "cpp"):
            continue
        if _relative_name(world, cand) != rel:
            continue
        cc, csym = _record(world, cand)
        if csym is None or csym.is_declaration or (not csym.exported and crow.file_id != srow.file_id):
            continue
        found.append((cand, cc))
    if len(found) > 1:  # the translation units that include the declaring header implement it
        header = posixpath.basename(c.frow.path)
        including = [(d, cc) for d, cc in found
                     if any(posixpath.basename(i.module.strip("<>\"")) == header for i in cc.pf.imports)]
        found = including or found
    if not found or len(found) > MAX_DEFINITIONS:
        return None
    return sorted(d for d, _ in found)


def _namespace_value(world, path: str):
    """The namespace blocks a C++ path names (``ui.detail``: every ``namespace ui { namespace detail {``),
    or a member of them (``ui.Widget``); a namespace the repository does not define is external."""
    blocks = _cache(world, "c-namespaces", lambda: _namespace_index(world))
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        ids = blocks.get(tuple(parts[:k]))
        if not ids:
            continue
        v = ("pkg", tuple(ids[:64])) if len(ids) > 1 else ("sym", ids[0])
        for part in parts[k:]:
            got = world.member(v, part, "import", 1)
            if got is None:
                return None
            v = got[0]
        return v
    return ("ext", path)


def _namespace_index(world) -> dict[tuple[str, ...], list[int]]:
    out: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for sid, srow in world.syms.items():
        if srow.kind == "namespace":
            out[world._ns_path(sid)].append(sid)
    return {k: sorted(v) for k, v in out.items()}


_C_SOURCE_EXTS = (".c", ".cc", ".cpp", ".cxx", ".c++")


def _c_sources(world) -> dict[str, list[tuple[str, int]]]:
    """File stem -> (path, module id) of the C/C++ source files (not headers) with that stem."""

    def build() -> dict[str, list[tuple[str, int]]]:
        out: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for f in world.files.values():
            stem, ext = posixpath.splitext(posixpath.basename(f.path))
            if ext.lower() in _C_SOURCE_EXTS:
                out[stem].append((f.path, f.module_id))
        return dict(out)

    return _cache(world, "c-sources", build)


def _include_suffix(world, spec: str) -> str | None:
    """The repository file an ``#include "spec"`` names when it is not next to the includer (``-I`` dirs)."""

    def build() -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for p in _path_modules(world):
            parts = p.split("/")
            for k in range(len(parts)):
                out["/".join(parts[k:])].append(p)
        return dict(out)

    index = _cache(world, "include-suffix", build)
    spec = posixpath.normpath(spec).lstrip("./")
    got = index.get(spec)
    return sorted(got, key=len)[0] if got else None


class CppRules(CRules):
    language = "cpp"
    builtin_prefix = "cpp.std"


class TsxRules(TypeScriptRules):
    language = "tsx"


for _rules in (JavaScriptRules(), TypeScriptRules(), TsxRules(), GoRules(), JavaRules(), RustRules(), CRules(), CppRules()):
    RULES[_rules.language] = _rules
