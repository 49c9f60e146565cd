"""The C family's source clean-ups search faster forms of their patterns: every match must stay the one the
plain pattern gives (same spans, same groups, same order), so the parse sees the same bytes."""

from __future__ import annotations

import random
import re

import pytest

from lore.languages.c import _extract, _macros
from lore.parsers._lines import LinePattern

# pieces C sources are made of, including the awkward ones: CRLF, blank lines with blanks, a directive
# continued by a backslash, text at the very start and the very end, lines a match ends on
PIECES = [b"\n", b"\r\n", b"  \n", b"\t", b" ", b"#define ", b"# define X(a, b...) ", b"FOO_BAR", b"ABC\n",
          b"static ", b"DEFINE_MUTEX(m);", b"EXPORT_SYMBOL(f);", b"list_for_each(p, h) {", b"walk(q, s) {",
          b"module_init(f)", b"SET_PM_OPS(s, r)", b"CJSON_PUBLIC(cJSON *) p(", b"class ", b"X::f(", b"void A::~A (",
          b"namespace n {", b"template <", b"public:", b"#include <string>", b"using namespace std;", b"\\\n",
          b"__user ", b"a.__x ", b"x__init ", b"__aligned(8) ", b"notrace ", b"noinline_for_stack ", b"(KERN_INFO \"x\")",
          b"case 'a' ... 'z':", b"(unsigned int, a)", b"x[] SEC(\"s\");", b"(struct page, lru)", b"class API Name {",
          b"SYSCALL_DEFINE1(close, int, fd)\n{", b"}", b";", b"// c", b"#  // c", b"{", b"\x0b", b"\f", b"sec"]


def _sources(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40))) for _ in range(n)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_line_patterns_match_as_the_multiline_pattern_does(seed):
    patterns = [p for p in vars(_macros).values() if isinstance(p, LinePattern)]
    patterns += [_extract._DEFINE, _extract._DEFINE_WORD, _extract._CPP_LINE, _extract._CPP_QUALIFIED]
    assert len(patterns) >= 14
    for src in _sources(400, seed):
        for p in patterns:
            want = [(m.span(), m.groups()) for m in p.pattern.finditer(src)]
            assert [(m.span(), m.groups()) for m in p.finditer(src)] == want, (p.pattern.pattern, src)
            assert p.sub(lambda m: b"-" * len(m.group(0)), src) == p.pattern.sub(lambda m: b"-" * len(m.group(0)), src)


@pytest.mark.parametrize("seed", [3, 4])
def test_looks_cpp_is_the_whitespace_anywhere_form(seed):
    """``^\\s*X`` under MULTILINE (blank lines before X allowed) against the form searched from newline to newline."""
    body = _extract._CPP_LINE.pattern.pattern[len(rb"^(?:[ \t\r\f\v]*(?:"):-2]
    slow_line = re.compile(rb"^\s*(?:" + body + rb")", re.MULTILINE)
    slow_qualified = re.compile(rb"^\s*(?:\w+[ \t*&]+)*\w+::~?\w+[ \t]*\(", re.MULTILINE)
    for src in _sources(600, seed):
        want = slow_line.search(src) is not None or (b"::" in src and slow_qualified.search(src) is not None)
        assert _extract.looks_cpp(src) is want, src


@pytest.mark.parametrize("seed", [5, 6])
def test_rewritten_lookbehinds_match_as_before(seed):
    """Patterns whose look-behind moved after their first letter, and the hints that gate two substitutions."""
    old = {
        "_ATTRIBUTE_SCAN": rb"(?<![\w.>])(?:__\w+|notrace|asmlinkage|noinline_for_stack|noinline|noinstr)\b"
                           rb"(\((?:[^()\n]|\([^()\n]*\))*\))?",
        "_STRING_MACRO": rb'(?<=[(,"\s])[A-Z][A-Z0-9_]{2,}(?=[ \t]*")',
        "_CLASS_MACRO": rb"\bclass[ \t]+([A-Z][A-Z0-9_]{2,})(?=[ \t]+[A-Za-z_]\w*\s*[:{])",
        "_CASE_RANGE": rb"(\bcase\b[^:\n]*?)([ \t]\.\.\.[^:\n]*)(?=:)",
    }
    for src in _sources(400, seed) + [b"__user x", b"x__user", b"class A B {", b"subclass A B {"]:
        for name, text in old.items():
            want = [(m.span(), m.groups()) for m in re.finditer(text, src)]
            assert [(m.span(), m.groups()) for m in getattr(_macros, name).finditer(src)] == want, (name, src)
        if _macros._WORDS_TYPE_ARGUMENT.search(src):
            assert _macros._WORDS_TYPE_HINT.search(src)
        if _macros._AFTER_DECLARATOR.search(src):
            assert _macros._AFTER_DECLARATOR_HINT.search(src)
