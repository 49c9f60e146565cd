"""Long queries: a whole bug report (prose, code, tracebacks) as weighted BM25 terms.

A short query keeps the word rules of :mod:`lore.search.bm25` (every word required, relaxed when
nothing has them all). A long one (more than ``LONG_QUERY_TERMS`` = 30 distinct words, or three lines
or more: longer than a docstring's first sentence or a search box, as long as a report) is read as
evidence, not as a conjunction:

* **traceback frames** (``File "requests/adapters.py", line 376, in send``): the function name and the
  file's stem weigh ``FRAME_WEIGHT``;
* **file names** (``requests/sessions.py``): the stem weighs ``FRAME_WEIGHT``, the folders ``IDENTIFIER_WEIGHT``;
* **identifiers** (``snake_case``, ``camelCase``, ``dotted.names``, ``call()``, ```backticked```): each
  weighs ``IDENTIFIER_WEIGHT``, as a phrase of its parts (so ``iter_content`` matches the name
  ``iter_content`` and the words ``iter content`` in a body);
* **plain words** weigh 1, stop words are dropped.

Rows of test code score half (``TEST_FACTOR``, :func:`demote_tests`): a report says what the code does
wrong, and its fix lands in the code.

Terms found in more than ``COMMON_SHARE`` of the rows are left out (low idf, long posting lists; in
a small index the best ``MIN_QUERY_TERMS`` of them stay), and of the rest the ``MAX_QUERY_TERMS`` with the highest ``weight * idf`` are kept: the work is bounded by
distinct terms, not by characters, so a 25,000-character report is read whole. A term's weight
becomes the number of times it appears in the FTS5 expression: FTS5's ``bm25()`` sums over the
phrases of a query, so a phrase written twice counts twice.

Examples
--------
>>> terms = weighted_terms('Error in Session.send()\\n  File "requests/adapters.py", line 3, in send\\n'
...                        'the retry count is wrong')
>>> [(" ".join(t), w) for t, w in terms]
[('send', 3), ('adapters', 3), ('requests', 2), ('session', 2), ('error', 1), ('file', 1), ('line', 1), ('retry', 1), ('count', 1), ('is', 1), ('wrong', 1)]
>>> weighted_expression([(("retry",), 1), (("get", "user"), 2)])
'"retry" OR "get user" OR "get user"'
"""

from __future__ import annotations

import math
import posixpath
import re
import sqlite3
from collections.abc import Sequence

from ..text.tokens import STOP_WORDS, split_identifier
from .bm25 import COMMON_SHARE, Term, doc_frequencies

LONG_QUERY_TERMS = 30
MAX_QUERY_TERMS = 40
MIN_QUERY_TERMS = 8
FRAME_WEIGHT = 3
IDENTIFIER_WEIGHT = 2
TEST_FACTOR = 0.5

_FRAME = re.compile(r'File "([^"]+)", line \d+, in ([A-Za-z_][A-Za-z0-9_]*)')
_TOKEN = re.compile(r"`[^`\n]{1,200}`|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?|[0-9]+")
# a file named in the text: src/flask/cli.py, requests/sessions.py, conf.py
_PATH = re.compile(r"(?<![\w/.])((?:[\w.-]+/)*[\w-]+\.(?:py|pyi|pyx|js|ts|tsx|jsx|c|h|cc|cpp|hpp|java|go|rs|rb))\b")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
# the last part of a dotted word that makes it a file name (adapters.py), not an attribute access
_EXTENSIONS = frozenset("py pyi pyx js ts tsx jsx c h cc cpp hpp java go rs rb rst md txt cfg ini toml yaml yml json html css".split())


def is_long(query: str) -> bool:
    """A query read as a report: several lines, or more distinct words than a search box holds.

    >>> is_long("retry request"), is_long(" ".join(f"word{i}" for i in range(31)))
    (False, True)
    """
    if query.count("\n") >= 2:
        return True
    return len({w.lower() for w in re.findall(r"[A-Za-z0-9_]+", query)}) > LONG_QUERY_TERMS


def _identifier(word: str) -> bool:
    return "_" in word.strip("_") or bool(_INNER_CAPITAL.search(word))


def weighted_terms(query: str) -> list[tuple[Term, int]]:
    """Every distinct term of a report with its weight (the highest rule that applies), heaviest first,
    then in order of first appearance."""
    weight: dict[Term, int] = {}

    def add(term: Term, w: int) -> None:
        if term and (len(term) > 1 or term[0] not in STOP_WORDS):
            weight[term] = max(weight.get(term, 0), w)

    for path, func in _FRAME.findall(query):
        stem = posixpath.basename(path.replace("\\", "/")).split(".")[0]
        add(tuple(split_identifier(func)), FRAME_WEIGHT)
        add(tuple(split_identifier(stem)), FRAME_WEIGHT)
    for path in _PATH.findall(query):
        *dirs, base = path.split("/")
        add(tuple(split_identifier(base.rsplit(".", 1)[0])), FRAME_WEIGHT)
        for d in dirs:
            add(tuple(split_identifier(d)), IDENTIFIER_WEIGHT)
    for tok in _TOKEN.findall(query):
        quoted = tok.startswith("`")
        called = tok.endswith("()")
        tok = tok.strip("`").removesuffix("()")
        for inner in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*", tok):
            parts = inner.split(".")
            if len(parts) > 1 and parts[-1].lower() in _EXTENSIONS:
                parts = parts[:-1]  # a file name: its stem is the evidence
            code = quoted or called or len(parts) > 1
            for part in parts:
                w = IDENTIFIER_WEIGHT if code or _identifier(part) else 1
                add(tuple(split_identifier(part)), w)
    order = {t: n for n, t in enumerate(weight)}
    return sorted(weight.items(), key=lambda tw: (-tw[1], order[tw[0]]))


def informative_terms(
    conn: sqlite3.Connection, table: str, terms: Sequence[tuple[Term, int]], *, limit: int = MAX_QUERY_TERMS
) -> list[tuple[Term, int]]:
    """The terms worth searching: present in the index, in at most ``COMMON_SHARE`` of the rows, the
    ``limit`` with the highest ``weight * idf`` (ties: the order given)."""
    if not terms:
        return []
    total, df = doc_frequencies(conn, table, [t for term, _w in terms for t in term])
    n = max(total, 1)
    scored: list[tuple[float, int, Term, int]] = []
    common: list[tuple[float, int, Term, int]] = []
    for k, (term, w) in enumerate(terms):
        f = min(df[t] for t in term)
        if f == 0:
            continue
        (common if f > COMMON_SHARE * n else scored).append((w * math.log(1 + (n - f + 0.5) / (f + 0.5)), k, term, w))
    scored.sort(key=lambda s: (-s[0], s[1]))
    if len(scored) < MIN_QUERY_TERMS:  # a small index: every word is common, the best of them still count
        common.sort(key=lambda s: (-s[0], s[1]))
        scored += common[: MIN_QUERY_TERMS - len(scored)]
    return [(term, w) for _s, _k, term, w in scored[:limit]]


def weighted_expression(terms: Sequence[tuple[Term, int]]) -> str:
    """An FTS5 any-word expression in which a term of weight w appears w times."""
    quoted = []
    for term, w in terms:
        quoted += ['"' + " ".join(term) + '"'] * max(1, int(w))
    return " OR ".join(quoted)


def demote_tests(hits: list[tuple[int, float]], rows: dict[int, dict]) -> list[tuple[int, float]]:
    """Scores of test code times ``TEST_FACTOR``, re-sorted: a report describes what the code does, and
    the fix lands in the code (a test that exercises the same words still ranks, lower).

    >>> demote_tests([(1, 2.0), (2, 1.5)], {1: {"is_test": True}, 2: {"is_test": False}})
    [(2, 1.5), (1, 1.0)]
    """
    out = [(i, s * TEST_FACTOR if rows.get(i, {}).get("is_test") else s) for i, s in hits]
    out.sort(key=lambda h: (-h[1], h[0]))
    return out
