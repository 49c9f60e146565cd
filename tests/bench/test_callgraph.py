from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.bench import callgraph
from lore.cli.bench import bench_app

CASES = {
    "builtins/len": ({"main.py": "array = [1, 2]\nlen(array)\n"}, {"main": ["<builtin>.len"], "<builtin>.len": []}),
    "classes/init": (
        {"main.py": "class A:\n    def __init__(self):\n        pass\n\n    def m(self):\n        pass\n\n"
                    "class B:\n    pass\n\na = A()\na.m()\nB()\n"},
        {"main": ["main.A.__init__", "main.A.m"], "main.A.__init__": [], "main.A.m": []},
    ),
    "imports/pkg": (
        {"__init__.py": "", "main.py": "from to_import import func\n\nfunc()\n",
         "to_import.py": "def func():\n    helper()\n\ndef helper():\n    pass\n"},
        {"main": ["to_import.func"], "to_import.func": ["to_import.helper"], "to_import.helper": []},
    ),
    "external/ext": (
        {"main.py": "from ext import Cls\n\nCls().fun()\n"},
        {"main": ["ext.Cls", "ext.Cls.fun"]},
    ),
    "dynamic/eval": (  # as PyCG ships it, its ground-truth error included
        {"main.py": "def func():\n    pass\n\neval(\"func()\")\n"},
        {"main": ["main.func"], "main.func": ["<builtin>.eval"], "<builtin>.eval": []},
    ),
}


@pytest.fixture
def snippets(tmp_path: Path) -> Path:
    root = tmp_path / "snippets"
    for key, (files, cg) in CASES.items():
        d = root / key
        d.mkdir(parents=True)
        for name, text in files.items():
            (d / name).write_text(text)
        (d / "callgraph.json").write_text(json.dumps(cg))
    return root


def test_translation_and_scores(snippets):
    report = callgraph.run_callgraph(snippets)
    assert report["cases"] == 5
    details = {c["case"]: c for c in report["case_details"]}
    assert details["builtins/len"]["missing"] == [] and details["builtins/len"]["extra"] == []
    assert details["classes/init"]["extra"] == []  # B() has no __init__: no edge, as in PyCG
    assert details["imports/pkg"]["missing"] == []  # the package prefix of the case directory is removed
    o = report["overall"]["all"]
    assert o["expected"] == 9 and 0 <= o["precision"] <= 1 and 0 <= o["recall"] <= 1
    flat = callgraph.flat_metrics(report)
    assert "overall.all.recall" in flat and "category.classes.all.precision" in flat
    assert "category.classes.resolved.recall" in flat and "reachable.resolved.recall" in flat


def test_unreachable_edges_are_listed_with_reasons_and_left_out_of_reachable(snippets):
    report = callgraph.run_callgraph(snippets, categories=["dynamic"])
    listed = {u["edge"]: u for u in report["unreachable"]}
    assert set(listed) == {"main -> main.func", "main.func -> <builtin>.eval"}
    assert all(u["case"] == "dynamic/eval" and u["reason"] and u["found"] is False for u in listed.values())
    assert report["overall"]["all"]["expected"] == 2 and report["reachable"]["all"]["expected"] == 0
    assert report["reachable"]["all"]["found"] == report["overall"]["all"]["found"]  # lore's edges all stay
    assert "main -> <builtin>.eval" in report["case_details"][0]["extra"]  # correct, yet not in PyCG's truth


def test_cli_gate_exit_code(snippets, tmp_path):
    floors = tmp_path / "t.json"
    floors.write_text(json.dumps({"callgraph": {"overall.all.recall": 1.01}}))
    runner = CliRunner()
    res = runner.invoke(bench_app, ["callgraph", "--snippets", str(snippets), "--thresholds", str(floors)])
    assert res.exit_code == 1, res.output
    assert "overall.all.recall" in res.output
    floors.write_text(json.dumps({"callgraph": {"overall.all.recall": 0.0}}))
    res = runner.invoke(bench_app, ["callgraph", "--snippets", str(snippets), "--thresholds", str(floors), "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["gate_failures"] == []


def test_checksum_mismatch_is_refused(tmp_path):
    (tmp_path / callgraph.PYCG_SDIST).write_bytes(b"not the real sdist")
    with pytest.raises(callgraph.BenchmarkDataError, match="sha256"):
        callgraph.fetch_pycg(tmp_path)


def test_no_cases(tmp_path):
    from lore.errors import EmptyGroundTruthError

    with pytest.raises(EmptyGroundTruthError):
        callgraph.run_callgraph(tmp_path)
