"""The walk: what is indexed, what is left out and why (gitignore lines, exclude patterns, built-in skips)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from lore import index_repo
from lore.index.walk import BUILT_IN, UNKNOWN_EXTENSION, walk
from lore.mcp_server import LoreTools

PROJECT = {
    "app/__init__.py": "",
    "app/core.py": "def run():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "app/cli.py": "from app.core import run\n\n\ndef main():\n    run()\n",
}


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def paths(result) -> list[str]:
    return [f.path for f in result.files]


def indexed_paths(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return sorted(p for (p,) in conn.execute("SELECT path FROM files"))
    finally:
        conn.close()


def kernel_tree(root: Path) -> Path:
    """Debian's kernel source package: a .gitignore of '/*' over every file."""
    write(root, {"kernel/fork.c": "int fork_it(void) { return 0; }\n", "kernel/exit.c": "void bye(void) {}\n",
                 "mm/slab.c": "void *kmalloc(int n) { return 0; }\n", "Makefile": "obj-y += kernel/\n"})
    (root / ".gitignore").write_text("/*\n")
    return root


# ---- why nothing was indexed --------------------------------------------------------------------------

def test_gitignore_of_everything_names_the_line_that_excluded_the_files(tmp_path):
    root = kernel_tree(tmp_path)
    r = walk(root)
    assert r.files == []
    reason = r.nothing_indexed()
    assert reason.startswith('no file indexed: all 3 source files are excluded by .gitignore:1 "/*"')
    assert "--no-gitignore" in reason and "include pattern" in reason
    assert r.exclusions() == {'.gitignore:1 "/*"': 3, UNKNOWN_EXTENSION: 2}  # Makefile, .gitignore


def test_the_rule_that_excluded_the_most_is_named_with_its_file_and_line(tmp_path):
    write(tmp_path, {"a/x.py": "", "a/y.py": "", "a/z.py": "", "b/w.py": "", "gen/v.py": ""})
    (tmp_path / ".gitignore").write_text("# build products\n\n/gen/\n")
    (tmp_path / "a" / ".gitignore").write_text("*.tmp\n*.py\n")
    (tmp_path / "b" / ".gitignore").write_text("w.py\n")
    r = walk(tmp_path, exclude=["b/"], exclude_sources=[".loreignore"])
    reason = r.nothing_indexed()
    assert 'most (3) by a/.gitignore:2 "*.py"' in reason
    assert r.exclusions() == {'a/.gitignore:2 "*.py"': 3, 'exclude "b/" (.loreignore)': 1,
                              '.gitignore:3 "/gen/"': 1, UNKNOWN_EXTENSION: 3}


def test_a_tree_with_no_source_file_says_so(tmp_path):
    write(tmp_path, {"notes.txt": "x", "data/table.csv": "1,2"})
    assert walk(tmp_path).nothing_indexed().startswith(
        "no file indexed: none of 2 files has the extension of a language lore reads")


def test_nothing_to_index_keeps_the_last_index_and_reports_why(tmp_path):
    root = kernel_tree(tmp_path)
    first = index_repo(root, workers=1, gitignore=False)
    assert first.files_seen == 3 and not first.nothing_indexed
    db = Path(first.db)
    report = index_repo(root, workers=1)  # the .gitignore is read again: nothing left
    assert report.nothing_indexed.startswith('no file indexed: all 3 source files are excluded by .gitignore:1 "/*"')
    assert report.excluded['.gitignore:1 "/*"'] == 3 and report.files_seen == 0
    assert report.generation == first.generation and not report.removed
    assert indexed_paths(db) == ["kernel/exit.c", "kernel/fork.c", "mm/slab.c"]  # the last good index


def test_no_index_is_created_for_a_tree_with_nothing_to_index(tmp_path):
    root = kernel_tree(tmp_path)
    report = index_repo(root, workers=1)
    assert report.nothing_indexed and report.generation == 0
    assert not (root / ".lore").exists()


def test_the_mcp_refresh_tool_gives_the_same_reason(tmp_path):
    root = kernel_tree(tmp_path)
    index_repo(root, workers=1, gitignore=False)
    tools = LoreTools(root / ".lore" / "index.db", allow_refresh=True)
    try:
        out = tools.call("lore_refresh", {})
    finally:
        tools.close()
    assert out["nothing_indexed"] == walk(root).nothing_indexed()
    assert out["excluded"]['.gitignore:1 "/*"'] == 3


# ---- overrides: no gitignore, include patterns -------------------------------------------------------

def test_include_patterns_win_over_gitignore(tmp_path):
    root = kernel_tree(tmp_path)
    assert paths(walk(root, gitignore=False)) == ["kernel/exit.c", "kernel/fork.c", "mm/slab.c"]
    assert paths(walk(root, include=["kernel/"])) == ["kernel/exit.c", "kernel/fork.c"]
    assert paths(walk(root, include=["*.c", "!slab.c"])) == ["kernel/exit.c", "kernel/fork.c"]
    assert paths(walk(root, include=["/kernel/fork.c"])) == ["kernel/fork.c"]


def test_include_and_gitignore_settings_stick_in_config_toml(tmp_path):
    root = kernel_tree(tmp_path)
    (root / ".lore").mkdir()
    (root / ".lore" / "config.toml").write_text('include = ["mm/"]\n')
    assert index_repo(root, workers=1).added == ["mm/slab.c"]
    (root / ".lore" / "config.toml").write_text("gitignore = false\n")
    assert sorted(index_repo(root, workers=1).added) == ["kernel/exit.c", "kernel/fork.c"]


def test_include_patterns_win_over_exclude_patterns(tmp_path):
    write(tmp_path, PROJECT)
    r = walk(tmp_path, exclude=["app/"], include=["app/core.py"])
    assert paths(r) == ["app/core.py"]


# ---- built-in skips, with or without git -------------------------------------------------------------

def test_a_virtualenv_in_a_tree_without_git_is_not_indexed(tmp_path):
    root = write(tmp_path / "proj", PROJECT)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    assert (root / "venv" / "pyvenv.cfg").is_file()
    site = next((root / "venv").glob("lib/python*/site-packages"))
    write(site, {"pip/_vendor/rich/console.py": "class Console:\n    def print(self):\n        pass\n"})
    assert not (root / ".git").exists() and not (root / ".gitignore").exists()
    report = index_repo(root, workers=1)
    assert indexed_paths(Path(report.db)) == ["app/__init__.py", "app/cli.py", "app/core.py"]
    assert report.skipped_dirs == {"venv": "virtualenv"}


def test_a_virtualenv_is_known_by_its_contents_whatever_its_name(tmp_path):
    write(tmp_path, {**PROJECT, "env/pyvenv.cfg": "home = /usr/bin\n", "env/lib/python3.12/site-packages/six.py": "",
                     # made by virtualenv < 20: no pyvenv.cfg, an activate script beside site-packages
                     "old/bin/activate": "# shell\n", "old/lib/python2.7/site-packages/six.py": "",
                     "conda/conda-meta/history": "", "conda/lib/thing.py": "",
                     # a folder called env that is not a virtualenv holds source
                     "src/env/settings.py": "DEBUG = False\n"})
    r = walk(tmp_path)
    assert paths(r) == ["app/__init__.py", "app/cli.py", "app/core.py", "src/env/settings.py"]
    assert r.skipped_dirs == [("conda", "conda environment"), ("env", "virtualenv"), ("old", "virtualenv")]


def test_node_modules_and_installed_packages_are_skipped_at_any_depth(tmp_path):
    write(tmp_path, {"web/src/app.js": "function app() {}\n", "web/node_modules/left-pad/index.js": "function pad() {}\n",
                     "node_modules/react/index.js": "function react() {}\n",
                     "lib/site-packages/x.py": "", ".tox/py311/lib/y.py": "", "pkg/__pycache__/m.py": ""})
    r = walk(tmp_path)
    assert paths(r) == ["web/src/app.js"]
    assert r.skipped_dirs == [(".tox", "tox environments"), ("lib/site-packages", "installed packages"),
                              ("node_modules", "npm packages"), ("web/node_modules", "npm packages")]
    # only a pattern naming a path into a built-in skip reopens it: '*.js' does not pull node_modules back in
    assert paths(walk(tmp_path, include=["*.js"])) == ["web/src/app.js"]
    assert paths(walk(tmp_path, include=["web/node_modules/left-pad/"])) == [
        "web/node_modules/left-pad/index.js", "web/src/app.js"]


def test_build_output_is_skipped_only_on_evidence(tmp_path):
    write(tmp_path, {
        "py/pyproject.toml": "", "py/pkg/m.py": "", "py/build/lib/pkg/m.py": "", "py/dist/pkg-1.0.tar.gz": "",
        "rs/Cargo.toml": "", "rs/src/main.rs": "fn main() {}\n", "rs/target/debug/build/out.rs": "",
        "java/pom.xml": "", "java/target/generated/A.java": "class A {}\n",
        "gradle/build.gradle": "", "gradle/build/generated/B.java": "class B {}\n",
        "web/package.json": "{}", "web/dist/bundle.js": "", "web/build/asset-manifest.json": "{}",
        "web/build/static/main.js": "",
        # a C project's build/ holds real source, and target/ means nothing without Cargo.toml or pom.xml
        "c/build/gen.c": "int g;\n", "c/target/t.c": "int t;\n",
        # a JS project's build/ with build scripts, not output
        "tools/package.json": "{}", "tools/build/webpack.config.js": "module.exports = {};\n",
    })
    r = walk(tmp_path)
    assert paths(r) == ["c/build/gen.c", "c/target/t.c", "py/pkg/m.py", "rs/src/main.rs",
                        "tools/build/webpack.config.js"]
    assert dict(r.skipped_dirs) == {
        "gradle/build": "Gradle build output", "java/target": "Maven build output", "py/build": "Python build output",
        "py/dist": "Python build output", "rs/target": "Rust build output", "web/build": "JS build output",
        "web/dist": "JS build output"}


def test_builtin_skips_are_the_same_in_a_git_tree(tmp_path):
    write(tmp_path, {**PROJECT, "venv/pyvenv.cfg": "", "venv/lib/python3.12/site-packages/pip/x.py": "",
                     "node_modules/a/index.js": "", "vendor/dep/.git/hooks/pre-commit.py": "",
                     "vendor/dep/dep.py": "def dep():\n    pass\n"})
    before = walk(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    after = walk(tmp_path)
    assert paths(before) == paths(after) == ["app/__init__.py", "app/cli.py", "app/core.py", "vendor/dep/dep.py"]
    assert before.skipped_dirs == after.skipped_dirs


def test_a_gitignored_virtualenv_is_counted_under_the_gitignore_line_not_listed_as_a_skip(tmp_path):
    write(tmp_path, {"venv/pyvenv.cfg": "", "venv/lib/python3.12/site-packages/pip/x.py": "", "a.py": ""})
    (tmp_path / ".gitignore").write_text("venv/\na.py\n")
    r = walk(tmp_path)
    assert r.skipped_dirs == [] and r.ignore_files == [".gitignore"]
    r.count_pruned()
    assert r.exclusions() == {'.gitignore:1 "venv/"': 1, '.gitignore:2 "a.py"': 1, UNKNOWN_EXTENSION: 2}


def test_a_builtin_skip_is_counted_when_it_leaves_nothing(tmp_path):
    write(tmp_path, {"venv/pyvenv.cfg": "", "venv/lib/python3.12/site-packages/pip/x.py": ""})
    reason = walk(tmp_path).nothing_indexed()
    assert reason.startswith(f"no file indexed: its one source file is excluded by {BUILT_IN}virtualenv")
    assert "--include" in reason


# ---- deep trees ---------------------------------------------------------------------------------------

def _deep(root: Path, depth: int) -> Path:
    p = root
    for _ in range(depth):  # os.makedirs recurses: make it one level at a time
        p = p / "d"
        p.mkdir()
    (p / "leaf.py").write_text("def leaf():\n    pass\n")
    return p


def _remove_deep(root: Path, leaf: Path) -> None:
    (leaf / "leaf.py").unlink()  # shutil.rmtree recurses too
    for _ in range(len(leaf.relative_to(root).parts)):
        os.rmdir(leaf)
        leaf = leaf.parent


def test_a_tree_a_thousand_deep_walks_without_recursion(tmp_path):
    leaf = _deep(tmp_path, 1000)
    try:
        r = walk(tmp_path)
        assert [f.path.count("/") for f in r.files] == [1000]
        (tmp_path / ".gitignore").write_text("leaf.py\n")
        assert walk(tmp_path).nothing_indexed().startswith(
            'no file indexed: its one source file is excluded by .gitignore:1 "leaf.py"')
    finally:
        _remove_deep(tmp_path, leaf)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_folders_pruned_by_a_rule_are_counted_without_following_symlinks(tmp_path):
    write(tmp_path, {"gen/a.py": "", "gen/sub/b.py": "", "outside/c.py": ""})
    (tmp_path / "gen" / "loop").symlink_to(tmp_path / "gen")
    (tmp_path / ".gitignore").write_text("gen/\noutside/\n")
    r = walk(tmp_path)
    r.count_pruned()
    assert r.exclusions() == {'.gitignore:1 "gen/"': 2, '.gitignore:2 "outside/"': 1, UNKNOWN_EXTENSION: 1}


# ---- extensionless scripts ---------------------------------------------------------------------------
def test_extensionless_shell_scripts_are_read_as_bash_by_their_first_line(tmp_path):
    write(tmp_path, {
        "bin/deploy": "#!/bin/bash\nrun_it() { echo go; }\nrun_it\n",
        "bin/env-tool": "#!/usr/bin/env bash\necho hi\n",
        "bin/posix": "#! /bin/sh\necho hi\n",
        "bin/split": "#!/usr/bin/env -S sh -e\necho hi\n",
        "bin/pytool": "#!/usr/bin/env python3\nprint(1)\n",  # another interpreter: not Bash
        "LICENSE": "MIT License\n",
        "notes.txt": "#!/bin/bash\n",  # an extension lore does not read: never opened
    })
    result = walk(str(tmp_path))
    assert {f.path: f.language for f in result.files} == {
        "bin/deploy": "bash", "bin/env-tool": "bash", "bin/posix": "bash", "bin/split": "bash"}
    assert result.excluded[UNKNOWN_EXTENSION] == 3
    db = tmp_path / "i.db"
    index_repo(str(tmp_path), db=str(db), clusters=False, history="off")
    conn = sqlite3.connect(db)
    try:
        names = {n for (n,) in conn.execute("SELECT name FROM symbols WHERE kind = 'function'")}
    finally:
        conn.close()
    assert "run_it" in names
