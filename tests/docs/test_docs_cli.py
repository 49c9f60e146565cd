from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import lore.docs
from lore.cli import app as lore_app
from lore.cli.docs import docs_app

runner = CliRunner()


def test_add_then_search_json_and_table(docs_dir):
    db = str(docs_dir / ".lore" / "index.db")
    res = runner.invoke(docs_app, ["add", str(docs_dir), "--library", "acme", "--tags", "api,http",
                                   "--embedder", "hashing", "--db", db])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "5 added" in res.output
    res = runner.invoke(docs_app, ["search", "retry backoff", "--mode", "keyword", "--db", db, "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["mode"] == "keyword" and out["total"] == 2
    res = runner.invoke(docs_app, ["search", "retry backoff", "--db", db, "--limit", "1"])
    assert res.exit_code == 0 and "results for 'retry backoff'" in res.output


def test_related_command(db, chunk_of):
    app = lore_app
    src = chunk_of("guide/configure.md", "Configure > Retries")
    res = runner.invoke(app, ["docs", "related", str(src), "--db", str(db), "--json", "--limit", "2"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["chunk_id"] == src and len(out["results"]) <= 2
    res = runner.invoke(app, ["docs", "related", str(src), "--db", str(db), "--include-linked"])
    assert res.exit_code == 0 and "chunks like" in res.output
    res = runner.invoke(app, ["docs", "related", str(src), "--db", str(db), "--json", "--min-score", "-1",
                              "--exclude-document", "errors.rst", "--limit", "100"])  # fmt: skip
    paths = {r["document"]["path"] for r in json.loads(res.output)["results"]}
    assert res.exit_code == 0 and "errors.rst" not in paths and "guide/configure.md" in paths
    res = runner.invoke(app, ["docs", "related", str(src), "--db", str(db), "--same-document", "--exclude-document", "x"])
    assert res.exit_code == 2 and "not both" in res.output
    res = runner.invoke(app, ["docs", "related", "999999", "--db", str(db)])
    assert res.exit_code == 2 and res.output.startswith("lore: error: unknown chunk 999999")


def test_lore_errors_are_one_line(db):
    res = runner.invoke(docs_app, ["search", "  ", "--db", str(db)])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == ["lore: error: empty search query; pass some words to search for"]


@pytest.mark.parametrize("command", ["add", "search"])
def test_commands_documented(command):
    res = runner.invoke(docs_app, [command, "--help"])
    assert res.exit_code == 0 and "--db" in res.output


def test_public_names_sorted_and_complete():
    assert lore.docs.__all__ == sorted(lore.docs.__all__)
    for name in lore.docs.__all__:
        assert getattr(lore.docs, name) is not None
    assert {"add_documents", "search_docs", "get_related", "chunks_mentioning"} <= set(lore.docs.__all__)


def test_index_found_upwards_and_one_line_errors(db, docs_dir, monkeypatch):
    monkeypatch.chdir(docs_dir / "guide")
    res = runner.invoke(docs_app, ["search", "backoff", "--mode", "keyword", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["total"] >= 1
    res = runner.invoke(docs_app, ["search", "backoff", "--db", str(docs_dir), "--json"])  # a repository root
    assert res.exit_code == 0 and json.loads(res.output)["total"] >= 1
    monkeypatch.chdir(docs_dir.parent)
    res = runner.invoke(docs_app, ["search", "backoff"])
    assert res.exit_code == 2 and res.output.strip().splitlines() == [
        f"lore: error: no index at {docs_dir.parent.resolve() / '.lore' / 'index.db'}; run `lore index` first"
    ]
