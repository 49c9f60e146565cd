"""A refresh of a C project carries the project's ``#define``/``#include`` tally over from the last run.

Every edge after a refresh equals a fresh index's of the same tree, through edits that change what the
project defines (a header's flag removed, another added, a file deleted); the tally saved with the new
state equals one counted from every file; and resolving the one changed file reads no record of a file
it does not look into (the old rules counted every C file's ``#define``\\ s again on every run).
"""

from __future__ import annotations

import shutil
import sqlite3

from lore import index_repo
from lore.index import resolve_pool
from lore.languages.c._macro_tally import MacroTally, carried
from lore.parsers.records import decode
from lore.store import db as store_db

CONFIG = "#ifndef CONFIG_H\n#define CONFIG_H\n#define USE_FAST\n#endif\n"
IMPL = """#include "config.h"
#include "mode.h"
#if MODE == 1
static int pick(void) { return 1; }
#else
static int pick(void) { return 2; }
#endif
#ifdef USE_FAST
static int compute(int x) { return x * 2; }
#else
static int compute(int x) { return x + 1; }
#endif
#ifdef USE_TRACE
static void trace(int x) { (void)x; }
#else
static void trace(int x) { }
#endif
"""
MAIN = '#include "impl.h"\nint run(int x)\n{\n\ttrace(x);\n\treturn compute(x) + pick();\n}\n'
OTHER = '#include "extra.h"\n#define OTHER_LOCAL 1\nint other(void)\n{\n\treturn 0;\n}\n'
EXTRA = "#define EXTRA_ON\n#ifdef EXTRA_ON\n#define USE_TRACE_TOO\n#endif\n"
MODE = "#define MODE 1\n"


def _write(root, files):
    for name, text in files.items():
        (root / name).write_text(text)


def _edges(db) -> list[tuple]:
    """Every edge by the names and places of its ends (ids differ between a refresh and a fresh index)."""
    conn = sqlite3.connect(db)
    try:
        name = "(SELECT qualified_name || '@' || start_line FROM symbols WHERE id = {})"
        refs = conn.execute(f"SELECT {name.format('caller_id')}, {name.format('callee_id')}, callee_name, line, kind, "
                            "resolution, confidence FROM symbol_refs").fetchall()
        types = conn.execute(f"SELECT {name.format('symbol_id')}, {name.format('type_id')}, type_name, kind, "
                             "resolution FROM type_refs").fetchall()
        rels = conn.execute(f"SELECT {name.format('source_id')}, {name.format('target_id')}, target_name, kind "
                            "FROM symbol_relationships").fetchall()
        imports = conn.execute("SELECT (SELECT path FROM files WHERE id = file_id), module, "
                               f"{name.format('target_id')}, resolution FROM file_imports").fetchall()
    finally:
        conn.close()
    return sorted(map(repr, refs)) + sorted(map(repr, types)) + sorted(map(repr, rels)) + sorted(map(repr, imports))


def _fresh(tree, tmp_path, tag):
    copy = tmp_path / f"fresh-{tag}"
    shutil.copytree(tree, copy)
    db = tmp_path / f"fresh-{tag}.db"
    index_repo(copy, db=db)
    return db


def _tally_counted(db) -> MacroTally:
    conn = sqlite3.connect(db)
    try:
        return MacroTally.of(decode(d) for (d,) in conn.execute("SELECT data FROM file_records ORDER BY file_id"))
    finally:
        conn.close()


def _tally_saved(db) -> MacroTally | None:
    conn = sqlite3.connect(db)
    try:
        return carried(conn, store_db.index_stamp(conn), [], [])[0]
    finally:
        conn.close()


def test_refresh_edges_equal_a_fresh_index_through_define_changes(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    _write(tree, {"config.h": CONFIG, "impl.h": IMPL, "main.c": MAIN, "other.c": OTHER, "extra.h": EXTRA, "mode.h": MODE})
    db = tmp_path / "index.db"
    index_repo(tree, db=db)
    assert _edges(db) == _edges(_fresh(tree, tmp_path, "0"))
    steps = [
        {"config.h": CONFIG.replace("USE_FAST", "USE_TRACE")},  # one flag gone from the project, another defined
        {"main.c": MAIN.replace("int run", "#define USE_FAST\nint run")},  # a source's own define: its unit only
        {"config.h": CONFIG},  # and back
        {"extra.h": EXTRA.replace("#define EXTRA_ON\n", "")},  # a conditional define loses its flag
        {"other.c": OTHER + "#define MODE 2\n"},  # a header's value no longer the only one: #if MODE undecided
        {"other.c": OTHER},
    ]
    for k, files in enumerate(steps, 1):
        _write(tree, files)
        report = index_repo(tree, db=db)
        assert report.changed == sorted(files)
        assert _edges(db) == _edges(_fresh(tree, tmp_path, str(k))), f"step {k}: {files}"
    (tree / "other.c").unlink()
    index_repo(tree, db=db)
    assert _edges(db) == _edges(_fresh(tree, tmp_path, "gone"))
    # the binding the flags decide did move: compute() is the #else one only once USE_FAST is gone
    _write(tree, {"config.h": CONFIG.replace("USE_FAST", "USE_TRACE"), "main.c": MAIN})
    index_repo(tree, db=db)
    other = IMPL.splitlines().index("static int compute(int x) { return x + 1; }") + 1  # the #else one
    calls = [e for e in _edges(db) if e.startswith("('main.run@2', 'impl.compute")]
    assert calls and all(f"impl.compute@{other}'" in e for e in calls), calls
    assert _edges(db) == _edges(_fresh(tree, tmp_path, "last"))


def test_saved_tally_equals_one_counted_from_every_file(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    _write(tree, {"config.h": CONFIG, "impl.h": IMPL, "main.c": MAIN, "other.c": OTHER, "extra.h": EXTRA, "mode.h": MODE})
    db = tmp_path / "index.db"
    index_repo(tree, db=db)
    for files in ({"config.h": CONFIG.replace("USE_FAST", "USE_TRACE")}, {"extra.h": EXTRA + "#define MORE 3\n"},
                  {"main.c": MAIN + '#include "config.h"\n'}):
        _write(tree, files)
        index_repo(tree, db=db)
        saved, counted = _tally_saved(db), _tally_counted(db)
        assert saved is not None
        assert set(saved.project_defines()) == set(counted.project_defines())
        assert saved.included() == counted.included()
        assert saved.project_values() == counted.project_values()
        assert saved.static_macros() == counted.static_macros()
        assert sorted(saved.plain.names()) == sorted(counted.plain.names())
        assert (saved.cond, saved.vals, saved.alias, saved.includes) == (counted.cond, counted.vals, counted.alias,
                                                                          counted.includes)


def test_a_one_file_refresh_reads_no_record_it_does_not_resolve_with(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    tree.mkdir()
    _write(tree, {"config.h": CONFIG, "impl.h": IMPL, "main.c": MAIN, "other.c": OTHER, "extra.h": EXTRA, "mode.h": MODE})
    db = tmp_path / "index.db"
    index_repo(tree, db=db)
    loaded: list[int] = []
    real = resolve_pool.RecordLoader.__call__

    def spy(self, file_id):
        loaded.append(file_id)
        return real(self, file_id)

    monkeypatch.setattr(resolve_pool.RecordLoader, "__call__", spy)
    _write(tree, {"main.c": MAIN + "static int probe(int a)\n{\n\treturn a + 1;\n}\n"})
    report = index_repo(tree, db=db)
    assert report.changed == ["main.c"]
    conn = sqlite3.connect(db)
    paths = {fid: p for fid, p in conn.execute("SELECT id, path FROM files")}
    conn.close()
    read = {paths[f] for f in loaded}
    assert "main.c" in read and "impl.h" in read  # the changed file, and the header its calls resolve into
    assert not read & {"other.c", "extra.h"}, read  # a file nothing of main.c reaches: never decoded


def test_a_tally_packed_again_answers_as_before(tmp_path, monkeypatch):
    """Past ``REPACK_AT`` changed names the names are packed again under a new token; the state saved then
    still equals a count from every file (and the older packed names are never read for it)."""
    from lore.languages.c import _macro_tally

    monkeypatch.setattr(_macro_tally, "REPACK_AT", 0)
    tree = tmp_path / "tree"
    tree.mkdir()
    _write(tree, {"config.h": CONFIG, "impl.h": IMPL, "main.c": MAIN, "other.c": OTHER, "extra.h": EXTRA, "mode.h": MODE})
    db = tmp_path / "index.db"
    index_repo(tree, db=db)
    tokens = set()
    for k in range(3):
        _write(tree, {"extra.h": EXTRA + "".join(f"#define NEW_{k}_{i}\n" for i in range(k + 2))})
        index_repo(tree, db=db)
        saved, counted = _tally_saved(db), _tally_counted(db)
        assert saved is not None and not saved.plain.overlay  # packed again at every save
        tokens.add(saved.plain.token)
        assert sorted(saved.plain.names()) == sorted(counted.plain.names())
        assert set(saved.project_defines()) == set(counted.project_defines())
    assert len(tokens) == 3
