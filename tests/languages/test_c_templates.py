"""C: a file included several times after different macros defines its functions under the names the
preprocessor pastes, per including unit (:mod:`lore.languages.c._templates`)."""

from __future__ import annotations

from .test_c import _calls

# brotli's histogram.h / histogram_inc.h and hash.h / hash_to_binary_tree_inc.h, cut down
_HISTOGRAM_INC = ("static void FN(HistogramClear)(int* self) {\n  *self = 0;\n}\n"
                  "static void FN(HistogramAdd)(int* self, int val) {\n  *self += val;\n}\n")
_HISTOGRAM_H = ("#ifndef HISTOGRAM_H\n#define HISTOGRAM_H\n"
                "#define FN(X) X ## Literal\n#include \"histogram_inc.h\"  /* NOLINT(build/include) */\n#undef FN\n"
                "#define FN(X) X ## Command\n#include \"histogram_inc.h\"\n#undef FN\n#endif\n")
_HASH_INC = "static int FN(HashTypeLength)(void) { return 4; }\n"
_HASH_H = ("#define EXPAND_CAT(a, b) CAT(a, b)\n#define CAT(a, b) a ## b\n#define FN(X) EXPAND_CAT(X, HASHER())\n"
           "#define HASHER() H10\n#define BUCKET_BITS 17\n#include \"hash_inc.h\"\n#undef HASHER\n#undef BUCKET_BITS\n")


def test_a_template_included_after_a_pasting_macro_defines_the_pasted_names(tmp_path):
    # main left every such call unbound (brotli: 16 sites of the tuning set); clangd answers the line of the
    # FN(...) declarator in the included file
    files = {"enc/histogram_inc.h": _HISTOGRAM_INC, "enc/histogram.h": _HISTOGRAM_H,
             "enc/hash_inc.h": _HASH_INC, "enc/hash.h": _HASH_H,
             "enc/bit_stream.c": '#include "histogram.h"\n#include "hash.h"\n'
                                 "void store(int* h) {\n  HistogramClearLiteral(h);\n  HistogramAddCommand(h, 2);\n"
                                 "  (void)HashTypeLengthH10();\n}\n"}
    got = _calls(tmp_path, files)
    assert got[("enc.bit_stream.store", "HistogramClearLiteral")] == {("enc.histogram_inc.HistogramClear", 1)}
    assert got[("enc.bit_stream.store", "HistogramAddCommand")] == {("enc.histogram_inc.HistogramAdd", 4)}
    assert got[("enc.bit_stream.store", "HashTypeLengthH10")] == {("enc.hash_inc.HashTypeLength", 1)}


def test_a_template_whose_own_macro_pastes_the_includers_value(tmp_path):
    # libjpeg-turbo's turbojpeg.c includes turbojpeg-mp.c after `#define BITS_IN_JSAMPLE 8` (then 12), whose
    # `GET_NAME(tj3Compress, BITS_IN_JSAMPLE)` pastes tj3Compress8 / tj3Compress12 through two macros
    mp = ("#define _GET_NAME(name, suffix)  name##suffix\n#define GET_NAME(name, suffix)  _GET_NAME(name, suffix)\n"
          "int GET_NAME(tj3Compress, BITS_IN_JSAMPLE) (int handle)\n{\n  return handle;\n}\n"
          "#undef _GET_NAME\n#undef GET_NAME\n")
    files = {"src/turbojpeg-mp.c": mp,
             "src/turbojpeg.c": "#define BITS_IN_JSAMPLE  8\n#include \"turbojpeg-mp.c\"\n#undef BITS_IN_JSAMPLE\n"
                                "#define BITS_IN_JSAMPLE  12\n#include \"turbojpeg-mp.c\"\n#undef BITS_IN_JSAMPLE\n"
                                "int both(int h) { return tj3Compress8(h) + tj3Compress12(h); }\n"}
    # tjunittest.c reaches only the prototype: the linker binds the exported definition of turbojpeg.c's unit
    files["src/turbojpeg.h"] = "int tj3Compress12(int handle);\n"
    files["src/tjunittest.c"] = '#include "turbojpeg.h"\nint test(int h) { return tj3Compress12(h); }\n'
    got = _calls(tmp_path, files)
    assert got[("src.turbojpeg.both", "tj3Compress8")] == {("src.turbojpeg-mp.GET_NAME", 3)}
    assert got[("src.turbojpeg.both", "tj3Compress12")] == {("src.turbojpeg-mp.GET_NAME", 3)}
    assert got[("src.tjunittest.test", "tj3Compress12")] == {("src.turbojpeg-mp.GET_NAME", 3)}


def test_names_no_inclusion_pastes_stay_unbound(tmp_path):
    # must stay: a unit that does not reach the includer, a name no inclusion pastes (HistogramAddDistance: no
    # `#define FN(X) X ## Distance` before an inclusion), an include with no #undef after it (no template), and a
    # function whose own name the unit defines keeps its definition
    files = {"enc/histogram_inc.h": _HISTOGRAM_INC, "enc/histogram.h": _HISTOGRAM_H,
             "enc/plain.h": "#define FN(X) X ## Plain\n#include \"histogram_inc.h\"\n",
             "enc/other.c": "void other(int* h) { HistogramClearLiteral(h); }\n",
             "enc/use.c": '#include "histogram.h"\n#include "plain.h"\nvoid HistogramAddLiteral(int* h, int v) { }\n'
                          "void use(int* h) { HistogramAddDistance(h, 1); HistogramClearPlain(h);"
                          " HistogramAddLiteral(h, 1); }\n"}
    got = _calls(tmp_path, files)
    assert got[("enc.other.other", "HistogramClearLiteral")] == set()
    assert got[("enc.use.use", "HistogramAddDistance")] == set()
    assert got[("enc.use.use", "HistogramClearPlain")] == set()
    assert got[("enc.use.use", "HistogramAddLiteral")] == {("enc.use.HistogramAddLiteral", 3)}
    # a static function pasted in one unit is no other unit's (other.c reaches no histogram.h)
    assert ("enc.histogram_inc.HistogramClear", 1) not in got[("enc.other.other", "HistogramClearLiteral")]
