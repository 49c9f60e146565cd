"""Query building and keyword ranking: required terms, phrases, name weight, FTS syntax as text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.errors import QueryError
from lore.search.api import search
from lore.search.bm25 import match_expression, name_matches, parse_query
from lore.text.tokens import tokenize


def names(out: dict) -> list[str]:
    return [r["qualified_name"] for r in out["results"]]


def kw(db, query: str, **opts) -> dict:
    opts.setdefault("expand", 0)
    opts.setdefault("min_score", 0.0)
    opts.setdefault("limit", 20)
    return search(db, query, mode="keyword", **opts)


def test_parse_query_splits_identifiers_and_keeps_phrases():
    assert parse_query("getUserById") == [("get", "user", "by", "id")]
    assert parse_query('"failed request" retry the') == [("failed", "request"), ("retry",)]
    assert parse_query("the of") == [("the",), ("of",)]  # only stop words: keep them
    assert match_expression(parse_query("x b c")) == '"x" AND "b" AND "c"'
    assert match_expression(parse_query("x y"), any_terms=True) == '"x" OR "y"'


@pytest.mark.parametrize("query", ["", "   ", "!!! ---", '""'])
def test_query_without_words_is_a_query_error(query):
    with pytest.raises(QueryError):
        parse_query(query)


@pytest.mark.parametrize(
    "query",
    [
        "NEAR(retry, request)",
        "retry AND",
        '"unclosed retry',
        "retry*",
        "request:retry",
        "-retry ^request",
        "retry OR NOT request",
        "{retry} [request]",
        "retry'; DROP TABLE symbols; --",
    ],
)
def test_fts_syntax_is_text_never_an_error(keyword_db, query):
    out = kw(keyword_db, query)
    assert isinstance(out["results"], list)


def test_every_term_required_by_default(keyword_db):
    out = kw(keyword_db, "retry request")
    assert "app.net.HttpClient.retry_request" in names(out) and "relaxed" not in out
    # every hit has both words (send has "request" only: not a hit)
    assert "app.net.HttpClient.send" not in names(out)
    assert kw(keyword_db, "retry bread", any_terms=True)["total"] >= 1


def test_all_words_relax_to_any_when_nothing_has_them_all(keyword_db):
    out = kw(keyword_db, "retry bread")
    assert out["relaxed"] == "no symbol has all the words; ranked by any of: retry"
    assert "app.net.HttpClient.retry_request" in names(out)
    # hybrid without vectors falls back to this keyword ranking, relaxation included
    hybrid = search(keyword_db, "retry bread", expand=0, min_score=0.0, limit=20)
    assert hybrid["fallback"] and hybrid["relaxed"] == out["relaxed"] and names(hybrid) == names(out)
    none = kw(keyword_db, "bread butter")
    assert none["total"] == 0 and "relaxed" not in none


def test_quoted_phrase(keyword_db):
    assert "app.net.HttpClient.retry_request" in names(kw(keyword_db, '"failed request"'))
    assert kw(keyword_db, '"request failed"')["total"] == 0


def test_camel_case_query_finds_the_split_name(keyword_db):
    assert names(kw(keyword_db, "getUserById"))[0] == "app.net.getUserById"
    assert names(kw(keyword_db, "get user by id"))[0] == "app.net.getUserById"


def test_name_matches_weigh_most(keyword_db):
    # `parse` is load_config's docstring and body word too; the function named parse comes first
    got = names(kw(keyword_db, "parse"))
    assert got[0] == "app.util.parse"
    assert got.index("app.util.parse") < got.index("app.util.load_config")


def test_keyword_scores_best_is_one_and_ranks_reported(keyword_db):
    out = kw(keyword_db, "send request")
    scores = [r["score"] for r in out["results"]]
    assert scores[0] == 1.0 and scores == sorted(scores, reverse=True)
    assert out["results"][0]["found_by"]["keyword"]["rank"] == 1


def test_name_matches_ignores_case_and_separators():
    assert name_matches("get_user_by_id", "getUserById")
    assert not name_matches("get user", "getUserById")


def test_tokenize_stop_words_keep_code_words():
    assert tokenize("is the user not for a cache") == ["is", "user", "not", "for", "cache"]
    assert tokenize("do it if the cache has what we can use") == ["do", "if", "cache", "has", "can", "use"]
    assert tokenize("an and of they should") == []  # articles, conjunctions, prepositions, pronouns, modals
    # in a query, a compound identifier keeps every part, stop words included, as one phrase
    assert parse_query("getUserById") == parse_query("get_user_by_id") == [("get", "user", "by", "id")]


_FUZZ = st.lists(
    st.one_of(
        st.sampled_from(['"', "(", ")", "*", "^", ":", "-", "+", "{", "}", "'", ";", ",", ".", "NEAR", "AND",
                         "OR", "NOT", "retry", "request", "getUserById", "the", "é", "\\", "%", "_"]),
        st.text(max_size=4),
    ),
    max_size=8,
).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(query=_FUZZ)
def test_any_text_is_a_query_or_one_query_error(vector_db, query):
    for mode in ("keyword", "hybrid"):
        try:
            out = search(vector_db, query, mode=mode, limit=5)
        except QueryError as exc:  # empty, or nothing but punctuation
            assert "\n" not in str(exc) and ("empty" in str(exc) or "no words" in str(exc))
        else:
            assert isinstance(out["results"], list) and out["query"]["text"] == query
