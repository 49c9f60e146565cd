"""Bash: functions, commands as calls, ``source`` / ``.`` paths (the script's own directory, a variable's
literal tail), functions visible through what a script sources, name guesses only into sourced files (marked
``name_only``), builtins and programs outside, bats files as tests."""

from __future__ import annotations

import sqlite3

from lore import index_repo
from lore.index.walk import is_test_path
from lore.languages import language_for
from lore.languages.bash import _parser as bash
from lore.store.schema import CONFIDENCE

SRC = b"""#!/usr/bin/env bash
# Runs the tool.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/util.sh"
. "${BASH_SOURCE%/*}/colors.bash"
# tree-sitter-bash reads a \\ right after a command's newline as a continuation: a comment between
\\. "$TOOL_DIR/lib/extra.sh" --no-use
source ./local.sh

# Prints a greeting.
greet() {
  local name="$1"
  say "hi $name" | grep -q hi
  x=$(helper "$name")
}

function helper {
  "$cmd" a
  ./run.sh
  echo "$1"
}
"""


def test_functions_commands_and_sources():
    pf = bash.parse("bin/tool.sh", SRC, "bin.tool")
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("bin.tool", "module"), ("bin.tool.greet", "function"), ("bin.tool.helper", "function")]
    assert pf.symbols[0].docstring == "Runs the tool."
    assert pf.symbols[1].docstring == "Prints a greeting."
    assert [i.module for i in pf.imports] == ["lib/util.sh", "bin/colors.bash", "*/lib/extra.sh", "bin/local.sh|local.sh"]
    calls = [(pf.symbols[c.caller].name, c.callee) for c in pf.calls]
    # "$cmd" and ./run.sh name no command lore can read; \\. is the source builtin
    assert calls == [("tool", "source"), ("tool", "dirname"), ("tool", "."), ("tool", "."), ("tool", "source"),
                     ("greet", "say"), ("greet", "grep"), ("greet", "helper"), ("helper", "echo")]


def test_bad_input_never_raises():
    pf = bash.parse("x.sh", b"f() { if then fi }} ((", "x")
    assert pf.symbols[0].kind == "module"


def test_extensions_and_bats_tests():
    assert language_for("lib/a.sh").name == "bash" and language_for("lib/a.bash").name == "bash"
    assert language_for("test/a.bats").name == "bash" and is_test_path("test/a.bats")


def _edges(root) -> dict[tuple[str, str], tuple[str | None, str, float]]:
    conn = sqlite3.connect(root / ".lore" / "index.db")
    try:
        rows = conn.execute("SELECT a.qualified_name, r.callee_name, b.qualified_name, r.resolution, r.confidence "
                            "FROM symbol_refs r JOIN symbols a ON a.id = r.caller_id "
                            "LEFT JOIN symbols b ON b.id = r.callee_id").fetchall()
    finally:
        conn.close()
    return {(a, callee): (b, res, round(conf, 3)) for a, callee, b, res, conf in rows}


def test_sourced_functions_bind_and_guesses_stay_in_sourced_files(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "bin" / "tool.sh").write_text(
        'source "$(dirname "$0")/../lib/util.sh"\nmain() {\n  log hi\n  lib_helper\n  standalone_fn\n  grep x y\n}\n'
        'main "$@"\n')
    (tmp_path / "lib" / "util.sh").write_text('. "$ROOT/lib/more.sh"\nlog() { printf "%s" "$1"; }\n'
                                              "lib_helper() { log x; more_fn; other_fn; }\n")
    (tmp_path / "lib" / "more.sh").write_text("more_fn() { :; }\n")
    (tmp_path / "lib" / "other.sh").write_text("other_fn() { :; }\n")  # sourced by run.sh below
    (tmp_path / "bin" / "run.sh").write_text('source "${BASH_SOURCE%/*}/../lib/other.sh"\nother_fn\n')
    (tmp_path / "standalone.sh").write_text("standalone_fn() { echo; }\n")  # a script nothing sources
    index_repo(tmp_path, workers=1)
    e = _edges(tmp_path)
    assert e[("bin.tool", "main")] == ("bin.tool.main", "module_global", 1.0)
    assert e[("bin.tool.main", "log")][:2] == ("lib.util.log", "import")
    assert e[("bin.tool.main", "lib_helper")][:2] == ("lib.util.lib_helper", "import")
    assert e[("lib.util.lib_helper", "more_fn")][:2] == ("lib.more.more_fn", "import")  # "$ROOT/lib/more.sh"
    assert e[("bin.run", "other_fn")][:2] == ("lib.other.other_fn", "import")
    # util.sh never sources other.sh, but a script sources both into one shell: a guess, marked so
    assert e[("lib.util.lib_helper", "other_fn")] == ("lib.other.other_fn", "name_only", CONFIDENCE["name_only"])
    # standalone.sh runs in a shell of its own: its function is never guessed
    assert e[("bin.tool.main", "standalone_fn")] == (None, "unresolved", 0.0)
    assert e[("bin.tool.main", "grep")][1] == "external"
    assert e[("lib.util.log", "printf")][1] == "builtin"
