"""One spelling per option across commands, renamed spellings as hidden aliases that warn once, moved commands."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lore.cli import _app, app

from ._walk import commands, option_names

runner = CliRunner()


def test_test_code_is_one_option_everywhere():
    spelled = {name: {o for o in option_names(cmd) if "test" in o} for name, cmd in commands().items()}
    spelled = {name: opts for name, opts in spelled.items() if opts}
    assert {"search", "export", "graph callers", "graph related", "graph cluster", "bench cochange"} <= set(spelled)
    assert all(opts == {"--include-tests", "--no-include-tests"} for opts in spelled.values()), spelled


@pytest.fixture
def fresh_warnings(monkeypatch):
    monkeypatch.setattr(_app, "_warned", set())


@pytest.mark.parametrize("command,old", [
    (["export", "--format", "json"], "--no-tests"),
    (["search", "place order", "--min-score", "0", "--json"], "--exclude-tests"),
])
def test_old_spelling_works_and_warns_once(sample_repo, sample_index, fresh_warnings, command, old):
    db = ["--db", str(sample_repo)]
    new = runner.invoke(app, [*command, "--no-include-tests", *db])
    both = runner.invoke(app, [*command, "--include-tests", *db])
    aliased = runner.invoke(app, [*command, old, *db])
    assert new.exit_code == aliased.exit_code == both.exit_code == 0, aliased.output
    assert aliased.stdout == new.stdout != both.stdout  # the alias means --no-include-tests, and it matters here
    assert "test_place" in both.stdout and "test_place" not in new.stdout
    assert aliased.stderr.count("lore: warning:") == 1 and f"{old} is now --no-include-tests" in aliased.stderr
    again = runner.invoke(app, [*command, old, *db])
    assert again.stdout == new.stdout and "warning" not in again.stderr  # once per process
    assert "warning" not in new.stderr


def test_old_spellings_are_hidden_from_help():
    for args in (["export", "--help"], ["search", "--help"]):
        text = runner.invoke(app, args).stdout
        assert "--no-tests" not in text and "--exclude-tests" not in text and "--no-include-tests" in text


def test_lore_related_says_where_it_went():
    res = runner.invoke(app, ["related", "requests.api.get"])
    assert res.exit_code == 2 and res.stdout == ""
    assert "lore docs related" in res.stderr and "`lore graph related requests.api.get`" in res.stderr
    assert res.stderr.count("\n") == 1 and "Invalid value" not in res.stderr
    res = runner.invoke(app, ["related"])
    assert res.exit_code == 2
    assert res.stderr == "lore: error: lore related is now lore docs related (symbols: lore graph related NAME)\n"
    res = runner.invoke(app, ["related", "12", "--limit", "3", "--json"])  # old options are taken, not refused
    assert res.exit_code == 2 and "`lore docs related 12`" in json.loads(res.stdout)["error"]["message"]
    assert "related" not in commands() and "related" in commands(hidden=True)  # hidden from --help


def test_docs_related_is_the_chunk_command(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Retry\n\nRetry failed requests with backoff.\n", encoding="utf-8")
    (docs / "b.md").write_text("# Backoff\n\nExponential backoff between retries.\n", encoding="utf-8")
    db = tmp_path / "index.db"
    added = runner.invoke(app, ["docs", "add", str(docs), "--db", str(db), "--embedder", "hashing", "--json"])
    assert added.exit_code == 0, added.output
    hit = json.loads(runner.invoke(app, ["docs", "search", "retry", "--db", str(db), "--json"]).stdout)["results"][0]
    res = runner.invoke(app, ["docs", "related", str(hit["chunk_id"]), "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["source"]["chunk_id"] == hit["chunk_id"]
