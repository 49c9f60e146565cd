"""The C clean-ups' literal-first scans give the bytes of the scans they stand for (issue 33: CPU only)."""

from __future__ import annotations

import random

import pytest

from lore.languages.c import _macros as m

ATTRIBUTE_CASES = [
    b"static int __init f(char __user *p);\n",
    b"__copy_from_user(to, (const void __user *)from, n);\n",  # a kept call's arguments are not scanned again
    b"void f(void) __attribute__((noinline));\n",
    b"struct s { int a; } __aligned(8) __packed;\n",
    b"x.__user; p->__init; a__user; ____cacheline_aligned_in_smp\n",
    b"__func__ __LINE__ __(x) __\n",
]

STRING_CASES = [
    b'printk(KERN_INFO "x");\n',
    b'#define NAME "y"\n#  undef\tNAME "z"\n#ifdef ABC "q"\n',
    b'f("a"MID"b", AB "c", Ab "d", _ABC "e", A1_B\t"f");\n',
    b'ABC "at the start of the file"\n',
    b'(ABC"x"DEF"y")\n',
]


@pytest.mark.parametrize("src", ATTRIBUTE_CASES)
def test_attribute_scan_from_underscores(src):
    assert m._UNDERSCORE_SCAN.sub(m._blank_attribute, src) == m._ATTRIBUTE_SCAN.sub(m._blank_attribute, src)


@pytest.mark.parametrize("src", STRING_CASES)
def test_string_macros_from_the_quote(src):
    assert m._blank_string_macros(src) == m._STRING_MACRO.sub(m._blank_string_macro, src)


def test_string_macros_blank_what_they_should():
    assert m._blank_string_macros(b'printk(KERN_INFO "x");') == b'printk(          "x");'
    assert m._blank_string_macros(b'#define NAME "y"') == b'#define NAME "y"'


def test_random_texts_agree():
    rng = random.Random(7)
    parts = [b'"', b" ", b"\t", b"\n", b"(", b")", b",", b".", b">", b"A", b"BC", b"_", b"__", b"1", b"a", b"n",
             b"user", b"init", b"__user", b"__aligned(8)", b"#define ", b"#undef", b"signed", b"long", b" int,"]
    for _ in range(20_000):
        src = b"".join(rng.choice(parts) for _ in range(rng.randint(1, 16)))
        assert m._blank_string_macros(src) == m._STRING_MACRO.sub(m._blank_string_macro, src), src
        hint = m._WORDS_TYPE_HINT.search(src) is not None
        assert any(h.search(src) for h in m._WORDS_TYPE_HINTS) == hint, src
        if not (b"notrace" in src or b"asmlinkage" in src or b"noin" in src):
            assert m._UNDERSCORE_SCAN.sub(m._blank_attribute, src) == m._ATTRIBUTE_SCAN.sub(m._blank_attribute, src), src
