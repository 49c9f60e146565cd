from __future__ import annotations

import sqlite3

from lore.docs import add_documents, chunks_mentioning, refresh_mentions
from lore.docs.links import SymbolMatcher, extract_links
from lore.store import docs as store
from lore.store.db import connect


def test_extract_links_kinds():
    text = (
        "[a](b.md) ![img](x.png) [web](https://x.org/a.md) [top](#here) :doc:`guide/configure` "
        ":doc:`Label <other>` `ext <page.rst>`_ :ref:`Retry-Policy`"
    )
    assert [(k, t) for k, t, _ in extract_links(text)] == [
        ("path", "b.md"),
        ("path", "guide/configure"),
        ("path", "other"),
        ("path", "page.rst"),
        ("ref", "retry-policy"),
    ]


def test_links_resolved_between_documents(db):
    conn = connect(db)
    try:
        docs = store.document_paths(conn)
        linked = store.linked_documents(conn, docs["errors.rst"])
        assert linked == {docs["guide/configure.md"]: "out"}
        assert store.linked_documents(conn, docs["guide/install.md"]) == {docs["guide/configure.md"]: "both"}
        rows = conn.execute(
            "SELECT href, target_chunk_id IS NOT NULL FROM document_links WHERE source_document_id = ?",
            (docs["guide/install.md"],),
        ).fetchall()
        assert rows == [("configure.md#timeouts", 1)]  # the anchor names a section
    finally:
        conn.close()


def test_link_to_a_document_added_later_resolves(docs_dir):
    path = docs_dir / ".lore" / "index.db"
    add_documents(path, [docs_dir / "guide" / "install.md"], embedder="hashing")
    conn = connect(path)
    assert store.unresolved_link_documents(conn) != []
    conn.close()
    add_documents(path, [docs_dir / "guide" / "configure.md"], embedder="hashing")
    conn = connect(path)
    try:
        assert store.unresolved_link_documents(conn) == []
    finally:
        conn.close()


def test_symbol_matcher():
    m = SymbolMatcher(
        [
            (1, "retry", "acme.client.Client.retry"),
            (2, "retry", "other.retry"),
            (3, "Client", "acme.client.Client"),
        ]
    )
    found = m.find("Use `acme.client.Client.retry` or Client.retry; `retry` is ambiguous; `Client` is not.")
    assert found == {
        ("acme.client.Client.retry", "acme.client.Client.retry"),
        ("acme.client.Client.retry", "Client.retry"),
        ("acme.client.Client", "Client"),
    }


def _add_symbols(path):
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO files(id, path, language, module, hash, size, mtime_ns, generation) "
        "VALUES (1, 'acme/client.py', 'python', 'acme.client', 'h', 1, 1, 1)"
    )
    conn.executemany(
        "INSERT INTO symbols(file_id, name, qualified_name, kind) VALUES (?, ?, ?, ?)",
        [(1, "retry", "acme.client.Client.retry", "method"), (1, "Client", "acme.client.Client", "class"),
         (None, "get", "requests.get", "external")],
    )  # fmt: skip
    conn.commit()
    conn.close()


def test_mentions_recorded_and_listed(docs_dir):
    path = docs_dir / ".lore" / "index.db"
    connect(path, create=True).close()
    _add_symbols(path)
    add_documents(path, [docs_dir / "guide"], embedder="hashing")
    conn = connect(path)
    try:
        hits = chunks_mentioning(conn, ["acme.client.Client.retry"])
        assert [h["breadcrumb"] for h in hits] == ["Configure > Retries"]
        assert hits[0]["mentions"] == [
            {"qualified_name": "acme.client.Client.retry", "mention": "acme.client.Client.retry"}
        ]
        assert chunks_mentioning(conn, ["requests.get", "nope"]) == []
        assert refresh_mentions(conn) == 0  # the same symbol names: nothing to recompute
        assert len(chunks_mentioning(conn, ["acme.client.Client.retry"])) == 1
        conn.execute("UPDATE symbols SET qualified_name = 'acme.client.Client.retry_later', name = 'retry_later' "
                     "WHERE qualified_name = 'acme.client.Client.retry'")
        refresh_mentions(conn)  # new names: every chunk is matched again
        conn.commit()
        assert chunks_mentioning(conn, ["acme.client.Client.retry"]) == []  # no mention of a symbol that is gone
    finally:
        conn.close()
