"""The Jedi agreement benchmark: site finding, Jedi's answers mapped to lore symbols, and the scorer's arithmetic."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lore.bench import _jedi_oracle as jo
from lore.bench._rule_share import LoreSite, Sym, share_table, strength_of
from lore.bench._sdist import Sdist

SITE = jo.CallSite("a.py", 1, 0, "f", 1, 0, "f()")

TINY = {
    "pkg/__init__.py": "",
    "pkg/core.py": (
        "class Base:\n"
        "    def __init__(self):\n"
        "        self.n = 0\n"
        "\n"
        "    def run(self):\n"
        "        return helper()\n"
        "\n"
        "\n"
        "def helper():\n"
        "    return 1\n"
        "\n"
        "\n"
        "class Child(Base):\n"
        "    pass\n"
    ),
    "pkg/app.py": (
        "from pkg.core import Child, helper\n"
        "\n"
        "\n"
        "def main(cb):\n"
        "    helper()\n"
        "    Child().run()\n"
        "    cb()\n"
        "    return len('é') + int('1')\n"
    ),
}


def _j(status, *, target=None, accept=(), lore=(), resolution="unresolved", strength="unresolved", cause=None):
    return jo.Judgement(SITE, status, jedi_target=target, accept=frozenset(accept), lore_targets=tuple(lore),
                        lore_resolution=resolution, lore_strength=strength, cause=cause)


def test_score_arithmetic_on_hand_made_judgements():
    js = [
        _j("bound", target=1, accept={1}, lore={1}, resolution="import", strength="rule"),  # hit, correct
        _j("bound", target=2, accept={2, 20}, lore={20}, resolution="constructor_type", strength="rule"),  # __init__
        _j("bound", target=3, accept={3}, lore={3, 4}, resolution="ambiguous_name", strength="ambiguous",
           cause="heuristic guess"),  # hit, but wrong (a second guess)
        _j("bound", target=5, accept={5}, lore={6}, resolution="same_file_name", strength="heuristic",
           cause="heuristic guess"),  # miss and wrong
        _j("bound", target=7, accept={7}, cause="unresolved"),  # miss, lore binds nothing
        _j("external", lore={8}, resolution="unique_name", strength="heuristic",
           cause="external-typed receiver bound by name"),  # contradicted
        _j("none", resolution="builtin", strength="builtin"),
    ]
    t = jo.score(js).as_dict()
    assert (t["sites"], t["jedi_bound"], t["lore_hits"]) == (7, 5, 3)
    assert t["recall"] == pytest.approx(3 / 5)
    assert (t["both_bind"], t["lore_correct"]) == (4, 2)
    assert t["precision"] == pytest.approx(2 / 4)
    assert t["rule_bound"] == 2 and t["rule_share"] == pytest.approx(2 / 7)
    assert t["contradicted"] == 1
    assert t["misses_by_resolution"] == {"same_file_name": 1, "unresolved": 1}
    assert t["wrong_by_resolution"] == {"ambiguous_name": 1, "same_file_name": 1}
    guess = t["causes"]["heuristic guess"]
    assert (guess["misses"], guess["wrong"]) == (1, 2) and len(guess["examples"]) == 2  # the miss's example once
    assert t["causes"]["unresolved"]["misses"] == 1
    assert t["causes"]["external-typed receiver bound by name"]["contradicted"] == 1
    assert t["jedi_status"] == {"bound": 5, "external": 1, "none": 1}


def test_tallies_add_counts_not_ratios():
    a = jo.score([_j("bound", target=1, accept={1}, lore={1}, resolution="import", strength="rule")])
    b = jo.score([_j("bound", target=2, accept={2}, cause="unresolved"), _j("none"), _j("none")])
    total = jo.Tally()
    total.add(a)
    total.add(b)
    d = total.as_dict()
    assert (d["sites"], d["jedi_bound"], d["lore_hits"]) == (4, 2, 1)
    assert d["recall"] == 0.5 and d["precision"] == 1.0 and d["rule_share"] == 0.25
    assert jo.Tally().as_dict()["recall"] is None  # nothing bound: no ratio, not zero


def test_classify_names():
    def d(**kw):
        return {"type": "function", "name": "f", "full_name": "m.f", "path": "m.py", "line": 1, "in_project": True, **kw}

    assert jo.classify_names([]) == ("none", None)
    assert jo.classify_names([d(type="statement")]) == ("other", None)
    assert jo.classify_names([d(in_project=False, path="/x/re.py")])[0] == "external"
    assert jo.classify_names([d(), d(in_project=False)])[0] == "multiple"
    assert jo.classify_names([d(), d(full_name="m.g", name="g")])[0] == "multiple"
    status, target = jo.classify_names([d(line=3), d(line=9), d(line=5)])  # @overload stubs, then the implementation
    assert status == "bound" and target["line"] == 9


def test_call_sites_use_character_columns_for_jedi():
    src = "s = 'é'; t = s.upper()\nx = (a\n     .b)(1)\nf()()\n"
    sites = jo.call_sites_of_source("m.py", src)
    by_name = {s.name: s for s in sites}
    up = by_name["upper"]
    assert (up.line, up.col) == (1, len("s = 'é'; t = ".encode()))  # the call's start in bytes (tree-sitter's)
    assert up.name_col == "s = 'é'; t = s.upper()".index("upper")  # the name in characters (Jedi's)
    assert (by_name["b"].name_line, by_name["b"].name_col) == (3, 6)  # the attribute on its own line
    assert [s.name for s in sites if s.line == 4] == ["f"]  # f()() : the outer call names nothing
    assert jo.call_sites_of_source("bad.py", "def (:\n") == []


def test_sample_is_seeded_and_ordered():
    sites = [jo.CallSite("a.py", i, 0, "f", i, 0, "") for i in range(1, 50)]
    a, b = jo.sample_sites(sites, 10, seed=3), jo.sample_sites(sites, 10, seed=3)
    assert a == b and len(a) == 10 and a == sorted(a, key=lambda s: s.line)
    assert jo.sample_sites(sites, 10, seed=4) != a
    assert jo.sample_sites(sites, 100) == sites


def test_symbol_mapping_by_line_then_qualified_name():
    def sym(sid, name, qn, kind, path, line, end, parent=None):
        return Sym(sid, name, qn, kind, path, line, end, "", "", 0, 1, parent)

    symbols = {1: sym(1, "Outer", "m.Outer", "class", "m.py", 1, 20),
               2: sym(2, "run", "m.Outer.run", "method", "m.py", 3, 10, 1),
               3: sym(3, "run", "m.Outer.run.run", "function", "m.py", 5, 6, 2),
               4: sym(4, "__init__", "m.Outer.__init__", "method", "m.py", 11, 12, 1),
               5: sym(5, "Leaf", "m.Leaf", "class", "m.py", 21, 22),
               6: sym(6, "g", "pkg.g", "function", "src/pkg.py", 1, 2)}
    view = jo.LoreView(symbols, [], {5: [1]})
    assert view.symbol_for({"path": "m.py", "line": 5, "name": "run", "full_name": ""}) == 3  # innermost
    assert view.symbol_for({"path": "m.py", "line": 3, "name": "run", "full_name": ""}) == 2
    assert view.symbol_for({"path": "elsewhere.py", "line": 1, "name": "g", "full_name": "pkg.g"}) == 6
    assert view.symbol_for({"path": "m.py", "line": 40, "name": "nope", "full_name": "x.nope"}) is None
    # a definition Jedi gives no line for (a name it cannot place in the source): by qualified name only
    assert view.symbol_for({"path": "m.py", "line": None, "name": "Leaf", "full_name": "m.Leaf"}) == 5
    assert view.accepted(5) == {5, 4}  # a class without __init__ accepts the inherited one
    assert view.accepted(2) == {2}


def test_a_decorated_function_accepts_the_wrapper_its_decorator_defines(tmp_path):
    """Jedi's goto names the decorated ``def``; the call runs the wrapper the decorator returned."""
    (tmp_path / "m.py").write_text("def memo(f):\n    def wrapper():\n        return f()\n    return wrapper\n"
                                   "\n@memo\ndef g():\n    pass\n\ndef h():\n    pass\n", encoding="utf-8")

    def sym(sid, name, qn, kind, line, end, parent=None):
        return Sym(sid, name, qn, kind, "m.py", line, end, "", "", 0, 1, parent)

    symbols = {1: sym(1, "memo", "m.memo", "function", 1, 4), 2: sym(2, "wrapper", "m.memo.wrapper", "function", 2, 3, 1),
               3: sym(3, "g", "m.g", "function", 6, 8), 4: sym(4, "h", "m.h", "function", 10, 11)}
    view = jo.LoreView(symbols, [], {}, tmp_path)
    assert view.accepted(3) == {3, 2}
    assert view.accepted(4) == {4}  # not decorated: the wrapper is someone else's
    view.later_conventions = False  # the old counting
    assert view.accepted(3) == {3}


def test_a_type_checking_declaration_accepts_the_runtime_definition(tmp_path):
    """Jedi prefers ``if TYPE_CHECKING: def f(): ...``; the call runs the module's other ``f``."""
    (tmp_path / "m.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    def f() -> None: ...\n"
                                   "else:\n    def f():\n        pass\n\ndef g():\n    pass\n", encoding="utf-8")

    def sym(sid, name, qn, line, end):
        return Sym(sid, name, qn, "function", "m.py", line, end, "", "", 0, 1, None)

    view = jo.LoreView({1: sym(1, "f", "m.f", 3, 3), 2: sym(2, "f", "m.f", 5, 6), 3: sym(3, "g", "m.g", 8, 9)},
                       [], {}, tmp_path)
    assert view.accepted(1) == {1, 2}
    assert view.accepted(2) == {2}  # the run-time definition does not accept the declaration
    view.later_conventions = False
    assert view.accepted(1) == {1}


def test_a_stub_only_declaration_accepts_its_one_runtime_twin():
    """loguru's ``__init__.pyi`` declares ``class Logger``; the run-time class is ``_logger.Logger`` (imported
    as ``_Logger``): Jedi's goto finds no run-time ``loguru.Logger`` and answers the stub."""
    def sym(sid, name, qn, kind, path, parent=None):
        return Sym(sid, name, qn, kind, path, sid, sid, "", "", 0, 1, parent)

    symbols = {1: sym(1, "Logger", "loguru.Logger", "class", "loguru/__init__.pyi"),
               2: sym(2, "remove", "loguru.Logger.remove", "method", "loguru/__init__.pyi", 1),
               3: sym(3, "Logger", "loguru._logger.Logger", "class", "loguru/_logger.py"),
               4: sym(4, "remove", "loguru._logger.Logger.remove", "method", "loguru/_logger.py", 3),
               5: sym(5, "add", "loguru.Logger.add", "method", "loguru/__init__.pyi", 1),
               6: sym(6, "Handler", "loguru._a.Handler", "class", "loguru/_a.py"),
               7: sym(7, "add", "loguru._a.Handler.add", "method", "loguru/_a.py", 6),
               8: sym(8, "Core", "loguru.Core", "class", "loguru/__init__.pyi"),
               9: sym(9, "remove", "loguru.Core.remove", "method", "loguru/__init__.pyi", 8),
               10: sym(10, "Core", "loguru.Core", "class", "loguru/__init__.py"),
               11: sym(11, "remove", "loguru.Core.remove", "method", "loguru/__init__.py", 10),
               12: sym(12, "Core", "loguru._b.Core", "class", "loguru/_b.py"),
               13: sym(13, "remove", "loguru._b.Core.remove", "method", "loguru/_b.py", 12)}
    view = jo.LoreView(symbols, [], {})
    assert view.accepted(2) == {2, 4}
    assert view.accepted(5) == {5}  # Logger has no run-time add: another class's add is not it
    # a run-time loguru.Core exists: the stub declares it, and the call runs it (Jedi usually maps the
    # stub there itself); the same class and member name elsewhere in the package is not it
    assert view.accepted(9) == {9, 11}
    assert view.accepted(4) == {4}  # the run-time definition does not accept the stub
    view.fourth_conventions = False  # the counting before issue 34's fourth round
    assert view.accepted(9) == {9} and view.accepted(2) == {2, 4}
    view.third_conventions = False  # the counting before issue 34's third round
    assert view.accepted(2) == {2}


def test_a_class_with_overloaded_init_accepts_every_init():
    def sym(sid, name, qn, kind, line, end, parent=None):
        return Sym(sid, name, qn, kind, "m.py", line, end, "", "", 0, 1, parent)

    # @overload def __init__(...) twice, then the implementation: one constructor, whichever lore names
    symbols = {1: sym(1, "RaisesGroup", "m.RaisesGroup", "class", 1, 20),
               2: sym(2, "__init__", "m.RaisesGroup.__init__", "method", 2, 4, 1),
               3: sym(3, "__init__", "m.RaisesGroup.__init__", "method", 5, 7, 1),
               4: sym(4, "__init__", "m.RaisesGroup.__init__", "method", 8, 12, 1)}
    assert jo.LoreView(symbols, [], {}).accepted(1) == {1, 2, 3, 4}


def test_strengths_and_share_table():
    assert strength_of("self_method", "method") == "rule"
    assert strength_of("argument_flow", "function") == "rule"  # a rule added later counts as a rule
    assert strength_of("import", "external") == "external"
    assert strength_of("builtin", "external") == "builtin"
    assert strength_of("unique_name", "function") == "heuristic"
    assert strength_of("unresolved", None) == "unresolved"
    sites = [LoreSite("a.py", 1, 0, "qs.filter", 1, "call", [(None, "unresolved")], "unresolved", "unresolved"),
             LoreSite("a.py", 2, 0, "qs.filter", 1, "call", [(3, "constructor_type")], "rule", "constructor_type"),
             LoreSite("a.py", 3, 0, "len", 1, "call", [(9, "builtin")], "builtin", "builtin"),
             LoreSite("a.py", 4, 0, "x.get", 1, "call", [(4, "ambiguous_name"), (5, "ambiguous_name")], "ambiguous",
                      "ambiguous_name")]
    t = share_table(sites, name="filter")
    assert t["sites"] == 4 and t["rule_share"] == 0.25
    assert t["by_strength"]["ambiguous"]["count"] == 1 and t["by_strength"]["heuristic"]["count"] == 0
    assert t["name"] == {"name": "filter", "sites": 2, "unresolved": 1,
                         "by_strength": {"rule": 1, "heuristic": 0, "ambiguous": 0, "external": 0, "builtin": 0,
                                         "unresolved": 1}}
    assert share_table([])["rule_share"] is None


def test_missing_jedi_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jedi", None)
    with pytest.raises(jo.JediMissingError, match="pip install jedi"):
        jo.jedi_answers(jo.PROJECTS[0], Path("."), [])


def test_a_stubs_reexporting_import_is_followed_to_the_definition(tmp_path):
    """With a ``.pyi`` beside ``pkg/__init__.py``, Jedi's goto stops at ``from ._impl import f``; the
    oracle follows that import (the definition lore binds), and keeps the stop for the old counting."""
    jedi = pytest.importorskip("jedi")
    root = tmp_path / "proj"
    files = {"pkg/__init__.py": "from ._impl import f\n", "pkg/__init__.pyi": "def f() -> int: ...\n",
             "pkg/_impl.py": "def f():\n    return 1\n", "use.py": "import pkg\n\npkg.f()\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    tiny = jo.Project("stubbed", "test", Sdist("stubbed", "0", "stubbed-0.tar.gz", "0" * 64))
    site = next(s for s in jo.call_sites_of(root) if s.path == "use.py")
    answer = jo.jedi_answers(tiny, root, [site])[site.key]
    assert answer["status"] == "bound" and answer["target"]["path"] == "pkg/_impl.py", (jedi.__version__, answer)
    assert answer["stub_import_stop"]["target"]["path"] == "pkg/__init__.py"
    report = jo.run_jedi([tiny], sites_per_project=10, seed=0, cache=tmp_path / "cache", workers=1,
                         roots={"stubbed": root})
    assert report["projects"]["stubbed"]["precision"] == 1.0
    assert report["projects"]["stubbed"]["old_counting"]["precision"] == 0.0


def test_jedi_and_lore_on_a_tiny_project(tmp_path):
    pytest.importorskip("jedi")
    root = tmp_path / "proj"
    for rel, text in TINY.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    tiny = jo.Project("tiny", "test", Sdist("tiny", "0", "tiny-0.tar.gz", "0" * 64))
    report = jo.run_jedi([tiny], sites_per_project=100, seed=0, cache=tmp_path / "cache", workers=1,
                         roots={"tiny": root})
    t = report["projects"]["tiny"]
    # 7 sites: helper() twice, Child(), Child().run() are bound in the project; cb(), len(), int() are not
    assert t["sites"] == 7 and t["jedi_bound"] == 4
    assert t["jedi_status"]["external"] == 2  # len, int
    assert t["recall"] == 1.0 and t["precision"] == 1.0
    assert t["strengths"]["builtin"] == 2
    cached = list((tmp_path / "cache" / "jedi").glob("answers-tiny-0-jedi*-seed0-*.json"))
    assert len(cached) == 1
    again = jo.run_jedi([tiny], sites_per_project=100, seed=0, cache=tmp_path / "cache", workers=1,
                        roots={"tiny": root}, reuse_index=True)
    assert again["overall"]["recall"] == report["overall"]["recall"]
    assert any("tiny (test)" in line for line in jo.format_report(report))


def test_cli_callgraph_jedi_flag_prints_the_agreement_table(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from lore.cli.bench import bench_app

    case = tmp_path / "snippets" / "functions" / "call"
    case.mkdir(parents=True)
    (case / "main.py").write_text("def f():\n    pass\n\nf()\n")
    (case / "callgraph.json").write_text('{"main": ["main.f"], "main.f": []}')
    tally = jo.score([_j("bound", target=1, accept={1}, lore={1}, resolution="import", strength="rule")]).as_dict()
    seen = {}

    def fake_run_jedi(**kw):
        seen.update(kw)
        return {"projects": {"tiny": {"style": "test", **tally}}, "overall": tally, "seed": kw["seed"],
                "sites_per_project": kw["sites_per_project"], "jedi": "x", "seconds": 0.0}

    monkeypatch.setattr(jo, "run_jedi", fake_run_jedi)
    res = CliRunner().invoke(bench_app, ["callgraph", "--snippets", str(tmp_path / "snippets"), "--no-languages",
                                         "--no-gate", "--jedi", "--seed", "7", "--jedi-sites", "20"])
    assert res.exit_code == 0, res.output
    assert seen["seed"] == 7 and seen["sites_per_project"] == 20
    assert "lore vs Jedi x (seed 7, 20 call sites" in res.output and "tiny (test)" in res.output
    assert "reachable edges only" in res.output


def test_a_decorator_factory_site_is_the_factory_call_not_the_call_of_its_result():
    """``@factory("x")`` at one position: lore records the call of ``factory`` and the call of what it
    returns (``factory()``, with the decorated function); the sampled site is the first only."""
    def sym(sid, name, qn, kind):
        return Sym(sid, name, qn, kind, "m.py", sid, sid, "", "", 0, 1, None)

    symbols = {1: sym(1, "factory", "m.factory", "function"), 2: sym(2, "__call__", "m.Wrapper.__call__", "method")}
    sites = [LoreSite("m.py", 7, 1, "factory", 9, "call", [(1, "module_global")], "rule", "module_global"),
             LoreSite("m.py", 7, 1, "factory()", 9, "decorator", [(2, "constructor_type")], "rule", "constructor_type")]
    view = jo.LoreView(symbols, sites, {})
    site = jo.CallSite("m.py", 7, 1, "factory", 7, 1, "factory('x')")
    rows, resolution, _strength = view.lore_answer(site)
    assert rows == [(1, "module_global")] and resolution == "module_global"


def test_a_target_counts_for_precision_only_when_confirmed_and_never_for_recall():
    def j(also):
        out = _j("bound", target=1, accept={1}, lore={1, 2, 3}, resolution="parameter_flow", strength="rule")
        out.also_true = frozenset(also)
        return out

    assert jo.score([j({2, 3})]).as_dict()["precision"] == 1.0
    assert jo.score([j({2})]).as_dict()["precision"] == 0.0  # 3: not named by Jedi's unbounded search
    miss = _j("bound", target=1, accept={1}, lore={2}, resolution="parameter_flow", strength="rule")
    miss.also_true = frozenset({2})
    t = jo.score([miss]).as_dict()
    assert (t["recall"], t["precision"]) == (0.0, 1.0)  # right at run time, but Jedi's own target is missing


UNION = {
    "pkg/__init__.py": "",
    "pkg/a.py": ("class A:\n    def run(self):\n        return 1\n\n\n"
                 "def use(x):\n    return x.run()\n\n\ndef first():\n    return use(A())\n"),
    "pkg/b.py": ("from pkg.a import use\n\n\nclass B:\n    def run(self):\n        return 2\n\n\n"
                 "def second():\n    return use(B())\n"),
}


def test_a_union_jedi_cuts_short_is_judged_by_its_unbounded_search(tmp_path):
    """``use(x)`` gets an ``A`` in its own module and a ``B`` from another: Jedi's search stops at the
    first module with a call and names ``A.run`` only; unbounded, it names both, so lore's union is right
    at run time. The strict counting is kept beside it."""
    pytest.importorskip("jedi")
    root = tmp_path / "proj"
    for rel, text in UNION.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    union = jo.Project("union", "test", Sdist("union", "0", "union-0.tar.gz", "0" * 64))
    report = jo.run_jedi([union], sites_per_project=100, seed=0, cache=tmp_path / "cache", workers=1,
                         roots={"union": root})
    t = report["projects"]["union"]
    assert t["unions"] == {"asked": 1, "confirmed": 1, "abandoned": 0}
    assert t["precision"] == 1.0 and t["strict_unions"]["precision"] < 1.0
    assert t["recall"] == t["strict_unions"]["recall"] == 1.0
