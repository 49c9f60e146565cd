"""What a default build compiles (Linux, x86_64, GCC, no ``-D``), as far as the whole project tells: the
preprocessor branches a file could not decide alone (``"?0 FLAG"``: off when no file defines ``FLAG`` where a
build reads it), other platforms' files, and definitions made file-local by a macro that expands to ``static``.
(:mod:`._conditions` decides what one file tells; :mod:`._rules` drops what is not built among alternatives.)"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Container, Mapping

from .._rules import path_modules, record_of, world_cache
from ._compdb import Flags, compdb, flags_for
from ._ifexpr import DEFINED, UNKNOWN, evaluate
from ._includes import _C_SOURCE_EXTS
from ._macro_tally import MacroTally
from ._unit_flags import Known, unit_skips

_NO_FLAGS = Flags()

# folders (and file names) of another system's code: a default build (Linux, x86_64) compiles none of them
_OTHER_PLATFORM_DIRS = frozenset({
    "win", "win32", "win64", "windows", "mingw", "msvc", "cygwin", "darwin", "mac", "macos", "macosx", "osx",
    "ios", "bsd", "freebsd", "netbsd", "openbsd", "dragonfly", "aix", "sunos", "solaris", "haiku", "qnx", "os390",
    "zos", "hurd", "ibmi", "os400", "emscripten", "vms", "os2", "msdos", "amiga", "beos",
})
_OTHER_PLATFORM_FILES = frozenset({
    "win32", "win64", "windows", "mingw", "msvc", "cygwin", "darwin", "macos", "macosx", "osx", "freebsd",
    "netbsd", "openbsd", "dragonfly", "aix", "sunos", "solaris", "haiku", "qnx", "os390", "hurd", "ibmi",
    "emscripten",
})


def _other_platform(path: str) -> bool:
    """Whether a file is another system's or architecture's (``src/win/fs.c``, ``src/unix/darwin.c``,
    ``arch/arm/mm/init.c``): ``arch/<name>/`` other than ``x86``, a folder or a file name part naming
    another system."""
    parts = path.lower().split("/")
    if len(parts) > 2 and parts[0] == "arch" and parts[1] != "x86":
        return True
    if any(p in _OTHER_PLATFORM_DIRS for p in parts[:-1]):
        return True
    stem = posixpath.splitext(parts[-1])[0]
    return any(t in _OTHER_PLATFORM_FILES for t in stem.replace("-", "_").split("_"))


def platform_home(path: str) -> str | None:
    """The folder of another system a file sits in (``src/win/pipe.c``: ``src/win/``; ``arch/arm/mm/init.c``:
    ``arch/arm/``), ``None`` for the default build's files (and those only named after a system)."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == "arch" and parts[1] != "x86":
        return f"arch/{parts[1]}/"
    for i, p in enumerate(parts[:-1]):
        if p.lower() in _OTHER_PLATFORM_DIRS:
            return "/".join(parts[: i + 1]) + "/"
    return None


def same_platform(world, ctx, defs: list[int], hdr: list[int]) -> tuple[list[int], list[int]]:
    """Of a name's definitions seen from a file of another system (``src/win/tcp.c``), those in its own system's
    headers when there are any (``src/win/stream-inl.h``'s ``uv__stream_init``, not ``src/unix/stream.c``'s): the
    file is compiled by that system's build, with those headers. ``(defs, hdr)`` unchanged otherwise (another
    system's source files stay out of the default build's answers: clangd's own answers differ there)."""
    home = platform_home(ctx.frow.path) if ctx is not None else None
    if home is None or len(defs) + len(hdr) < 2:
        return defs, hdr
    mine = [h for h in hdr if (f := world.files.get(world.syms[h].file_id)) is not None and f.path.startswith(home)]
    return ([], mine) if mine else (defs, hdr)


def _not_built(world, sid: int, ctx=None) -> bool:
    """Whether a definition is outside what a default build compiles: in a preprocessor branch its file skips
    (``#ifdef _WIN32``, see :mod:`lore.languages.c._conditions`) or in another platform's file. Seen from the
    source file ``ctx`` (when given), a branch that needs a flag that file ``#define``s itself is compiled: a
    source's ``#define`` reaches the headers of its own translation unit, no other file."""
    cache = world_cache(world, "c-not-built", dict)
    got = cache.get(sid)
    if got is None:
        srow = world.syms[sid]
        f = world.files.get(srow.file_id) if srow.file_id is not None else None
        unit = _built_by_database(world, f, sid) if f is not None else None
        got = cache[sid] = (unit if unit is not None else
                            (f is not None and _other_platform(f.path)) or _skipped(world, _condition(world, sid))) or (
            # a source's branch, read with the flags its own headers define
            f is not None and f.path.endswith(_C_SOURCE_EXTS) and unit_skipped(world, world.ctx(f.id), _condition(world, sid)))
    if got and ctx is not None and (home := platform_home(ctx.frow.path)) is not None:
        f = world.files.get(world.syms[sid].file_id)
        if f is not None and f.path.startswith(home) and not f.path.endswith(_C_SOURCE_EXTS):
            return False  # src/win/pipe.c reads src/win/req-inl.h's macros: its own build's headers
    if ctx is not None and ctx.frow.path.endswith(_C_SOURCE_EXTS):  # a header's definition, in the caller's unit
        f = world.files.get(world.syms[sid].file_id)
        if f is not None and not f.path.endswith(_C_SOURCE_EXTS) and (
                flags_for(world, ctx.frow.path) is not None if compdb(world) is not None
                else ctx.frow.path.endswith(".c")):  # no database: a C source is a unit without -D (C++ as before)
            return _other_platform(f.path) or _unit_skipped(world, _condition(world, sid), ctx.frow.path,
                                                            _own_defines(world, ctx)) or \
                unit_skipped(world, ctx, _condition(world, sid), f.id)  # a header's branch, under the flags before it
    if got and ctx is not None:
        cond = _condition(world, sid).partition("|")[0]
        if cond.startswith("?0 ") and not set(cond[3:].split()).isdisjoint(_own_defines(world, ctx)):
            f = world.files.get(world.syms[sid].file_id)
            return f is None or _other_platform(f.path)
    return got


def unit_skipped(world, ctx, cond: str, header: int | None = None) -> bool:
    """:func:`._unit_flags.unit_skips` with what the project tells (its macros, defines and other platforms)."""
    known = world_cache(world, "c-unit-known", lambda: Known(
        world_cache(world, "c-project-macros", lambda: _ProjectMacros(world)), _project_defines(world), _other_platform))
    return unit_skips(world, known, ctx, cond, header)


def _built_by_database(world, f, sid: int) -> bool | None:
    """Whether a source file's definition is off in the build the compilation database describes: the file is
    compiled nowhere, or its branch is off under the file's own flags; ``None`` without a database or for a
    header (a header is read with its includer's flags)."""
    if not f.path.endswith(_C_SOURCE_EXTS) or compdb(world) is None:
        return None
    if flags_for(world, f.path) is None:
        return True
    return _unit_skipped(world, _condition(world, sid), f.path, frozenset())


def _unit_skipped(world, cond: str, unit: str, own: frozenset[str]) -> bool:
    """:func:`_skipped` in the translation unit of the source file ``unit``, whose compile command (see
    :mod:`._compdb`) says which flags are defined and with what value (``own``: the names the source
    ``#define``s itself): a flag neither the command, the unit's source nor a header of the project defines is
    undefined."""
    if cond in ("", "0"):
        return cond == "0"
    state, _, expr = cond.partition("|")
    if not state.startswith("?"):
        return False
    flags = flags_for(world, unit)
    cplusplus = not unit.endswith(".c")  # the unit's language decides __cplusplus in the headers it reads
    defines = flags.defines if flags is not None else {}
    given = _enabling(world, frozenset(n for n, v in defines.items() if v is not None) | own)
    # units without a command of their own share answers (a default build: the kernel's thousands of sources):
    # of what the unit's source defines, only the names the condition reads count
    words = _words(world, cond)
    key = (unit if flags is not None else cplusplus, cond, own & words, _defined_under_options(world, unit) & words,
           given)
    cache = world_cache(world, "c-unit-skipped", dict)
    got = cache.get(key)
    if got is None:
        project = _unit_project_defines(world, given) | own | key[3]
        # a kernel option is decided by a configuration (the tree's autoconf.h, or one the command reads first);
        # without one it is open, as if some file defined it
        configured = _configured(world) or any(n.startswith("CONFIG_") for n in defines)


        def unsure(names) -> bool:
            return any(n in project or (not configured and n.startswith("CONFIG_")) for n in names)

        names = state[3:].split() if state.startswith("?0 ") else []
        got = bool(names) and not any(defines.get(n) is not None or n in own for n in names) and not unsure(names)
        if not got and expr:
            macros = _UnitMacros(world_cache(world, "c-project-macros", lambda: _ProjectMacros(world)), defines, own)
            known = evaluate(expr, macros, cplusplus=cplusplus)  # decided by what is known, whatever the rest
            if known is None:  # else by reading the flags nobody defines as undefined
                assumed: set[str] = set()
                got = evaluate(expr, macros, cplusplus=cplusplus, assumed=assumed) is False
                blocked = {n for n in assumed if unsure((n,))}
                if got and blocked:  # read again with the names some header defines left open: (A || B) && F(x)
                    again: set[str] = set()
                    open_ = _UnitMacros(macros.base, {**dict.fromkeys(blocked, UNKNOWN), **defines}, own)
                    got = evaluate(expr, open_, cplusplus=cplusplus, assumed=again) is False and not unsure(again)
            else:
                got = known is False
        cache[key] = got
    return got


def _words(world, cond: str) -> frozenset[str]:
    """The names a branch state reads."""
    cache = world_cache(world, "c-cond-words", dict)
    got = cache.get(cond)
    if got is None:
        got = cache[cond] = frozenset(re.findall(r"[A-Za-z_]\w*", cond))
    return got


def _enabling(world, given: frozenset[str]) -> frozenset[str]:
    """The names of ``given`` some header's conditional ``#define`` needs (the rest enable nothing)."""
    needs = world_cache(world, "c-conditional-needs",
                        lambda: frozenset(n for _name, ns in _conditional_defines(world) for n in ns))
    return given & needs


def _defined_under_options(world, unit: str) -> frozenset[str]:
    """The names the source file ``unit`` ``#define``s in a branch that needs a kernel option."""
    cache = world_cache(world, "c-under-options", dict)
    got = cache.get(unit)
    if got is None:
        mid = path_modules(world).get(unit)
        fid = world.module_file.get(mid) if mid is not None else None
        c = world.ctx(fid) if fid is not None else None
        got = cache[unit] = frozenset(
            e.split(" ", 1)[0] for e in (c.pf.defines if c is not None else ())
            if " " in e and not e.startswith("=") and any(n.startswith("CONFIG_") for n in e.split()[2:]))
    return got


class _Defined:
    """Names defined for one unit: the project's (a container read name by name, never copied: the kernel's
    has over a million names) and the few ``extra`` ones the unit's flags add."""

    __slots__ = ("base", "extra")

    def __init__(self, base: Container[str], extra: frozenset[str]) -> None:
        self.base, self.extra = base, extra

    def __contains__(self, name: object) -> bool:
        return name in self.extra or name in self.base

    def __or__(self, more: frozenset[str]) -> _Defined:
        return _Defined(self.base, self.extra | more)


def _unit_project_defines(world, given: frozenset[str]) -> _Defined:
    """:func:`_project_defines` in a unit whose command (and source) defines ``given``: a header's ``#define`` in a
    branch that needs one of those flags is made there too (xz's ``MYTHREAD_ENABLED`` under ``-DMYTHREAD_POSIX``)."""
    cache = world_cache(world, "c-unit-project-defines", dict)
    got = cache.get(given)
    if got is None:
        base = _project_defines(world)
        always, pending = _pending_defines(world)
        out = set(given) | always  # what the unit adds to the project's names (the least fixed point over the pending)
        while pending:
            more = [name for name, needs in pending if name not in out and any(n in out for n in needs)]
            if not more:
                break
            out.update(more)
        got = cache[given] = _Defined(base, frozenset(out))
    return got


def _pending_defines(world) -> tuple[frozenset[str], list[tuple[str, tuple[str, ...]]]]:
    """The conditional ``#define``\\ s the project does not make already, split once per world (not once per
    unit's flags: each name's test against the project's tally costs a search): those a flag the project
    defines enables (made in every unit), and the rest, which only a unit's own flags can enable."""

    def build() -> tuple[frozenset[str], list[tuple[str, tuple[str, ...]]]]:
        base = _project_defines(world)
        always: set[str] = set()
        rest = []
        for name, needs in _conditional_defines(world):
            if name in base:
                continue
            if any(n in base for n in needs):
                always.add(name)
            else:
                rest.append((name, needs))
        return frozenset(always), rest

    return world_cache(world, "c-pending-defines", build)


def _conditional_defines(world) -> list[tuple[str, tuple[str, ...]]]:
    """The ``#define``\\ s of included headers made in a branch that needs one of some flags: (name, those flags),
    read from the project's tally (:mod:`._macro_tally`), which a refresh carries over: no file's context is built."""
    return world_cache(world, "c-conditional-defines", lambda: sorted(_tally(world).conditional()))


class _UnitMacros(Mapping):
    """:class:`_ProjectMacros` under one compile command's ``-D``/``-U`` (and the unit source's own
    ``#define``s, values not known)."""

    def __init__(self, base: Mapping, defines: dict[str, object], own: frozenset[str]) -> None:
        self.base, self.defines, self.own = base, defines, own

    def __contains__(self, name: object) -> bool:
        return name in self.defines or name in self.own or name in self.base

    def __getitem__(self, name: str) -> object:
        if name in self.defines:
            return self.defines[name]
        if name in self.own:
            return UNKNOWN
        return self.base[name]

    def __iter__(self):
        return iter({*self.defines, *self.own, *self.base})

    def __len__(self) -> int:
        return len({*self.defines, *self.own, *self.base})


def _condition(world, sid: int) -> str:
    _c, sym = record_of(world, sid)
    return sym.condition if sym is not None else ""


def _own_defines(world, ctx) -> frozenset[str]:
    """The macro names a file ``#define``s where it reads them (see :func:`_project_defines`)."""
    cache = world_cache(world, "c-own-defines", dict)
    got = cache.get(ctx.frow.id)
    if got is None:
        project = _project_defines(world)
        got = cache[ctx.frow.id] = frozenset(
            e.split(" ", 1)[0] for e in ctx.pf.defines
            if not e.startswith("=") and (" " not in e or any(n in project for n in e.split()[2:])))
    return got


def _skipped(world, cond: str) -> bool:
    """Whether a branch state (:meth:`lore.languages.c._conditions.Branches.state`) is off in a default build:
    ``"0"``, or ``"?0 FLAG ..."`` when no file of the project defines any of those flags."""
    if cond == "0":
        return True
    state, _, expr = cond.partition("|")
    if state.startswith("?0 "):
        names = state[3:].split()
        # a kernel tree without its configuration: an option is not decided by no file defining it
        if (_configured(world) or not any(n.startswith("CONFIG_") for n in names)) and \
                not any(name in _project_defines(world) or name in _unit_defines(world) for name in names):
            return True
    if not expr:
        return False
    cache = world_cache(world, "c-expr-off", dict)
    got = cache.get(expr)
    if got is None:
        macros = world_cache(world, "c-project-macros", lambda: _ProjectMacros(world))
        got = cache[expr] = evaluate(expr, macros, cplusplus=None) is False
    return got


class _ProjectMacros(Mapping):
    """What the project's headers tell a condition of another file: the value ``#if NAME`` reads where every
    header that sets ``NAME`` agrees and no source file sets it for its own translation unit (miniz.h's
    ``MINIZ_USE_UNALIGNED_LOADS_AND_STORES`` read in miniz_common.h); in a configured kernel tree, the options
    ``include/generated/autoconf.h`` defines (any other ``CONFIG_`` option is off)."""

    def __init__(self, world) -> None:
        self.known = _project_values(world)
        self.configured = _configured(world)
        self.options = _kernel_options(world) if self.configured else frozenset()

    def __contains__(self, name: object) -> bool:
        return name in self.known or (self.configured and isinstance(name, str) and name.startswith("CONFIG_"))

    def __getitem__(self, name: str) -> object:
        if name in self.known:
            return self.known[name]
        if self.configured and name.startswith("CONFIG_"):
            return DEFINED if name in self.options else None
        raise KeyError(name)

    def __iter__(self):
        return iter(self.known)

    def __len__(self) -> int:
        return len(self.known)


def _unit_defines(world) -> frozenset[str]:
    """The names some compile command of the project's database ``-D``s (or a header the build generated into
    its ``-I`` folders defines): defined somewhere, so not off where no unit is known."""

    def build() -> frozenset[str]:
        db = compdb(world)
        if db is None:
            return frozenset()
        return frozenset(n for p in db.files for n, v in (flags_for(world, p) or _NO_FLAGS).defines.items()
                         if v is not None)

    return world_cache(world, "c-unit-defines", build)


def _project_values(world) -> dict[str, int]:
    return _tally(world).project_values()


def _kernel_options(world) -> frozenset[str]:
    """The ``CONFIG_`` options a kernel tree's ``include/generated/autoconf.h`` defines."""
    return _tally(world).kernel_options()


def _included_names(world) -> frozenset[str]:
    """The file names some ``#include`` of a C/C++ file names (``"x.h"``, ``<a/x.h>``: ``x.h``)."""
    return _tally(world).included()


def _configured(world) -> bool:
    """Whether the tree holds a kernel configuration (``include/generated/autoconf.h``, written by ``make
    defconfig``): its ``CONFIG_`` options are then the only ones defined."""
    return world_cache(world, "c-kconfig", lambda: any(
        f.path == "include/generated/autoconf.h" or f.path.endswith("/include/generated/autoconf.h")
        for f in world.files.values()))


def _project_defines(world) -> Container[str]:
    """Every macro name a C/C++ file of the repository ``#define``s where a default build reads it (a flag no file
    defines is undefined in a default build, which passes no ``-D``): not in a branch the build skips (``#ifdef
    _WIN32``), nor only in a branch that needs another flag nobody defines (``#ifdef LUA_USE_WINDOWS`` ``#define
    LUA_USE_C89``), nor in a file no ``#include`` names (``ltests.h``, included through ``-DLUA_USER_H=...``; a
    source file's ``#define PNG_DEBUG 0`` is its own translation unit's, see :func:`_not_built`). Read name by
    name from the project's tally (:mod:`._macro_tally`), which a refresh carries over from the last run."""
    return _tally(world).project_defines()


def _static_macros(world) -> frozenset[str]:
    """Macro names that expand to ``static`` (``#define MEM_STATIC static inline``, and macros whose value starts
    with one of those: ``HINT_INLINE`` -> ``FORCE_INLINE_TEMPLATE`` -> ``static``), in any C/C++ file."""
    return _tally(world).static_macros()


def _tally(world) -> MacroTally:
    """What every C/C++ file's ``#define``\\ s and ``#include``\\ s add up to: the one the indexer carried over
    from the last run (:func:`adopt_tally`), else counted from every file's records (once per world)."""

    def build() -> MacroTally:
        # records, not contexts, where they are held decoded: the rules build the contexts they read
        return MacroTally.of(pf for fid, f in sorted(world.files.items()) if f.language in ("c", "cpp")
                             and (pf := world.records(fid)) is not None)

    return world_cache(world, _TALLY, build)


def adopt_tally(world, tally: MacroTally) -> None:
    """Make ``tally`` the world's (the indexer's, carried over from the last run): ask before any rule runs."""
    world_cache(world, _TALLY, lambda: tally)


def tally_of(world) -> MacroTally:
    """The world's tally (built now from every file if no rule needed it and none was adopted)."""
    return _tally(world)


_TALLY = "c-macro-tally"


def _exported(world, sym) -> bool:
    """Whether a definition has external linkage: not ``static``, nor declared with a macro that expands to it
    (``MEM_STATIC unsigned MEM_32bits(void)``)."""
    if not sym.exported:
        return False
    first = sym.signature.split(None, 1)[0] if sym.signature else ""
    return not (first.isupper() and first in _static_macros(world))
