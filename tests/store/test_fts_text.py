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
    texts = [_fts_text.unpack(d) for (d,) in conn.execute("SELECT data FROM files_fts_text")]
    assert [t[0] for t in texts] == ["zoo py"]  # the deleted file's text is gone with it
    conn.close()


def test_stored_text_round_trips_and_the_old_schema_is_rebuilt(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def f():\n    '''Doc \\x00 with a nul.'''\n    return g()\n\ndef g():\n    return 1\n")
    db = tmp_path / "i.db"
    index_repo(root, db=db, workers=1)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")  # the schema that stored text twice
    conn.commit()
    conn.close()
    again = index_repo(root, db=db, workers=1)
    assert again.full
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    rows = list(_fts_text.rows(conn, "symbols_fts"))
    ids = [i for (i,) in conn.execute("SELECT id FROM symbols WHERE file_id IS NOT NULL ORDER BY id")]
    assert [r[0] for r in rows] == ids and all(len(r) == 8 for r in rows)
    conn.close()
