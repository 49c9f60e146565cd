"""C++ namespaces as the repository defines them: every block of ``namespace ui { ... }`` in any file, indexed by
its path, so that ``ui::Widget`` and ``using namespace ui`` find members across files. (Moved out of
:mod:`._rules`, which asks it for ``namespace:`` modules; the C++ rules use it too.)"""

from __future__ import annotations

from collections import defaultdict

from .._rules import world_cache


def _namespace_value(world, path: str):
    """The namespace blocks a C++ path names (``ui.detail``: every ``namespace ui { namespace detail {``),
    or a member of them (``ui.Widget``); a namespace the repository does not define is external."""
    blocks = world_cache(world, "c-namespaces", lambda: _namespace_index(world))
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
    for srow in world.of_kinds(frozenset({"namespace"})):
        out[world._ns_path(srow.id)].append(srow.id)
    return {k: sorted(v) for k, v in out.items()}
