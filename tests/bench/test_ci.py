"""CI outputs of `lore bench questions` / `structural`: JUnit XML, a Markdown summary, --fail-under, --baseline."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from lore.bench.ci import checks, load_baseline, parse_fail_under
from lore.cli.bench import bench_app
from lore.errors import InvalidArgumentError

QUESTIONS = """\
- source: pkg.core.alpha
  related: [pkg.core.beta, pkg.core.gamma]
- source: pkg.core.Thing.run
  related: pkg.core.Thing.stop
"""
ALGO = "overlap:adamic_adar"


def _run(seealso_repo, tmp_path, *extra):
    f = tmp_path / "q.yaml"
    f.write_text(QUESTIONS)
    return CliRunner().invoke(bench_app, ["questions", str(f), "--db", str(seealso_repo), "--algorithms", ALGO, *extra])


def test_junit_and_summary_pass(seealso_repo, tmp_path):
    junit, summary = tmp_path / "out" / "bench.xml", tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    res = _run(seealso_repo, tmp_path, "--junit", str(junit), "--summary", str(summary), "--fail-under", "recall@10=0.0")
    assert res.exit_code == 0, res.output
    suite = ET.parse(junit).getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert suite.get("failures") == "0" and [c.get("name") for c in cases] == [f"algorithms.{ALGO}.recall@10 [--fail-under]"]
    text = summary.read_text()
    assert text.startswith("earlier step\n")  # appended, as $GITHUB_STEP_SUMMARY wants
    assert f"| `{ALGO}` |" in text and "All 1 checks passed." in text


def test_fail_under_fails_the_run_and_the_junit_case(seealso_repo, tmp_path):
    junit = tmp_path / "bench.xml"
    res = _run(seealso_repo, tmp_path, "--junit", str(junit), "--fail-under", "mrr=1.01")
    assert res.exit_code == 1
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and f"algorithms.{ALGO}.mrr" in failure.get("message")


def test_baseline_catches_a_drop(seealso_repo, tmp_path):
    base = tmp_path / "base.json"
    res = _run(seealso_repo, tmp_path, "--json")
    assert res.exit_code == 0
    report = json.loads(res.output)
    base.write_text(json.dumps(report))
    assert _run(seealso_repo, tmp_path, "--baseline", str(base)).exit_code == 0  # the same numbers pass
    report["algorithms"][ALGO]["all"]["recall@10"] += 0.1  # a baseline better than today: a drop
    base.write_text(json.dumps(report))
    summary = tmp_path / "s.md"
    res = _run(seealso_repo, tmp_path, "--baseline", str(base), "--summary", str(summary))
    assert res.exit_code == 1 and "❌" in summary.read_text() and "recall@10" in summary.read_text()


def test_first_baseline_run_writes_the_baseline(seealso_repo, tmp_path):
    """The CI recipe's first run has no baseline yet: it writes one (exit 0); the next run compares with it."""
    base = tmp_path / "ci" / "bench-baseline.json"
    junit = tmp_path / "bench.xml"
    res = _run(seealso_repo, tmp_path, "--baseline", str(base), "--junit", str(junit))
    assert res.exit_code == 0, res.output
    written = load_baseline(base)
    assert written[f"algorithms.{ALGO}.recall@10"] == 1.0
    assert ET.parse(junit).getroot().get("tests") == "0"  # nothing to compare with on the first run
    res = _run(seealso_repo, tmp_path, "--baseline", str(base), "--junit", str(junit))
    assert res.exit_code == 0, res.output
    assert int(ET.parse(junit).getroot().get("tests")) >= 4  # every metric of the algorithm, checked


def _run_default(seealso_repo, tmp_path, *extra):
    f = tmp_path / "q.yaml"
    f.write_text(QUESTIONS)
    return CliRunner().invoke(bench_app, ["questions", str(f), "--db", str(seealso_repo), *extra])


def test_fail_under_gates_the_default_algorithm_not_every_one_scored(seealso_repo, tmp_path):
    """hybrid has MRR 1.0 here, pagerank 0.67 and cluster 0.75: a floor of 0.9 must not fail on those two."""
    junit = tmp_path / "bench.xml"
    res = _run_default(seealso_repo, tmp_path, "--fail-under", "mrr=0.9", "--junit", str(junit))
    assert res.exit_code == 0, res.output
    names = [c.get("name") for c in ET.parse(junit).getroot().iter("testcase")]
    assert names == ["algorithms.hybrid.mrr [--fail-under]"]
    # a full name still gates any one algorithm
    res = _run_default(seealso_repo, tmp_path, "--fail-under", "algorithms.pagerank.mrr=0.9")
    assert res.exit_code == 1


def test_fail_under_gates_a_chosen_non_default_algorithm(seealso_repo, tmp_path):
    junit = tmp_path / "bench.xml"
    res = _run_default(seealso_repo, tmp_path, "--algorithm", "pagerank", "--fail-under", "mrr=0.6", "--junit", str(junit))
    assert res.exit_code == 0, res.output
    assert [c.get("name") for c in ET.parse(junit).getroot().iter("testcase")] == ["algorithms.pagerank.mrr [--fail-under]"]
    assert _run_default(seealso_repo, tmp_path, "--algorithms", "pagerank", "--fail-under", "mrr=0.9").exit_code == 1


def test_checks_and_parsing():
    assert parse_fail_under(["ndcg@10=0.5"]) == {"ndcg@10": 0.5}
    with pytest.raises(InvalidArgumentError, match="METRIC=VALUE"):
        parse_fail_under(["ndcg@10"])
    missing = checks({"algorithms.a.mrr": 0.5}, fail_under={"nope": 0.1})
    assert [(c.metric, c.passed) for c in missing] == [("nope", False)]
    not_scored = checks({"algorithms.a.mrr": 0.5}, fail_under={"mrr": 0.1}, gated=["b"])
    assert [(c.metric, c.measured, c.passed) for c in not_scored] == [("algorithms.b.mrr", None, False)]
    floors = checks({"algorithms.a.mrr": 0.5}, floors={"algorithms.a.mrr": 0.6, "_comment": 1}, floors_source="t.json")
    assert [(c.rule, c.passed) for c in floors] == [("floor (t.json)", False)]


def test_bad_baseline_is_one_line(tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text("[1, 2]")
    with pytest.raises(InvalidArgumentError, match="neither"):
        load_baseline(bad)
