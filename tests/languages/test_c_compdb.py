"""C resolution under the project's ``compile_commands.json`` (:mod:`lore.languages.c._compdb`)."""

from __future__ import annotations

import json
import logging
import os

import pytest

from tests.languages.test_c import _calls

CONF = ("#ifdef USE_FAST\nstatic inline int pick(void) { return 1; }\n#else\n"
        "static inline int pick(void) { return 2; }\n#endif\n")


def _db(tmp_path, entries: dict[str, str], where: str = "build") -> None:
    """Write a compilation database in ``where`` with one ``cc <flags> -c <file>`` command per entry."""
    folder = tmp_path / where
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "compile_commands.json").write_text(json.dumps([
        {"directory": str(folder), "file": str(tmp_path / f), "command": f"cc {flags} -c {tmp_path / f}"}
        for f, flags in entries.items()]))


def test_a_flag_the_command_defines_turns_its_branch_on_in_that_unit_only(tmp_path):
    # USE_FAST is passed with -D to a.c only: a.c's call is the #ifdef one, b.c's the #else one (no file of the
    # project defines it, so without the database both are the #else one)
    _db(tmp_path, {"a.c": "-DUSE_FAST", "b.c": ""})
    got = _calls(tmp_path, {"conf.h": CONF, "a.c": '#include "conf.h"\nint fa(void) { return pick(); }\n',
                            "b.c": '#include "conf.h"\nint fb(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("conf.pick", 2)}
    assert got[("b.fb", "pick")] == {("conf.pick", 4)}


def test_without_a_database_the_default_build_is_kept(tmp_path):
    # must stay: no database, no -D: the #else branch, as before
    got = _calls(tmp_path, {"conf.h": CONF, "a.c": '#include "conf.h"\nint fa(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("conf.pick", 4)}


def test_a_header_the_build_generated_gives_its_defines_to_the_units_that_find_it(tmp_path):
    # config.h is written by the build into build/ (ignored by git, not indexed); -Ibuild finds it
    (tmp_path / ".gitignore").write_text("build/\n")
    _db(tmp_path, {"src/a.c": f"-DHAVE_CONFIG_H -I{tmp_path / 'build'}"})
    (tmp_path / "build" / "config.h").write_text("#ifndef CONFIG_H\n#define CONFIG_H\n#define USE_FAST 1\n"
                                                 "/* #undef USE_SLOW */\n#endif\n")
    got = _calls(tmp_path, {"src/conf.h": CONF,
                            "src/a.c": '#ifdef HAVE_CONFIG_H\n#include "config.h"\n#endif\n#include "conf.h"\n'
                                       'int fa(void) { return pick(); }\n'})
    assert got[("src.a.fa", "pick")] == {("src.conf.pick", 2)}


def test_a_source_file_the_build_does_not_compile_is_not_an_alternative(tmp_path):
    # two files define the exported pick(); the database compiles one: a call binds to that one alone
    _db(tmp_path, {"pick_unix.c": "", "main.c": ""})
    got = _calls(tmp_path, {"pick.h": "int pick(void);\n", "pick_unix.c": "int pick(void) { return 1; }\n",
                            "pick_alt.c": "int pick(void) { return 2; }\n",
                            "main.c": '#include "pick.h"\nint main(void) { return pick(); }\n'})
    assert got[("main.main", "pick")] == {("pick_unix.pick", 1)}


def test_without_a_database_both_definitions_stay_alternatives(tmp_path):
    # must stay: without the database nothing tells which file is built
    got = _calls(tmp_path, {"pick.h": "int pick(void);\n", "pick_unix.c": "int pick(void) { return 1; }\n",
                            "pick_alt.c": "int pick(void) { return 2; }\n",
                            "main.c": '#include "pick.h"\nint main(void) { return pick(); }\n'})
    assert got[("main.main", "pick")] == {("pick_unix.pick", 1), ("pick_alt.pick", 1)}


def test_include_folders_of_the_command_are_searched_first(tmp_path):
    # two api.h under different folders: -Ilib/v2 decides which one <api.h> is
    _db(tmp_path, {"main.c": f"-I{tmp_path / 'lib' / 'v2'}"}, where="")
    files = {"lib/v1/api.h": "static inline int api(void) { return 1; }\n",
             "lib/v2/api.h": "\n\nstatic inline int api(void) { return 2; }\n",
             "main.c": "#include <api.h>\nint main(void) { return api(); }\n"}
    got = _calls(tmp_path, files)
    assert got[("main.main", "api")] == {("lib.v2.api.api", 3)}


@pytest.mark.parametrize("text", ["[{", '{"not": "a list"}', "\xff"])
def test_a_malformed_database_is_one_warning_and_the_index_goes_on(tmp_path, caplog, text):
    (tmp_path / "compile_commands.json").write_text(text, encoding="latin-1")
    with caplog.at_level(logging.WARNING, logger="lore"):
        got = _calls(tmp_path, {"conf.h": CONF, "a.c": '#include "conf.h"\nint fa(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("conf.pick", 4)}
    assert [r.getMessage().split(" is ")[0] for r in caplog.records] == ["lore: compile_commands.json"]


def test_a_database_behind_a_symlink_out_of_the_repository_is_not_read(tmp_path):
    outside = tmp_path / "outside"
    repo = tmp_path / "repo"
    outside.mkdir()
    repo.mkdir()
    (outside / "compile_commands.json").write_text(json.dumps([
        {"directory": str(repo), "file": str(repo / "a.c"), "command": f"cc -DUSE_FAST -c {repo / 'a.c'}"}]))
    os.symlink(outside / "compile_commands.json", repo / "compile_commands.json")
    got = _calls(repo, {"conf.h": CONF, "a.c": '#include "conf.h"\nint fa(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("conf.pick", 4)}


def test_a_database_written_for_another_checkout_is_left_out(tmp_path):
    # every path names another folder: the database describes no file here, so nothing is "not compiled"
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": "/elsewhere", "file": "/elsewhere/pick_unix.c", "command": "cc -c /elsewhere/pick_unix.c"}]))
    got = _calls(tmp_path, {"pick.h": "int pick(void);\n", "pick_unix.c": "int pick(void) { return 1; }\n",
                            "pick_alt.c": "int pick(void) { return 2; }\n",
                            "main.c": '#include "pick.h"\nint main(void) { return pick(); }\n'})
    assert got[("main.main", "pick")] == {("pick_unix.pick", 1), ("pick_alt.pick", 1)}


def test_a_header_define_made_under_a_flag_of_the_command_counts_in_that_unit(tmp_path):
    # xz's mythread.h: THREADS_ENABLED is defined when -DUSE_POSIX is given; the #elif chain below then picks the
    # POSIX definition, not the Windows one
    hdr = ("#if defined(USE_POSIX) || defined(USE_WIN)\n#define THREADS_ENABLED 1\n#endif\n"
           "#if !defined(THREADS_ENABLED)\nstatic inline int once(void) { return 0; }\n"
           "#elif defined(USE_POSIX)\nstatic inline int lock(void) { return 1; }\n"
           "#elif defined(USE_WIN)\nstatic inline int lock(void) { return 2; }\n#endif\n")
    _db(tmp_path, {"a.c": "-DUSE_POSIX"})
    got = _calls(tmp_path, {"thr.h": hdr, "a.c": '#include "thr.h"\nint fa(void) { return lock(); }\n'})
    assert got[("a.fa", "lock")] == {("thr.lock", 7)}


def test_the_compile_commands_setting_names_a_database_elsewhere(tmp_path):
    _db(tmp_path, {"a.c": "-DUSE_FAST"}, where="out/debug")
    (tmp_path / ".lore").mkdir()
    (tmp_path / ".lore" / "config.toml").write_text('compile_commands = "out/debug/compile_commands.json"\n')
    got = _calls(tmp_path, {"conf.h": CONF, "a.c": '#include "conf.h"\nint fa(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("conf.pick", 2)}


def test_a_compile_commands_setting_that_is_not_a_path_is_refused(tmp_path):
    from lore.errors import InvalidArgumentError
    from lore.index.config import load_settings

    (tmp_path / ".lore").mkdir()
    (tmp_path / ".lore" / "config.toml").write_text("compile_commands = 3\n")
    with pytest.raises(InvalidArgumentError, match="compile_commands must be the path"):
        load_settings(tmp_path)


BRANCHY = ("#define HAS_ATTR(x) __has_attribute(x)\n"
           "#if defined(__ARM_ARCH) && (__ARM_ARCH == 7)\n#define TARGET_ARMV7\n#endif\n"
           "#if defined(TARGET_ARMV7) && HAS_ATTR(aligned)\n#define FAST_LOAD\n#endif\n"
           "#if !defined(FAST_LOAD)\nstatic inline int load(void) { return 1; }\n"
           "#else\nstatic inline int load(void) { return 2; }\n#endif\n")


def test_a_macro_defined_under_a_condition_reads_as_that_condition_in_the_unit(tmp_path):
    # brotli's huffman.h: FAST_LOAD is defined where ARMv7 and an attribute test hold; an x86_64 unit defines no
    # ARM macro (GCC and clang define __ARM_ARCH only there), so !defined(FAST_LOAD) holds whatever HAS_ATTR says
    _db(tmp_path, {"a.c": ""})
    got = _calls(tmp_path, {"huff.h": BRANCHY, "a.c": '#include "huff.h"\nint fa(void) { return load(); }\n'})
    assert got[("a.fa", "load")] == {("huff.load", 9)}


def test_a_macro_defined_under_a_condition_the_unit_turns_on_keeps_its_branch(tmp_path):
    # must stay: the unit's -DTARGET_ARMV7 opens FAST_LOAD's branch as far as the file tells (HAS_ATTR is not
    # decided here): both definitions stay
    _db(tmp_path, {"a.c": "-DTARGET_ARMV7"})
    got = _calls(tmp_path, {"huff.h": BRANCHY, "a.c": '#include "huff.h"\nint fa(void) { return load(); }\n'})
    assert got[("a.fa", "load")] == {("huff.load", 9), ("huff.load", 11)}


def test_a_condition_on_a_macro_the_file_defines_only_conditionally_is_written_as_those_conditions():
    from lore.languages.c import _parser as c

    pf = c.parse("huff.h", BRANCHY.encode(), "huff")
    conds = [s.condition for s in pf.symbols if s.name == "load"]
    assert conds[0] == "?|(! (((defined(TARGET_ARMV7) && HAS_ATTR ( aligned )))))"
    # a value defined under a condition that reads it otherwise (#if G > 1 ... #define G 2) stays the name
    pf = c.parse("g.h", b"#ifdef NLS\n#if G > 1\n#define G 2\n#endif\n#endif\n#if G\nint f(void);\n#endif\n", "g")
    assert [s.condition for s in pf.symbols if s.name == "f"] == ["?0 NLS|(G)"]


def test_a_default_a_header_gives_a_macro_reads_as_that_default_in_the_unit(tmp_path):
    # xz's tuklib_gettext.h: #ifndef G, G is 1 with -DNLS and 0 without; #if G picks the gettext `_` in a unit
    # compiled with -DNLS, the plain one elsewhere
    hdr = ("#ifndef G\n#ifdef NLS\n#define G 1\n#else\n#define G 0\n#endif\n#endif\n"
           "#if G\nstatic inline int tr(void) { return 1; }\n#else\nstatic inline int tr(void) { return 2; }\n#endif\n")
    _db(tmp_path, {"a.c": "-DNLS", "b.c": ""})
    got = _calls(tmp_path, {"g.h": hdr, "a.c": '#include "g.h"\nint fa(void) { return tr(); }\n',
                            "b.c": '#include "g.h"\nint fb(void) { return tr(); }\n'})
    assert got[("a.fa", "tr")] == {("g.tr", 9)}
    assert got[("b.fb", "tr")] == {("g.tr", 11)}


KCONF = ("#ifdef CONFIG_FAST\nstatic inline int pick(void) { return 1; }\n#else\n"
         "static inline int pick(void) { return 2; }\n#endif\n")


def test_a_header_the_command_reads_first_configures_the_unit(tmp_path):
    # the kernel's -include include/generated/autoconf.h (git-ignored, not indexed): its options are the unit's
    (tmp_path / ".gitignore").write_text("gen/\n")
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "autoconf.h").write_text("#define CONFIG_FAST 1\n#define CONFIG_SMP 1\n")
    _db(tmp_path, {"a.c": f"-include {tmp_path / 'gen' / 'autoconf.h'}"})
    got = _calls(tmp_path, {"k.h": KCONF, "a.c": '#include "k.h"\nint fa(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("k.pick", 2)}


def test_a_kernel_option_stays_open_in_a_unit_without_a_configuration(tmp_path):
    # must stay: no autoconf.h anywhere, so CONFIG_FAST is not decided by no file defining it: both stay
    _db(tmp_path, {"a.c": "-DOTHER"})
    got = _calls(tmp_path, {"k.h": KCONF, "a.c": '#include "k.h"\nint fa(void) { return pick(); }\n'})
    assert got[("a.fa", "pick")] == {("k.pick", 2), ("k.pick", 4)}


def test_a_c_unit_reads_a_header_without_cplusplus(tmp_path):
    # libpng's pngpriv.h: png_voidcast is static_cast under __cplusplus; a .c unit is C
    hdr = ("#ifdef __cplusplus\n#define voidcast(t, v) static_cast<t>(v)\n#else\n#define voidcast(t, v) (v)\n"
           "#endif\n")
    _db(tmp_path, {"a.c": ""})
    got = _calls(tmp_path, {"priv.h": hdr, "a.c": '#include "priv.h"\nint fa(void *p) { return *voidcast(int *, p); }\n'})
    assert got[("a.fa", "voidcast")] == {("priv.voidcast", 4)}


def test_without_a_database_a_source_file_is_a_unit_without_flags(tmp_path):
    # the default build (no -D): the same reading of brotli's huffman.h as a unit of a database with no flags;
    # HAS_ATTR comes from another header, as brotli's BROTLI_GNUC_HAS_ATTRIBUTE from platform.h
    hdr = '#include "plat.h"\n' + BRANCHY.split("\n", 1)[1]
    got = _calls(tmp_path, {"plat.h": "#define HAS_ATTR(x) __has_attribute(x)\n", "huff.h": hdr,
                            "a.c": '#include "huff.h"\nint fa(void) { return load(); }\n'})
    assert got[("a.fa", "load")] == {("huff.load", 9)}


def test_without_a_database_a_flag_a_header_defines_keeps_both_branches(tmp_path):
    # must stay: a project header defines TARGET_ARMV7 (no platform test around it): both definitions stay
    hdr = BRANCHY.replace("#if defined(__ARM_ARCH) && (__ARM_ARCH == 7)\n#define TARGET_ARMV7\n#endif\n",
                          "#define TARGET_ARMV7\n\n\n")
    got = _calls(tmp_path, {"huff.h": hdr, "a.c": '#include "huff.h"\nint fa(void) { return load(); }\n'})
    assert got[("a.fa", "load")] == {("huff.load", 9), ("huff.load", 11)}


PRINTK = ("#if defined(CONFIG_DYN)\n#define pr(x) dyn(x)\n#elif defined(DEBUG)\n#define pr(x) one(x)\n#else\n"
          "#define pr(x) two(x)\n#endif\n")


def test_a_kernel_unit_without_debug_drops_the_debug_branch_and_keeps_the_open_options(tmp_path):
    # the kernel's printk.h without a configuration: CONFIG_DYN is open, DEBUG is defined by no file b.c reads
    got = _calls(tmp_path, {"p.h": PRINTK, "b.c": '#include "p.h"\nvoid fb(void) { pr(1); }\n'})
    assert got[("b.fb", "pr")] == {("p.pr", 2), ("p.pr", 6)}


def test_a_unit_defining_debug_under_an_open_option_keeps_the_debug_branch(tmp_path):
    # must stay: cma.c defines DEBUG under CONFIG_CMA_DEBUG, open without a configuration: all three stay
    got = _calls(tmp_path, {"p.h": PRINTK,
                            "a.c": '#ifdef CONFIG_A_DEBUG\n#define DEBUG\n#endif\n#include "p.h"\nvoid fa(void) { pr(1); }\n'})
    assert got[("a.fa", "pr")] == {("p.pr", 2), ("p.pr", 4), ("p.pr", 6)}
