"""Start-up: what a command imports before it answers (modules checked in sys.modules, never timed).

Each check runs in a fresh interpreter, since this test process has long since imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# what ``import lore.cli`` must not load: the parser and the table printer load in main(), the rest
# where a command uses them
HEAVY = ("typer", "rich", "numpy", "scipy", "mcp", "mcp_types", "pydantic", "tree_sitter", "pathspec")


def loaded_after(code: str, *, cwd: Path | None = None) -> set[str]:
    """Module names in ``sys.modules`` after running ``code`` in a fresh interpreter (SystemExit caught)."""
    script = textwrap.dedent("""
        import json, sys
        try:
        {body}
        except SystemExit:
            pass
        sys.__stdout__.write("\\n" + json.dumps(sorted(sys.modules)))
    """).format(body=textwrap.indent(textwrap.dedent(code), "    "))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=cwd)
    assert res.returncode == 0, res.stderr
    return set(json.loads(res.stdout.rstrip().rsplit("\n", 1)[-1]))


def tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_import_lore_cli_loads_no_heavy_dependency():
    mods = loaded_after("import lore.cli")
    assert not tops(mods) & set(HEAVY), sorted(tops(mods) & set(HEAVY))
    assert not {m for m in mods if m.startswith("lore.cli.")}, "no command module before main() picks one"


def test_import_lore_loads_neither_the_indexer_nor_numpy():
    mods = loaded_after("import lore")
    assert "numpy" not in mods and "lore.index" not in mods and "lore.queries.symbols" not in mods


def test_graph_related_loads_only_its_command_group(sample_repo, sample_index):
    mods = loaded_after(f"""
        sys.argv = ["lore", "graph", "related", "shop.orders.Order.amount", "--db", {str(sample_repo)!r}]
        from lore.cli import main
        main()
    """)
    assert "lore.cli.graph" in mods and "lore.graphs" in mods  # it did answer
    others = {f"lore.cli.{m}" for m in ("bench", "docs", "index", "serve", "search", "config", "export", "view")}
    assert not mods & others, sorted(mods & others)
    for name in ("rich", "mcp", "lore.index", "lore.index.walk", "lore.mcp_server", "scipy.sparse.csgraph"):
        assert name not in mods, name


@pytest.mark.parametrize("algorithm", ["hybrid", "overlap", "fusion"])
def test_related_from_a_saved_state_never_imports_scipy_sparse(sample_repo, sample_index, algorithm):
    """With the graph and the hybrid features saved by an earlier run, a cold ``related`` ranks from the
    memory-mapped arrays alone: importing scipy.sparse would cost more than the whole answer."""
    argv = ["lore", "graph", "related", "shop.orders.Order.amount", "-a", algorithm, "--json",
            "--db", str(sample_repo)]
    code = f"""
        import sys
        sys.argv = {argv!r}
        from lore.cli import main
        main()
    """
    first = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr  # builds and saves what was missing (graph, features)
    mods = loaded_after(code)
    assert "lore.graphs" in mods  # it did answer
    assert not {m for m in mods if m == "scipy" or m.startswith("scipy.")}, sorted(m for m in mods if "scipy" in m)
    again = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert again.stdout == first.stdout and json.loads(again.stdout)["results"]


def test_an_up_to_date_index_refresh_loads_neither_numpy_nor_scipy(tmp_path):
    """``lore index`` on an unchanged tree (the commonest run: a hook, an editor, the MCP reindex tool) walks,
    hashes and stops; the history miner's and the Parquet store's numpy loads where they work (12 MB and a
    tenth of a second of start-up, once per run)."""
    (tmp_path / "m.py").write_text("def f():\n    g()\n\n\ndef g():\n    pass\n")
    code = f"""
        sys.argv = ["lore", "index", {str(tmp_path)!r}, "--history", "off"]
        from lore.cli import main
        main()
    """
    first = loaded_after(code)
    assert "lore.index.indexer" in first and "numpy" in first  # it indexed, and stored the clusters
    again = loaded_after(code)
    assert "lore.index.pipeline" in again  # it did look
    assert not {m for m in again if m.split(".")[0] in ("numpy", "scipy")}, sorted(m for m in again if "numpy" in m)


def test_a_fresh_index_loads_no_scipy_linear_algebra(sample_repo):
    """The clusters step folds small clusters with numpy alone: scipy.sparse.csgraph would bring
    scipy.sparse.linalg and scipy.linalg (11 MB, 0.05 s) into every fresh ``lore index``."""
    root = sample_repo
    mods = loaded_after(f"""
        sys.argv = ["lore", "index", {str(root)!r}, "--history", "off"]
        from lore.cli import main
        main()
        from lore import open_index
        assert open_index({str(root)!r}).clusters()[0], "the step stored clusters"
    """)
    assert "lore.algorithms.clusters" in mods  # the clusters step ran
    assert not {"scipy.sparse.csgraph", "scipy.sparse.linalg", "scipy.linalg"} & mods


def test_serve_and_tools_do_not_load_the_query_layer():
    mods = loaded_after("""
        sys.argv = ["lore", "tools"]
        from lore.cli import main
        main()
    """)
    assert "lore.cli.serve" in mods
    assert not {"numpy", "scipy", "mcp", "lore.graphs", "lore.index"} & mods


@pytest.mark.parametrize("argv", [["--help"], ["grpah"], ["--version"]])
def test_anything_else_gets_the_whole_app(argv):
    res = subprocess.run([sys.executable, "-m", "lore", *argv], capture_output=True, text=True, timeout=120)
    if argv == ["--help"]:
        assert res.returncode == 0
        for name in ("graph", "index", "docs", "serve", "search", "bench", "config", "export", "view", "completion"):
            assert f" {name} " in res.stdout, name
    elif argv == ["grpah"]:
        assert res.returncode == 2 and "No such command 'grpah'" in res.stderr
    else:
        assert res.returncode == 0 and res.stdout.startswith("lore ")


def test_lore_cli_app_is_the_whole_app():
    import lore.cli
    from lore.cli import GROUPS

    names = {c.name for c in lore.cli.app.registered_commands} | {g.name for g in lore.cli.app.registered_groups}
    assert names == {n for group in GROUPS.values() for n in group}
