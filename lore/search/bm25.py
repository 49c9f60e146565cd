"""BM25 over symbols and files with SQLite FTS5: query building and column weights.

User text is never FTS syntax. It is cut into terms with the same tokenizer that prepared the
indexed text (:mod:`lore.text.tokens`), and every term is emitted as a quoted FTS5 string of
``[a-z0-9]`` tokens, so ``AND``, ``NEAR``, ``*``, ``:``, ``^``, ``-`` or a stray quote are plain text:

* a plain word is one term (stop words dropped, unless the query has nothing else);
* a compound identifier (``getUserById``, ``user_id`` written as one word) is the phrase of its
  parts (``"get user by id"``), which matches the split name and the same words in a body;
* a ``"quoted phrase"`` is one phrase term.

Every term is required (``AND``) unless ``any_terms=True`` (``OR``); :mod:`lore.search.symbols`
relaxes an all-words query that finds nothing to the informative words (:func:`relaxed_terms`)
and says so. Scores are ``-bm25()`` with per-column weights; the name weighs most
(``SYMBOL_WEIGHTS``).

Why FTS5 ``bm25()`` (measured by ``benchmarks/search/bench_search.py``, CPU time per query, warm,
on networkx's 8.4k symbols and on 100k symbols made of twelve copies of them):

=============================================  ========  ========
query                                           p50 ms    p90 ms
=============================================  ========  ========
networkx, 3 words, all required                  0.55      1.83
100k, 3 words, all required, raw FTS5            1.08      3.46
100k, 3 words, all required, ``search()``        1.60      4.02
100k, docstring sentences, ``search()``          3.29      6.03
100k, 3 words, any word (OR), ``search()``      14.5      57.6
=============================================  ========  ========

All-words queries (the default) meet the 10 ms p90 target at 100k with room, and so do long
sentences, which mostly have no row with every word and relax to their informative words (those
in at most 20% of the rows): an any-word query over every word does not, which is why relaxing
leaves the common words out. Beside it, issue 2 measured on the same kind of machine bm25s at
2.4-2.7 ms (a scipy matrix held in each process' memory, rebuilt whole when the index changes)
and rank-bm25 at 55-63 ms (a Python loop over every document). FTS5 is as fast as bm25s for the
default query, needs no extra dependency, is updated row by row by the indexer (a refresh never
rebuilds it) and stays on disk, shared by the CLI, the MCP server and every reader.

Examples
--------
>>> parse_query('retry "exponential backoff" getUserById AND the')
[('exponential', 'backoff'), ('retry',), ('get', 'user', 'by', 'id')]
>>> parse_query("get_user_by_id of")
[('get', 'user', 'by', 'id')]
>>> match_expression(parse_query('NEAR(x, y) OR "b*"'))
'"b" AND "near" AND "x" AND "y"'
>>> match_expression(parse_query("parse json"), any_terms=True)
'"parse" OR "json"'
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Sequence

from ..errors import QueryError
from ..store import search as store
from ..store.db import database_key, generation
from ..text.tokens import STOP_WORDS, split_identifier

# weights of symbols_fts columns: name, qualified_name, signature, docstring, path, body, rest (a body
# past its first 2,000 characters); chosen on the networkx benchmark (name 10 -> 20 and signature 2 -> 4
# lifted any-word MRR 0.371 -> 0.385)
SYMBOL_WEIGHTS: tuple[float, ...] = (20.0, 3.0, 4.0, 1.0, 1.0, 0.5, 2.0)
# weights of files_fts columns: path, exports, imports, content (a file's whole text, issue 37)
FILE_WEIGHTS: tuple[float, ...] = (10.0, 3.0, 1.0, 0.5)
# a long query (a whole report, lore.search.longquery) is matched by any of its words, mostly in bodies
# and files' text: the same columns, weighted on `lore bench localize`
LONG_SYMBOL_WEIGHTS: tuple[float, ...] = (6.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0)
LONG_FILE_WEIGHTS: tuple[float, ...] = (4.0, 2.0, 1.0, 1.0)

Term = tuple[str, ...]

# a relaxed (any-word) keyword query leaves out words found in more than this share of the rows:
# they add little to BM25 (low idf) and make FTS5 walk long posting lists
COMMON_SHARE = 0.2
MIN_RELAXED_TERMS = 3

_PHRASE = re.compile(r'"([^"]*)"')
_WORD = re.compile(r"[A-Za-z0-9]+")
_IDENTIFIER = re.compile(r"[A-Za-z0-9_]+")  # a query word: snake_case stays one compound
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def parse_query(query: str) -> list[Term]:
    """The terms of a query: quoted phrases first, then words; each term a tuple of tokens.

    Raises :class:`~lore.errors.QueryError` when the query is empty or has no letters or digits.
    """
    if not isinstance(query, str) or not query.strip():
        raise QueryError("empty search query; pass some words or an identifier to search for")
    terms: list[Term] = []
    for phrase in _PHRASE.findall(query):
        tokens = tuple(p for w in _WORD.findall(phrase) for p in split_identifier(w))
        if tokens:
            terms.append(tokens)
    rest = _PHRASE.sub(" ", query).replace('"', " ")
    words = [tuple(split_identifier(w)) for w in _IDENTIFIER.findall(rest)]
    words = [w for w in words if w]
    content = [w for w in words if len(w) > 1 or w[0] not in STOP_WORDS]
    terms += content if (content or terms) else words
    terms = list(dict.fromkeys(terms))
    if not terms:
        raise QueryError(f"search query {query!r} has no words to search for; use letters or digits")
    return terms


def match_expression(terms: Sequence[Term], *, any_terms: bool = False) -> str:
    """The FTS5 MATCH string: each term a quoted string, joined by AND (or OR with ``any_terms``)."""
    # tokens are [a-z0-9]+ by construction, so quoting cannot be escaped from
    quoted = ['"' + " ".join(t) + '"' for t in terms]
    return (" OR " if any_terms else " AND ").join(quoted)


def normalised_name(text: str) -> str:
    """Lowercase letters and digits only: ``get_user_by_id``, ``getUserById`` and ``get user by id`` agree.

    >>> normalised_name("getUserById") == normalised_name("get_user by-id")
    True
    """
    return _NON_ALNUM.sub("", text.lower())


def name_matches(query: str, name: str) -> bool:
    """True when the whole query is the symbol's name, up to case and separators."""
    return bool(name) and normalised_name(query) == normalised_name(name)


_DF: dict[tuple[str, str], tuple[int, int, dict[str, int]]] = {}
_DF_LOCK = threading.Lock()


def doc_frequencies(
    conn: sqlite3.Connection, table: str, tokens: Sequence[str]
) -> tuple[int, dict[str, int]]:
    """(rows, token -> rows containing it) for an FTS table, cached per database and generation."""
    key = (database_key(conn), table)
    gen = generation(conn)
    with _DF_LOCK:
        hit = _DF.get(key)
        if hit is None or hit[0] != gen:
            hit = (gen, -1, {})
            _DF[key] = hit
    _gen, total, cache = hit
    missing = [t for t in dict.fromkeys(tokens) if t not in cache]
    if missing or total < 0:
        total, counts = store.term_doc_counts(conn, table, missing or list(tokens)[:1])
        with _DF_LOCK:
            cache.update(counts)
            _DF[key] = (gen, total, cache)
    return total, {t: cache.get(t, 0) for t in tokens}


def relaxed_terms(conn: sqlite3.Connection, table: str, terms: Sequence[Term]) -> list[Term]:
    """The terms worth an any-word query: all but the very common ones (at least the rarest few)."""
    total, df = doc_frequencies(conn, table, [t for term in terms for t in term])
    freq = {term: min(df[t] for t in term) for term in terms}
    present = sorted((term for term in terms if freq[term] > 0), key=lambda term: freq[term])
    keep = [term for term in present if freq[term] <= COMMON_SHARE * max(total, 1)]
    if len(keep) < MIN_RELAXED_TERMS:
        keep = present[:MIN_RELAXED_TERMS]
    return keep
