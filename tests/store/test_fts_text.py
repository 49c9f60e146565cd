"""The search tables keep no second copy of the text (issue 33), and a refresh still removes a changed
row's old terms exactly: the refreshed index's terms equal a fresh index's."""

from __future__ import annotations

import os
import sqlite3

from lore import index_repo, open_index
from lore.store import _fts_text
from lore.store.schema import SCHEMA_VERSION


def _vocab(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        out = []
        for table in ("symbols_fts", "files_fts"):
            conn.execute(f"CREATE VIRTUAL TABLE temp.v_{table} USING fts5vocab(main, {table}, instance)")
            # rows by term, column and position (ids differ: a refresh keeps a changed file's ids)
            out.append(sorted(conn.execute(f"SELECT term, col, offset FROM temp.v_{table}")))
        return out
    finally:
        conn.close()


def _hits(root, query: str) -> list[str]:
    with open_index(root) as idx:
        return [r["qualified_name"] for r in idx.search(query)["results"]]


def _write(path, text: str) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))


def test_search_tables_keep_no_text_and_a_refresh_removes_old_terms(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "zoo.py").write_text('def feed_animals():\n    return "walrus pellets"\n\n\ndef other():\n    return 1\n')
    (root / "keep.py").write_text("def keeper():\n    return 'penguin'\n")
    index_repo(root, workers=1)
    db = root / ".lore" / "index.db"
    conn = sqlite3.connect(db)
    # contentless: the text is not stored in the FTS tables (the old schema stored it twice)
    tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "symbols_fts_content" not in tables and "files_fts_content" not in tables
    assert conn.execute("SELECT body FROM symbols_fts").fetchall()[0] == (None,)
    conn.close()
    assert "zoo.feed_animals" in _hits(root, "walrus")

    _write(root / "zoo.py", 'def feed_animals():\n    return "narwhal pellets"\n\n\ndef other():\n    return 1\n')
    index_repo(root, workers=1)
    assert "zoo.feed_animals" not in _hits(root, "walrus")
    assert "zoo.feed_animals" in _hits(root, "narwhal")
    (root / "keep.py").unlink()
    index_repo(root, workers=1)
    assert _hits(root, "penguin") == []

    fresh = tmp_path / "fresh.db"
    index_repo(root, db=fresh, workers=1)
    # every term, column and position of the refreshed index equals a fresh index of the same tree
    assert _vocab(db) == _vocab(fresh)
    conn = sqlite3.connect(db)
    texts = [_fts_text.unpack(d)[0] for (d,) in conn.execute("SELECT data FROM fts_text")]
    assert [t[0] for t in texts if t] == ["zoo py"]  # the deleted file's text is gone with it
    conn.close()


def test_stored_text_round_trips_and_the_old_schema_is_rebuilt(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def f():\n    '''Doc \\x00 with a nul.'''\n    return g()\n\ndef g():\n    return 1\n")
    db = tmp_path / "i.db"
    index_repo(root, db=db, workers=1)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")  # one stored text row per symbol
    conn.commit()
    conn.close()
    again = index_repo(root, db=db, workers=1)
    assert again.full
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    rows = list(_fts_text.file_rows(conn, "symbols_fts"))
    ids = [i for (i,) in conn.execute("SELECT id FROM symbols WHERE file_id IS NOT NULL ORDER BY id")]
    assert [r[0] for r in rows] == ids and all(len(r) == 8 for r in rows)
    conn.close()


def test_symbol_text_is_one_row_per_file_and_records_are_compact(tmp_path):
    """Schema 7: a file's symbol rows are stored together, its record's symbol ids as runs and its names
    compressed; every reader gets back what was written, also after a refresh renumbers some symbols."""
    from array import array

    from lore.index._parse import ref_names
    from lore.parsers.records import decode
    from lore.store import read

    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def one():\n    '''First zebra.'''\n    return two()\n\n\ndef two():\n    return 2\n")
    (root / "b.py").write_text("from a import one\n\n\nclass K:\n    def m(self):\n        return one()\n")
    index_repo(root, workers=1)
    db = root / ".lore" / "index.db"

    def check() -> None:
        conn = sqlite3.connect(db)
        files = [f for (f,) in conn.execute("SELECT id FROM files ORDER BY id")]
        assert [f for (f,) in conn.execute("SELECT file_id FROM fts_text ORDER BY file_id")] == files
        for fid in files:
            data, ids = read.record_blob(conn, fid)
            pf = decode(data)
            syms = conn.execute("SELECT id, qualified_name FROM symbols WHERE file_id = ?", (fid,)).fetchall()
            assert sorted(zip(array("q", ids).tolist(), (s.qualified_name for s in pf.symbols), strict=True)) == sorted(syms)
            assert dict(read.ref_names(conn))[fid] == ref_names(pf)
            stored = [r[0] for r in _fts_text.file_rows(conn, "symbols_fts", [fid])]
            assert stored == sorted(i for i, _ in syms)
        conn.close()

    check()
    conn = sqlite3.connect(db)
    runs = [len(b) for (b,) in conn.execute("SELECT local_ids FROM file_records")]
    assert runs == [16, 16]  # a fresh index numbers each file's symbols in one run
    conn.close()
    # a refresh keeps one() and two()'s ids and numbers the new three() after the last id: two runs
    _write(root / "a.py", "def one():\n    return two()\n\n\ndef three():\n    return 3\n\n\ndef two():\n    return 2\n")
    index_repo(root, workers=1)
    check()
    assert "a.one" not in _hits(root, "zebra")


def test_replacing_a_symbols_text_keeps_the_other_rows_of_its_file(tmp_path):
    """The benchmarks' helpers rewrite single rows of a file's stored text (a contentless row is deleted and
    inserted again): the other rows of the file stay searchable and the replaced text is gone."""
    from lore.store import search

    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def one():\n    '''Walrus docs.'''\n    return 1\n\n\ndef two():\n    '''Narwhal docs.'''\n")
    index_repo(root, workers=1)
    conn = sqlite3.connect(root / ".lore" / "index.db")
    (sid,) = conn.execute("SELECT id FROM symbols WHERE qualified_name = 'a.one'").fetchone()
    search.blank_docstrings(conn, [sid])
    conn.commit()
    assert search.symbol_index_texts(conn, sid)[0][3] == ""
    hits = {r for (r,) in conn.execute("SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'docstring : walrus'")}
    assert hits == set()  # (the body, the source lines, still holds the word)
    assert conn.execute("SELECT count(*) FROM symbols_fts WHERE symbols_fts MATCH 'docstring : narwhal'").fetchone()[0] == 1
    assert len(list(_fts_text.file_rows(conn, "symbols_fts"))) == 3  # the module row and both functions
    conn.close()


def test_a_files_two_texts_are_one_row_and_either_part_goes_alone(tmp_path):
    """Schema 9: a file's own search text and its symbols' text are one stored row; deleting one part (a
    refresh replaces a file's symbols and its file row one after the other) keeps the other readable and
    its terms searchable, and the row goes with its last part."""
    from lore.store import write

    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def walrus():\n    '''Tusks.'''\n    return 1\n")
    index_repo(root, workers=1)
    conn = sqlite3.connect(root / ".lore" / "index.db")
    (fid,) = conn.execute("SELECT id FROM files").fetchone()
    before = _vocab(root / ".lore" / "index.db")
    cols, rows = _fts_text.unpack(conn.execute("SELECT data FROM fts_text WHERE file_id = ?", (fid,)).fetchone()[0])
    assert cols[0] == "a py" and [r[1] for r in rows] == ["a", "walrus"]

    def count(table: str, query: str) -> int:
        return conn.execute(f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", (query,)).fetchone()[0]

    write.delete_file_fts(conn, fid)
    assert count("files_fts", "tusks") == 0 and count("symbols_fts", "tusks") == 1
    assert list(_fts_text.file_rows(conn, "files_fts")) == [] and list(_fts_text.file_rows(conn, "symbols_fts")) == rows
    _fts_text.insert_files(conn, [(fid, *cols)])  # the file's row again: the stored row holds both parts once more
    conn.commit()
    assert _vocab(root / ".lore" / "index.db") == before
    assert _fts_text.unpack(conn.execute("SELECT data FROM fts_text").fetchone()[0]) == (cols, rows)
    write.delete_symbols_of_file(conn, fid)
    assert count("symbols_fts", "walrus") == 0 and count("files_fts", "walrus") == 1
    write.delete_file_fts(conn, fid)
    assert conn.execute("SELECT count(*) FROM fts_text").fetchone()[0] == 0
    assert count("files_fts", "walrus") == 0
    conn.close()
