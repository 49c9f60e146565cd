"""What a default build compiles (Linux, x86_64, GCC, no ``-D``), as far as the whole project tells: the
preprocessor branches a file could not decide alone (``"?0 FLAG"``: off when no file defines ``FLAG`` where a
build reads it), other platforms' files, and definitions made file-local by a macro that expands to ``static``.
(:mod:`._conditions` decides what one file tells; :mod:`._rules` drops what is not built among alternatives.)"""

from __future__ import annotations

import posixpath

from .._rules import record_of, world_cache
from ._includes import _C_SOURCE_EXTS

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


def _not_built(world, sid: int) -> bool:
    """Whether a definition is outside what a default build compiles: in a preprocessor branch its file skips
    (``#ifdef _WIN32``, see :mod:`lore.languages.c._conditions`) or in another platform's file."""
    cache = world_cache(world, "c-not-built", dict)
    got = cache.get(sid)
    if got is None:
        srow = world.syms[sid]
        f = world.files.get(srow.file_id) if srow.file_id is not None else None
        _c, sym = record_of(world, sid)
        cond = sym.condition if sym is not None else ""
        got = cache[sid] = (f is not None and _other_platform(f.path)) or _skipped(world, cond)
    return got


def _skipped(world, cond: str) -> bool:
    """Whether a branch state (:meth:`lore.languages.c._conditions.Branches.state`) is off in a default build:
    ``"0"``, or ``"?0 FLAG ..."`` when no file of the project defines any of those flags."""
    if cond == "0":
        return True
    if not cond.startswith("?0 "):
        return False
    defined = _project_defines(world)
    return not any(name in defined for name in cond[3:].split())


def _project_defines(world) -> frozenset[str]:
    """Every macro name a C/C++ file of the repository ``#define``s where a default build reads it (a flag no file
    defines is undefined in a default build, which passes no ``-D``): not in a branch the build skips (``#ifdef
    _WIN32``), nor only in a branch that needs another flag nobody defines (``#ifdef LUA_USE_WINDOWS`` ``#define
    LUA_USE_C89``), nor in a header no ``#include`` names (``ltests.h``, included through ``-DLUA_USER_H=...``)."""

    def build() -> frozenset[str]:
        included: set[str] = set()
        entries: list[str] = []
        for fid, f in world.files.items():
            if f.language in ("c", "cpp"):
                c = world.ctx(fid)
                if c is not None:
                    included.update(posixpath.basename(i.module.strip('<>"')) for i in c.pf.imports)
        for fid, f in world.files.items():
            if f.language in ("c", "cpp") and (f.path.endswith(_C_SOURCE_EXTS) or posixpath.basename(f.path) in included):
                c = world.ctx(fid)
                if c is not None:
                    entries.extend(c.pf.defines)
        entries = [e for e in entries if not e.startswith("=")]  # storage-class marks: _static_macros
        out = {e for e in entries if " " not in e}
        pending = [(e.split(" ", 1)[0], e.split()[2:]) for e in entries if " " in e]
        while pending:  # defined in a branch that holds when one of its flags is defined: once one is
            more = [name for name, needs in pending if name not in out and any(n in out for n in needs)]
            if not more:
                break
            out.update(more)
        return frozenset(out)

    return world_cache(world, "c-project-defines", build)


def _static_macros(world) -> frozenset[str]:
    """Macro names that expand to ``static`` (``#define MEM_STATIC static inline``, and macros whose value starts
    with one of those: ``HINT_INLINE`` -> ``FORCE_INLINE_TEMPLATE`` -> ``static``), in any C/C++ file."""

    def build() -> frozenset[str]:
        out: set[str] = set()
        alias: list[tuple[str, str]] = []
        for fid, f in world.files.items():
            if f.language in ("c", "cpp"):
                c = world.ctx(fid)
                for e in c.pf.defines if c is not None else ():
                    if e.startswith("=static "):
                        out.add(e[8:])
                    elif e.startswith("=as "):
                        name, word = e[4:].split(" ", 1)
                        alias.append((name, word))
        while True:
            more = {name for name, word in alias if word in out and name not in out}
            if not more:
                return frozenset(out)
            out |= more

    return world_cache(world, "c-static-macros", build)


def _exported(world, sym) -> bool:
    """Whether a definition has external linkage: not ``static``, nor declared with a macro that expands to it
    (``MEM_STATIC unsigned MEM_32bits(void)``)."""
    if not sym.exported:
        return False
    first = sym.signature.split(None, 1)[0] if sym.signature else ""
    return not (first.isupper() and first in _static_macros(world))
