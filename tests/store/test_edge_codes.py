"""Edge kinds and resolutions are stored as small integer codes and read back as the text they were
written as (schema 7, issue 33: about 80 MB of the kernel's index was these words repeated)."""

from __future__ import annotations

import sqlite3

from lore.store import db as store_db
from lore.store import read, write
from lore.store.schema import RESOLUTIONS


def test_kinds_and_resolutions_round_trip_as_codes(tmp_path):
    conn = store_db.connect(tmp_path / "i.db", create=True)
    refs = [(1, 2, "f", 3, 4, "call", "import", 1.0), (1, None, "g", 5, 0, "decorator", "unresolved", 0.0),
            (1, 7, "h", 6, 1, "a kind of tomorrow", "a rule of tomorrow", 0.25)]
    types = [(1, 2, "T", "param", "x", 3, "annotated_type", 0.9), (1, None, "U", "generic", "", 4, "unresolved", 0.0)]
    imports = [(1, 1, "os", "path", None, 0, 1, None, 9, "external", 1.0)]
    rels = [(1, 2, "m.C", "contains", 1, "local_scope", 1.0), (2, 3, "B", "extends", 2, "module_global", 1.0)]
    write.insert_edges(conn, refs, types, imports, rels)
    conn.commit()
    cols = read.EDGE_COLUMNS
    assert conn.execute(f"SELECT {cols['symbol_refs']} FROM symbol_refs ORDER BY rowid").fetchall() == refs
    assert conn.execute(f"SELECT {cols['type_refs']} FROM type_refs ORDER BY rowid").fetchall() == types
    assert conn.execute(f"SELECT {cols['file_imports']} FROM file_imports ORDER BY rowid").fetchall() == imports
    assert conn.execute(f"SELECT {cols['symbol_relationships']} FROM symbol_relationships ORDER BY rowid").fetchall() == rels
    # known words are stored as their code, anything else as its own text
    assert conn.execute("SELECT typeof(kind_code), typeof(res_code) FROM symbol_refs ORDER BY rowid").fetchall() == [
        ("integer", "integer"), ("integer", "integer"), ("text", "text")]
    assert conn.execute("SELECT res_code FROM symbol_refs WHERE rowid = 1").fetchone() == (RESOLUTIONS.index("import"),)
    # the readers filter and group by the text as before
    assert conn.execute("SELECT count(*) FROM symbol_refs WHERE kind IN ('call', 'new')").fetchone() == (1,)
    assert read.stats(conn)["edges"]["symbol_refs"]["by_resolution"] == {
        "a rule of tomorrow": 1, "import": 1, "unresolved": 1}
    # the API's rows name the columns as before, without the codes
    assert [list(r) for r in read.edge_rows(conn, "symbol_refs")][0] == [
        "caller_id", "callee_id", "callee_name", "line", "col", "kind", "resolution", "confidence"]
    conn.close()


def test_codes_cost_less_than_the_words(tmp_path):
    """The point of the codes: a row of symbol_refs is smaller than with the words (one byte per code)."""
    conn = store_db.connect(tmp_path / "i.db", create=True)
    rows = [(i, i + 1, "kfree", i, 0, "call", "global_linkage", 0.9) for i in range(2000)]
    write.insert_edges(conn, rows, [], [], [])
    conn.commit()
    got = conn.execute("SELECT sum(length(kind_code) + length(res_code)) FROM symbol_refs").fetchone()[0]
    assert got <= 2 * 2 * len(rows) < len(rows) * len("callglobal_linkage")
    conn.close()
    assert sqlite3.sqlite_version_info >= (3, 31)  # generated columns


def test_the_stored_codes_do_not_follow_the_strength_order():
    # RESOLUTIONS may gain a rule anywhere (it is ordered by strength); the codes already written may not move
    from lore.store import schema

    assert schema.STORED_RESOLUTIONS[:20] == (
        "local_scope", "import", "self_method", "annotated_type", "constructor_type", "module_global",
        "global_linkage", "fixture_flow", "decorator_flow", "return_flow", "attribute_flow", "container_flow",
        "argument_flow", "same_file_name", "unique_name", "ambiguous_name", "name_only", "external", "builtin",
        "unresolved")
    assert set(schema.RESOLUTIONS) <= set(schema.STORED_RESOLUTIONS)  # a new rule is appended to both
    assert all(schema.RESOLUTION_CODES[r] == i for i, r in enumerate(schema.STORED_RESOLUTIONS))
