"""Per-language edge precision / recall on the fixture projects (``lore bench callgraph``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.bench import langs
from lore.cli.bench import bench_app
from lore.errors import EmptyGroundTruthError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_score_counts_known_missing_against_recall():
    expected = {"calls": ["a -> b", "a -> c"], "types": [], "imports": ["f -> m"], "relations": [],
                "symbols": ["a (function)"], "known_missing": {"calls": ["a -> d"]}}
    actual = {"calls": {"a -> b", "a -> x"}, "types": set(), "imports": {"f -> m"}, "relations": set(),
              "symbols": {"a (function)"}, "ambiguous": set()}
    got = langs.score(expected, actual)
    assert (got["calls"]["tp"], got["calls"]["found"], got["calls"]["expected"]) == (1, 2, 3)
    assert got["calls"]["precision"] == 0.5 and got["calls"]["recall"] == pytest.approx(1 / 3)
    assert got["calls"]["missing"] == ["a -> c", "a -> d"] and got["calls"]["extra"] == ["a -> x"]
    assert got["imports"]["precision"] == 1.0 and got["types"]["precision"] is None  # nothing found: undefined


def test_run_languages_on_the_fixtures():
    report = langs.run_languages(FIXTURES, languages=["go", "c"])
    assert list(report["languages"]) == ["go", "c"]
    for lang in ("go", "c"):
        expected = json.loads((FIXTURES / lang / "expected.json").read_text())
        v = report["languages"][lang]
        assert v["calls"]["expected"] == len(expected["calls"]) + len(expected["known_missing"]["calls"])
        assert v["calls"]["missing"] == sorted(expected["known_missing"]["calls"])  # exactly the known gaps
        assert v["calls"]["extra"] == [] and v["calls"]["precision"] == 1.0
    o = report["overall"]["edges"]
    assert o["expected"] == sum(report["languages"][lg]["edges"]["expected"] for lg in ("go", "c"))
    flat = langs.flat_metrics(report)
    assert flat["lang.go.calls.precision"] == 1.0 and "lang.overall.edges.recall" in flat


def test_no_fixtures_is_an_error(tmp_path):
    with pytest.raises(EmptyGroundTruthError):
        langs.run_languages(tmp_path)


def test_cli_prints_the_language_table(tmp_path):
    snippets = tmp_path / "snippets" / "builtins" / "len"
    snippets.mkdir(parents=True)
    (snippets / "main.py").write_text("len([1])\n")
    (snippets / "callgraph.json").write_text(json.dumps({"main": ["<builtin>.len"]}))
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "rust", fixtures / "rust")
    res = CliRunner().invoke(bench_app, ["callgraph", "--snippets", str(tmp_path / "snippets"), "--no-gate",
                                         "--fixtures", str(fixtures)])
    assert res.exit_code == 0, res.output
    assert "per language" in res.output and "rust" in res.output and "python (PyCG, calls)" in res.output
    assert "rust missing call: src.lib.demo -> src.shapes.circle.Circle.perimeter" in res.output
    res = CliRunner().invoke(bench_app, ["callgraph", "--snippets", str(tmp_path / "snippets"), "--no-gate",
                                         "--fixtures", str(fixtures), "--json"])
    report = json.loads(res.output)
    assert report["languages"]["languages"]["rust"]["relations"]["precision"] == 1.0
