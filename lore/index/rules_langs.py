"""Resolution rules of the non-Python languages, registered into :data:`lore.index.rules.RULES`.

Module names of non-Python files are their paths without extension (``src/util/strings.ts`` ->
``src.util.strings``); what an import names is language knowledge, found here:

* JavaScript / TypeScript: the specifier as written; relative ones (``./util``) are joined to the
  importing file's directory and tried as a file (``.js``/``.ts``... already stripped from module
  names) and as a directory's ``index`` file. Bare specifiers (``react``) are external.
* Go: a package is a directory; an import path is matched to the directory whose path is its longest
  suffix (``example.com/app/internal/store`` -> ``internal/store``), so the module path of ``go.mod``
  is not needed; files of one directory see each other's top-level names.
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


def _dir_modules(world, languages: tuple[str, ...]) -> dict[str, list[int]]:
    """Directory -> module symbol ids of the files of ``languages`` in it (sources before headers)."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for f in sorted(world.files.values(), key=lambda f: (f.path.endswith((".h", ".hpp", ".hh")), f.path)):
            if f.language in languages:
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
})


class JavaScriptRules(_Rules):
    language = "javascript"
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    constructor_names = ("constructor",)
    builtin_functions = _JS_GLOBALS
    builtin_method_names = _JS_METHODS
    builtin_prefix = "js.global"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        relative = imp.module.startswith(".")
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True, relative=relative)
        if imp.name is None:
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
        for cand in (base, f"{base}/index" if base else "index"):
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
        suffixes = _cache(world, "go-suffixes", lambda: _suffix_index(dirs))
        here = ctx.frow.path.split("/")
        for k in range(len(parts)):  # the longest tail of the import path that ends a directory of the repo
            cands = suffixes.get("/".join(parts[k:]))
            if cands:
                # several (a vendored copy, another module): the one nearest to the importing file
                best = max(cands, key=lambda d: (_common_prefix(d.split("/"), here), -len(d)))
                return ("pkg", tuple(dirs[best]))
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
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)  # as javap names them: named like the class, a constructor would shadow it
    builtin_functions = frozenset({
        "System", "String", "Math", "Integer", "Long", "Double", "Boolean", "Character", "Objects", "Arrays",
        "Collections", "List", "Map", "Set", "Optional", "Thread", "StringBuilder", "Object",
    })
    builtin_method_names = frozenset({
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
        relative = imp.module.split(".")[0] in ("crate", "self", "super")
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True, relative=relative)
        if imp.name is None:
            name = imp.alias or imp.module.rsplit(".", 1)[-1]
            return ImportBinding(name, imp.module, None, relative=relative)
        return ImportBinding(imp.alias or imp.name, imp.module, imp.name, relative=relative)

    def _module_value(self, world, ctx, module: str):
        parts = module.split(".")
        path = ctx.frow.path
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
        else:  # use circle::Circle: a submodule of this module, else another crate
            base = here
        target = "/".join([base, *parts]) if base else "/".join(parts)
        for cand in (target, f"{target}/mod", f"{target}/lib", f"{target}/main"):
            got = _module_of_path(world, cand.lstrip("/"))
            if got is not None:
                return got
        return None

    detached_methods = True

    def detached_member(self, world, type_id: int, name: str):
        """``impl Type`` in another file of the crate: a module-level method ``<file>.Type.name``."""
        mid = _detached_method(world, type_id, name, _crate_root)
        return (("sym", mid), "self_method") if mid is not None else None

    def package_member(self, world, ctx, scope: int, name: str):
        if name in ("crate", "self", "super"):  # crate::a::f() written in code
            v = self.module_value(world, ctx, name)
            return (v, "import") if v is not None else None
        return None


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
})


class CRules(_Rules):
    """C and C++ share these: a ``.h`` file is C by its extension but may hold C++ (the parser then reads
    it as C++), and the C++ rules cost nothing on plain C (no ``this``, no classes, no ``A::m``)."""

    language = "c"
    first_param_is_receiver = False
    builtin_functions = _C_LIB
    builtin_prefix = "c.stdlib"
    languages = ("c", "cpp")
    implicit_receivers = {"this": "inst"}
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)  # as Java: named like the class, a constructor would shadow it
    detached_methods = True

    def detached_member(self, world, type_id: int, name: str):
        """``void A::m() {}`` in a source file is a child of a placeholder ``A`` there, with the qualified name
        of the header's ``A`` (header and source of one stem share their module name): each finds the
        other's members (methods, fields, bases)."""
        for twin in world.by_qname.get(world.syms[type_id].qualified_name, ()):
            if twin != type_id and world.syms[twin].kind in ("class", "struct"):
                got = world.class_member(twin, name)
                if got is not None:
                    return got
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        return _inherited_member(world, ctx, scope, name, own=True)

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return ImportBinding("", imp.module, None, star=True, relative=not imp.module.startswith("<"))

    def _module_value(self, world, ctx, module: str):
        if module.startswith("<"):
            return None
        paths = _path_modules(world)
        here = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.frow.path), module))
        found = here if here in paths else None
        if found is None:
            found = _include_suffix(world, module)
        if found is None:
            return None
        # the header and the source files of the same stem (next to it first): definitions before declarations
        sources = _c_sources(world).get(posixpath.splitext(posixpath.basename(found))[0], [])
        here_dir = posixpath.dirname(found)
        ids = [mid for p, mid in sorted(sources, key=lambda t: (posixpath.dirname(t[0]) != here_dir, t[0]))]
        ids.append(paths[found])
        return ("pkg", tuple(dict.fromkeys(ids)))


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
