"""Long signatures are cut after a whole word with ``…`` (never inside an identifier), and ``lore show`` says so."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from lore.cli import app
from lore.parsers._common import MAX_SIGNATURE, clip_signature

runner = CliRunner()


def _cut_mid_word(template: str, keyword: str) -> tuple[str, str]:
    """A function name and parameters such that character MAX_SIGNATURE of ``<keyword> <name>(<params>)`` falls
    inside a parameter name, where the old ``[:300]`` cut."""
    params = ", ".join(template.format(i=i) for i in range(20))
    for k in range(1, 30):
        name = "VeryLong" + "x" * k
        sig = f"{keyword} {name}({params})"
        if sig[MAX_SIGNATURE - 1].isalpha() and sig[MAX_SIGNATURE].isalpha():
            return name, params
    raise AssertionError("no name length puts the cut inside a name")


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text))


def test_clip_signature_keeps_whole_identifiers():
    sig = "def f(" + ", ".join(f"argument_{i}: int" for i in range(60)) + ")"
    cut = clip_signature(sig)
    assert len(cut) <= MAX_SIGNATURE and cut.endswith("…")
    assert _words(cut) <= _words(sig)  # every word shown is a whole word of the signature
    assert clip_signature("def short(a, b)") == "def short(a, b)"


def test_indexed_python_and_go_signatures_end_on_a_boundary(make_repo):
    pyname, py = _cut_mid_word("parameter_number_{i}: int = {i}", "def")
    goname, go = _cut_mid_word("parameterNumber{i} int", "func")
    root = make_repo({"pkg/m.py": f'def {pyname}({py}):\n    """Doc."""\n    return 1\n',
                      "go.mod": "module example.com/x\n\ngo 1.21\n",
                      "x.go": f"package x\n\nfunc {goname}({go}) int {{\n\treturn 1\n}}\n"})
    assert runner.invoke(app, ["index", str(root), "--workers", "1"]).exit_code == 0
    for ref, source in ((f"pkg.m.{pyname}", f"def {pyname}({py})"), (f"x.{goname}", f"func {goname}({go}) int")):
        res = runner.invoke(app, ["show", ref, "--db", str(root), "--json"])
        assert res.exit_code == 0, res.output
        sig = json.loads(res.stdout)["signature"]
        assert sig.endswith("…") and len(sig) <= MAX_SIGNATURE, sig
        assert _words(sig) <= _words(source), _words(sig) - _words(source)  # no half identifier
    shown = runner.invoke(app, ["show", f"pkg.m.{pyname}", "--db", str(root), "--snippet", "0"])
    assert "signature cut at a word boundary; the whole header is at pkg/m.py:1" in shown.stdout
