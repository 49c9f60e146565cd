"""C: functions whose names a macro writes (:mod:`lore.languages.c._macro_names`), bound as clangd binds them."""

from __future__ import annotations

from lore.languages.c import _parser as c

from .test_c import _calls


def _functions(src: bytes, path: str = "m.c") -> list[tuple[str, int, bool]]:
    pf = c.parse(path, src, path.rsplit(".", 1)[0])
    return sorted((s.name, s.start_line, s.is_declaration) for s in pf.symbols if s.kind == "function")


def test_a_definition_whose_name_an_export_macro_wraps(tmp_path):
    # bzip2: `int BZ_API(BZ2_bzWrite)(...)`, the macro in the header (WINAPI on Windows, nothing elsewhere): the
    # definition is BZ2_bzWrite (main named it BZ_API, and the call stayed unresolved)
    files = {"bzlib.h": "#ifdef _WIN32\n#  define BZ_API(func) WINAPI func\n#else\n#  define BZ_API(func) func\n"
                        "#endif\nint BZ_API(BZ2_bzWrite) (int *e, int n);\nint BZ_API(BZ2_bzRead) (int n);\n",
             "bzlib.c": '#include "bzlib.h"\nint BZ_API(BZ2_bzWrite)\n   ( int *e, int n )\n{\n   return BZ2_bzRead(n);\n}\n'
                        "int BZ_API(BZ2_bzRead) ( int n ) { return n; }\n",
             "main.c": '#include "bzlib.h"\nint main(void) { return BZ2_bzWrite(0, 1); }\n'}
    got = _calls(tmp_path, files)
    assert got[("main.main", "BZ2_bzWrite")] == {("bzlib.BZ2_bzWrite", 2)}
    assert got[("bzlib.BZ2_bzWrite", "BZ2_bzRead")] == {("bzlib.BZ2_bzRead", 7)}
    assert [n for n, _, decl in _functions(files["bzlib.h"].encode(), "bzlib.h") if decl] == ["BZ2_bzRead", "BZ2_bzWrite"]


def test_a_wrapper_that_pastes_a_prefix_names_the_pasted_function():
    # pcre2's PRIV(name) _pcre2_##name, defined in the file: the definition is the pasted name; defined elsewhere,
    # the argument names it (never the macro, which a call of PRIV would then bind)
    src = b"#define PRIV(name) _pcre2_##name\nint PRIV(strcmp_c8)(const char *a)\n{\n  return 0;\n}\n"
    assert _functions(src) == [("PRIV", 1, False), ("_pcre2_strcmp_c8", 2, False)]
    assert _functions(src.split(b"\n", 1)[1]) == [("strcmp_c8", 1, False)]


def test_a_call_of_the_wrapper_binds_the_macro_not_a_definition_named_like_it(tmp_path):
    # `PRIV(ord2utf)(c, buf)`: clangd answers the macro PRIV at its name; main had named every definition written
    # `int PRIV(x)(...)` PRIV, and bound the call to the file's own
    files = {"internal.h": "#define PRIV(name) _pcre2_##name\nint PRIV(ord2utf)(int c, char *b);\n",
             "ord2utf.c": '#include "internal.h"\nint PRIV(ord2utf)(int c, char *b)\n{\n  return c;\n}\n',
             "study.c": '#include "internal.h"\nint PRIV(study)(void)\n{\n  char b[4];\n  return PRIV(ord2utf)(1, b);\n}\n'}
    got = _calls(tmp_path, files)
    assert got[("study.study", "PRIV")] == {("internal.PRIV", 1)}  # main: study.PRIV, the file's own definition


def test_definitions_a_macro_writes_by_token_pasting(tmp_path):
    # libevent's IMPL_CTYPE_FN(ISALPHA): each use defines EVUTIL_ISALPHA_ at its line; a call through the header's
    # prototype binds it (main bound the prototype)
    files = {"util.h": "int EVUTIL_ISALPHA_(char c);\nint EVUTIL_ISDIGIT_(char c);\n",
             "evutil.c": '#include "util.h"\n#define IMPL_CTYPE_FN(name)\t\t\\\n'
                         "\tint EVUTIL_##name##_(char c) {\t\\\n\t\treturn c > 0;\t\\\n\t}\n"
                         "IMPL_CTYPE_FN(ISALPHA)\nIMPL_CTYPE_FN(ISDIGIT)\n\nint g(void) { return 0; }\n",
             "http.c": '#include "util.h"\nint parse(void) { return EVUTIL_ISDIGIT_(1) + EVUTIL_ISALPHA_(2); }\n'}
    got = _calls(tmp_path, files)
    assert got[("http.parse", "EVUTIL_ISDIGIT_")] == {("evutil.EVUTIL_ISDIGIT_", 7)}
    assert got[("http.parse", "EVUTIL_ISALPHA_")] == {("evutil.EVUTIL_ISALPHA_", 6)}


def test_macro_forms_that_name_no_function():
    # must stay: a lower-case wrapper, a macro of two parameters, a macro whose body is no name, a pasting macro
    # used inside a function or with the wrong number of arguments, are not definitions of the pasted names
    src = (b"#define CALL(x) (x)->run\n#define TWO(a, b) a##b\n#define MAKE(n) static int n##_fn(void) { return 0; }\n"
           b"int wrap(f1)(int a) { return a; }\nint TWO(f2)(int a) { return a; }\nint CALL(f3)(int a) { return a; }\n"
           b"int g(void) {\n  MAKE(inner)\n  return 0;\n}\nMAKE(x, y)\nMAKE(top)\n")
    names = [n for n, _, _ in _functions(src)]
    assert "top_fn" in names and "static" not in names
    assert not {"f1", "f2", "f3", "inner_fn", "x_fn"} & set(names)
    assert c.parse("m.c", src, "m").symbols[-1].exported is False  # top_fn is static, file-local


def test_a_macro_whose_body_holds_a_comment_keeps_its_name(tmp_path):
    # bzip2's GET_MTF_VAL: a comment inside the continued body made the grammar's name field the RETURN(...) of
    # the body, and every GET_MTF_VAL(...) call stayed unresolved
    src = ("#define RETURN(r) return r\n#define GET_VAL(lab, v) \\\n{ \\\n   while (1) { \\\n"
           "      if (v > 20 /* the longest code */) \\\n         RETURN(1); \\\n   }; \\\n}\n"
           "int decode(int v) { GET_VAL(L1, v); return 0; }\n")
    assert _calls(tmp_path, {"decompress.c": src})[("decompress.decode", "GET_VAL")] == {("decompress.GET_VAL", 2)}


def test_a_macro_defined_inside_a_function_serves_the_functions_below(tmp_path):
    # libevent's evdns.c defines GET16 inside name_parse and uses it in reply_parse further down: a macro is the
    # file's from its line on (main made it name_parse's, and the later calls stayed unresolved); it stays the
    # file's own: another source file's call does not bind it
    src = ("static int name_parse(int j) {\n#define GET16(x) do { x = j; } while (0)\n  int a; GET16(a); return a;\n}\n"
           "static int reply_parse(int j) { int b; GET16(b); return b; }\n")
    got = _calls(tmp_path, {"evdns.c": src, "other.c": "int f(void) { int c; GET16(c); return c; }\n"})
    assert got[("evdns.reply_parse", "GET16")] == {("evdns.GET16", 2)}
    assert got[("evdns.name_parse", "GET16")] == {("evdns.GET16", 2)}
    assert got[("other.f", "GET16")] == set()


def test_a_macro_a_function_defines_and_undefines_stays_its_own(tmp_path):
    # must stay: the kernel's sched/debug.c defines P(x) in one function, #undefs it, and defines another P(x) in
    # the next: each call binds its own function's P, not the file's last one
    src = ("void header(void) {\n#define P(x) show(#x, x)\n  P(1);\n#undef P\n}\n"
           "void stats(void) {\n#define P(x) print(x)\n  P(2);\n#undef P\n}\n")
    got = _calls(tmp_path, {"debug.c": src})
    assert got[("debug.header", "P")] == {("debug.header.P", 2)}
    assert got[("debug.stats", "P")] == {("debug.stats.P", 7)}


def test_a_lost_macro_is_no_call_of_itself():
    # the #define line of a macro the grammar lost in an error node makes no call of the macro at its own name
    src = (b"#define RETURN(r) return r\n#define GET_VAL(lab, v) \\\n{ \\\n   while (1) { \\\n"
           b"      if (v > 20 /* the longest code */) \\\n         RETURN(1); \\\n   }; \\\n}\n")
    pf = c.parse("d.c", src, "d")
    assert not [k for k in pf.calls if k.callee == "GET_VAL" and k.line == 2]


def test_calling_convention_macros_between_a_type_and_the_name():
    # expat-style XMLCALL / PTRCALL / FASTCALL, zlib's ZEXPORT, XMLPARSEAPI(type) XMLCALL on a prototype: the word
    # between the type and the name is blanked, so the file reads without syntax errors (main: one per form)
    src = (b"XMLPARSEAPI(void) XMLCALL XML_Free(void *p);\n"
           b"enum XML_Status XMLCALL\nXML_Parse(int parser, const char *s)\n{\n  return helper(parser);\n}\n"
           b"static const char *FASTCALL\npoolCopy(int *pool) { return copy(pool); }\n"
           b"int ZEXPORT deflate(int strm, int flush) { return flush; }\n")
    pf = c.parse("x.c", src, "x")
    assert pf.syntax_errors == 0
    assert sorted((s.name, s.is_declaration) for s in pf.symbols if s.kind == "function") == \
        [("XML_Free", True), ("XML_Parse", False), ("deflate", False), ("poolCopy", False)]
    assert [(k.callee, pf.symbols[k.caller].name) for k in pf.calls] == [("helper", "XML_Parse"), ("copy", "poolCopy")]


def test_upper_case_words_that_are_types_or_names_stay():
    # must stay: an upper-case type before the name (BYTE, UINT32), a name that starts upper case (API_x), an
    # upper-case value in an expression: nothing is blanked
    src = b"static BYTE API_x(int a) { return 1; }\nUINT32 CALLOUT(int a);\nint f(void) { int n = API_LEN; return g(n); }\n"
    pf = c.parse("x.c", src, "x")
    assert sorted(s.name for s in pf.symbols if s.kind == "function") == ["API_x", "CALLOUT", "f"]
    assert [s.signature for s in pf.symbols if s.name == "API_x"] == ["static BYTE API_x(int a)"]


def test_gettexts_underscore_macro_in_a_function_of_no_parameters(tmp_path):
    # xz's tuklib_gettext.h: _(msgid) is gettext(msgid) when the build defines ENABLE_NLS; in `f(void)` main made
    # the `void` a parameter named "_", which hid the macro (every _("...") of such a function stayed unresolved)
    files = {"gettext.h": "#ifdef ENABLE_NLS\n#\tdefine _(msgid) gettext(msgid)\n#else\n#\tdefine _(msgid) (msgid)\n#endif\n",
             "a.c": '#include "gettext.h"\nconst char *f(void) { return _("x"); }\nconst char *g(int n) { return _("y"); }\n'}
    got = _calls(tmp_path, files)
    # no compile_commands.json: ENABLE_NLS is a flag only a build defines, so the default build's #else
    assert got[("a.f", "_")] == got[("a.g", "_")] == {("gettext._", 4)}


def test_a_definition_whose_return_type_is_a_macro_takes_its_own_parameters(tmp_path):
    # libjpeg's `GLOBAL(boolean)\nkeymatch(char *arg, ...)`: the arguments were counted off GLOBAL(boolean) (one),
    # so a three-argument call chose the header's prototype over the definition clangd answers
    files = {"jmorecfg.h": "#define GLOBAL(type) type\n#define EXTERN(type) extern type\ntypedef int boolean;\n",
             "cdjpeg.h": '#include "jmorecfg.h"\nEXTERN(boolean) keymatch(char *arg, const char *kw, int n);\n',
             "cdjpeg.c": '#include "cdjpeg.h"\n\nGLOBAL(boolean)\nkeymatch(char *arg, const char *kw, int n)\n'
                         "{\n  return 0;\n}\n",
             "cjpeg.c": '#include "cdjpeg.h"\nint main(int c, char **v) { return keymatch(v[0], "x", 1); }\n'}
    got = _calls(tmp_path, files)
    assert got[("cjpeg.main", "keymatch")] == {("cdjpeg.keymatch", 3)}


def test_an_attribute_macro_with_arguments_between_the_type_and_the_name(tmp_path):
    # libxml2's `static void LIBXML_ATTR_FORMAT(3,0)\nhtmlParseErr(...)`: main named the definition
    # LIBXML_ATTR_FORMAT, spanning the functions after it, and left the calls unbound; the export macro of bzip2
    # (`int BZ_API(name)(...)`) still names its function
    src = ("#define LIBXML_ATTR_FORMAT(a, b) __attribute__((format(printf, a, b)))\n"
           "static void LIBXML_ATTR_FORMAT(3,0)\nparse_err(void *ctxt, int error, const char *msg)\n{\n}\n\n"
           "static void\nprint_debug(const char *fmt, ...) {\n}\n\n"
           "int use(void) { parse_err(0, 1, \"x\"); print_debug(\"y\"); return 0; }\n")
    got = _calls(tmp_path, {"m.c": src})
    assert got[("m.use", "parse_err")] == {("m.parse_err", 2)}
    assert got[("m.use", "print_debug")] == {("m.print_debug", 7)}
    assert [n for n, _, _ in _functions(src.encode())] == ["LIBXML_ATTR_FORMAT", "parse_err", "print_debug", "use"]


def test_a_typedef_written_by_a_macro_names_its_type_only(tmp_path):
    # libpng's `typedef PNG_CALLBACK(void, *png_rw_ptr, (png_structp, png_byte *, size_t));`: main also made
    # png_byte a typedef of png.h (from the macro's argument list), so each `(png_byte)(v)` cast had two typedefs
    # and stayed unbound (56 sites of libpng's sample)
    files = {"pngconf.h": "typedef unsigned char png_byte;\n",
             "png.h": '#include "pngconf.h"\n#define PNG_CALLBACK(type, name, args) type (*name) args\n'
                      "typedef PNG_CALLBACK(void, *png_rw_ptr,\n   (void *, png_byte *, unsigned long));\n",
             "a.c": '#include "png.h"\nvoid set(unsigned char *row, int v) { *row = (png_byte)(v >> 8); }\n'}
    got = _calls(tmp_path, files)
    assert got[("a.set", "png_byte")] == {("pngconf.png_byte", 1)}
    # must stay: a plain typedef of several names, and the macro's typedef itself
    pf = c.parse("t.h", b"typedef int a_t, *a_ptr;\n" + files["png.h"].encode(), "t")
    assert sorted(s.name for s in pf.symbols if s.kind == "type_alias") == ["a_ptr", "a_t", "png_rw_ptr"]
