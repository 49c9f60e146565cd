"""Star imports (C#'s ``using N;``, Python's ``from m import *``): a name is tried only in the star imports
whose modules may bind it (lore.index._stars), and the answers are those of trying every import."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lore import index_repo
from tests.conftest import write_tree

CSHARP = {
    "src/A/Alpha.cs": """
        namespace A { public static class Alpha { public static void Run() { } } }
    """,
    "src/B/Beta.cs": """
        namespace B { public static class Beta { public static void Run() { } } }
    """,
    "src/B/Gamma.cs": """
        namespace B { public static class Gamma { public static void Go() { } } }
    """,
    "src/App/Main.cs": """
        using A;
        using B;
        namespace App
        {
            class Main
            {
                void Start()
                {
                    Alpha.Run();
                    Beta.Run();
                    Gamma.Go();
                    Missing.Run();
                }
            }
        }
    """,
}

PYTHON = {
    "pkg/__init__.py": "",
    "pkg/base.py": """
        def helper():
            return 1
    """,
    "pkg/mid.py": """
        from pkg.base import *
    """,
    "pkg/use.py": """
        from pkg.mid import *

        def main():
            return helper()
    """,
}


def _world(db: Path):
    from lore.index.resolve import FileRow, SymRow, World
    from lore.index.resolve_pool import RecordLoader
    from lore.languages import get as get_language
    from lore.store import read

    conn = sqlite3.connect(db)
    symbols = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, path, lang, mod, msid, get_language(lang).is_package(path))
             for fid, path, lang, mod, msid in read.file_rows(conn)]
    w = World(symbols, files, RecordLoader({}, conn), read.max_symbol_id(conn) + 1)
    w.solve_flow()
    return w, {f.path: f.id for f in files}


def _callees(db: Path, caller: str) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT COALESCE(b.qualified_name, r.callee_name), r.resolution FROM symbol_refs r JOIN symbols a "
            "ON a.id = r.caller_id LEFT JOIN symbols b ON b.id = r.callee_id WHERE a.qualified_name = ? "
            "ORDER BY r.line", (caller,)).fetchall()
    finally:
        conn.close()


def test_a_name_is_tried_only_in_the_using_namespaces_that_declare_it(tmp_path):
    from lore.index._stars import star_candidates

    root = write_tree(tmp_path / "repo", CSHARP)
    index_repo(root, db=tmp_path / "i.db", workers=1)
    w, fids = _world(tmp_path / "i.db")
    c = w.ctx(fids["src/App/Main.cs"])
    scope = next(i for i, s in enumerate(c.pf.symbols) if c.stars[i])
    index = star_candidates(w, c, scope)
    assert index is not None
    assert [ib.module for ib in index["Alpha"]] == ["A"]
    assert [ib.module for ib in index["Beta"]] == ["B"] == [ib.module for ib in index["Gamma"]]
    assert "Missing" not in index and "Run" not in index
    # the calls resolve through the one namespace that has the name (``import``), as when every using was
    # tried; ``Missing.Run()`` names no type of either: a name-only guess among the ``Run`` methods
    assert _callees(tmp_path / "i.db", "App.Main.Start") == [
        ("A.Alpha.Run", "import"), ("B.Beta.Run", "import"), ("B.Gamma.Go", "import"),
        ("A.Alpha.Run", "ambiguous_name"), ("B.Beta.Run", "ambiguous_name")]

def test_a_module_that_re_exports_its_star_imports_may_bind_any_name(tmp_path):
    from lore.index._stars import star_candidates

    root = write_tree(tmp_path / "repo", PYTHON)
    index_repo(root, db=tmp_path / "i.db", workers=1)
    w, fids = _world(tmp_path / "i.db")
    c = w.ctx(fids["pkg/use.py"])
    assert star_candidates(w, c, 0) is None  # Python's imports are re-exported: no bound on the names
    assert _callees(tmp_path / "i.db", "pkg.use.main") == [("pkg.base.helper", "import")]
