"""A refresh after the project's build configuration changed (``compile_commands.json``, a header the build
generates, ``tsconfig.json``'s ``paths``) answers as a fresh index of the same tree, without ``--rebuild``
(:mod:`lore.index._project`): no source file changed, yet every file of the language is resolved again."""

from __future__ import annotations

import json

from lore.api import open_index
from lore.index import index_repo

CONF = ("#ifdef USE_FAST\nstatic inline int pick(void) { return 1; }\n#else\n"
        "static inline int pick(void) { return 2; }\n#endif\n")
TABLES = ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _db(root, entries: dict[str, str]) -> None:
    folder = root / "build"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "compile_commands.json").write_text(json.dumps([
        {"directory": str(folder), "file": str(root / f), "command": f"cc {flags} -c {root / f}"}
        for f, flags in entries.items()]))


def edges(db) -> dict[str, list[tuple]]:
    """Every edge of the index ``db``, ids turned into paths and qualified names with their line (two
    definitions of one name in the branches of an ``#if`` differ by their line only)."""
    with open_index(db, readonly=True) as idx:
        names = {i: f"{q}@{line}" for i, q, line in idx.conn.execute("select id, qualified_name, start_line from symbols")}
        paths = dict(idx.conn.execute("select id, path from files"))
        out = {}
        for table in TABLES:
            rows = []
            for e in idx.edges(table):
                rows.append(tuple(sorted((k, (paths if "file" in k else names).get(v, v) if k.endswith("_id") else v)
                                         for k, v in e.items())))
            out[table] = sorted(rows, key=repr)
        return out


def _refreshed_and_fresh(tmp_path, change) -> tuple[dict, dict]:
    root = tmp_path / "r"
    index_repo(root, workers=1)
    change(root)
    report = index_repo(root, workers=1)  # a refresh: no --rebuild
    assert not report.full
    index_repo(root, db=tmp_path / "fresh.db", workers=1)  # the same tree (the database names its paths)
    return edges(root / ".lore" / "index.db"), edges(tmp_path / "fresh.db")


def _c_tree(tmp_path):
    root = tmp_path / "r"
    _write(root, {"conf.h": CONF, "a.c": '#include "conf.h"\nint fa(void) { return pick(); }\n',
                  "b.c": '#include "conf.h"\nint fb(void) { return pick(); }\n'})
    return root


def _picks(got) -> set:
    return {dict(r)["callee_id"] for r in got["symbol_refs"] if dict(r)["callee_name"] == "pick"}


def test_a_changed_define_in_compile_commands_reresolves_without_rebuild(tmp_path):
    _db(_c_tree(tmp_path), {"a.c": "-DUSE_FAST", "b.c": "-DUSE_FAST"})
    got, want = _refreshed_and_fresh(tmp_path, lambda root: _db(root, {"a.c": "", "b.c": ""}))
    assert got == want
    assert _picks(got) == {"conf.pick@4"}  # both calls now bind the #else pick (the old code kept the #ifdef one)


def _generated_tree(tmp_path):
    root = _c_tree(tmp_path)
    (root / ".gitignore").write_text("build/\n")
    _db(root, {"a.c": f"-I{root / 'build'}", "b.c": f"-I{root / 'build'}"})
    for rel in ("a.c", "b.c"):
        (root / rel).write_text((root / rel).read_text().replace('#include "conf.h"', '#include "config.h"\n'
                                                                 '#include "conf.h"'))
    return root


def test_a_changed_generated_header_reresolves_without_rebuild(tmp_path):
    (_generated_tree(tmp_path) / "build" / "config.h").write_text("#define USE_FAST 1\n")
    got, want = _refreshed_and_fresh(tmp_path, lambda r: (r / "build" / "config.h").write_text("#define USE_SLOW 1\n"))
    assert got == want
    assert _picks(got) == {"conf.pick@4"}


def test_a_generated_header_the_build_writes_later_reresolves_without_rebuild(tmp_path):
    _generated_tree(tmp_path)  # config.h is not there yet: the #else pick
    got, want = _refreshed_and_fresh(tmp_path, lambda r: (r / "build" / "config.h").write_text("#define USE_FAST 1\n"))
    assert got == want
    assert _picks(got) == {"conf.pick@2"}


TS = {
    "tsconfig.json": '{"compilerOptions": {"paths": {"@demo/core": ["./packages/one/src"]}}}\n',
    "packages/one/src/index.ts": "export function route(p: string) { return p; }\n",
    "packages/two/src/index.ts": "\nexport function route(p: string) { return p + '!'; }\n",
    "apps/web/main.ts": "import { route } from '@demo/core';\nexport function main() {\n  route('/x');\n}\n",
}


def test_changed_tsconfig_paths_reresolve_without_rebuild(tmp_path):
    _write(tmp_path / "r", TS)

    def change(root):
        (root / "tsconfig.json").write_text('{"compilerOptions": {"paths": {"@demo/core": ["./packages/two/src"]}}}\n')

    got, want = _refreshed_and_fresh(tmp_path, change)
    assert got == want
    assert "packages.two.src.index.route@2" in {dict(r)["callee_id"] for r in got["symbol_refs"]}


def test_an_unchanged_configuration_resolves_nothing_again(tmp_path):
    # must stay: a refresh that changes one TS file resolves what it did before, not every TS file
    root = tmp_path / "r"
    _write(root, TS)
    index_repo(root, workers=1)
    (root / "packages/two/src/index.ts").write_text("export function route(p: string) { return p + '?'; }\n")
    report = index_repo(root, workers=1)
    assert report.reresolved_files < 4
    assert index_repo(root, workers=1).reresolved_files == 0  # nothing changed: nothing resolved
