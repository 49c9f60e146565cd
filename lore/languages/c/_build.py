"""What a default build compiles (Linux, x86_64, GCC, no ``-D``), as far as the whole project tells: the
preprocessor branches a file could not decide alone (``"?0 FLAG"``: off when no file defines ``FLAG`` where a
build reads it), other platforms' files, and definitions made file-local by a macro that expands to ``static``.
(:mod:`._conditions` decides what one file tells; :mod:`._rules` drops what is not built among alternatives.)"""

from __future__ import annotations

import posixpath
from collections.abc import Container, Mapping

from .._rules import record_of, world_cache
from ._ifexpr import DEFINED, evaluate
from ._macro_tally import MacroTally

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
        got = cache[sid] = (f is not None and _other_platform(f.path)) or _skipped(world, _condition(world, sid))
    if got and ctx is not None:
        cond = _condition(world, sid).partition("|")[0]
        if cond.startswith("?0 ") and not set(cond[3:].split()).isdisjoint(_own_defines(world, ctx)):
            f = world.files.get(world.syms[sid].file_id)
            return f is None or _other_platform(f.path)
    return got


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
                not any(name in _project_defines(world) for name in names):
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
        return MacroTally.of(c.pf for fid, f in sorted(world.files.items()) if f.language in ("c", "cpp")
                             and (c := world.ctx(fid)) is not None)

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
