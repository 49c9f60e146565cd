"""``lore search`` and ``lore index --embed`` end to end: tables, --json, notes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.cli import app

from .conftest import write_repo

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def error_lines(res) -> list[str]:
    return [line for line in res.output.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def embedded(tmp_path_factory) -> Path:
    """The tiny repo indexed by `lore index --embed` (read-only use)."""
    root = write_repo(tmp_path_factory.mktemp("cli") / "repo")
    res = run("index", str(root), "--workers", "1", "--embed")
    assert res.exit_code == 0, res.output
    assert "code vectors (hashing-v1-384): embedded" in res.output
    return root


def test_index_embed_then_refresh_and_json(tmp_path):
    root = write_repo(tmp_path / "repo")
    res = run("index", str(root), "--workers", "1")
    assert res.exit_code == 0 and "code vectors" not in res.output
    plain = run("search", "retry request", "--db", str(root))
    assert "no code vectors in the index" in plain.output and "lore index --embed" in plain.output
    data = json.loads(run("index", str(root), "--embedder", "hashing", "--json").output)
    vec = data["code_vectors"]
    assert vec["model"] == "hashing-v1-384" and vec["symbol"]["embedded"] > 5 and vec["dropped"] == []
    again = run("index", str(root), "--embed")
    assert again.exit_code == 0 and "embedded 0 symbols and 0 files" in again.output
    out = json.loads(run("search", "retry request", "--db", str(root), "--json").output)
    assert "fallback" not in out and out["model"] == "hashing-v1-384"


def test_unknown_embedder_is_one_line(tmp_path):
    root = write_repo(tmp_path / "repo")
    res = run("index", str(root), "--embedder", "word2vec")
    assert res.exit_code == 2 and error_lines(res) == [
        "lore: error: unknown embedder 'word2vec'; choose one of: hashing, minilm"
    ]
    assert not (root / ".lore").exists()  # checked before any work


def test_search_table_shows_hits_expansion_and_mode(embedded):
    res = run("search", "retry failed request", "--db", str(embedded), "--mode", "keyword", "--min-score", "0.5")
    assert res.exit_code == 0, res.output
    assert "app.net.HttpClient.retry_request" in res.output
    assert "via app.net.HttpClient.retry_request [contains(in)]" in res.output  # the class around it
    assert "mode keyword" in res.output and "index generation 1" in res.output
    res = run("search", "retry failed request", "--db", str(embedded))
    assert "mode hybrid (hashing-v1-384)" in res.output and "fallback" not in res.output


def test_search_json_defaults(embedded):
    out = json.loads(run("search", "getUserById", "--db", str(embedded), "--json").output)
    q = out["query"]
    assert (q["mode"], q["limit"], q["expand"], q["top_k"], q["min_score"]) == ("hybrid", 5, 1, 5, 0.5)
    assert out["results"][0]["qualified_name"] == "app.net.getUserById"
    files = json.loads(run("search", "--files", "util.py", "--db", str(embedded), "--json").output)
    assert (files["query"]["limit"], files["query"]["expand"], files["query"]["min_score"]) == (10, 0, 0.3)
    assert files["results"][0]["path"] == "app/util.py" and files["results"][0]["found_by"]["exact_path"]


def test_relaxed_query_says_so(embedded):
    res = run("search", "retry bread", "--db", str(embedded), "--mode", "keyword")
    assert res.exit_code == 0 and "no symbol has all the words; ranked by any of: retry" in res.output


@pytest.mark.parametrize(
    "query",
    ['"retry', "retry)", "NEAR(retry request)", "retry*", "^retry", "request:retry", "-retry", "--retry",
     "retry AND OR NOT", "NOT retry", "'retry'", "retry -request"],
)
def test_fts_syntax_is_plain_text(embedded, query):
    res = run("search", query, "--db", str(embedded), "--mode", "keyword", "--json")
    assert res.exit_code == 0, res.output
    assert "app.net.HttpClient.retry_request" in [r["qualified_name"] for r in json.loads(res.output)["results"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["   "], "empty search query"),
        (["*"], "has no words to search for"),
        (["x", "--expand", "4"], "expand must be between 0 and 3, got 4"),
        (["x", "--expand", "-1"], "expand must be between 0 and 3, got -1"),
        (["x", "--limit", "-1"], "limit must be 0 or more, got -1"),
        (["x", "--top-k", "-2"], "top_k must be between 1 and 1000, got -2"),
        (["x", "--mode", "fuzzy"], "unknown search mode 'fuzzy'; choose one of: hybrid, vector, keyword"),
        (["x", "--min-score", "1.5"], "min_score must be a number between 0 and 1"),
        (["x", "--decay", "0"], "decay must be in (0, 1]"),
        (["x", "--files", "--expand", "1"], "file search does not expand along the graph"),
    ],
)
def test_bad_input_is_one_line_exit_2(embedded, args, message):
    res = run("search", *args, "--db", str(embedded))
    lines = error_lines(res)
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("lore: error: ") and message in lines[0]


def test_vector_mode_without_vectors_is_one_line(tmp_path):
    root = write_repo(tmp_path / "repo")
    assert run("index", str(root), "--workers", "1").exit_code == 0
    res = run("search", "retry", "--mode", "vector", "--db", str(root))
    assert res.exit_code == 2 and len(error_lines(res)) == 1 and "lore index --embed" in res.output
