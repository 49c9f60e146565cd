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
        from lore.docs.embed import HashingEmbedder

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
        ids, matrix = store.load_vectors(conn, "hashing-v1-384")
        assert matrix.dtype == np.float32 and matrix.shape == (len(ids), 384)
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
