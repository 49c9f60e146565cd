"""C: a call written through an object-like macro that renames a function binds the macro, as clangd answers it
(:mod:`lore.languages.c._renaming`)."""

from __future__ import annotations

from .test_c import _calls


def test_a_call_through_a_renaming_macro_binds_the_macro(tmp_path):
    # miniz's `#define MZ_FCLOSE fclose`, a project function renamed (`#define my_free xfree`), pcre2's
    # `#define print_char PCRE2_SUFFIX(print_char_)`: main left the first two unbound (no symbol for an object-like
    # macro) and bound the third to the function clangd does not answer
    files = {"io.h": "#include <stdio.h>\n#define MZ_FCLOSE fclose\n#define my_free xfree  /* the allocator's */\n"
                     "#define SUFFIX(a) a##8\nvoid xfree(void *p);\n",
             "io.c": '#include "io.h"\nvoid xfree(void *p) { }\n',
             "a.c": '#include "io.h"\nint f(FILE *fp, void *p) { MZ_FCLOSE(fp); my_free(p); return 0; }\n'}
    got = _calls(tmp_path, files)
    assert got[("a.f", "MZ_FCLOSE")] == {("io.MZ_FCLOSE", 2)}
    assert got[("a.f", "my_free")] == {("io.my_free", 3)}


def test_values_that_rename_no_function_and_skipped_branches_stay_as_they_were(tmp_path):
    # must stay: a number, a type, a storage class, a #define under _WIN32 (close is libc's on Linux), and a
    # renaming macro of a source file another file does not include
    files = {"cfg.h": "#define BUFSZ 1024\n#define ULONG unsigned long\n#define MEM_STATIC static inline\n"
                      "#ifdef _WIN32\n#define close _close\n#endif\n",
             "other.c": "#define helper real_helper\nint real_helper(int x) { return x; }\n",
             "a.c": '#include <unistd.h>\n#include "cfg.h"\nint helper(int x);\n'
                    "int f(int fd) { close(fd); return helper(fd); }\n"}
    got = _calls(tmp_path, files)
    assert got[("a.f", "close")] == set()
    assert ("other.helper", 1) not in got[("a.f", "helper")]


def test_a_renaming_macro_in_a_branch_the_file_may_skip_adds_no_alternative(tmp_path):
    # must stay: zlib's `#ifdef SMALL_MEDIUM #define zmemcpy _fmemcpy #else ...`, miniz's per-compiler MZ_FWRITE:
    # which branch a build takes is not known, so the call keeps what it had (here the function)
    files = {"zutil.h": "#ifdef SMALL_MEDIUM\n#  define zmemcpy _fmemcpy\n#endif\nvoid zmemcpy(char *d, int n);\n",
             "zutil.c": '#include "zutil.h"\nvoid zmemcpy(char *d, int n) { }\n',
             "opts.h": "#define SMALL_MEDIUM\n",
             "a.c": '#include "zutil.h"\nvoid f(char *b) { zmemcpy(b, 1); }\n'}
    got = _calls(tmp_path, files)
    assert got[("a.f", "zmemcpy")] == {("zutil.zmemcpy", 2)}


def test_a_definition_and_its_own_renaming_macro_out_of_reach_count_as_one(tmp_path):
    # the kernel's arch/x86/include/asm/atomic.h: `static inline void arch_atomic_and(...) {...}` then
    # `#define arch_atomic_and arch_atomic_and`, called from a generic header that does not include it: main bound
    # the one definition out of reach; with the macro beside it the call had two and a first version dropped both
    files = {"arch/atomic.h": "static inline void arch_and(int i, int *v) { *v &= i; }\n#define arch_and arch_and\n",
             "generic/fallback.h": "static inline void arch_andnot(int i, int *v) { arch_and(~i, v); }\n"}
    got = _calls(tmp_path / "a", files)
    assert got[("generic.fallback.arch_andnot", "arch_and")] == {("arch.atomic.arch_and", 2)}
    # asm-generic/atomic.h renames it for the other architectures (`#define arch_and generic_and`): x86's function
    # alone, as main bound it
    files["arch/atomic.h"] = "static inline void arch_and(int i, int *v) { *v &= i; }\n"
    files["generic/atomic.h"] = "#define arch_and generic_and\n"
    got = _calls(tmp_path / "b", files)
    assert got[("generic.fallback.arch_andnot", "arch_and")] == {("arch.atomic.arch_and", 1)}


def test_a_function_its_own_file_renames_before_the_call_binds_the_macro(tmp_path):
    # pcre2's pcre2_printint_inc.h: `#define print_class PCRE2_SUFFIX(print_class_)` at its top, then `static void
    # print_class(...)` (really print_class_8) and its calls: clangd answers the #define, main the function
    files = {"suffix.h": "#define PCRE2_SUFFIX(a) a##8\n",
             "printint_inc.h": '#include "suffix.h"\n#define print_class PCRE2_SUFFIX(print_class_)\n'
                               "static void print_class(int x) { }\nstatic void helper(int x) { }\n"
                               "void f(void) { print_class(1); helper(2); }\n#define helper helper\n"}
    got = _calls(tmp_path, files)
    assert got[("printint_inc.f", "print_class")] == {("printint_inc.print_class", 2)}
    # must stay: a renaming macro after the call does not reach back
    assert got[("printint_inc.f", "helper")] == {("printint_inc.helper", 4)}


def test_a_renaming_macro_just_before_its_prototype_binds_calls_of_any_arity(tmp_path):
    # xz's tuklib_exit.h: `#define tuklib_exit TUKLIB_SYMBOL(tuklib_exit)` then `extern void tuklib_exit(int, int,
    # int);`: the macro took no arguments, so the arity check swapped it for tuklib_exit.c's definition (main);
    # clangd answers the #define
    files = {"common/tuklib_common.h": "#define TUKLIB_CAT(a, b) a ## b\n#define TUKLIB_SYMBOL(sym) TUKLIB_CAT(, sym)\n",
             "common/tuklib_exit.h": '#include "tuklib_common.h"\n#define tuklib_exit TUKLIB_SYMBOL(tuklib_exit)\n'
                                     "extern void tuklib_exit(int status, int err_status, int show_error);\n",
             "common/tuklib_exit.c": '#include "tuklib_exit.h"\n\n\n'
                                     "extern void tuklib_exit(int status, int err_status, int show_error) { }\n",
             "xz/coder.c": '#include "../common/tuklib_exit.h"\nvoid run(void) { tuklib_exit(1, 2, 0); }\n'}
    got = _calls(tmp_path, files)
    assert got[("xz.coder.run", "tuklib_exit")] == {("common.tuklib_exit.tuklib_exit", 2)}
