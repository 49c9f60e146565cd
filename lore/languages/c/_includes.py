"""Where ``#include`` looks: the include folders of a tree (``include/``, ``arch/*/include``), the nearest
ones first for a file, the search path a spec is found on, and a header found by its path's end.
(:mod:`._rules` binds a call through what these reach.)"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from .._rules import path_modules, world_cache
from ._compdb import compdb, flags_for

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

    return world_cache(world, "c-sources", build)


def _include_roots(world) -> list[str]:
    """The folders an ``#include <x>`` is searched in, first first: the repository root, every folder named
    ``include`` (and its ``uapi``) outside ``arch/``, then those of ``arch/x86`` (the default configuration),
    then the other architectures'; shallower folders before deeper ones."""

    def build() -> list[str]:
        dirs: set[str] = set()
        for p in path_modules(world):
            parts = p.split("/")[:-1]
            for k, part in enumerate(parts):
                if part == "include":
                    dirs.add("/".join(parts[:k + 1]))
                    if k + 1 < len(parts) and parts[k + 1] in ("uapi", "generated"):
                        dirs.add("/".join(parts[:k + 2]))

        def order(d: str) -> tuple:
            parts = d.split("/")
            arch = 0 if parts[0] != "arch" else 1 if len(parts) > 1 and parts[1] == "x86" else 2
            return (arch, parts[0] in ("tools", "scripts", "samples"), len(parts), d)

        return ["", *sorted(dirs, key=order)]

    return world_cache(world, "include-roots", build)


def _roots_for(world, includer: str | None) -> list[str]:
    """The include roots searched from a file: the ``include`` folders of the projects that enclose it, the
    nearest first (``tools/include`` for ``tools/lib/slab.c``, ``arch/x86/include`` for ``arch/x86/mm/x.c``, as
    their builds pass ``-I``), then every root in :func:`_include_roots`' order."""
    roots = _include_roots(world)
    if not includer:
        return roots
    folder = posixpath.dirname(includer)
    cache = world_cache(world, "c-roots-for", dict)
    got = cache.get(folder)
    if got is None:
        local: list[tuple[int, int, str]] = []
        for r in roots:
            parts = r.split("/")
            owner = "/".join(parts[:len(parts) - 1 - parts[::-1].index("include")]) if "include" in parts else ""
            if owner and (folder == owner or folder.startswith(owner + "/")):
                local.append((-owner.count("/"), len(local), r))
        near = [r for _d, _k, r in sorted(local)]
        got = cache[folder] = near + [r for r in roots if r not in near] if near else roots
    return got


def _unit_roots(world, includer: str) -> list[str]:
    """:func:`_roots_for` behind the ``-I`` folders the compilation database gives ``includer`` (a header: those
    of every unit, the most used first), in the command's order (see :mod:`._compdb`)."""
    db = compdb(world)
    if db is None:
        return _roots_for(world, includer)
    cache = world_cache(world, "c-unit-roots", dict)
    got = cache.get(includer)
    if got is None:
        flags = flags_for(world, includer)
        first = flags.includes if flags is not None else world_cache(world, "c-compdb-common", db.common).includes
        got = cache[includer] = [*first, *(r for r in _roots_for(world, includer) if r not in first)]
    return got


def _on_search_path(world, spec: str, includer: str | None = None) -> str | None:
    """The file ``#include <spec>`` names under the first include root that has it, searched from ``includer``."""
    spec = posixpath.normpath(spec)
    if spec.startswith("../"):
        return None
    paths = path_modules(world)
    for root in _unit_roots(world, includer) if includer else _roots_for(world, includer):
        p = f"{root}/{spec}" if root else spec
        if p in paths:
            return p
    return None


def _shadowed(world, path: str) -> bool:
    """Whether a header under an include root is hidden by another of the same relative path earlier on the
    search path (``tools/include/linux/slab.h`` behind ``include/linux/slab.h``)."""
    cache = world_cache(world, "c-shadowed", dict)
    got = cache.get(path)
    if got is None:
        got = False
        for root in _include_roots(world):
            if root and path.startswith(root + "/"):
                first = _on_search_path(world, path[len(root) + 1:])
                if first is not None and first != path:
                    got = True
                    break
        cache[path] = got
    return got


def _include_suffix(world, spec: str) -> str | None:
    """The repository file an ``#include "spec"`` names when it is not next to the includer (``-I`` dirs)."""

    def build() -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for p in path_modules(world):
            parts = p.split("/")
            for k in range(len(parts)):
                out["/".join(parts[k:])].append(p)
        return dict(out)

    index = world_cache(world, "include-suffix", build)
    spec = posixpath.normpath(spec).lstrip("./")
    got = index.get(spec)
    return sorted(got, key=len)[0] if got else None
