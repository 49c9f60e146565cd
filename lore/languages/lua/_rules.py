"""Lua's resolution rules: ``require("a.b")`` names ``a/b.lua`` or ``a/b/init.lua`` under one of the project's
Lua roots (the root, ``src/``, ``lua/``, ``lib/``, or any folder the dotted name ends in, as ``package.path``
templates do), and binds what that file returns (``return M``). ``self`` in a function of table ``C`` is a
``C``. The standard library (``string.format``, ``table.insert``, ``print``) is outside the project.

A name guess (a call through a value lore cannot type) only binds inside the files the caller requires
and the caller's own file; a bare ``f()`` not bound in the file may also be a global function another file
defines (Lua globals are shared by every file that runs): that guess stays ``name_only``.
"""

from __future__ import annotations

from ...parsers.records import Import
from .._rules import CachedRules, ImportBinding, imported_files, record_of, world_cache

# the global functions and tables of Lua 5.1-5.4 and LuaJIT
_GLOBAL_FUNCTIONS = frozenset({
    "assert", "collectgarbage", "dofile", "error", "getfenv", "getmetatable", "ipairs", "load", "loadfile",
    "loadstring", "module", "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset",
    "require", "select", "setfenv", "setmetatable", "tonumber", "tostring", "type", "unpack", "xpcall",
    "newproxy", "gcinfo",
})
_GLOBAL_TABLES = frozenset({
    "string", "table", "math", "os", "io", "coroutine", "debug", "package", "utf8", "bit32", "bit", "jit",
    "ffi", "_G", "_ENV", "arg",
})
_ROOTS = ("", "src.", "lua.", "lib.")


class LuaRules(CachedRules):
    language = "lua"
    implicit_receivers = {"self": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = False  # a table's functions reach each other through M. / self: only
    uppercase_calls_construct = False
    whole_module_exports = True
    same_file_guess_for_members = True
    imports_reexported = False  # a local of one file is never seen by the files requiring it
    builtin_functions = _GLOBAL_FUNCTIONS
    builtin_prefix = "lua"
    # methods of strings and files (``s:format()``, ``f:read()``): an untyped receiver calling these is
    # never bound to a repository method by the name alone
    builtin_method_names = frozenset({
        "byte", "find", "format", "gmatch", "gsub", "len", "lower", "match", "rep", "reverse", "sub", "upper",
        "read", "write", "lines", "close", "seek", "flush", "setvbuf", "insert", "remove", "concat", "sort",
        "unpack", "pack",
    })

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        if not imp.alias:
            return None
        if imp.name is None or imp.name == "module.exports":
            return ImportBinding(imp.alias, imp.module, None)
        return ImportBinding(imp.alias, imp.module, imp.name)

    def _module_value(self, world, ctx, module: str):
        if not module or "/" in module:
            return None
        for root in _ROOTS:
            for cand in (root + module, f"{root}{module}.init"):
                mid = world.modules.get(cand)
                if mid is not None:
                    return ("sym", mid)
        ids = _by_suffix(world).get(module)
        if ids and len(ids) == 1:  # a root lore does not know (``src/lua/``, ``contrib/``): one file ends so
            return ("sym", ids[0])
        return None

    def exports_value(self, world, mod, want: str | None, depth: int):
        """``return M``: ``require`` binds ``M``, ``require(...).f`` binds ``M.f``; a module returning no
        name (``return {f = f}``, no return) is the module itself."""
        if mod[0] != "sym":
            return None
        srow = world.syms.get(mod[1])
        if srow is None or srow.kind != "module":
            return None
        got = world.module_member(mod[1], "module.exports", depth)
        if got is None:
            return None
        value = got[0]
        if want is None:
            return value, "import"
        return world.member(value, want, "import", depth + 1)

    def package_member(self, world, ctx, scope: int, name: str):
        if name in _GLOBAL_TABLES:
            return ("ext", name), "external"
        return None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        if len(parts) > 1 and any(ib is not None and ib.name == parts[0] for ib in ctx.import_bindings):
            return []  # ``fs.Q()`` with ``fs`` a required module that lacks ``Q``: no other file's ``Q``
        if len(parts) > 2 and parts[0] != "self":  # ``a.b.c()``: the name of a member of a member says little
            return []
        reach = self._required_files(world, ctx)
        out = []
        for s in cands:
            srow = world.syms[s]
            if len(parts) > 1:  # ``x.m()``: a member of some table, never a file's own function
                parent = world.syms.get(srow.parent_id) if srow.parent_id is not None else None
                if parent is None or parent.kind != "class":
                    continue
            if srow.file_id in reach:
                out.append(s)
            elif len(parts) == 1 and srow.kind == "function" and _is_global(world, s):
                out.append(s)  # a global function of another file
        return out

    def _required_files(self, world, ctx) -> set[int]:
        cache = world_cache(world, "lua-reach", dict)
        got = cache.get(ctx.frow.id)
        if got is None:
            got = cache[ctx.frow.id] = {ctx.frow.id} | imported_files(world, ctx)
        return got


def _is_global(world, sid: int) -> bool:
    """Whether function ``sid`` is a global (``function f()`` at a file's top level, not ``local``)."""
    parent = world.syms.get(world.syms[sid].parent_id)
    if parent is None or parent.kind != "module":
        return False
    _c, rec = record_of(world, sid)
    return rec is not None and rec.exported


def _by_suffix(world) -> dict[str, list[int]]:
    """Every dotted tail of every Lua module name (``a.b`` of ``x.y.a.b``; ``a.b`` of ``x.a.b.init``) ->
    the module ids ending so."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for f in sorted(world.files.values(), key=lambda f: f.id):
            if f.language != "lua":
                continue
            parts = f.module.split(".")
            if parts[-1] == "init" and len(parts) > 1:
                parts = parts[:-1]
            for i in range(1, len(parts)):
                out.setdefault(".".join(parts[i:]), []).append(f.module_id)
        return out

    return world_cache(world, "lua-suffix", build)
