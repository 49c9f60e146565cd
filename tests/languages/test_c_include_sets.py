"""The C rules' memo of include sets stays bounded while resolving, and a rebuilt set answers as the first did."""

from __future__ import annotations

from lore.index.resolve import World

from .test_c import _calls


def test_include_sets_held_are_bounded_and_calls_still_bind_the_header_definition(tmp_path, monkeypatch):
    # every source file calls a header's inline definition: resolving the call reads the file's include set
    # (header definitions count where the file's includes reach them); a memo of every file's set held a
    # kernel's worth (8 KB each) in every resolving process
    files = {"util.h": "static inline int util(int x) { return x + 1; }\n"}
    for i in range(100):
        files[f"src/f{i}.c"] = f'#include "../util.h"\nint f{i}(void) {{ return util({i}); }}\n'
    held: list[int] = []
    release = World.release

    def observed(self):
        held.append(len(self.__dict__.get("_lang_cache", {}).get("c-include-sets", {})))
        release(self)

    monkeypatch.setattr(World, "release", observed)
    calls = _calls(tmp_path, files)
    assert all(calls[(f"src.f{i}.f{i}", "util")] == {("util.util", 1)} for i in range(100))
    assert held and 0 < held[0] <= 64
