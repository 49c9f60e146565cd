"""C's resolution rules, which C++ shares (``lore.languages.cpp`` only renames them).

``#include "x.h"`` is a star import of the header, found next to the including file or by path suffix;
a header and the source file of the same stem are one package, so a call through a declaration lands
on the definition (free functions across translation units).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict, deque

from ...parsers.records import Import
from ...store.schema import CONFIDENCE
from .._rules import (
    CachedRules,
    ImportBinding,
    inherited_member,
    path_modules,
    record_of,
    twin_member,
    world_cache,
)
from ._build import _exported, _not_built, _skipped, same_platform, unit_skipped
from ._compdb import read_project as _read_compdb
from ._computed_includes import IDENT, include_spec
from ._included_sources import included_source_locals
from ._includes import _C_SOURCE_EXTS, _c_sources, _include_suffix, _on_search_path, _shadowed
from ._libc import libc_declares, libc_named
from ._namespaces import _namespace_value  # noqa: F401  (the C++ rules import it from here)
from ._overloads import (
    _best_by_arguments,
    _is_const,
    _named,
    _overloads,
    _relative_name,
    _signature_const,
    _takes,
    typed_args,
)
from ._renaming import macro_first, only_renaming, out_of_reach, renamed_in_file
from ._templates import exported_template_targets, template_targets

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
_SYSTEM_DIRS = frozenset({"sys", "bits", "mach", "linux", "asm", "netinet", "arpa", "net"})
MAX_DEFINITIONS = 8  # a prototype with more definitions than this (platform variants...) stays a declaration
MAX_ALTERNATIVES = 8  # definitions of one global name (configurations) kept as alternatives; more: unresolved
MAX_CLOSURE = 256  # headers followed through includes per file (a kernel file reaches thousands)
HELD_SETS = 64  # include_set()s kept (each up to 16 KB)



class CRules(CachedRules):
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

    def read_project(self, root, data: dict, world=None) -> None:
        """``compile_commands.json`` and the headers it makes units read, once (:mod:`._compdb`)."""
        if world is not None:
            _read_compdb(str(root), data, world)
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)  # as Java: named like the class, a constructor would shadow it
    detached_methods = True
    uppercase_calls_construct = False  # C macros and functions are often upper case; new T / T x(...) construct
    separate_declarations = True
    guesses_by_name = False  # what scopes, includes, linkage and types do not bind stays unresolved (counted)
    guesses_members = True  # but obj.m() of unknown type: the one C++ method named m, if only one

    def definitions(self, world, sym_id: int) -> list[int] | None:
        cache = world_cache(world, "c-definitions", dict)
        if sym_id not in cache:
            cache[sym_id] = _definitions(self, world, sym_id)
        return cache[sym_id]

    def skipped_branch(self, world, condition: str, file_id: int | None = None) -> bool:
        """``"0"``, or ``"?0 FLAG ..."`` (off when those project flags are undefined) when no C/C++ file of the
        project ``#define``s any of them (see :func:`_not_built`); or off under the flags the headers the file
        ``file_id`` includes define (:mod:`._unit_flags`)."""
        return _skipped(world, condition) or (
            file_id is not None and condition[:1] == "?" and unit_skipped(world, world.ctx(file_id), condition))

    overloads = True

    def choose_overload(self, world, ctx, call, targets: list[tuple]) -> list[tuple]:
        """Of the functions named like a bound target (its overloads: the same name in the same class or
        namespace, declarations and definitions alike), those whose parameters take ``len(call.args)``
        arguments (defaults and ``...`` counted), definitions first; the targets as they are when the
        overloads do not differ in what they take, or none fits; a renaming macro among them is the call's alone
        (:func:`._renaming.macro_first`, also after the overloads brought back the function it renames)."""
        first = macro_first(world, targets)
        if only_renaming(world, ctx, call, first):  # its arguments are the renamed function's: no overload of the macro
            return first
        chosen = macro_first(world, self._by_arguments(world, ctx, call, first))
        return renamed_in_file(world, ctx, call, chosen)  # (pcre2's #define print_class PCRE2_SUFFIX(...))

    def _by_arguments(self, world, ctx, call, targets: list[tuple]) -> list[tuple]:
        n = sum(not a.startswith("~") for a in call.args)  # ~const: an attribute of the call, no argument
        args: list[str] | None = None  # the arguments typed, once, when overloads differ
        out: list[tuple] = []
        changed = False
        for t in targets:
            tid = t[0]
            family = _overloads(world, tid) if tid is not None else None
            if not family:
                out.append(t)
                continue
            fits = [s for s in family if _takes(world, s, n, family)]
            if not fits:
                out.append(t)
                continue
            fits = _best_by_arguments(world, fits, args if args is not None else (args := typed_args(world, ctx, call)))
            defs = [s for s in fits if not _is_declaration(world, s)]
            chosen = defs or fits
            # f() and f() const: this->f() in a const method calls the const one; a receiver of unknown
            # constness, the plain one
            want_const = "~const" in call.args or (  # a const receiver, or this in a const method
                t[1] in ("self_method", "local_scope") and _signature_const(ctx.pf.symbols[call.caller].signature))
            same = [s for s in chosen if _is_const(world, s) == want_const]
            for s in same or chosen:
                out.append((s, t[1], t[2]))
            changed = True
        if not changed:
            return targets
        seen: dict[int | None, tuple] = {}
        for t in out:
            seen.setdefault(t[0], t)
        k = len(seen)
        return [(tid, res, CONFIDENCE.get(res, conf) / k if k > 1 else CONFIDENCE.get(res, conf))
                for tid, (_t, res, conf) in sorted(seen.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))]

    def constructor(self, world, class_id: int, name: str):
        """C++ constructors are not inherited: the class's own (declared in its body, or defined out of line and held
        by a placeholder of the same name); a class without one, or an alias (``using Ptr = std::unique_ptr<T>``,
        ``typedef Impl Engine``), constructs itself."""
        srow = world.syms.get(class_id)
        if srow is None or srow.kind not in ("class", "struct"):
            return None
        twins = [t for t in _c_classes(world).get(_relative_name(world, class_id), ())[:16] if t != class_id]
        for t in [class_id, *twins]:
            kids = world.children.get(t, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "self_method"
        return None

    def detached_member(self, world, type_id: int, name: str):
        """Members of the other classes of the same name inside the same namespaces: a header's class and the
        placeholder holding its methods defined out of line in a source file (each finds the other's members:
        methods, fields, bases)."""
        rel = _relative_name(world, type_id)
        return twin_member(world, [t for t in _c_classes(world).get(rel, ())[:16] if t != type_id], name)

    def package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name, own=True, generic=True)  # gin: C++ templates
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
        got = self.linkage(world, ctx, name)
        if got is not None:
            return got
        if ctx.pf.language == "c" and not _has_namespace(world, ctx):
            return None  # plain C: no using-declarations to follow
        closure = self.include_closure(world, ctx)
        for mid in closure:  # what the includes declare, transitively (namespaces, C++)
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

    def linkage(self, world, ctx, name: str):
        """``name`` at file level as the C linker and the includes see it: definitions in headers (``static
        inline``, macros, types) and the exported (non-``static``) definitions of source files, all of them
        alternatives (configurations: ``mm/slab_common.c`` and ``mm/slob.c`` both define ``kfree``), narrowed
        to the sources that include the declaring header when one declares it; a header's declaration without
        any definition stands for itself. Header definitions count where the file's includes reach them (out
        of reach they are not candidates, unless the only one); a function-like macro in reach is what the
        preprocessor calls. ``import`` when a header declares or defines the name, else ``global_linkage`` (a
        source calls another's function without a prototype in sight). Never a ``static`` function of another
        source file."""
        defs, hdr, decls = _globals(world, name)
        # #include "lz4.c": its statics, macros and typedefs too
        hdr = hdr + included_source_locals(self, world, ctx, name, _type_aliases(world).get(name, ()))
        if not (defs or hdr):  # a name a template inclusion pastes (FN(HistogramAdd) after #define FN(X) X##Literal)
            pasted = template_targets(self, world, ctx, name)
            res = "import" if pasted or decls else "global_linkage"
            pasted = pasted or exported_template_targets(self, world, name)  # the linker's, from any unit
            if pasted:
                return (("sym", pasted[0]) if len(pasted) == 1 else ("any", tuple(("sym", p) for p in pasted))), res
        if not (defs or hdr or decls):
            return None
        if self._libc_declares(world, ctx, name):
            # the C library's function: a project prototype restates it, another file's definition is another
            # program's (a freestanding copy) or platform's, a header out of reach another program's (zlib's
            # C++ zstream.h `read`); a macro or inline definition in reach still counts
            seen = self.include_set(world, ctx)
            defs, decls = [], []
            hdr = [h for h in hdr if world.files[world.syms[h].file_id].module_id in seen and not _not_built(world, h, ctx)]
            if not hdr:
                return None
        if any(_not_built(world, s, ctx) for s in (*defs, *hdr)):  # #ifdef _WIN32, src/win/: the default build's
            built_defs = [d for d in defs if not _not_built(world, d, ctx)]
            built_hdr = [h for h in hdr if not _not_built(world, h, ctx)]
            if built_defs or built_hdr:
                defs, hdr = built_defs, built_hdr
                decls = [d for d in decls if not _not_built(world, d, ctx)] or decls
            else:  # a macro exists only where its branch is read: close(fd) is libc's, not win32_close's
                hdr = [h for h in hdr if not _is_macro(world, h)]
                if not (defs or hdr or decls):
                    return None
        defs, hdr = same_platform(world, ctx, defs, hdr)  # src/win/tty.c: src/win/'s own
        if decls and len(defs) > 1:  # a header declares it: the sources that include that header implement it
            seen = self.include_set(world, ctx)
            # the declarations in reach; else (a kernel file reaches thousands of headers, the closure stops at
            # MAX_CLOSURE) the ones first on the search path: include/linux/slab.h, not tools/include/linux/slab.h
            decls = [d for d in decls if world.files[world.syms[d].file_id].module_id in seen] or \
                [d for d in decls if not _shadowed(world, world.files[world.syms[d].file_id].path)
                 and not _not_built(world, d)] or decls
            implementing = sorted({d for decl in decls for d in self.definitions(world, decl) or ()})
            defs = [d for d in defs if d in implementing] or defs
        if hdr:  # header definitions count where the file's includes reach them
            hdr = [h for h in hdr if not _shadowed(world, world.files[world.syms[h].file_id].path)] or hdr
            seen = self.include_set(world, ctx)
            visible = [h for h in hdr if world.files[world.syms[h].file_id].module_id in seen]
            if visible:
                hdr = visible
            elif defs or len(hdr) > 1:  # another program's header, another configuration's: not this file's
                hdr = [] if defs else out_of_reach(world, hdr)  # (a renaming macro beside the one definition)
        macros = self._latest_macros(world, [h for h in hdr if _is_macro(world, h)])
        cands = macros or hdr + defs  # a function-like macro in sight is what the preprocessor calls
        if not cands:
            return (("sym", decls[0]), "import") if decls else None
        if len(cands) > MAX_ALTERNATIVES:
            seen = self.include_set(world, ctx)
            cands = [h for h in hdr if world.files[world.syms[h].file_id].module_id in seen] or defs
            if not cands or len(cands) > MAX_ALTERNATIVES:
                return None
        if len(cands) > 1 and all(world.syms[c].kind == "type_alias" for c in cands):
            return None  # a cast to one of several typedefs nothing decides between: no guess (a call has alternatives)
        res = "import" if hdr or decls else "global_linkage"
        if len(cands) == 1:
            return ("sym", cands[0]), res
        return ("any", tuple(sorted((("sym", c) for c in cands), key=repr))), res

    def _libc_declares(self, world, ctx, name: str) -> bool:
        """Whether a standard header the file reads (itself or through its headers) declares ``name``."""
        return libc_named(name) and libc_declares(world, self, ctx, self.include_closure(world, ctx), name)

    def _latest_macros(self, world, macros: list[int]) -> list[int]:
        """Of a macro defined in several headers, the definitions of the headers that include the others: a header
        includes first and defines after, so its definition replaces theirs (libuv's ``uv-common.h`` restates
        ``UV__ERR`` after including ``uv.h``, whose ``uv/errno.h`` defines it)."""
        files = {world.syms[m].file_id for m in macros}
        if len(files) < 2:
            return macros
        reach = {}
        for fid in files:
            c = world.ctx(fid)
            reach[fid] = self.include_set(world, c) if c is not None else frozenset()
        later = [m for m in macros if not any(world.files[world.syms[m].file_id].module_id in reach[f]
                                              for f in files if f != world.syms[m].file_id)]
        return later or macros

    def include_set(self, world, ctx) -> frozenset[int]:
        """The module ids of :meth:`include_closure`, as a set."""
        cache = world_cache(world, "c-include-sets", dict)
        got = cache.get(ctx.frow.id)
        if got is None:
            if len(cache) >= HELD_SETS:  # the kept closure rebuilds one: all of them held cost a kernel's resolvers GBs
                cache.clear()
            got = cache[ctx.frow.id] = frozenset(self.include_closure(world, ctx))
        return got

    def include_closure(self, world, ctx) -> list[int]:
        """Module ids a file sees through ``#include``, nearest first: each included header with the source files
        of its stem (definitions first), then what those headers include, breadth first. Computed once per file
        from the include texts alone, so a name lookup is a flat search, never a walk through include cycles."""
        cache = world_cache(world, "c-includes", dict)
        got = cache.get(ctx.frow.id)
        if got is not None:
            return got
        out: list[int] = []
        seen = {ctx.frow.module_id}
        steps = world_cache(world, "c-include-steps", dict)  # per file: what its own includes name, in order
        queue = deque([ctx.frow.id])
        while queue and len(out) < MAX_CLOSURE:
            fid = queue.popleft()
            got = steps.get(fid)
            if got is None:
                got = steps[fid] = self._include_steps(world, ctx if fid == ctx.frow.id else world.ctx(fid))
            mids, headers = got
            if seen.issuperset(mids):  # deep in the walk most headers add nothing new: one test in C
                continue
            for mid, header in zip(mids, headers, strict=True):
                if mid in seen:
                    continue
                seen.add(mid)
                out.append(mid)
                if header is not None:  # a header: what it includes too
                    queue.append(header)
        cache[ctx.frow.id] = out
        return out

    def _include_steps(self, world, c) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
        """The module ids ``c``'s own ``#include``\\ s name, in order, and for each its file's id when that file is
        a header (followed further; one without records adds nothing), else ``None``: one file's step of
        :meth:`include_closure`, the same for every file whose closure passes through it."""
        mids: list[int] = []
        headers: list[int | None] = []
        for imp in c.pf.imports if c is not None else ():
            if imp.module.startswith("namespace "):
                continue
            v = self.module_value(world, c, imp.module)
            if v is None or v[0] != "pkg":
                continue
            for mid in v[1]:
                fid = world.module_file.get(mid)
                f = world.files.get(fid) if fid is not None else None
                mids.append(mid)
                headers.append(fid if f is not None and not f.path.endswith(_C_SOURCE_EXTS) else None)
        return tuple(mids), tuple(headers)

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
        if IDENT.fullmatch(module):  # #include FT_CONFIG_OPTIONS_H: the header the macro names
            named = include_spec(world, module)
            return self._module_value(world, ctx, named) if named and not IDENT.fullmatch(named) else None
        spec = module.strip("<>") if module.startswith("<") else module
        found = None
        if not module.startswith("<"):  # "x.h": next to the includer first
            here = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.frow.path), spec))
            found = here if here in path_modules(world) else None
        if found is None:  # then the include search path (-I include, arch/x86/include, ...)
            found = _on_search_path(world, spec, ctx.frow.path)
        if found is None and spec not in _LIBC_HEADERS and not (module.startswith("<") and "/" in spec
                                                               and spec.split("/")[0] in _SYSTEM_DIRS):
            found = _include_suffix(world, spec)  # a folder the build adds with -I that the search path misses
        if found is None:
            return None
        paths = path_modules(world)
        # the header and the source files of the same stem (next to it first): definitions before declarations
        sources = _c_sources(world).get(posixpath.splitext(posixpath.basename(found))[0], [])
        here_dir = posixpath.dirname(found)
        near = [t for t in sources if posixpath.dirname(t[0]) == here_dir]
        sources = near or (sources if len(sources) <= 2 else [])  # a kernel's init.h is not every init.c
        ids = [mid for p, mid in sorted(sources)]
        ids.append(paths[found])
        return ("pkg", tuple(dict.fromkeys(ids)))


def _is_macro(world, sid: int) -> bool:
    _c, sym = record_of(world, sid)
    return sym is not None and sym.signature.startswith("#")


def _is_declaration(world, sid: int) -> bool:
    _c, sym = record_of(world, sid)
    return sym is not None and sym.is_declaration


def _globals(world, name: str) -> tuple[list[int], list[int], list[int]]:
    """File-level ``name`` in the C/C++ files: (exported definitions of source files, definitions in headers,
    declarations in headers), each sorted by id. ``static`` definitions of source files are in none."""
    cache = world_cache(world, "c-globals", dict)
    got = cache.get(name)
    if got is not None:
        return got
    defs: list[int] = []
    hdr: list[int] = []
    decls: list[int] = []
    for sid in [*_named(world, name), *_type_aliases(world).get(name, ())]:
        srow = world.syms[sid]
        if srow.kind in ("module", "namespace", "method", "external"):
            continue
        parent = world.syms.get(srow.parent_id) if srow.parent_id is not None else None
        f = world.files.get(srow.file_id) if srow.file_id is not None else None
        if parent is None or parent.kind != "module" or f is None or f.language not in ("c", "cpp"):
            continue
        header = not f.path.endswith(_C_SOURCE_EXTS)
        if srow.kind != "function":
            if header:
                hdr.append(sid)
            continue
        _c, sym = record_of(world, sid)
        if sym is None:
            continue
        if sym.is_declaration:
            if header:
                decls.append(sid)
        elif header:
            hdr.append(sid)
        elif _exported(world, sym):
            defs.append(sid)
    got = cache[name] = (sorted(defs), sorted(hdr), sorted(decls))
    return got


def _type_aliases(world) -> dict[str, list[int]]:
    """Name -> the ``typedef`` names of the C/C++ files (``world.by_name`` holds what can be called, not aliases):
    a cast written ``(png_byte)(v)`` reads as a call of the alias a header defines, as it does in the same file."""

    def build() -> dict[str, list[int]]:
        langs = {f.id for f in world.files.values() if f.language in ("c", "cpp")}
        out: dict[str, list[int]] = defaultdict(list)
        for srow in world.of_kinds(frozenset({"type_alias"})):  # id order, without reading every row
            if srow.file_id in langs:
                out[srow.name].append(srow.id)
        return dict(out)

    return world_cache(world, "c-type-aliases", build)


def _c_classes(world) -> dict[str, list[int]]:
    """Relative name -> classes and structs of the C/C++ files (a class and its out-of-line placeholders)."""

    def build() -> dict[str, list[int]]:
        langs = {f.id for f in world.files.values() if f.language in ("c", "cpp")}
        out: dict[str, list[int]] = defaultdict(list)
        for srow in world.of_kinds(frozenset({"class", "struct"})):
            if srow.file_id in langs:
                out[_relative_name(world, srow.id)].append(srow.id)
        return dict(out)

    return world_cache(world, "c-classes", build)


def _definitions(rules, world, sym_id: int) -> list[int] | None:
    srow = world.syms.get(sym_id)
    if srow is None or srow.kind not in ("function", "method"):
        return None
    c, sym = record_of(world, sym_id)
    if sym is None or not sym.is_declaration:
        return None
    rel = _relative_name(world, sym_id)
    found = []
    for cand in _named(world, srow.name):
        crow = world.syms[cand]
        cf = world.files.get(crow.file_id)
        if cand == sym_id or crow.kind not in ("function", "method") or cf is None or cf.language not in ("c", "cpp"):
            continue
        if _relative_name(world, cand) != rel:
            continue
        cc, csym = record_of(world, cand)
        if csym is None or csym.is_declaration or (crow.file_id != srow.file_id and not _exported(world, csym)):
            continue
        found.append((cand, cc))
    if len(found) > 1:  # the default build's: not in a skipped #if branch nor another platform's file
        found = [(d, cc) for d, cc in found if not _not_built(world, d)] or found
    if len(found) > 1:  # the translation units that include the declaring header implement it
        header = posixpath.basename(c.frow.path)
        including = [(d, cc) for d, cc in found if any(_includes(rules, world, cc, i, header, c.frow.module_id)
                                                        for i in cc.pf.imports)]
        found = including or found
    if not found or len(found) > MAX_DEFINITIONS:
        return None
    return sorted(d for d, _ in found)


def _includes(rules, world, ctx, imp: Import, header: str, header_module: int) -> bool:
    """Whether ``imp`` of the file ``ctx`` includes the header (its name, then where the search path finds it:
    ``tools/lib/slab.c``'s ``<linux/slab.h>`` is ``tools/include/linux/slab.h``, not ``include/linux/slab.h``)."""
    if posixpath.basename(imp.module.strip("<>\"")) != header:
        return False
    v = rules.module_value(world, ctx, imp.module)
    return v is None or v[0] != "pkg" or header_module in v[1]


def _has_namespace(world, ctx) -> bool:
    """Whether the file declares a namespace (asked for every name a C file looks up: once per file)."""
    cache = world_cache(world, "c-has-namespace", dict)
    got = cache.get(ctx.frow.id)
    if got is None:
        got = cache[ctx.frow.id] = any(s.kind == "namespace" for s in ctx.pf.symbols)
    return got
