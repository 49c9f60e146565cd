"""Go's resolution rules: packages are directories, methods may be declared in another file.

An import path under the module path of a ``go.mod`` of the repository (``example.com/app/internal/store``
with ``module example.com/app``) is the directory below that ``go.mod``; otherwise a vendored copy
(``vendor/<path>``) or a directory whose path ends with the whole import path (GOPATH layouts); anything
else is external, never matched by a shorter tail. Only files outside every ``go.mod`` fall back to the
longest tail of the path that names a directory. Files of one directory see each other's top-level names.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from ...parsers.records import Import
from .._rules import (
    CachedRules,
    ImportBinding,
    detached_method,
    dir_modules,
    is_gomod,
    siblings_member,
    world_cache,
)

# -- Go -------------------------------------------------------------------------------------------------
_GO_STD = frozenset({
    "archive", "bufio", "bytes", "cmp", "compress", "container", "context", "crypto", "database", "debug",
    "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html", "image", "index", "io",
    "iter", "log", "maps", "math", "mime", "net", "os", "path", "plugin", "reflect", "regexp", "runtime",
    "slices", "sort", "strconv", "strings", "sync", "syscall", "testing", "text", "time", "unicode",
    "unique", "unsafe", "C",
})


class GoRules(CachedRules):
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
        dirs = dir_modules(world, ("go",))
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
        suffixes = world_cache(world, "go-suffixes", lambda: _suffix_index(dirs))
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
        return siblings_member(world, ctx, name, ("go",))

    detached_methods = True

    def detached_member(self, world, type_id: int, name: str):
        """``func (r *Repo) m()`` in another file of Repo's package: a module-level method ``<file>.Repo.m``."""
        mid = detached_method(world, type_id, name, posixpath.dirname)
        return (("sym", mid), "self_method") if mid is not None else None


def _go_modules(world) -> list[tuple[str, str]]:
    """(module path, directory) of every ``go.mod`` of the repository, longest module path first."""

    def build() -> list[tuple[str, str]]:
        out = []
        for f in world.files.values():
            if f.language != "go" or not is_gomod(f.path):
                continue
            c = world.ctx(f.id)
            sig = c.pf.symbols[0].signature if c is not None and c.pf.symbols else ""
            if sig.startswith("module "):
                out.append((sig[len("module "):].strip(), posixpath.dirname(f.path)))
        return sorted(out, key=lambda t: (-len(t[0]), t))

    return world_cache(world, "go-modules", build)


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
