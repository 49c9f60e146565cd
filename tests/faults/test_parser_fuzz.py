"""A short Hypothesis fuzz of every parser: any bytes, and code-like token soup, never raise and stay in budget.

The extractors run on tree-sitter's error-recovering trees, so a parser bug would surface here as an
exception (which the indexer would count as ``unreadable`` and drop the file for).
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lore.languages import LANGUAGES, get, parse_source

NAMES = sorted(LANGUAGES) if isinstance(LANGUAGES, dict) else sorted(lang.name for lang in LANGUAGES)
TOKENS = ["def ", "class ", "fn ", "func ", "function ", "struct ", "impl ", "interface ", "template<", "import ",
          "from ", "return ", "(", ")", "[", "]", "{", "}", "<", ">", ":", ";", ",", ".", "->", "=>", "=", "\n",
          "    ", "x", "Foo", "self", "this", "@", "#", "'", '"', "/*", "*/", "//", "\\", "é", "\x00", "\t"]
_RESULTS = {"tried": 0, "lost": 0}
FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _check(language: str, source: bytes) -> None:
    _RESULTS["tried"] += 1
    ext = get(language).extensions[0]
    t = time.perf_counter()
    try:
        parse_source(f"fuzz{ext}", source, language, "fuzz")
    except Exception:
        _RESULTS["lost"] += 1
        raise
    assert time.perf_counter() - t < 5


@pytest.mark.parametrize("language", NAMES)
@FUZZ
@given(source=st.binary(max_size=2000))
def test_any_bytes(language: str, source: bytes) -> None:
    _check(language, source)


@pytest.mark.parametrize("language", NAMES)
@FUZZ
@given(parts=st.lists(st.sampled_from(TOKENS), max_size=300))
def test_token_soup(language: str, parts: list[str]) -> None:
    _check(language, "".join(parts).encode("utf-8", "surrogatepass"))


def test_zz_fuzz_tally(tally) -> None:
    """(Runs after the two fuzz tests: records what they tried.)"""
    tally("parser fuzz (Hypothesis, every language)", tried=_RESULTS["tried"], survived=_RESULTS["tried"] - _RESULTS["lost"],
          lost=_RESULTS["lost"])
