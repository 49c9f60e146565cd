"""C: ``#include MACRO`` follows the header the macro names, and MSVC inline assembly blocks no longer break a
header's parse (:mod:`lore.languages.c._computed_includes`, :mod:`lore.languages.c._asm_blocks`)."""

from __future__ import annotations

from lore.languages.c import _parser as c

from .test_c import _calls

# freetype's ftheader.h / ftoption.h / ftcalc.h, cut down
_CALC = ("#ifndef CALC_H\n#define CALC_H\n#include <ft/config/ftheader.h>\n#include FT_CONFIG_OPTIONS_H\n"
         "#ifdef FT_CONFIG_OPTION_INLINE_MULFIX\n#define FT_MulFix( a, b )  FT_MulFix_64( a, b )\n#else\n"
         "#define FT_MulFix( a, b )  FT_MulFix_asm( a, b )\n#endif\n#endif\n")


def test_an_include_through_a_macro_reads_the_header_it_names(tmp_path):
    # main followed no `#include FT_CONFIG_OPTIONS_H`: ftoption.h's flag was never defined for the unit, and the
    # call bound the #else branch's macro (clangd answers the first)
    files = {"include/ft/config/ftheader.h": "#ifndef FT_CONFIG_OPTIONS_H\n"
                                             "#define FT_CONFIG_OPTIONS_H  <ft/config/ftoption.h>\n#endif\n",
             "include/ft/config/ftoption.h": "#define FT_CONFIG_OPTION_INLINE_MULFIX\n",
             "include/ft/internal/ftcalc.h": _CALC,
             "src/a.c": "#include <ft/internal/ftcalc.h>\nlong f(long x) { return FT_MulFix(x, 2); }\n"}
    got = _calls(tmp_path / "a", files)
    assert got[("src.a.f", "FT_MulFix")] == {("include.ft.internal.ftcalc.FT_MulFix", 6)}
    # must stay: two files that name different headers by one macro name decide nothing (both branches stay)
    files["include/other/cfg.h"] = "#define FT_CONFIG_OPTIONS_H  <other/opts.h>\n"
    got = _calls(tmp_path / "b", files)
    assert got[("src.a.f", "FT_MulFix")] != {("include.ft.internal.ftcalc.FT_MulFix", 6)}


# ftcalc.h's FT_MulFix, cut down: RVCT's and MSVC's `__asm { ... }` blocks in branches a default build skips
_MULFIX = """#ifdef FT_CONFIG_OPTION_INLINE_MULFIX
#ifdef FT_INT64
  static inline long FT_MulFix_64( long a, long b ) { return ( a * b ) >> 16; }
#define FT_MulFix( a, b )  FT_MulFix_64( a, b )
#elif !defined( FT_CONFIG_OPTION_NO_ASSEMBLER )
#if defined( __arm__ )
#define FT_MULFIX_ASSEMBLER  FT_MulFix_arm
  static __inline int FT_MulFix_arm( int a, int b )
  {
    int t, t2;
#if defined( __CC_ARM ) || defined( __ARMCC__ )  /* RVCT */
    __asm
    {
      smull t2, t,  b,  a           /* (lo=t2,hi=t) = a*b */
      adds  t2, t2, a               /* t2 += a */
      adc   t,  t,  #0              /* t  += carry */
      mov   a,  t2, lsr #16         /* a   = t2 >> 16 */
    }
#elif defined( __GNUC__ )
    __asm__ __volatile__ (
      "mov    %0, %2, asr #31\\n\\t"      /* %0  = (hi >> 31) */
#if defined( __clang__ ) && defined( __thumb2__ )
      "add.w  %0, %0, #0x8000\\n\\t"      /* %0 += 0x8000 */
#else
      "add    %0, %0, #0x8000\\n\\t"      /* %0 += 0x8000 */
#endif
      : "=r"(a), "=&r"(t2), "=&r"(t)
      : "r"(a), "r"(b)
      : "cc" );
#endif
    return a;
  }
#elif defined( __i386__ ) || defined( _M_IX86 )
#define FT_MULFIX_ASSEMBLER  FT_MulFix_i386
  static __inline int FT_MulFix_i386( int a, int b )
  {
    int result;
#if defined( _MSC_VER )
    __asm
    {
      mov eax, a
      add ecx, 8000h
      mov result, eax
    }
#endif
    return result;
  }
#endif /* __i386__ || _M_IX86 */
#ifdef FT_MULFIX_ASSEMBLER
#define FT_MulFix( a, b )  FT_MULFIX_ASSEMBLER( (int)(a), (int)(b) )
#endif
#endif /* !FT_CONFIG_OPTION_NO_ASSEMBLER */
#endif
"""


def test_an_assembly_block_in_a_skipped_branch_keeps_the_headers_conditions():
    # the grammar read ftcalc.h as one error node: its #if chains were lost and every FT_MulFix macro read as
    # compiled (both bound every call: 7 sites of freetype's sample)
    pf = c.parse("ftcalc.h", _MULFIX.encode(), "ftcalc")
    conds = {(s.name, s.start_line): s.condition.split("|")[0] for s in pf.symbols if s.kind == "function"}
    assert conds[("FT_MulFix", 4)].startswith("?0") and conds[("FT_MulFix", 50)].startswith("?0")
    assert conds[("FT_MulFix_arm", 8)] == "0"
