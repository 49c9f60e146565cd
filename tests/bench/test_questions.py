from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lore.bench.questions import load_questions, run_questions
from lore.cli.bench import bench_app
from lore.errors import EmptyGroundTruthError, InvalidArgumentError

QUESTIONS = """\
- source: pkg.core.alpha
  related: [pkg.core.beta, pkg.core.gamma, pkg.core.no_such_thing]
- source: pkg.core.missing
  related: [pkg.core.beta]
- source: pkg.core.Thing.run
  related: pkg.core.Thing.stop
"""


def test_unknown_names_reported_and_skipped(seealso_repo, tmp_path):
    f = tmp_path / "q.yaml"
    f.write_text(QUESTIONS)
    report = run_questions(f, db=seealso_repo, algorithms=("overlap:adamic_adar",))
    assert report["unknown"] == [
        {"entry": 1, "name": "pkg.core.no_such_thing", "role": "related"},
        {"entry": 2, "name": "pkg.core.missing", "role": "source"},
    ]
    assert report["corpus"]["queries"] == 2 and report["corpus"]["pairs"] == 3
    assert "overlap:adamic_adar" in report["algorithms"] and "same_file" in report["baselines"]


def test_empty_and_all_unknown_are_errors(seealso_repo, tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    with pytest.raises(EmptyGroundTruthError):
        run_questions(empty, db=seealso_repo)
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("- source: nope.nothing\n  related: [nope.other]\n")
    with pytest.raises(EmptyGroundTruthError, match="1 unknown names|2 unknown names"):
        run_questions(unknown, db=seealso_repo)


def test_bad_shapes(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("source: x\n")
    with pytest.raises(InvalidArgumentError, match="list"):
        load_questions(f)
    f.write_text("- related: [a]\n")
    with pytest.raises(InvalidArgumentError, match="source"):
        load_questions(f)


def test_cli_questions(seealso_repo, tmp_path):
    f = tmp_path / "q.yaml"
    f.write_text(QUESTIONS)
    runner = CliRunner()
    res = runner.invoke(bench_app, ["questions", str(f), "--db", str(seealso_repo), "--algorithms",
                                    "overlap:adamic_adar", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data["unknown"]) == 2
    res = runner.invoke(bench_app, ["questions", str(f), "--db", str(seealso_repo), "--algorithms",
                                    "overlap:adamic_adar"])
    assert res.exit_code == 0 and "unknown source in entry 2: pkg.core.missing" in res.output
    # a LoreError is one line and exit code 2, as in every other command (the bench group shares the wrapper)
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    res = runner.invoke(bench_app, ["questions", str(empty), "--db", str(seealso_repo)])
    assert res.exit_code == 2 and "lore: error:" in res.output and "Traceback" not in res.output
    with pytest.raises(EmptyGroundTruthError):
        run_questions(empty, db=seealso_repo)
