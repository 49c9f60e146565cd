"""The C macro tally is counted from the records a world holds decoded, without building every file's
context (issue 33: each resolving process counted it, and built every C file's scope tables to do so)."""

from __future__ import annotations

import sqlite3
from array import array

from lore.api import index_repo
from lore.index.resolve import FileRow, SymRow, World
from lore.index.resolve_pool import RecordLoader
from lore.languages.c._build import tally_of
from lore.languages.c._macro_tally import MacroTally
from lore.parsers.records import decode
from lore.store import read


def _world(db, decoded: bool) -> World:
    conn = sqlite3.connect(db)
    symbols = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, path, lang, mod, msid, False) for fid, path, lang, mod, msid in read.file_rows(conn)]
    fresh = {}
    for f in files:
        blob, raw = read.record_blob(conn, f.id)
        ids = array("q")
        ids.frombytes(raw)
        fresh[f.id] = (decode(blob) if decoded else blob, ids.tolist())
    return World(symbols, files, RecordLoader(fresh, conn), read.max_symbol_id(conn) + 1)


def test_tally_reads_held_records_without_contexts(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.h").write_text("#define FLAG 1\n#define TWICE(x) ((x) * 2)\nint a(void);\n")
    (root / "b.h").write_text('#include "a.h"\n#ifdef FLAG\n#define MORE 2\n#endif\n')
    (root / "a.c").write_text('#include "b.h"\nint a(void) { return TWICE(MORE); }\n')
    db = tmp_path / "i.db"
    index_repo(root, db=db, history="off")

    held = _world(db, decoded=True)
    t = tally_of(held)
    assert held._ctx == {}  # no context built for the count
    assert held.work_seen.keys() == held.files.keys()  # counted as contexts count them: chunks are cut the same

    kept = _world(db, decoded=False)  # records kept compressed (a memory budget): read through contexts
    u = tally_of(kept)
    assert kept._ctx.keys() == kept.files.keys()
    by_ctx = MacroTally.of(kept.ctx(fid).pf for fid in sorted(kept.files))
    for x in (t, u):
        assert x.plain.token == by_ctx.plain.token
        assert (x.includes, x.vals, x.cond) == (by_ctx.includes, by_ctx.vals, by_ctx.cond)
        assert sorted(x.plain.names()) == ["FLAG", "TWICE"]  # MORE is defined under #ifdef FLAG: a conditional entry
