"""Documents keep their own generation: a docs-only write never invalidates what is derived from the code
(the graph cache, the hybrid features, the stored clusters), and a docs refresh rewrites only the
changed document's rows."""

from __future__ import annotations

from pathlib import Path

import pytest

import lore
from lore.docs import add_documents
from lore.store import docs as store
from lore.store.db import connect, generation, index_stamp
from lore.text.embed import minilm_available

MODULES = {
    "shop/__init__.py": "",
    "shop/orders.py": (
        "from shop.pay import charge\n\n\nclass Order:\n    def total(self):\n        return charge(self)\n\n"
        "    def refund(self):\n        return charge(self)\n"
    ),
    "shop/pay.py": "def charge(order):\n    return order\n\n\ndef refund_all(orders):\n    return [charge(o) for o in orders]\n",
}
GUIDE = "# Guide\n\nSee [payments](pay.md) and `Order.total`.\n\n## Refunds\n\nCall shop.orders.Order.refund.\n"
PAY = "# Payments\n\nCharging goes through `shop.pay.charge`.\n\n## Retries\n\nRetry a charge at most three times.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel, text in MODULES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text(GUIDE)
    (root / "docs" / "pay.md").write_text(PAY)
    lore.index_repo(root, workers=1)
    return root


def _state(db: Path) -> tuple[str, int, int, list[tuple]]:
    conn = connect(db)
    try:
        runs = conn.execute("SELECT key, generation, created_at FROM cluster_runs ORDER BY key").fetchall()
        return index_stamp(conn), generation(conn), store.docs_generation(conn), runs
    finally:
        conn.close()


def test_docs_only_change_keeps_graph_features_and_clusters(repo, monkeypatch):
    db = repo / ".lore" / "index.db"
    with lore.open_index(repo) as idx:
        graph_stamp = idx.graph().stamp
        summary, labels = idx.clusters()
    stamp, gen, docs_gen, runs = _state(db)
    assert runs and all(r[1] == gen for r in runs) and graph_stamp == stamp

    add_documents(db, [repo / "docs"], embedder="hashing")
    (repo / "docs" / "pay.md").write_text(PAY.replace("three", "five"))
    out = add_documents(db, [repo / "docs"], embedder="hashing")
    assert out["updated"] == 1 and out["unchanged"] == 1
    (repo / "docs" / "guide.md").unlink()  # a removed document is a docs-only change too
    assert add_documents(db, [repo / "docs"], embedder="hashing")["removed"] == 1

    stamp2, gen2, docs_gen2, runs2 = _state(db)
    assert (stamp2, gen2, runs2) == (stamp, gen, runs)  # the code generation and stored clusters are untouched
    assert docs_gen2 >= docs_gen + 3

    # a new process finds the saved graph and the stored clusters: nothing is built again
    import lore.graphs.build as build
    import lore.graphs.related as related

    monkeypatch.setattr(build, "_MEMORY", {})
    monkeypatch.setattr(build, "build_graph", lambda *a, **k: pytest.fail("the code graph was rebuilt"))
    monkeypatch.setattr(related, "compute_clusters", lambda *a, **k: pytest.fail("the clusters were recomputed"))
    with lore.open_index(repo) as idx:
        assert idx.graph().stamp == graph_stamp
        summary2, labels2 = idx.clusters()
    assert summary2 == summary and labels2.tolist() == labels.tolist()


def test_code_change_still_invalidates(repo):
    db = repo / ".lore" / "index.db"
    with lore.open_index(repo) as idx:
        idx.clusters()
    add_documents(db, [repo / "docs"], embedder="hashing")
    stamp, gen, docs_gen, _runs = _state(db)
    (repo / "shop" / "pay.py").write_text(MODULES["shop/pay.py"] + "\n\ndef void(order):\n    return charge(order)\n")
    lore.index_repo(repo, workers=1)
    stamp2, gen2, docs_gen2, runs2 = _state(db)
    assert gen2 == gen + 1 and stamp2 != stamp
    assert all(r[1] == gen2 for r in runs2)  # runs of the old code generation are gone (or remade)
    assert docs_gen2 == docs_gen


def test_refresh_rewrites_only_the_changed_document(repo):
    db = repo / ".lore" / "index.db"
    add_documents(db, [repo / "docs"], embedder="hashing")
    conn = connect(db)
    try:
        guide = store.get_document(conn, "docs/guide.md")["id"]
        pay = store.get_document(conn, "docs/pay.md")["id"]
        links_before = conn.execute(
            "SELECT rowid, * FROM document_links WHERE source_document_id = ? ORDER BY rowid", (guide,)
        ).fetchall()
        chunks_before = conn.execute("SELECT * FROM chunks WHERE document_id = ? ORDER BY id", (guide,)).fetchall()
        fts_before = conn.execute(
            "SELECT rowid, content FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE document_id = ?)",
            (guide,),
        ).fetchall()
        vectors_before = conn.execute(
            "SELECT v.* FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.document_id = ?", (guide,)
        ).fetchall()
        mentions_before = conn.execute("SELECT rowid, * FROM chunk_symbol_mentions ORDER BY rowid").fetchall()
    finally:
        conn.close()
    assert links_before and links_before[0][3] == pay  # guide links to pay
    assert any(m[2] == "shop.orders.Order.refund" for m in mentions_before)

    (repo / "docs" / "pay.md").write_text(PAY.replace("three", "five") + "\nCharged orders: `shop.pay.refund_all`.\n")
    out = add_documents(db, [repo / "docs"], embedder="hashing")
    assert (out["updated"], out["unchanged"], out["embedded"]) == (1, 1, 1)
    conn = connect(db)
    try:
        # the unchanged document's rows are the same rows (same rowids), not deleted and written again
        assert conn.execute(
            "SELECT rowid, * FROM document_links WHERE source_document_id = ? ORDER BY rowid", (guide,)
        ).fetchall() == links_before
        assert conn.execute("SELECT * FROM chunks WHERE document_id = ? ORDER BY id", (guide,)).fetchall() == chunks_before
        assert conn.execute(
            "SELECT rowid, content FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE document_id = ?)",
            (guide,),
        ).fetchall() == fts_before
        assert conn.execute(
            "SELECT v.* FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.document_id = ?", (guide,)
        ).fetchall() == vectors_before
        guide_chunks = {r[0] for r in chunks_before}
        mentions = conn.execute("SELECT rowid, * FROM chunk_symbol_mentions ORDER BY rowid").fetchall()
        assert [m for m in mentions if m[1] in guide_chunks] == [m for m in mentions_before if m[1] in guide_chunks]
        # the changed document: every chunk has a vector (written in the same transaction) and its new mention
        assert store.chunks_without_vector(conn, "hashing-v1-384") == []
        assert ("shop.pay.refund_all", "shop.pay.refund_all") in {(m[2], m[3]) for m in mentions}
        hits = conn.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'five'").fetchall()
        assert hits and all(store.get_chunk(conn, h[0])["document_id"] == pay for h in hits)
    finally:
        conn.close()


@pytest.mark.skipif(not minilm_available(), reason="needs the embed extra")
def test_refresh_loads_the_model_only_when_a_chunk_needs_a_vector(repo, monkeypatch):
    from lore.text import embed

    db = repo / ".lore" / "index.db"
    add_documents(db, [repo / "docs"], embedder="minilm")
    model = embed.get_embedder("minilm").model_id  # integer products where they can be had
    monkeypatch.setattr(embed, "_INSTANCES", {})  # as in a new process
    loads = []
    real_init = embed.MiniLMEmbedder.__init__

    def counting_init(self, **kw):
        loads.append(1)
        real_init(self, **kw)

    monkeypatch.setattr(embed.MiniLMEmbedder, "__init__", counting_init)
    out = add_documents(db, [repo / "docs"])  # the store's model, nothing changed
    assert (out["unchanged"], out["embedded"], out["model"]) == (2, 0, model) and loads == []
    (repo / "docs" / "pay.md").write_text(PAY + "\nA new closing line.\n")
    out = add_documents(db, [repo / "docs"])
    assert out["embedded"] == 1 and loads == [1]


def test_deferred_embedder_checks_its_name_at_once():
    from lore.errors import UnknownAlgorithmError
    from lore.text.embed import HASHING_ID, deferred_embedder

    with pytest.raises(UnknownAlgorithmError):
        deferred_embedder("word2vec")
    assert deferred_embedder(HASHING_ID).embed(["retry"]).shape == (1, 384)


def test_emptied_document_still_refreshes_links_and_generation(repo):
    db = repo / ".lore" / "index.db"
    (repo / "docs" / "pay.md").write_text(PAY + "\n(see [the guide](guide.md#refunds))\n")
    add_documents(db, [repo / "docs"], embedder="hashing")
    conn = connect(db)
    try:
        pay = store.get_document(conn, "docs/pay.md")["id"]
        before = store.docs_generation(conn)
    finally:
        conn.close()
    (repo / "docs" / "guide.md").write_text("")  # no chunks left: the link into its section must go
    out = add_documents(db, [repo / "docs"], embedder="hashing")
    assert out["updated"] == 1 and out["chunks"] == 0
    conn = connect(db)
    try:
        assert store.docs_generation(conn) > before
        links = store.stored_links(conn)[pay]
        assert [(t_doc, t_chunk, href) for _c, t_doc, t_chunk, href in links] == [
            (store.get_document(conn, "docs/guide.md")["id"], None, "guide.md#refunds")
        ]
    finally:
        conn.close()
