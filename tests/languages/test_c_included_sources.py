"""C: a source file another includes by name is part of that translation unit (:mod:`lore.languages.c._included_sources`)."""

from __future__ import annotations

from .test_c import _calls


def test_an_included_source_files_statics_macros_and_typedefs_are_in_reach(tmp_path):
    # lz4hc.c: `#include "lz4.c"`, then MEM_INIT(...) and LZ4_count(...) of lz4.c (a macro and a static function,
    # local to lz4.c for every other file): main left both unresolved
    files = {"lz4.c": "#define MEM_INIT(p, v, s) memset(p, v, s)\ntypedef unsigned char BYTE;\n"
                      "static int LZ4_count(int a) { return a; }\nint LZ4_x(void) { return 0; }\n",
             "lz4hc.c": '#define LZ4_COMMONDEFS_ONLY\n#include "lz4.c"\n'
                        "int hc(void) { char b[4]; MEM_INIT(b, 0, 4); return LZ4_count((BYTE)(1)) + LZ4_x(); }\n"}
    got = _calls(tmp_path, files)
    assert got[("lz4hc.hc", "MEM_INIT")] == {("lz4.MEM_INIT", 1)}
    assert got[("lz4hc.hc", "LZ4_count")] == {("lz4.LZ4_count", 3)}
    assert got[("lz4hc.hc", "BYTE")] == {("lz4.BYTE", 2)}  # the cast, as a header's typedef is read
    assert got[("lz4hc.hc", "LZ4_x")] == {("lz4.LZ4_x", 4)}


def test_a_headers_own_source_file_stays_out_of_reach(tmp_path):
    # must stay: util.c is the source of the util.h a file includes, not included itself: its static function
    # and its macro are its own, and another file's calls of those names stay unresolved
    files = {"util.h": "int util_run(int a);\n",
             "util.c": '#include "util.h"\n#define SQUARE(x) ((x) * (x))\nstatic int helper(int a) { return a; }\n'
                       "int util_run(int a) { return helper(SQUARE(a)); }\n",
             "main.c": '#include "util.h"\nint main(void) { return helper(SQUARE(2)) + util_run(1); }\n'}
    got = _calls(tmp_path, files)
    assert got[("main.main", "helper")] == set()
    assert got[("main.main", "SQUARE")] == set()
    assert got[("main.main", "util_run")] == {("util.util_run", 4)}


def test_a_source_a_header_includes_in_a_branch_stays_out_of_reach(tmp_path):
    # must stay: lz4's xxhash.h includes xxhash.c only under XXH_INLINE_ALL; bench.c, which includes xxhash.h and
    # util.h, casts to util.h's U32, not to xxhash.c's own U32 (main bound util.h's; both would be no binding)
    files = {"xxhash.h": '#if defined(XXH_INLINE_ALL)\n#  include "xxhash.c"\n#endif\nint XXH32(int a);\n',
             "xxhash.c": "typedef unsigned int U32;\nint XXH32(int a) { return a; }\n",
             "util.h": "typedef unsigned int U32;\n",
             "bench.c": '#include "util.h"\n#include "xxhash.h"\nint b(void) { return (U32)(XXH32(1)); }\n'}
    assert _calls(tmp_path, files)[("bench.b", "U32")] == {("util.U32", 1)}
