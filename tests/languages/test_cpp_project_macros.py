"""C++ namespace and attribute macros defined in one header and used in other files (round 11): fmt's
``FMT_BEGIN_NAMESPACE`` opens ``namespace fmt { inline namespace v9 {`` in every header but ``core.h``, which
defines it. The project's table (:mod:`lore.languages.cpp._project_macros`) reads them in every C++ file; a macro
defined differently under ``#if`` branches, a macro with a value and a C project are left as they were."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lore.index import index_repo

CORE = ('#pragma once\n#define LIB_BEGIN_NAMESPACE \\\n  namespace lib { \\\n  inline namespace v1 {\n'
        '#define LIB_END_NAMESPACE } }\n#define LIB_VISIBLE __attribute__((visibility("default")))\n')
FILES = {
    "lib/format.h": '#include "core.h"\nLIB_BEGIN_NAMESPACE\nclass LIB_VISIBLE Writer {\npublic:\n  void put(int c);\n};\n'
                    'LIB_VISIBLE int render(int x);\nLIB_END_NAMESPACE\n',
    "lib/format.cc": '#include "format.h"\nLIB_BEGIN_NAMESPACE\nvoid Writer::put(int c) {}\nint render(int x) {\n'
                     '  Writer w;\n  w.put(x);\n  return 0;\n}\nLIB_END_NAMESPACE\n',
    "app/main.cpp": '#include "lib/format.h"\nint main() {\n  return lib::render(1);\n}\n',
}


def _index(root: Path, files: dict[str, str]) -> tuple[set[str], set[tuple[str, str]]]:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    index_repo(root, workers=1)
    with sqlite3.connect(root / ".lore" / "index.db") as conn:
        names = {r[0] for r in conn.execute("SELECT qualified_name FROM symbols")}
        calls = set(conn.execute("SELECT s.qualified_name, t.qualified_name FROM symbol_refs r JOIN symbols s ON "
                                 "s.id = r.caller_id JOIN symbols t ON t.id = r.callee_id").fetchall())
    return names, calls


def test_a_namespace_macro_of_another_header_qualifies_and_binds(tmp_path):
    names, calls = _index(tmp_path, {"lib/core.h": CORE, **FILES})
    assert "lib.format.lib.Writer.put" in names and "lib.format.lib.render" in names
    assert "lib.format.Writer" not in names
    assert ("app.main.main", "lib.format.lib.render") in calls  # lib::render, unbound without the table
    assert ("lib.format.lib.render", "lib.format.lib.Writer.put") in calls


def test_a_changed_macro_reparses_the_files_that_did_not_change(tmp_path):
    _index(tmp_path, {"lib/core.h": CORE, **FILES})
    names, calls = _index(tmp_path, {"lib/core.h": CORE.replace("namespace lib {", "namespace lib2 {")})
    assert "lib.format.lib2.render" in names and "lib.format.lib.render" not in names  # format.h is unchanged
    assert ("app.main.main", "lib.format.lib.render") not in calls


def test_macros_that_disagree_or_are_no_namespace_stay_as_they_were(tmp_path):
    two = CORE.replace("#define LIB_BEGIN_NAMESPACE", "#if __cplusplus >= 201703L\n#define LIB_BEGIN_NAMESPACE namespace lib { namespace v2 {\n"
                       "#else\n#define LIB_BEGIN_NAMESPACE", 1).replace("\n#define LIB_END", "\n#endif\n#define LIB_END", 1)
    names, _ = _index(tmp_path, {"lib/core.h": two, **FILES})
    assert "lib.format.lib.render" not in names and "lib.format.v2.render" not in names
    valued = CORE.replace("#define LIB_END_NAMESPACE } }", "#define LIB_END_NAMESPACE } }\n#define LIB_LEVEL 3")
    names, _ = _index(tmp_path / "b", {"lib/core.h": valued, "lib/level.h": '#include "core.h"\nint LIB_LEVEL;\n'
                                       "int lvl(int LIB_LEVEL);\n", **FILES})
    assert "lib.format.lib.render" in names


def test_a_c_project_is_unaffected(tmp_path):
    names, calls = _index(tmp_path, {
        "core.h": "#define C_BEGIN namespace c {\n#define C_API\n", "api.h": '#include "core.h"\nC_API int f(void);\n',
        "api.c": '#include "api.h"\nint f(void) { return 0; }\nint g(void) { return f(); }\n'})
    assert ("api.g", "api.f") in calls
    with sqlite3.connect(tmp_path / ".lore" / "index.db") as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'cpp_macros'").fetchone() == ("",)


def test_a_branch_the_header_decides_is_read_as_a_default_build_reads_it(tmp_path):
    """toml++: ``TOML_NAMESPACE_START`` has two definitions, under ``#if TOML_ABI_NAMESPACES`` (1 unless
    ``TOML_DOXYGEN``, 0 unless a documentation tool's name is defined) and its ``#else``."""
    core = ("#ifndef LIB_DOXYGEN\n#if defined(DOXYGEN) || defined(__POXY__)\n#define LIB_DOXYGEN 1\n#else\n"
            "#define LIB_DOXYGEN 0\n#endif\n#endif\n#ifndef LIB_ABI\n#if LIB_DOXYGEN\n#define LIB_ABI 0\n#else\n"
            "#define LIB_ABI 1\n#endif\n#endif\n#if LIB_ABI\n#define LIB_BEGIN_NAMESPACE namespace lib { inline namespace v1 {\n"
            "#define LIB_END_NAMESPACE } }\n#else\n#define LIB_BEGIN_NAMESPACE namespace lib {\n#define LIB_END_NAMESPACE }\n"
            "#endif\n")
    names, calls = _index(tmp_path, {"lib/core.h": core, **FILES})
    assert "lib.format.lib.render" in names
    assert ("app.main.main", "lib.format.lib.render") in calls


def test_a_function_pointer_behind_an_export_macro_stays_a_variable(tmp_path):
    """gflags: ``extern GFLAGS_DLL_DECL void (*gflags_exitfunc)(int);``, the macro blanked by the table, is a pointer
    to a function (clangd answers its calls with the variable): no function symbol, calls through it unbound."""
    names, calls = _index(tmp_path, {"lib/core.h": CORE, "lib/util.h": '#include "core.h"\nextern LIB_VISIBLE void (*exit_fn)(int);\n'
                                     "void (*handler(int sig))(int);\n",
                                     "lib/util.cc": '#include "util.h"\nvoid (*exit_fn)(int) = 0;\nvoid quit() { exit_fn(1); }\n'})
    assert "lib.util.exit_fn" not in names and "lib.util.handler" in names
    assert not [c for c in calls if c[0] == "lib.util.quit"]
