"""The language registry: one folder per language, one line each in ``lore.languages.LANGUAGES``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from lore import languages
from lore.errors import InvalidArgumentError
from lore.languages import LANGUAGES, Language, get, language_for, module_name, parse_source

ROOT = Path(languages.__file__).parent
REPO = ROOT.parent.parent


def test_every_language_folder_is_registered():
    """A folder under lore/languages/ that the registry does not list would be dead code (and vice versa)."""
    folders = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    homes = sorted({type(lang.rules).__module__.split(".")[2] for lang in LANGUAGES})
    assert folders == homes


def test_names_and_extensions_are_unique():
    names = [lang.name for lang in LANGUAGES]
    assert len(names) == len(set(names))
    exts = [e for lang in LANGUAGES for e in lang.extensions]
    assert len(exts) == len(set(exts))
    assert all(e.startswith(".") and e == e.lower() for e in exts)


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.name)
def test_each_language_is_one_complete_object(lang: Language):
    assert get(lang.name) is lang
    assert lang.rules.language == lang.name
    for ext in lang.extensions:
        assert language_for(f"src/some/file{ext}") is lang
        assert language_for(f"SRC/FILE{ext.upper()}") is lang
    for fn in lang.file_names:
        assert language_for(f"a/{fn}") is lang
    path = f"src/x{lang.extensions[0]}"
    pf = parse_source(path, b"", lang.name, module_name(path, lang.name))
    assert pf.language == lang.name and pf.syntax_errors == 0
    assert pf.symbols[0].kind == "module"


def test_unknown_names():
    assert language_for("README.md") is None
    assert language_for("Makefile") is None
    with pytest.raises(InvalidArgumentError, match="unknown language 'cobol'; choose one of: python"):
        get("cobol")


def test_python_module_names_know_the_packages():
    namer = get("python").module_namer(["pkg/__init__.py", "pkg/a.py", "run.py"], "repo")
    assert [namer(p) for p in ("pkg/__init__.py", "pkg/a.py", "run.py")] == ["pkg", "pkg.a", "run"]
    root_pkg = get("python").module_namer(["__init__.py", "core.py"], "networkx")
    assert root_pkg("core.py") == "networkx.core"
    assert get("python").is_package("pkg/__init__.py") and not get("go").is_package("pkg/__init__.py")
    assert get("go").module_namer(["cmd/main.go"], "repo")("cmd/main.go") == "cmd.main"


def test_queries_ship_with_the_package():
    """The package-data glob of pyproject.toml matches every query file of every language."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["lore"]
    shipped = {p for pattern in data for p in (REPO / "lore").glob(pattern)}
    queries = set((REPO / "lore").rglob("*.scm"))
    assert queries and queries <= shipped


def test_languages_never_import_the_index():
    """The layer order: languages may import parsers and errors, never index (the resolver calls them)."""
    bad = []
    for p in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_bytes())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("index",) and node.level:
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lore.index"):
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno}")
    assert bad == []


def test_python_only_index_never_loads_the_lua_or_bash_grammar(tmp_path):
    """A grammar loads when a file of its language is seen: a Python-only tree never imports Lua's or Bash's."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.lua").write_text("local M = {}\nreturn M\n")
    (tmp_path / "c.sh").write_text("f() { echo; }\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = [m in sys.modules for m in ("tree_sitter_lua", "tree_sitter_bash")]
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, [m in sys.modules for m in ("tree_sitter_lua", "tree_sitter_bash")]]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [[False, False], [True, True]]


def test_importing_the_registry_loads_no_grammar_of_a_folder_language():
    """A grammar wheel is imported when a file of its language is parsed, never by the registry itself
    (a Python-only index must not pay for Swift's grammar; test_swift.py indexes one to check)."""
    import subprocess
    import sys
    code = ("import sys, lore.languages\n"
            "print(sorted(m for m in ('tree_sitter_swift', 'tree_sitter_kotlin', 'tree_sitter_c_sharp') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"
    assert get("swift").grammar == "tree_sitter_swift:language" and language_for("a/B.swift").name == "swift"


def test_a_python_only_index_loads_no_other_grammar(tmp_path):
    """Grammars load when a file of their language is seen (Scala's too, now a full language): a Python-only
    project imports the Python grammar alone."""
    import json
    import subprocess
    import sys
    import textwrap

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    code = textwrap.dedent(f"""
        import json, sys
        from lore import index_repo
        index_repo({str(tmp_path)!r}, workers=1)
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("tree_sitter_") and "." not in m)))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == ["tree_sitter_python"]
    assert get("scala").grammar == "tree_sitter_scala:language"
