from __future__ import annotations

import numpy as np
import pytest

from lore.docs import add_documents
from lore.docs.ingest import embedding_text
from lore.errors import InvalidArgumentError
from lore.store import docs as store
from lore.store.db import connect


class CountingEmbedder:
    """The hashing embedder, counting the texts it is asked to embed."""

    def __init__(self):
        from lore.text.embed import HashingEmbedder

        self.inner = HashingEmbedder()
        self.model_id, self.dim, self.default_min_score = self.inner.model_id, 384, 0.15
        self.texts: list[str] = []

    def embed(self, texts, *, batch_size=32):
        self.texts.extend(texts)
        return self.inner.embed(texts)


def test_add_stores_documents_chunks_vectors(db):
    conn = connect(db)
    try:
        docs = store.document_paths(conn)
        assert set(docs) == {
            "guide/install.md",
            "guide/configure.md",
            "errors.rst",
            "notes.txt",
            "cooking.md",
        }
        doc = store.get_document(conn, "guide/install.md")
        assert (doc["library"], doc["topic"], doc["tags"], doc["title"]) == (
            "acme",
            "guides",
            "api,http",
            "Install",
        )
        assert doc["source_type"] == "markdown"
        assert store.get_document(conn, "errors.rst")["source_type"] == "rst"
        assert store.vector_models(conn) == [("hashing-v1-384", store.count_chunks(conn))]
        ids, doc_ids, matrix = store.load_vectors(conn, "hashing-v1-384")
        assert matrix.dtype == np.float32 and matrix.shape == (len(ids), 384)
        assert ids.tolist() == sorted(ids.tolist())
        blob = conn.execute("SELECT vector FROM chunk_vectors WHERE chunk_id = ?", (int(ids[0]),)).fetchone()[0]
        assert isinstance(blob, bytes) and len(blob) == 384 * 4  # a float32 BLOB
        assert np.array_equal(np.frombuffer(blob, dtype=np.float32), matrix[0])
        assert doc_ids[0] == store.get_chunk(conn, int(ids[0]))["document_id"]
    finally:
        conn.close()


def test_embedding_text_has_metadata_but_stored_text_is_clean(db):
    conn = connect(db)
    try:
        doc = store.get_document(conn, "guide/configure.md")
        chunk = store.document_chunks(conn, doc["id"])[1]
        assert chunk["content"].startswith("## Timeouts")
        text = embedding_text(chunk)
        assert text.startswith("Configure | acme | guides\nConfigure > Timeouts\n\n## Timeouts")
    finally:
        conn.close()


def test_refresh_embeds_only_changed_chunks(docs_dir):
    path = docs_dir / ".lore" / "index.db"
    first = CountingEmbedder()
    out = add_documents(path, [docs_dir / "guide"], embedder=first)
    assert out["added"] == 2 and out["embedded"] == len(first.texts) == out["chunks"]

    again = CountingEmbedder()
    out = add_documents(path, [docs_dir / "guide"], embedder=again)
    assert (out["unchanged"], out["embedded"], again.texts) == (2, 0, [])

    f = docs_dir / "guide" / "configure.md"
    f.write_text(f.read_text().replace("waits 0.5 s", "waits 0.25 s"))
    edited = CountingEmbedder()
    out = add_documents(path, [docs_dir / "guide"], embedder=edited)
    assert out["updated"] == 1 and out["unchanged"] == 1
    assert out["embedded"] == 1 and "0.25 s" in edited.texts[0]
    assert out["reused"] == out["chunks"] - 1

    # new metadata changes every embedding text of the document: all re-embedded
    meta = CountingEmbedder()
    out = add_documents(path, [docs_dir / "guide" / "configure.md"], library="other", embedder=meta)
    assert out["updated"] == 1 and out["embedded"] == out["chunks"]


def test_two_models_never_mixed(docs_dir):
    path = docs_dir / ".lore" / "index.db"
    add_documents(path, [docs_dir / "cooking.md"], embedder="hashing")

    class Other(CountingEmbedder):
        def __init__(self):
            super().__init__()
            self.model_id = "other-model"

    add_documents(path, [docs_dir / "notes.txt"], embedder=Other())
    conn = connect(path)
    try:
        models = dict(store.vector_models(conn))
        # notes.txt got vectors of the new model; cooking.md keeps its hashing vectors; no row is shared
        assert models["hashing-v1-384"] == 1
        assert models["other-model"] == store.count_chunks(conn)  # the new model embeds every chunk
    finally:
        conn.close()


def test_missing_path_is_an_error(tmp_path):
    with pytest.raises(InvalidArgumentError, match="no such file"):
        add_documents(tmp_path / "i.db", [tmp_path / "nope.md"], embedder="hashing")


def test_files_gone_from_a_directory_are_removed(docs_dir):
    path = docs_dir / ".lore" / "index.db"
    add_documents(path, [docs_dir / "guide", docs_dir / "cooking.md"], embedder="hashing")
    (docs_dir / "guide" / "configure.md").unlink()
    out = add_documents(path, [docs_dir / "guide"], embedder="hashing")
    assert out["removed"] == 1 and out["unchanged"] == 1
    assert {"path": "guide/configure.md", "status": "removed"}.items() <= out["documents"][0].items()
    conn = connect(path)
    try:
        assert set(store.document_paths(conn)) == {"guide/install.md", "cooking.md"}
        for table in ("chunks", "chunks_fts", "chunk_vectors"):
            n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            assert n == store.count_chunks(conn), table
        # install.md linked to configure.md: the link is kept, unresolved, until configure.md returns
        assert conn.execute("SELECT count(*) FROM document_links WHERE target_document_id IS NULL").fetchone()[0] == 1
    finally:
        conn.close()
    # a file given by name that is gone is an error, not a silent removal
    with pytest.raises(InvalidArgumentError, match="no such file"):
        add_documents(path, [docs_dir / "guide" / "configure.md"], embedder="hashing")


def test_open_index_and_repo_root_are_accepted(db, docs_dir):
    import lore
    from lore.docs import get_related, search_docs

    by_path = search_docs(db, "retry backoff", mode="keyword")
    by_root = search_docs(docs_dir, "retry backoff", mode="keyword")
    with lore.open_index(docs_dir, readonly=True) as idx:
        by_index = search_docs(idx, "retry backoff", mode="keyword")
        src = by_index["results"][0]["chunk_id"]
        related = get_related(idx, src)
        assert idx.conn.execute("SELECT 1").fetchone() == (1,)  # the caller's connection stays open
    assert by_path["results"] == by_root["results"] == by_index["results"]
    assert related["results"] == get_related(db, src)["results"]


def test_embedding_in_batches_survives_an_interruption(docs_dir):
    from lore.docs.ingest import embed_missing
    from lore.text.embed import get_embedder

    path = docs_dir / ".lore" / "index.db"

    class FailsOnSecondBatch(CountingEmbedder):
        def embed(self, texts, *, batch_size=32):
            if self.texts:
                raise KeyboardInterrupt
            return super().embed(texts)

    with pytest.raises(KeyboardInterrupt):
        add_documents(path, [docs_dir], embedder=FailsOnSecondBatch(), progress=False, batch_size=3)
    conn = connect(path)
    try:
        total = store.count_chunks(conn)
        assert total > 2
        done = dict(store.vector_models(conn)).get("hashing-v1-384", 0)
        assert done == 3  # the first batch was committed on its own
        batches = []
        resumed = CountingEmbedder()
        n = embed_missing(conn, resumed, batch_size=2, progress=True, on_batch=batches.append)
        assert n == total - done == len(resumed.texts)  # only the rest is embedded
        assert batches == sorted(batches) and batches[-1] == n and len(batches) == -(-n // 2)
        assert embed_missing(conn, get_embedder("hashing")) == 0
    finally:
        conn.close()


def test_refresh_keeps_metadata_ids_of_untouched_sections(docs_dir):
    path = docs_dir / ".lore" / "index.db"
    add_documents(path, [docs_dir / "guide"], library="acme", topic="guides", tags="api", version="2.0",
                  embedder="hashing")  # fmt: skip
    conn = connect(path)
    doc = store.get_document(conn, "guide/configure.md")
    before = {c["breadcrumb"]: c["id"] for c in store.document_chunks(conn, doc["id"])}
    conn.close()
    f = docs_dir / "guide" / "configure.md"
    f.write_text(f.read_text().replace("waits 0.5 s", "waits 0.25 s"))
    counting = CountingEmbedder()
    out = add_documents(path, [docs_dir / "guide"], embedder=counting)  # no metadata given: kept
    assert out["updated"] == 1 and out["embedded"] == 1
    conn = connect(path)
    try:
        doc = store.get_document(conn, "guide/configure.md")
        assert (doc["library"], doc["topic"], doc["tags"], doc["version"]) == ("acme", "guides", "api", "2.0")
        chunks = {c["breadcrumb"]: c["id"] for c in store.document_chunks(conn, doc["id"])}
        # the untouched sections keep their ids (ids from an earlier search stay valid); the edited one is new
        assert chunks["Configure"] == before["Configure"] and chunks["Configure > Timeouts"] == before[
            "Configure > Timeouts"]
        assert chunks["Configure > Retries"] != before["Configure > Retries"]
        assert store.count_chunks(conn) == conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0] == store.count_chunks(conn)
    finally:
        conn.close()
    # new metadata keeps the ids but changes every embedding text: all re-embedded, none stale
    out = add_documents(path, [f], topic="howto", embedder=CountingEmbedder())
    assert out["embedded"] == out["chunks"] == 3 and out["reused"] == 0
    # new chunk sizes re-chunk an unchanged file
    out = add_documents(path, [f], max_chars=100, overlap=10, embedder=CountingEmbedder())
    assert out["updated"] == 1 and out["chunks"] > 3
