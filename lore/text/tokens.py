"""Tokens for code: identifiers split at camelCase / snake_case / digit boundaries, lowercased.

``getUserById`` -> ``get user by id``; ``HTTPServer_v2`` -> ``http server v 2``. The same function
prepares indexed text and queries, so both sides agree. A small stop-word list drops articles,
conjunctions, prepositions, pronouns and modals, but keeps words that carry meaning in code
(``for``, ``do``, ``if``, ``not``, ``is``, ``has``, ``can``, ``get``, ``set``).

>>> sorted({"for", "do", "if", "not", "is", "has", "can"} & STOP_WORDS)
[]
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z0-9]+")
# acronym followed by a word (HTTPServer -> HTTP Server), lower->Upper, letter<->digit. The parts are
# those of ``[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+`` (tests/text/test_tokens.py holds the two
# equal). The pattern starts with one character class, so the regex engine skips the text between
# tokens in its own C loop instead of trying each alternative at every space and bracket; the first
# character then picks the form (a lowercase word, digits, else the uppercase forms, one uppercase
# letter shared by the three): 20-40% less CPU on source text than the alternation it replaces, which
# the indexer runs over every file and symbol body (issue 33)
_CAMEL = re.compile(r"[A-Za-z0-9](?:(?<=[a-z])[a-z]*+|(?<=[0-9])[0-9]*+|[A-Z]*(?=[A-Z][a-z])|[a-z]++|[A-Z]*+)")

# articles, conjunctions, prepositions, pronouns and modals only; `for`, `do`, `if`, `not`, `is`,
# `has`, `can` stay (in code they are keywords and parts of names: is_valid, has_key, can_read)
_ARTICLES = "a an the"
_CONJUNCTIONS = "and or but nor so yet than then"
_PREPOSITIONS = "of in on at by to from with into onto about as"
_PRONOUNS = (
    "i me my we our you your he him his she her it its they them their this that these those which who whom "
    "whose what"
)
_MODALS = "would should could might must shall will may"
STOP_WORDS = frozenset(" ".join((_ARTICLES, _CONJUNCTIONS, _PREPOSITIONS, _PRONOUNS, _MODALS)).split())


def split_identifier(word: str) -> list[str]:
    """Split one identifier into lowercase parts.

    Examples
    --------
    >>> split_identifier("getUserById")
    ['get', 'user', 'by', 'id']
    >>> split_identifier("HTTPServer_v2")
    ['http', 'server', 'v', '2']
    """
    return [p.lower() for p in _CAMEL.findall(word)]


def tokenize(text: str, *, stop_words: bool = True, keep_whole: bool = False) -> list[str]:
    """Tokens of free text or code, in order.

    With ``keep_whole``, a compound identifier also yields itself lowercased (``getuserbyid``) so
    an exact identifier query still matches strongly.

    Examples
    --------
    >>> tokenize("the prepare_request body for getUserById")
    ['prepare', 'request', 'body', 'for', 'get', 'user', 'by', 'id']
    """
    out: list[str] = []
    for word in _WORD.findall(text):
        parts = split_identifier(word)
        if keep_whole and len(parts) > 1:
            out.append(word.lower())
        for p in parts:
            if stop_words and p in STOP_WORDS and len(parts) == 1:
                continue
            out.append(p)
    return out


def index_text(text: str) -> str:
    """Text as stored in an FTS column: tokens joined by spaces (compound identifiers kept whole too)."""
    return " ".join(tokenize(text, stop_words=False, keep_whole=True))


def body_text(text: str) -> str:
    """Fast FTS text for long bodies: camelCase / snake_case parts, lowercased (no whole compounds).

    One regex pass in C; used by the indexer for source bodies where :func:`index_text` is too slow.

    Examples
    --------
    >>> body_text("return self.getUserById(user_id)")
    'return self get user by id user id'
    """
    return " ".join(_CAMEL.findall(text)).lower()
