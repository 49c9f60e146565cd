"""Shell completion: the scripts, and the ``_LORE_COMPLETE`` protocol they call back, answered by ``lore``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from lore.cli import app

runner = CliRunner()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script_of_the_shell(shell):
    res = runner.invoke(app, ["completion", shell])
    assert res.exit_code == 0, res.output
    assert "_LORE_COMPLETE" in res.stdout and "lore" in res.stdout
    if shell == "bash":
        assert "complete -o default -F _lore_completion lore" in res.stdout
    as_json = json.loads(runner.invoke(app, ["completion", shell, "--json"]).stdout)
    assert as_json == {"shell": shell, "script": res.stdout}


def test_the_bash_script_is_valid_bash(tmp_path):
    script = tmp_path / "lore.bash"
    script.write_text(runner.invoke(app, ["completion", "bash"]).stdout)
    assert "_lore_completion" in script.read_text()
    proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _complete(words: str, cword: int) -> list[str]:
    """What the bash script would get back from ``lore`` for ``COMP_WORDS`` / ``COMP_CWORD``."""
    env = dict(os.environ, _LORE_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    code = "import sys; sys.argv = ['lore']; from lore.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_lore_answers_the_completion_protocol():
    assert "graph" in _complete("lore gra", 1)
    assert _complete("lore graph rel", 2) == ["related"]
    assert "--include-tests" in _complete("lore graph related --incl", 3)


def test_install_and_show_completion_are_offered():
    res = runner.invoke(app, ["--help"])
    assert "--install-completion" in res.stdout and "--show-completion" in res.stdout
