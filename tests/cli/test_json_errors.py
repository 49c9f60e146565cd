"""``--json`` on every command, and errors under ``--json`` as one JSON object on stdout with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from lore.cli import app

from ._walk import commands

runner = CliRunner()


def test_every_command_takes_json():
    missing = [name for name, cmd in commands(hidden=True).items()
               if not any("--json" in p.opts for p in cmd.params)]
    assert not missing, f"commands without --json: {missing}"


def test_unknown_symbol_under_json_is_an_error_object_on_stdout(sample_repo, sample_index):
    res = runner.invoke(app, ["show", "no.such.symbol", "--db", str(sample_repo), "--json"])
    assert res.exit_code == 2
    assert res.stderr == ""  # nothing else anywhere: the object is the whole answer
    err = json.loads(res.stdout)["error"]
    assert err["type"] == "UnknownSymbolError"
    assert "unknown symbol 'no.such.symbol'" in err["message"]
    assert err["hint"] and err["hint"] in err["message"]  # the fix the message names, on its own
    assert err["details"]["ref"] == "no.such.symbol"
    plain = runner.invoke(app, ["show", "no.such.symbol", "--db", str(sample_repo)])
    assert plain.exit_code == 2 and plain.stdout == "" and plain.stderr.startswith("lore: error: unknown symbol")


@pytest.mark.parametrize("args", [
    ["stats", "--json"],                                   # no index anywhere: IndexNotFoundError
    ["graph", "related", "x.y", "--json"],
    ["export", "--json", "--output", "."],                 # a directory is no file name
    ["completion", "tcsh", "--json"],
    ["bench", "cochange", ".", "--json"],                  # not a git repository (a bench command too)
])
def test_errors_of_every_kind_of_command_are_json(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    body = json.loads(res.stdout)
    assert set(body) == {"error"} and {"type", "message", "hint"} <= set(body["error"])


def _main(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """``lore ARGS`` through the console entry point (usage errors are handled there, not in the commands)."""
    code = f"import sys; sys.argv = ['lore', *{list(args)!r}]; from lore.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_usage_errors_under_json_are_json_too(tmp_path):
    proc = _main("graph", "related", "x", "--bogus", "--json", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr == ""
    err = json.loads(proc.stdout)["error"]
    assert err == {"type": "NoSuchOption", "message": "No such option: --bogus",
                   "hint": "see `lore graph related --help`"}
    proc = _main("graph", "call", "x", "--limit", "many", "--json", cwd=tmp_path)
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["type"] == "BadParameter"
    plain = _main("graph", "related", "x", "--bogus", cwd=tmp_path)  # without --json: the one line as before
    assert plain.returncode == 2 and plain.stdout == ""
    assert plain.stderr == "lore: error: No such option: --bogus (see `lore graph related --help`)\n"


def test_a_lore_error_through_main_is_json(tmp_path):
    proc = _main("stats", "--json", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"]["hint"] == "run `lore index` first"


def test_a_failed_watch_run_is_a_json_line_and_the_watch_goes_on(sample_repo, tmp_path):
    garbage = tmp_path / "notes.db"
    garbage.write_bytes(b"not a database at all" * 50)
    code = ("import sys; sys.argv = ['lore', 'index', sys.argv[1], '--watch', '--json', '--db', sys.argv[2]]; "
            "from lore.cli import main; main()")
    proc = subprocess.Popen([sys.executable, "-c", code, str(sample_repo), str(garbage)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # the first run fails: the file is no index
        assert proc.poll() is None  # still watching
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        proc.stdout.close()
        proc.stderr.close()
    err = json.loads(line)["error"]
    assert err["type"] == "NotAnIndexError" and "is not a lore index" in err["message"]
