"""C parser: functions, prototypes, structs, typedefs, includes, field calls."""

from __future__ import annotations

import pytest

from lore.languages.c import _parser as c

SRC = b"""#include <stdio.h>
#include "util.h"

/* A point. */
typedef struct Point { int x; struct Inner *in; } Point;
typedef struct { int len; } Buf;
typedef int (*cb)(int);
enum Color { RED, GREEN };
static int helper(Point *p, const char *s);
int external_only(int a);

int add(int a, int b) { return helper(0, "x") + util_twice(a); }
int main(void) { struct Point p; obj->ops->run(obj); printf("%d", add(1, 2)); return 0; }
static int helper(Point *p, const char *s) { return p->x; }
"""


def test_symbols_and_prototypes():
    pf = c.parse("src/m.c", SRC, "src.m")
    got = {s.qualified_name: (s.kind, s.is_declaration) for s in pf.symbols}
    assert got == {
        "src.m": ("module", False), "src.m.Point": ("struct", False), "src.m.Buf": ("struct", False),
        "src.m.cb": ("type_alias", False), "src.m.Color": ("enum", False), "src.m.add": ("function", False),
        "src.m.main": ("function", False), "src.m.helper": ("function", False),
        "src.m.external_only": ("function", True),  # defined elsewhere: the declaration stands for it
    }
    point = next(s for s in pf.symbols if s.name == "Point")
    assert point.docstring == "A point."
    helper = next(s for s in pf.symbols if s.name == "helper")
    assert not helper.exported and helper.params == [("p", "Point"), ("s", "")]


def test_calls_includes_types():
    pf = c.parse("src/m.c", SRC, "src.m")
    assert [c_.callee for c_ in pf.calls] == ["helper", "util_twice", "obj.ops.run", "printf", "add"]
    assert [(i.module, i.name) for i in pf.imports] == [("<stdio.h>", "*"), ("util.h", "*")]
    refs = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert {("Point", "Inner", "field"), ("main", "Point", "annotation"), ("helper", "Point", "param")} <= refs


@pytest.mark.parametrize("src", [b"", b"\xff\xfe int", b"int f( { struct", b"#define X(" * 500])
def test_bad_input_never_raises(src):
    assert c.parse("bad.c", src, "bad").symbols[0].kind == "module"


def test_a_cpp_header_named_h_is_read_as_cpp():
    pf = c.parse("a.h", b"#pragma once\nnamespace g {\nclass A : public B {\n public:\n  void f();\n};\n}\n", "a")
    assert pf.language == "c" and pf.syntax_errors == 0
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("a", "module"), ("a.g", "namespace"), ("a.g.A", "class"), ("a.g.A.f", "method")]


def test_macros_extern_c_and_bare_macro_lines():
    src = b"""#ifdef __cplusplus
extern "C" {
#endif
#define MAX(a, b) ((a) > (b) ? (a) : (b))
struct req {
  REQ_FIELDS
};
PRIVATE_TYPES
API int uv_close(int h);
int use(void) { return MAX(1, 2); }
#ifdef __cplusplus
}
#endif
"""
    pf = c.parse("include/uv.h", src, "include.uv")
    assert pf.syntax_errors <= 1  # the API attribute macro; the rest of the header is read
    got = {(s.name, s.kind, s.is_declaration) for s in pf.symbols[1:]}
    assert got == {("MAX", "function", False), ("req", "struct", False), ("uv_close", "function", True),
                   ("use", "function", False)}
    assert [x.callee for x in pf.calls] == ["MAX"]
    assert next(s for s in pf.symbols if s.name == "MAX").params == [("a", ""), ("b", "")]


# -- resolution against what the compiler would pick (indexed projects) -----------------------------------------


def _calls(tmp_path, files: dict[str, str]) -> dict[tuple[str, str], set[tuple[str, int]]]:
    """Index ``files``; (caller, callee name) -> {(callee's qualified name, its line)}, empty when unresolved."""
    from lore.api import open_index
    from lore.bench._data import symbol_table
    from lore.index import index_repo

    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        table = symbol_table(idx)
        lines = dict(idx.conn.execute("select id, start_line from symbols"))
        out: dict[tuple[str, str], set[tuple[str, int]]] = {}
        for e in idx.edges("symbol_refs"):
            got = out.setdefault((table[e["caller_id"]][2], e["callee_name"]), set())
            if e["callee_id"] is not None:
                got.add((table[e["callee_id"]][2], lines[e["callee_id"]]))
        return out


def test_a_name_defined_in_both_branches_of_an_undefined_flag_binds_the_else_branch(tmp_path):
    # WORDS_BIGENDIAN is set by the build (CMake's TEST_BIG_ENDIAN); no file defines it, so the default build
    # reads it as undefined: IEEE_8087 is defined, and word0 is the first pair's
    src = ("#ifdef WORDS_BIGENDIAN\n#define IEEE_MC68k 1\n#else\n#define IEEE_8087 1\n#endif\n"
           "#ifdef IEEE_8087\n#define word0(x) (x)[1]\n#else\n#define word0(x) (x)[0]\n#endif\n"
           "#ifdef HAVE_CONFIGURED\nstatic int pick(void) { return 1; }\n#else\nstatic int pick(void) { return 2; }\n#endif\n"
           "int use(int *d) { return word0(d) + pick(); }\n")
    got = _calls(tmp_path, {"src/dtoa.c": src})
    assert got[("src.dtoa.use", "word0")] == {("src.dtoa.word0", 7)}
    assert got[("src.dtoa.use", "pick")] == {("src.dtoa.pick", 14)}


def test_a_flag_the_project_defines_keeps_both_branches(tmp_path):
    # must stay: a file that #defines the flag makes the branch the build's choice, not an assumption; another
    # file's call keeps both definitions as alternatives when the file defining them does not include the flag's
    # header (a.c includes only the prototype's); when it does, the flag is defined there: the first branch alone
    src = ("#include \"proto.h\"\n#ifdef USE_FAST\nint pick(void) { return 1; }\n#else\n"
           "int pick(void) { return 2; }\n#endif\n")
    got = _calls(tmp_path, {"src/conf.h": "#define USE_FAST 1\n", "src/proto.h": "int pick(void);\n", "src/a.c": src,
                            "src/b.c": "#include \"conf.h\"\n#include \"proto.h\"\nint use(void) { return pick(); }\n"})
    assert got[("src.b.use", "pick")] == {("src.a.pick", 3), ("src.a.pick", 5)}
    (tmp_path / "src/a.c").write_text(src.replace("proto.h", "conf.h"), encoding="utf-8")
    (tmp_path / "src/proto.h").write_text("#include \"conf.h\"\nint pick(void);\n", encoding="utf-8")
    got = _calls(tmp_path, {})
    assert got[("src.b.use", "pick")] == {("src.a.pick", 3)}


def test_flags_defined_only_where_a_default_build_never_reads_them_are_undefined(tmp_path):
    # USE_C89 is defined only under _WIN32 (off), and USE_CHECKS only in a header that no #include names (lua's
    # ltests.h, included through -DLUA_USER_H): a default build defines neither, so each name is the #else one's
    conf = ("#if defined(_WIN32)\n#define USE_WINDOWS\n#endif\n#if defined(USE_WINDOWS)\n#define USE_C89\n#endif\n"
            "#if defined(USE_C89)\n#define l_float(n) (FLT_##n)\n#else\n#define l_float(n) (DBL_##n)\n#endif\n"
            "#if defined USE_CHECKS\n#define check(c) assert(c)\n#else\n#define check(c) ((void)0)\n#endif\n")
    got = _calls(tmp_path, {"conf.h": conf, "tests.h": "#define USE_CHECKS\n",
                            "a.c": '#include "conf.h"\nint f(void) { check(1); return l_float(MAX); }\n'})
    assert got[("a.f", "check")] == {("conf.check", 15)}
    assert got[("a.f", "l_float")] == {("conf.l_float", 10)}


def test_a_flag_defined_in_an_included_header_keeps_its_branch(tmp_path):
    # must stay: the same header, included by a file of the project, makes USE_CHECKS a build's choice
    conf = "#if defined USE_CHECKS\n#define check(c) assert(c)\n#else\n#define check(c) ((void)0)\n#endif\n"
    got = _calls(tmp_path, {"conf.h": conf, "tests.h": "#define USE_CHECKS\n",
                            "t.c": '#include "tests.h"\n',
                            "a.c": '#include "conf.h"\nint f(void) { check(1); return 0; }\n'})
    assert got[("a.f", "check")] == {("conf.check", 2), ("conf.check", 4)}


def test_a_default_the_header_defines_itself_decides_the_branches_below(tmp_path):
    # brotli's memory.h: EXIT_ON_OOM is defined by the header itself unless CLEANUP_ON_OOM is; whether another file
    # defines EXIT_ON_OOM does not matter (it is defined either way), so the #else below is off when no file defines
    # CLEANUP_ON_OOM
    mem = ("#if !defined(CLEANUP_ON_OOM) && !defined(EXIT_ON_OOM)\n#define EXIT_ON_OOM\n#endif\n"
           "#if defined(EXIT_ON_OOM)\n#define IS_OOM(M) (!!0)\n#else\n#define IS_OOM(M) (!!(M)->is_oom)\n#endif\n")
    got = _calls(tmp_path, {"memory.h": mem, "other.h": "#define EXIT_ON_OOM\n",
                            "x.c": '#include "other.h"\n',
                            "a.c": '#include "memory.h"\nint f(void *m) { return IS_OOM(m); }\n'})
    assert got[("a.f", "IS_OOM")] == {("memory.IS_OOM", 5)}


def test_other_compilers_are_not_the_default_build_and_feature_tests_exist(tmp_path):
    port = ("#if defined(__SUNPRO_CC)\n#define SUNPRO_VERSION __SUNPRO_CC\n#endif\n"
            "#if defined(SUNPRO_VERSION)\n#define SUNPRO_CHECK(m) (SUNPRO_VERSION >= (m))\n#else\n"
            "#define SUNPRO_CHECK(m) (0)\n#endif\n"
            "#if defined(__has_attribute)\n#define HAS_ATTR(a) __has_attribute(a)\n#else\n#define HAS_ATTR(a) (0)\n#endif\n")
    got = _calls(tmp_path, {"port.h": port,
                            "a.c": '#include "port.h"\nint f(void) { return SUNPRO_CHECK(5) + HAS_ATTR(x); }\n'})
    assert got[("a.f", "SUNPRO_CHECK")] == {("port.SUNPRO_CHECK", 7)}
    assert got[("a.f", "HAS_ATTR")] == {("port.HAS_ATTR", 10)}


def test_a_macro_that_expands_to_static_keeps_a_definition_file_local(tmp_path):
    # zstd: MEM_STATIC (and HINT_INLINE -> FORCE_INLINE -> static) make a legacy copy's MEM_read32 file-local, so
    # another file's call binds only the header's definition
    files = {
        "common/compiler.h": "#define FORCE_INLINE static inline\n#define HINT_INLINE FORCE_INLINE\n"
                             "#define MEM_STATIC static inline\n",
        "common/mem.h": '#include "compiler.h"\nMEM_STATIC unsigned MEM_read32(const void *p) { return 0; }\n'
                        "unsigned MEM_size(void);\n",
        "legacy/v02.c": '#include "../common/compiler.h"\nMEM_STATIC unsigned MEM_read32(const void *p) { return 1; }\n'
                        "HINT_INLINE unsigned MEM_size(void) { return 2; }\n",
        "legacy/v03.c": "unsigned MEM_size(void) { return 3; }\n",
        "a.c": '#include "common/mem.h"\nint f(void) { return MEM_read32(0) + MEM_size(); }\n',
    }
    got = _calls(tmp_path, files)
    assert got[("a.f", "MEM_read32")] == {("common.mem.MEM_read32", 2)}
    assert got[("a.f", "MEM_size")] == {("legacy.v03.MEM_size", 1)}


def test_gcc_4_or_later_and_a_default_set_under_gnuc(tmp_path):
    # zstd: GCC and clang are both __GNUC__ >= 4; MEM_FORCE_MEMORY_ACCESS defaults to 1 under __GNUC__ (unless the
    # command line sets it), so its ==2 branch is off and its ==1 branch is the one
    deps = ("#if defined(__GNUC__) && __GNUC__ >= 4\n#define Z_memcpy(d,s,l) __builtin_memcpy(d,s,l)\n#else\n"
            "#define Z_memcpy(d,s,l) memcpy(d,s,l)\n#endif\n"
            "#ifndef MEM_FORCE_MEMORY_ACCESS\n#  ifdef __GNUC__\n#    define MEM_FORCE_MEMORY_ACCESS 1\n#  endif\n#endif\n"
            "#if defined(MEM_FORCE_MEMORY_ACCESS) && (MEM_FORCE_MEMORY_ACCESS==2)\n"
            "static unsigned rd(const void *p) { return 2; }\n"
            "#elif defined(MEM_FORCE_MEMORY_ACCESS) && (MEM_FORCE_MEMORY_ACCESS==1)\n"
            "static unsigned rd(const void *p) { return 1; }\n#else\nstatic unsigned rd(const void *p) { return 0; }\n"
            "#endif\n")
    got = _calls(tmp_path, {"deps.h": deps, "a.c": '#include "deps.h"\nint f(void) { Z_memcpy(0, 0, 0); return rd(0); }\n'})
    assert got[("a.f", "Z_memcpy")] == {("deps.Z_memcpy", 2)}
    assert got[("a.f", "rd")] == {("deps.rd", 14)}


def test_a_cast_to_a_header_typedef_binds_the_typedef(tmp_path):
    # libpng, miniz: (png_byte)(v & 0xff) parses as a call of the typedef; clangd answers the typedef, as lore did
    # when it sat in the same file; one out of the file's reach is no candidate
    files = {"pngconf.h": "typedef unsigned char png_byte;\n", "other.h": "typedef int png_byte;\n",
             "png.c": '#include "pngconf.h"\nint f(int v) { return (png_byte)(v & 0xff); }\n'}
    assert _calls(tmp_path, files)[("png.f", "png_byte")] == {("pngconf.png_byte", 1)}


def test_a_cast_to_one_of_several_typedefs_stays_unbound(tmp_path):
    # zconf.h-style: the typedef differs by a flag nothing decides; a cast is no call with alternatives
    conf = "#ifdef SMALL_MEDIUM\ntypedef unsigned char FAR Bytef;\n#else\ntypedef unsigned char Bytef;\n#endif\n"
    files = {"zconf.h": conf, "config.h": "#define SMALL_MEDIUM 1\n",
             "a.c": '#include "zconf.h"\n#include "config.h"\nint f(int v) { return (Bytef)(v); }\n'}
    assert _calls(tmp_path, files)[("a.f", "Bytef")] == set()


def test_a_source_files_define_reaches_only_its_own_translation_unit(tmp_path):
    # miniz: examples/example5.c defines MINIZ_NO_MALLOC before including the library; the library's own sources
    # are built without it, so their MZ_FREE is the #else one
    common = ("#ifdef MINIZ_NO_MALLOC\n#define MZ_FREE(x) (void)x, ((void)0)\n#else\n#define MZ_FREE(x) free(x)\n"
              "#endif\n")
    files = {"miniz_common.h": common, "miniz.c": '#include "miniz_common.h"\nvoid f(void *p) { MZ_FREE(p); }\n',
             "examples/example5.c": '#define MINIZ_NO_MALLOC\n#include "../miniz_common.h"\n'
                                    "void g(void *p) { MZ_FREE(p); }\n"}
    got = _calls(tmp_path, files)
    assert got[("miniz.f", "MZ_FREE")] == {("miniz_common.MZ_FREE", 4)}
    assert ("miniz_common.MZ_FREE", 2) in got[("examples.example5.g", "MZ_FREE")]


def test_a_macro_defined_only_under_a_debug_flag(tmp_path):
    # libpng's pngdebug.h: png_debug is defined under #ifdef PNG_DEBUG (no file of the build defines it), so a later
    # #ifdef png_debug is off as well, and its #else is the one
    dbg = ("#ifdef PNG_DEBUG\n#  if (PNG_DEBUG > 1)\n#    define png_debug(l,m) trace(m)\n#  endif\n#endif\n"
           "#ifdef png_debug\n#  define png_trace(m) png_debug(1, m)\n#else\n#  define png_trace(m) ((void)0)\n#endif\n")
    files = {"pngdebug.h": dbg, "pngset.c": '#include "pngdebug.h"\nvoid f(void) { png_trace("in f"); }\n'}
    assert _calls(tmp_path, files)[("pngset.f", "png_trace")] == {("pngdebug.png_trace", 9)}


def test_what_stdint_defines_is_defined(tmp_path):
    # xz's sysdefs.h: #ifndef UINT64_C ... a fallback no Linux build compiles (<stdint.h> defines it); the call
    # is libc's, so it stays unbound rather than bound to the fallback
    sysdefs = ("#include <stdint.h>\n#ifndef UINT64_C\n#  define UINT64_C(n) n ## ULL\n#endif\n"
               "#if SIZE_MAX == UINT32_MAX\n#  define WIDE(x) narrow(x)\n#else\n#  define WIDE(x) wide(x)\n#endif\n")
    files = {"sysdefs.h": sysdefs, "coder.c": '#include "sysdefs.h"\nlong f(void) { return UINT64_C(1) + WIDE(2); }\n'}
    got = _calls(tmp_path, files)
    assert got[("coder.f", "UINT64_C")] == set()
    assert got[("coder.f", "WIDE")] == {("sysdefs.WIDE", 8)}


KCONFIG = {
    "include/linux/kconfig.h": "#include <generated/autoconf.h>\n",
    "include/linux/smp.h": "#ifdef CONFIG_SMP\nvoid kick(int cpu);\n#else\nstatic inline void kick(int cpu) { }\n#endif\n"
                           "#if IS_ENABLED(CONFIG_NUMA)\n#define node_of(c) numa_node(c)\n#else\n"
                           "#define node_of(c) 0\n#endif\n",
    "kernel/smp.c": "#include <linux/smp.h>\n#ifdef CONFIG_SMP\nvoid kick(int cpu) { }\n#endif\n",
    "kernel/sched.c": "#include <linux/smp.h>\nvoid tick(void) { kick(node_of(1)); }\n",
}


def test_a_configured_kernel_tree_decides_its_options(tmp_path):
    # include/generated/autoconf.h (make defconfig) defines the options that are on: #ifdef CONFIG_SMP takes
    # the SMP definition, IS_ENABLED(CONFIG_NUMA) of an option that is off takes the #else
    files = {**KCONFIG, "include/generated/autoconf.h": "#define CONFIG_SMP 1\n#define CONFIG_X86_64 1\n"}
    got = _calls(tmp_path, files)
    assert got[("kernel.sched.tick", "kick")] == {("kernel.smp.kick", 3)}
    assert got[("kernel.sched.tick", "node_of")] == {("include.linux.smp.node_of", 9)}


def test_an_unconfigured_kernel_tree_keeps_both_branches(tmp_path):
    # no autoconf.h: an option is neither on nor off (it is not "defined by no file"), both branches stay
    got = _calls(tmp_path, KCONFIG)
    assert got[("kernel.sched.tick", "node_of")] == {("include.linux.smp.node_of", 7),
                                                     ("include.linux.smp.node_of", 9)}
    assert ("include.linux.smp.kick", 4) in got[("kernel.sched.tick", "kick")]


def test_a_condition_another_header_decides(tmp_path):
    # miniz: miniz.h sets MINIZ_USE_UNALIGNED_LOADS_AND_STORES (0 whichever of its branches runs, a default under
    # #if !defined); miniz_common.h's #if of it then takes the #else
    config = ("#if defined(__has_feature)\n#if __has_feature(undefined_behavior_sanitizer)\n"
              "#define MINIZ_USE_UNALIGNED_LOADS_AND_STORES 0\n#endif\n#endif\n"
              "#if !defined(MINIZ_USE_UNALIGNED_LOADS_AND_STORES)\n#define MINIZ_USE_UNALIGNED_LOADS_AND_STORES 0\n"
              "#endif\n#define MINIZ_LITTLE_ENDIAN 1\n#if MINIZ_LITTLE_ENDIAN\n#endif\n")
    common = ("#if MINIZ_USE_UNALIGNED_LOADS_AND_STORES && MINIZ_LITTLE_ENDIAN\n#define MZ_READ_LE16(p) *(p)\n#else\n"
              "#define MZ_READ_LE16(p) ((p)[0] | (p)[1] << 8)\n#endif\n"
              "#if MZ_FAST\n#define MZ_COPY(d, s) fast(d, s)\n#else\n#define MZ_COPY(d, s) slow(d, s)\n#endif\n")
    files = {"miniz.h": config, "miniz_common.h": common,
             "miniz_zip.c": '#include "miniz.h"\n#include "miniz_common.h"\n'
                            "int f(const char *p) { MZ_COPY(p, p); return MZ_READ_LE16(p); }\n",
             "fast.c": '#define MZ_FAST 1\n#include "miniz_common.h"\n'}
    got = _calls(tmp_path, files)
    assert got[("miniz_zip.f", "MZ_READ_LE16")] == {("miniz_common.MZ_READ_LE16", 4)}
    assert got[("miniz_zip.f", "MZ_COPY")] == {("miniz_common.MZ_COPY", 9)}  # fast.c's MZ_FAST is fast.c's own


def test_a_comment_inside_a_condition(tmp_path):
    # xxhash's xsum_config.h: #if defined(__cplusplus) /* C++ */ || (... C99 */): C11 takes the first branch
    config = ("#if defined(__cplusplus) /* C++ */ \\\n || (defined (__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)"
              "  /* C99 */\n#  include <stdint.h>\n    typedef uint32_t XSUM_U32;\n# else\n"
              "      typedef unsigned int     XSUM_U32;\n#endif\n")
    files = {"xsum_config.h": config, "bench.c": '#include "xsum_config.h"\nint f(int v) { return (XSUM_U32)(v); }\n'}
    assert _calls(tmp_path, files)[("bench.f", "XSUM_U32")] == {("xsum_config.XSUM_U32", 4)}


def test_a_condition_that_calls_a_function_like_macro_of_the_file(tmp_path):
    # a version test written as a macro (brotli's BROTLI_GNUC_HAS_BUILTIN, lz4's and xxhash's version macros) is
    # expanded as the preprocessor does; one the file does not define stays undecided
    h = ("#define LIB_VERSION 10904\n#define LIB_AT_LEAST(v) (LIB_VERSION >= (v))\n"
         "#if LIB_AT_LEAST(10900)\n#define lib_copy(d, s) new_copy(d, s)\n#else\n#define lib_copy(d, s) old_copy(d, s)\n"
         "#endif\n#if OTHER_AT_LEAST(2)\n#define lib_move(d) new_move(d)\n#else\n#define lib_move(d) old_move(d)\n#endif\n")
    files = {"lib.h": h, "a.c": '#include "lib.h"\nvoid f(char *d) { lib_copy(d, d); lib_move(d); }\n'}
    got = _calls(tmp_path, files)
    assert got[("a.f", "lib_copy")] == {("lib.lib_copy", 4)}
    assert got[("a.f", "lib_move")] == {("lib.lib_move", 9), ("lib.lib_move", 11)}


def test_an_indented_ifndef_is_read_as_ifndef(tmp_path):
    # zlib's gzguts.h: `#  ifndef NO_STRERROR` (spaces after `#`) was read as `#ifdef`, so the default build took
    # the `#else` branch; a header's conditional default nested the same way (`#  ifndef X` / `#    define Y`)
    hdr = ("#ifdef UNDER_CE\n#  define zerr() 0\n#else\n#  ifndef NO_STRERROR\n#    define zerr() strerror(errno)\n"
           "#  else\n#    define zerr() \"stdio error\"\n#  endif\n#endif\n")
    got = _calls(tmp_path, {"gz.h": hdr, "a.c": '#include "gz.h"\nconst char *fa(void) { return zerr(); }\n'})
    assert got[("a.fa", "zerr")] == {("gz.zerr", 5)}


def test_an_indented_ifndef_of_a_flag_the_project_defines_keeps_both_branches(tmp_path):
    # must stay: NO_STRERROR is defined by a header of the project, so the branch is not decided either way in a
    # file that does not include that header; in one that does, it is defined (the #else)
    hdr = "#  ifndef NO_STRERROR\n#    define zerr() 1\n#  else\n#    define zerr() 2\n#  endif\n"
    got = _calls(tmp_path, {"gz.h": hdr, "opts.h": "#define NO_STRERROR\n",
                            "a.c": '#include "gz.h"\nint fa(void) { return zerr(); }\n',
                            "b.c": '#include "opts.h"\n#include "gz.h"\nint fb(void) { return zerr(); }\n'})
    assert got[("a.fa", "zerr")] == {("gz.zerr", 2), ("gz.zerr", 4)}
    assert got[("b.fb", "zerr")] == {("gz.zerr", 4)}


def _project_bound(got: set[tuple[str, int]], prefix: str = "c.stdlib") -> set[tuple[str, int]]:
    return {t for t in got if not t[0].startswith(prefix)}


def test_a_c_library_function_is_the_librarys_where_its_standard_header_is_read(tmp_path):
    # zlib's gzguts.h restates `free` for old compilers; lz4's tests/freestanding.c defines its own memcpy for
    # a build without the C library; libuv's src/win/snprintf.c is Windows'. A file that reads <stdlib.h> /
    # <string.h> / <stdio.h> (itself or through its headers) calls the library's, as the compiler does.
    files = {"compat.h": "#include <stdlib.h>\nextern void free(void *p);\n",
             "a.c": '#include "compat.h"\nvoid fa(void *p) { free(p); }\n',
             "tests/freestanding.c": "void *memcpy(void *d, const void *s, unsigned long n) { return d; }\n",
             "b.c": "#include <string.h>\nvoid fb(char *d) { memcpy(d, d, 1); }\n",
             "src/win/snprintf.c": "int snprintf(char *b, unsigned long n, const char *f, ...) { return 0; }\n",
             "c.c": "#include <stdio.h>\nint fc(char *b) { return snprintf(b, 1, \"x\"); }\n",
             "cpp/zstream.h": "template <class T> inline int read(T& zs, T* x, int n) { return 0; }\n",
             "d.c": "#include <unistd.h>\nint fd(int f, char *b) { return read(f, b, 1); }\n"}
    got = _calls(tmp_path, files)
    assert _project_bound(got[("a.fa", "free")]) == set()
    assert _project_bound(got[("b.fb", "memcpy")]) == set()
    assert _project_bound(got[("c.fc", "snprintf")]) == set()
    assert _project_bound(got[("d.fd", "read")]) == set()  # a header out of reach: another program's


def test_a_c_library_name_the_project_provides_stays_the_projects(tmp_path):
    # must stay: the kernel compiles without the C library (its <linux/string.h> declares memcpy, lib/string.c
    # defines it); a macro in reach is what the preprocessor calls; a file that reads no standard header binds
    # the project's exported definition as before
    files = {"include/linux/string.h": "extern void *memcpy(void *d, const void *s, unsigned long n);\n",
             "lib/string.c": '#include <linux/string.h>\nvoid *memcpy(void *d, const void *s, unsigned long n) { return d; }\n',
             "mm/a.c": "#include <linux/string.h>\nvoid fa(char *d) { memcpy(d, d, 1); }\n",
             "dbg.h": "#include <stdlib.h>\n#define free(p) dbg_free(p)\n",
             "b.c": '#include "dbg.h"\nvoid fb(void *p) { free(p); }\n',
             "mymem.c": "void *memset(void *d, int c, unsigned long n) { return d; }\n",
             "c.c": "void fc(char *d) { memset(d, 0, 1); }\n"}
    got = _calls(tmp_path, files)
    assert got[("mm.a.fa", "memcpy")] == {("lib.string.memcpy", 2)}
    assert got[("b.fb", "free")] == {("dbg.free", 2)}
    assert got[("c.fc", "memset")] == {("mymem.memset", 1)}


def test_a_definition_written_through_a_macro_is_a_function(tmp_path):
    # libpng's PNG_FUNCTION(type, name, (params), attributes) { ... }: the argument before the parenthesized
    # parameters names the function (PNGAPI, a calling-convention macro beside it, is not the name)
    files = {"pngconf.h": "#define PNG_FUNCTION(type, name, args, attributes) attributes type name args\n",
             "png.h": '#include "pngconf.h"\nvoid png_error(int p, const char *m);\n',
             "pngerror.c": '#include "png.h"\nPNG_FUNCTION(void,PNGAPI\npng_error,(int p, const char *m),\n'
                           '   PNG_NORETURN)\n{\n   png_warn(p);\n}\n',
             "a.c": '#include "png.h"\nvoid fa(void) { png_error(0, "x"); }\n'}
    got = _calls(tmp_path, files)
    assert got[("a.fa", "png_error")] == {("pngerror.png_error", 2)}
    assert ("pngerror.png_error", "png_warn") in got  # the body's calls belong to it


def test_a_macro_call_without_a_body_or_parameters_is_no_definition():
    # must stay: a declaration macro ended by `;`, and a macro followed by a body but with no parenthesized
    # parameter argument (nothing names a function), are not definitions
    src = b"FOO(int, name, (int a));\nBAR(x, y)\n{\n  f();\n}\n"
    pf = c.parse("m.c", src, "m")
    assert [s.name for s in pf.symbols if s.kind == "function"] == []


def test_a_condition_gcc_and_clang_agree_on_is_decided(tmp_path):
    # lz4.h's LZ4_DEPRECATED: `defined(__clang__) || GCC >= 4.5` holds for both compilers that build the default
    # configuration (clang says GCC 4.2, GCC 12 says no clang): the attribute branch, not the fallbacks
    hdr = ("#ifdef DISABLE_WARNINGS\n#  define DEP(m)\n#else\n"
           "#  if defined (__cplusplus) && (__cplusplus >= 201402)\n#    define DEP(m) [[deprecated(m)]]\n"
           "#  elif defined(_MSC_VER)\n#    define DEP(m) __declspec(deprecated(m))\n"
           "#  elif defined(__clang__) || (defined(__GNUC__) && (__GNUC__ * 10 + __GNUC_MINOR__ >= 45))\n"
           "#    define DEP(m) __attribute__((deprecated(m)))\n"
           "#  elif defined(__GNUC__) && (__GNUC__ * 10 + __GNUC_MINOR__ >= 31)\n"
           "#    define DEP(m) __attribute__((deprecated))\n#  else\n#    define DEP(m)\n#  endif\n#endif\n"
           'DEP("old") int old_api(void);\n')
    got = _calls(tmp_path, {"lz.h": hdr, "lzhc.h": '#include "lz.h"\nDEP("x") int old_hc(void);\n',
                            "a.c": '#include "lzhc.h"\nint fa(void) { return 0; }\n'})
    assert got[("lz", "DEP")] == {("lz.DEP", 9)}
    # another header's call keeps the C++14 branch too (a header may be read as C++), not the GCC 3 one nor the
    # fallback (main kept all four)
    assert got[("lzhc", "DEP")] == {("lz.DEP", 5), ("lz.DEP", 9)}


def test_a_condition_only_one_compiler_meets_stays_open(tmp_path):
    # must stay: clang alone (or GCC 5 and up alone) is not decided: both branches are kept
    hdr = "#if defined(__clang__)\n#  define PICK() 1\n#else\n#  define PICK() 2\n#endif\n"
    got = _calls(tmp_path, {"p.h": hdr, "a.c": '#include "p.h"\nint fa(void) { return PICK(); }\n'})
    assert got[("a.fa", "PICK")] == {("p.PICK", 2), ("p.PICK", 4)}


def test_linux_errno_values_and_x86_64_instruction_sets_decide_branches(tmp_path):
    # libuv's `#if EDOM > 0` (errno constants are positive on Linux); lz4's access mode chosen under ARMv6/v7
    # macros, which x86_64 never defines (only __ARM_ARCH was known), and AVX2 (off without -mavx2)
    src = ("#include <errno.h>\n#if EDOM > 0\n#define ERR(x) (-(x))\n#else\n#define ERR(x) (x)\n#endif\n"
           "#if defined(__GNUC__) && (defined(__ARM_ARCH_6__) || defined(__ARM_ARCH_7__))\n#  define ACCESS 2\n"
           "#elif defined(__GNUC__)\n#  define ACCESS 1\n#endif\n"
           "#if ACCESS == 2\nstatic int rd(void) { return 2; }\n#elif ACCESS == 1\nstatic int rd(void) { return 1; }\n"
           "#else\nstatic int rd(void) { return 0; }\n#endif\n"
           "#if defined(__AVX2__)\nstatic int sum(void) { return 2; }\n#else\nstatic int sum(void) { return 1; }\n#endif\n"
           "int f(void) { return ERR(rd()) + sum(); }\n")
    got = _calls(tmp_path, {"a.c": src})
    assert got[("a.f", "ERR")] == {("a.ERR", 3)}
    assert got[("a.f", "rd")] == {("a.rd", 15)}
    assert got[("a.f", "sum")] == {("a.sum", 22)}


def test_a_macro_a_header_restates_after_including_the_other_is_the_later_one(tmp_path):
    # libuv: uv-common.h includes uv.h (whose uv/errno.h defines UV__ERR), then defines UV__ERR again: the
    # preprocessor uses the later definition
    files = {"uv/errno.h": "#define UV__ERR(x) (-(x))\n", "uv.h": '#include "uv/errno.h"\n',
             "common.h": '#include "uv.h"\n#define UV__ERR(x) (-(x))\n',
             "a.c": '#include "common.h"\nint fa(int e) { return UV__ERR(e); }\n'}
    assert _calls(tmp_path, files)[("a.fa", "UV__ERR")] == {("common.UV__ERR", 2)}


def test_a_macro_two_unrelated_headers_define_keeps_both(tmp_path):
    # must stay: neither header includes the other; which comes last depends on the includer's order
    files = {"x.h": "#define M(v) (v)\n", "y.h": "#define M(v) (v)\n",
             "a.c": '#include "x.h"\n#include "y.h"\nint fa(int e) { return M(e); }\n'}
    assert _calls(tmp_path, files)[("a.fa", "M")] == {("x.M", 1), ("y.M", 1)}


def test_definitions_after_upper_case_macro_lines_and_attribute_only_chains_are_read():
    # libevent's evutil.c: IMPL_CTYPE_FN(ISALPHA) lines (each expands to a definition) before `char
    # EVUTIL_TOLOWER_(char c) {`; event.c's `int` / `#if GCC 11` / `__attribute__((noinline))` / `#endif` /
    # `event_assign(...)`: both definitions were lost in error nodes
    src = (b"#define IMPL(name) int is_##name(char c) { return c; }\nIMPL(ALPHA)\nIMPL(DIGIT)\n\n"
           b"char to_lower(char c)\n{\n\treturn c;\n}\n\nint\n#if defined(__GNUC__) && (__GNUC__ == 11 || __GNUC__ == 12)\n"
           b"__attribute__((noinline))\n#endif\nevent_assign(int ev, int base)\n{\n\treturn to_lower(ev);\n}\n")
    pf = c.parse("evutil.c", src, "evutil")
    assert [s.name for s in pf.symbols if s.kind == "function" and not s.signature.startswith("#")] == \
        ["to_lower", "event_assign", "is_ALPHA", "is_DIGIT"]  # and what the IMPL lines write (test_c_macro_names)
    assert pf.syntax_errors == 0


def test_an_upper_case_definition_and_a_chain_before_no_name_stay():
    # must stay: an upper-case function defined at column 0 (`FOO(int x)` then its body) is a function, and an
    # attribute-only chain followed by no declarator is left to the grammar
    src = b"int\nFOO(int x)\n{\n\treturn x;\n}\n#if defined(__GNUC__)\n__attribute__((unused))\n#endif\nstatic int y;\n"
    pf = c.parse("m.c", src, "m")
    assert [s.name for s in pf.symbols if s.kind == "function"] == ["FOO"]
    # an upper-case macro alone on its line that is the return type of the definition below stays
    src = (b"#include <x.h>\n\nYAML_DECLARE(int)\nyaml_parser_initialize(yaml_parser_t *parser)\n{\n\treturn 0;\n}\n\n"
           b"YAML_DECLARE(void)\nyaml_parser_delete(yaml_parser_t *parser)\n{\n\tyaml_parser_initialize(parser);\n}\n")
    pf = c.parse("api.c", src, "api")
    assert [s.name for s in pf.symbols if s.kind == "function"] == ["yaml_parser_initialize", "yaml_parser_delete"]


def test_the_reading_of_a_file_that_finds_more_definitions_wins_over_fewer_error_nodes():
    # zlib's inflate.c: an `if (` opened only under `#ifdef GUNZIP` broke the first reading into fewer error
    # nodes than reading one branch of each #if, but lost the 700-line inflate() (and every call in it)
    src = (b"int ZEXPORT inflate(z_streamp strm, int flush) {\n#ifdef GUNZIP\n    if (\n#endif\n"
           b"        ((BITS(8) << 8) + (hold >> 8)) % 31) {\n        strm->msg = \"incorrect header check\";\n    }\n"
           b"    return 0;\n}\n\nint ZEXPORT inflateEnd(z_streamp strm) {\n    return inflate(strm, 0);\n}\n")
    pf = c.parse("inflate.c", src, "inflate")
    assert [s.name for s in pf.symbols if s.kind == "function"] == ["inflate", "inflateEnd"]
    assert [(x.callee, pf.symbols[x.caller].name) for x in pf.calls] == [("BITS", "inflate"), ("inflate", "inflateEnd")]
