"""C: resolving one file that reads its own unit's flags and another source's builds each unit's header order once.

A call from ``a.c`` reads a header's branch in ``a.c``'s unit, another call a candidate definition under a branch
of ``b.c`` (in ``b.c``'s unit), and back: a memo of one unit alone was emptied at each switch and the header order
of ``a.c`` built again (a one-file refresh of the kernel's ``mm/slab_common.c`` alternated with ``mm/slub.c``).
"""

from __future__ import annotations

from lore.languages.c import _unit_flags

from .test_c import _calls

CFG = "#define USE_FAST\n"
IMPL = ("#ifdef USE_FAST\nstatic inline int h1(void) { return 1; }\n#else\nstatic inline int h1(void) { return 2; }\n"
        "#endif\n#ifdef USE_FAST\nstatic inline int h2(void) { return 1; }\n#else\n"
        "static inline int h2(void) { return 2; }\n#endif\n")
B = ('#include "cfg.h"\n#ifdef USE_FAST\nint k1(void) { return 1; }\n#else\nint k1(void) { return 2; }\n#endif\n'
     "#ifdef USE_FAST\nint k2(void) { return 1; }\n#else\nint k2(void) { return 2; }\n#endif\n")
A = ('#include "cfg.h"\n#include "impl.h"\nint k1(void);\nint k2(void);\n'
     "int f(void) { return h1() + k1() + h2() + k2() + h1(); }\n")


def test_each_units_header_order_is_built_once_while_resolving_a_file(tmp_path, monkeypatch):
    built: dict[tuple[int, str], list[object]] = {}
    real = _unit_flags._preorder

    def spy(world, ctx, other_platform):
        got = real(world, ctx, other_platform)  # the real order; kept, so that ids are never reused
        seen = built.setdefault((id(world), ctx.frow.path), [])
        if not any(g is got for g in seen):
            seen.append(got)
        return got

    monkeypatch.setattr(_unit_flags, "_preorder", spy)
    got = _calls(tmp_path, {"cfg.h": CFG, "impl.h": IMPL, "b.c": B, "a.c": A})
    # the answers: the flag cfg.h defines chooses the first branch in both units
    assert got[("a.f", "h1")] == {("impl.h1", 2)}
    assert got[("a.f", "h2")] == {("impl.h2", 7)}
    assert {p for _w, p in built} >= {"a.c", "b.c"}  # both units were read
    assert {p: len(v) for (_w, p), v in built.items() if len(v) > 1} == {}
