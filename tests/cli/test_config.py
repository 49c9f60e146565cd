"""Settings that stick: pyproject.toml [tool.lore], .lore/config.toml, .loreignore, `lore config`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lore import index_repo, open_index
from lore.cli import app
from lore.errors import InvalidArgumentError
from lore.index.config import DEFAULT_EXCLUDES, load_settings

runner = CliRunner()


def _repo(tmp_path):
    (tmp_path / "app.py").write_text("def main():\n    helper()\n\ndef helper():\n    pass\n")
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "out.py").write_text("def generated():\n    pass\n")
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "jquery.min.js").write_text("function jq(){}\n")
    (tmp_path / "static" / "site.js").write_text("function site(){}\n")
    return tmp_path


def _paths(root):
    with open_index(root, readonly=True) as idx:
        return sorted({s["path"] for s in idx.symbols() if s["path"]})


def test_minified_javascript_is_skipped_by_default(tmp_path):
    root = _repo(tmp_path)
    index_repo(root, workers=1)
    assert _paths(root) == ["app.py", "gen/out.py", "static/site.js"]


def test_pyproject_excludes_stick_across_runs(tmp_path):
    root = _repo(tmp_path)
    (root / "pyproject.toml").write_text('[tool.lore]\nexclude = ["gen/"]\nmax_file_size = 100000\n')
    index_repo(root, workers=1)
    index_repo(root, workers=1)  # the second run, with no flags, still skips gen/
    assert _paths(root) == ["app.py", "static/site.js"]


def test_loreignore_and_config_toml_add_up_and_negation_reincludes(tmp_path):
    root = _repo(tmp_path)
    (root / ".lore").mkdir()
    (root / ".lore" / "config.toml").write_text('exclude = ["static/site.js"]\nworkers = 1\n')
    (root / ".loreignore").write_text("# vendored, but we want it\n!static/jquery.min.js\ngen/\n")
    index_repo(root)
    assert _paths(root) == ["app.py", "static/jquery.min.js"]
    s = load_settings(root)
    assert s.workers == 1 and s.sources["workers"] == ".lore/config.toml"
    assert s.exclude_sources[-1] == ".loreignore" and s.exclude[: len(DEFAULT_EXCLUDES)] == list(DEFAULT_EXCLUDES)


def test_an_excluded_file_leaves_the_index_on_the_next_run(tmp_path):
    root = _repo(tmp_path)
    index_repo(root, workers=1)
    (root / ".loreignore").write_text("gen/\n")
    report = index_repo(root, workers=1)
    assert report.removed == ["gen/out.py"]


def test_command_line_wins_over_files(tmp_path):
    root = _repo(tmp_path)
    (root / "pyproject.toml").write_text("[tool.lore]\nmax_file_size = 10\n")
    s = load_settings(root, max_file_size=5000, exclude=["x/"])
    assert (s.max_file_size, s.sources["max_file_size"]) == (5000, "command line")
    assert s.exclude[-1] == "x/" and s.exclude_sources[-1] == "command line"


@pytest.mark.parametrize("text,needle", [
    ("[tool.lore]\nexclude = 3\n", "exclude must be a list"),
    ("[tool.lore]\nmax_file_size = -1\n", "max_file_size must be a positive integer"),
    ("[tool.lore]\ncolour = 'red'\n", "unknown setting 'colour'"),
    ("[tool.lore\n", "not valid TOML"),
])
def test_bad_settings_fail_in_one_line(tmp_path, text, needle):
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(InvalidArgumentError, match=needle):
        load_settings(tmp_path)
    res = runner.invoke(app, ["config", str(tmp_path)])
    assert res.exit_code == 2 and needle in res.output and "Traceback" not in res.output


def test_a_broken_pyproject_without_lore_settings_does_not_stop_indexing(tmp_path):
    root = _repo(tmp_path)
    (root / "pyproject.toml").write_text("[project\nname = 'x'\n")
    assert load_settings(root).exclude == list(DEFAULT_EXCLUDES)
    index_repo(root, workers=1)
    assert "app.py" in _paths(root)


def test_lore_config_shows_values_and_sources(tmp_path):
    root = _repo(tmp_path)
    (root / "pyproject.toml").write_text('[tool.lore]\nexclude = ["gen/"]\n')
    res = runner.invoke(app, ["config", str(root), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert {"value": "gen/", "source": "pyproject.toml [tool.lore]"} in data["settings"]["exclude"]
    assert data["settings"]["max_file_size"] == {"value": 2_000_000, "source": "default"}
    text = runner.invoke(app, ["config", str(root)]).output
    assert "gen/" in text and "pyproject.toml [tool.lore]" in text and "*.min.js" in text


def _kernel(root):
    """A tree whose .gitignore excludes everything, as Debian's kernel source package does."""
    (root / "kernel").mkdir()
    (root / "kernel" / "fork.c").write_text("int fork_it(void) { return 0; }\n")
    (root / "kernel" / "exit.c").write_text("void bye(void) {}\n")
    (root / ".gitignore").write_text("/*\n")
    return root


def test_lore_index_of_a_tree_with_nothing_to_index_says_which_rule_and_exits_2(tmp_path):
    root = _kernel(tmp_path)
    res = runner.invoke(app, ["index", str(root)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    line = res.output.strip()
    assert "\n" not in line and "up to date" not in line
    assert line.startswith('lore: error: no file indexed: all 2 source files are excluded by .gitignore:1 "/*"')
    assert "lore index --no-gitignore" in line and "unchanged" not in line  # there was no index to keep
    assert not (root / ".lore").exists()


def test_the_last_good_index_is_kept_and_the_overrides_work_from_the_command_line(tmp_path):
    root = _kernel(tmp_path)
    first = runner.invoke(app, ["index", str(root), "--no-gitignore"])
    assert first.exit_code == 0 and "indexed 2 files" in first.output, first.output
    again = runner.invoke(app, ["index", str(root)])
    assert again.exit_code == 2 and f"the index at {root / '.lore' / 'index.db'} is unchanged" in again.output
    assert _paths(root) == ["kernel/exit.c", "kernel/fork.c"]
    as_json = runner.invoke(app, ["index", str(root), "--json"])
    assert as_json.exit_code == 2
    error = json.loads(as_json.output)["error"]  # one JSON object on stdout, nothing else
    assert error["type"] == "NothingToIndexError" and error["message"].startswith("no file indexed")
    assert error["details"]["excluded"] == {'.gitignore:1 "/*"': 2, "unknown extension": 1}
    only = runner.invoke(app, ["index", str(root), "--include", "kernel/fork.c"])
    assert only.exit_code == 0 and "1 removed" in only.output, only.output
    assert _paths(root) == ["kernel/fork.c"]


def test_lore_index_says_which_folders_it_skipped(tmp_path):
    root = _repo(tmp_path)
    (root / "venv" / "lib" / "python3.12" / "site-packages" / "pip").mkdir(parents=True)
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "venv" / "lib" / "python3.12" / "site-packages" / "pip" / "x.py").write_text("def x():\n    pass\n")
    (root / "web" / "node_modules" / "pad").mkdir(parents=True)
    (root / "web" / "node_modules" / "pad" / "index.js").write_text("function pad() {}\n")
    res = runner.invoke(app, ["index", str(root)])
    assert res.exit_code == 0, res.output
    assert "  skipped: venv/ (virtualenv), web/node_modules/" in res.output
    assert _paths(root) == ["app.py", "gen/out.py", "static/site.js"]


def test_lore_config_lists_the_builtin_skips_and_the_ignore_files(tmp_path):
    root = _repo(tmp_path)
    (root / ".gitignore").write_text("*.log\n")
    (root / "gen" / ".gitignore").write_text("tmp/\n")
    (root / "venv").mkdir()
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / ".lore").mkdir()
    (root / ".lore" / "config.toml").write_text('include = ["venv/src/"]\n')
    data = json.loads(runner.invoke(app, ["config", str(root), "--json"]).output)
    assert data["ignore_files"] == [".gitignore", "gen/.gitignore"]
    assert {"folders": "node_modules/", "reason": "npm packages", "rule": "by name"} in data["builtin_skips"]
    assert any(r["reason"] == "virtualenv" and r["rule"] == "by contents" for r in data["builtin_skips"])
    assert data["settings"]["include"] == [{"value": "venv/src/", "source": ".lore/config.toml"}]
    assert data["settings"]["gitignore"] == {"value": True, "source": "default"}
    assert data["walk"] == {"files": 3, "skipped_dirs": []}  # the include pattern reopens venv/ (nothing there)
    text = runner.invoke(app, ["config", str(root), "--no-gitignore"]).output
    assert "gitignore      false        (command line)" in text
    assert "ignore files in force: none (gitignore = false)" in text
    assert "node_modules/" in text and "pyvenv.cfg" in text and "Cargo.toml" in text
    (root / ".lore" / "config.toml").write_text("")
    text = runner.invoke(app, ["config", str(root)]).output
    assert "ignore files in force: .gitignore, gen/.gitignore" in text
    assert "lore index would index 3 files here; skipping venv/ (virtualenv)" in text


def test_bad_include_and_gitignore_settings_fail_in_one_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.lore]\ngitignore = 'no'\n")
    with pytest.raises(InvalidArgumentError, match="gitignore must be true or false"):
        load_settings(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.lore]\ninclude = 3\n")
    with pytest.raises(InvalidArgumentError, match="include must be a list"):
        load_settings(tmp_path)


def test_the_command_line_gitignore_flag_wins_over_the_settings_in_both_directions(tmp_path):
    root = _kernel(tmp_path)
    (root / ".lore").mkdir()
    (root / ".lore" / "config.toml").write_text("gitignore = false\n")
    assert load_settings(root).sources["gitignore"] == ".lore/config.toml"
    s = load_settings(root, gitignore=True)
    assert (s.gitignore, s.sources["gitignore"]) == (True, "command line")
    assert "gitignore      true         (command line)" in runner.invoke(app, ["config", str(root), "--gitignore"]).output
    assert runner.invoke(app, ["index", str(root), "--gitignore"]).exit_code == 2  # the .gitignore read again
    assert runner.invoke(app, ["index", str(root)]).exit_code == 0  # the settings' gitignore = false


def test_lore_config_shows_the_compilation_database_set_found_or_missing(tmp_path):
    root = _repo(tmp_path)
    text = runner.invoke(app, ["config", str(root)]).output
    assert "compile_commands  auto: none found" in text
    (root / "build").mkdir()
    (root / "build" / "compile_commands.json").write_text("[]")
    data = json.loads(runner.invoke(app, ["config", str(root), "--json"]).output)
    assert data["settings"]["compile_commands"] == {"value": None, "source": "default",
                                                    "found": "build/compile_commands.json"}
    (root / "pyproject.toml").write_text('[tool.lore]\ncompile_commands = "out/cc.json"\n')
    (root / ".lore").mkdir(exist_ok=True)
    (root / ".lore" / "config.toml").write_text('compile_commands = "out2/cc.json"\n')
    text = runner.invoke(app, ["config", str(root)]).output
    assert "compile_commands  out2/cc.json (.lore/config.toml)" in text  # the same precedence _compdb reads
    assert load_settings(root).compile_commands == "out2/cc.json"
