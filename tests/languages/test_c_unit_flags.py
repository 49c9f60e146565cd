"""C: a flag a header ``#define``s decides the ``#if`` branches of the files that include it (and only theirs)."""

from __future__ import annotations

from .test_c import _calls

_BRANCHES = ("#ifdef USE_FAST\nstatic int k(void) { return 1; }\n#else\nstatic int k(void) { return 2; }\n#endif\n"
             "int f(void) { return k(); }\n")


def test_a_valueless_flag_of_an_included_header_chooses_the_branch(tmp_path):
    # zlib's `#define GUNZIP` in inflate.h read by inflate.c's `#ifdef GUNZIP`: main kept both branches of the
    # file and bound the later one (the #else), clangd the first
    files = {"cfg.h": "#ifndef CFG_H\n#define CFG_H\n#define USE_FAST\n#endif\n",
             "a.c": '#include "cfg.h"\n' + _BRANCHES,
             "b.c": _BRANCHES.replace("#ifdef USE_FAST", "#if defined(USE_FAST) && 1").replace("k(", "m("),
             "c.c": '#include "cfg.h"\n' + _BRANCHES.replace("#ifdef USE_FAST", "#ifndef USE_FAST").replace("k(", "n(")}
    got = _calls(tmp_path, files)
    assert got[("a.f", "k")] == {("a.k", 3)}
    assert got[("c.f", "n")] == {("c.n", 5)}
    # b.c includes no header that defines it: undefined there, as before (the #else)
    assert got[("b.f", "m")] == {("b.m", 4)}


def test_a_flag_reached_through_a_chain_of_includes_decides_a_header_definition(tmp_path):
    # the flag two includes away, read by a third header's branches (a static inline function in each)
    files = {"cfg.h": "#define USE_FAST\n",
             "mid.h": '#include "cfg.h"\n',
             "impl.h": "#ifdef USE_FAST\nstatic inline int k(void) { return 1; }\n#else\n"
                       "static inline int k(void) { return 2; }\n#endif\n",
             "a.c": '#include "mid.h"\n#include "impl.h"\nint f(void) { return k(); }\n'}
    got = _calls(tmp_path, files)
    assert got[("a.f", "k")] == {("impl.k", 2)}


def test_flags_a_header_defines_only_in_some_builds_or_undefines_decide_nothing(tmp_path):
    # defined under a condition the project cannot decide (a system name), or #undef'd again: both branches stay
    # as they were (the later one bound)
    files = {"cfg.h": "#if defined(O_CLOEXEC)\n#define USE_FAST\n#endif\n#define OTHER\n#undef OTHER\n",
             "a.c": '#include "cfg.h"\n' + _BRANCHES,
             "b.c": '#include "cfg.h"\n' + _BRANCHES.replace("USE_FAST", "OTHER").replace("k(", "m(")}
    got = _calls(tmp_path, files)
    assert got[("a.f", "k")] == {("a.k", 5)}
    assert got[("b.f", "m")] == {("b.m", 5)}


def test_a_header_included_only_on_another_system_brings_no_flag(tmp_path):
    # must stay: libuv's uv/unix.h includes uv/darwin.h (`#define UV_HAVE_KQUEUE 1`) under `#if defined(__APPLE__)`;
    # a first version followed every include and took process.c's Linux branch for off
    files = {"uv/unix.h": '#if defined(__APPLE__)\n#include "mach.h"\n#endif\n', "uv/mach.h": "#define HAVE_KQ 1\n",
             "p.c": '#include "uv/unix.h"\n' + _BRANCHES.replace("USE_FAST", "HAVE_KQ")}
    got = _calls(tmp_path, files)
    assert got[("p.f", "k")] == {("p.k", 5)}


def test_a_flag_defined_unless_another_flag_is_decides_where_nothing_defines_that_one(tmp_path):
    # zlib's inflate.h: `#ifndef NO_GZIP` / `#define GUNZIP`; no file defines NO_GZIP, so a default build has GUNZIP
    # in every unit that includes inflate.h; where a file of the project defines NO_GZIP, nothing is decided
    hdr = "#ifndef NO_GZIP\n#  define GUNZIP\n#endif\n"
    src = '#include "inflate.h"\n' + _BRANCHES.replace("USE_FAST", "GUNZIP")
    got = _calls(tmp_path / "a", {"inflate.h": hdr, "inflate.c": src})
    assert got[("inflate.f", "k")] == {("inflate.k", 3)}
    got = _calls(tmp_path / "b", {"inflate.h": hdr, "inflate.c": src, "opts.h": "#define NO_GZIP\n",
                                  "small.c": '#include "opts.h"\n#include "inflate.h"\n'})
    assert got[("inflate.f", "k")] == {("inflate.k", 5)}


def test_a_file_of_another_system_reads_its_own_systems_definitions(tmp_path):
    # libuv's src/win/: main dropped src/win/req-inl.h's macros for src/win/tty.c (another system's, so "not
    # built": unbound) and bound src/unix/stream.c's uv__stream_init, where src/win/stream-inl.h defines the one
    # src/win/ files include; clangd answers src/win/'s own
    files = {"include/uv.h": "int uv_translate_sys_error(int sys_errno);\n",
             "src/unix/core.c": '#include "uv.h"\nint uv_translate_sys_error(int sys_errno) { return -sys_errno; }\n',
             "src/win/error.c": '#include "uv.h"\nint uv_translate_sys_error(int sys_errno) { return sys_errno; }\n',
             "src/unix/stream.c": '#include "uv.h"\nvoid uv__stream_init(int *s) { }\n'
                                  "int stream_err(int e) { return uv_translate_sys_error(e); }\n",
             "src/uv-common.h": "void uv__stream_init(int *s);\n",
             "src/win/req-inl.h": "#define SET_REQ_ERROR(req, error) ((req)->status = (error))\n",
             "src/win/stream-inl.h": "static inline void uv__stream_init(int *s) { }\n",
             "src/win/tty.c": '#include "uv.h"\n#include "../uv-common.h"\n#include "req-inl.h"\n#include "stream-inl.h"\n'
                              "int tty_err(int e, struct r *req, int *s) {\n  SET_REQ_ERROR(req, e);\n"
                              "  uv__stream_init(s);\n  return uv_translate_sys_error(e);\n}\n"}
    got = _calls(tmp_path, files)
    assert got[("src.win.tty.tty_err", "SET_REQ_ERROR")] == {("src.win.req-inl.SET_REQ_ERROR", 1)}
    assert got[("src.win.tty.tty_err", "uv__stream_init")] == {("src.win.stream-inl.uv__stream_init", 1)}
    # must stay: another system's source files are no answer (clangd's own answers differ there), and the default
    # build's file binds the default build's definition
    assert got[("src.win.tty.tty_err", "uv_translate_sys_error")] == {("src.unix.core.uv_translate_sys_error", 2)}
    assert got[("src.unix.stream.stream_err", "uv_translate_sys_error")] == {("src.unix.core.uv_translate_sys_error", 2)}
