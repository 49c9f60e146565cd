"""Clusters are derived data the writer computes once: every reader after it, read-only ones too, reads them back."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lore import index_repo, list_clusters, open_index
from lore.queries.clusters import run_key
from lore.store import clusters as clusters_store


def _recompute_fails(monkeypatch):
    monkeypatch.setattr("lore.graphs.related.compute_clusters", lambda *a, **k: pytest.fail("recomputed"))


def test_index_run_stores_the_default_clusters_of_its_generation(sample_repo, sample_index):
    gen = sample_index.generation
    assert clusters_store.has_run(sample_index.conn, run_key(), gen)
    assert not clusters_store.has_run(sample_index.conn, run_key(), gen + 1)


def test_a_read_only_index_serves_the_stored_clusters_without_recomputing(sample_repo, sample_index, monkeypatch):
    with open_index(sample_repo) as writer:  # what a writable process would compute itself, for comparison
        writer.cluster_cache.clear()
        expected = list_clusters(writer, min_size=1)
    _recompute_fails(monkeypatch)
    with open_index(sample_repo, readonly=True) as reader:
        assert list_clusters(reader, min_size=1) == expected
        assert reader.clusters()[0] == reader.clusters()[0]


def test_a_refresh_stores_the_new_generation_and_drops_the_old(sample_repo, sample_index, monkeypatch):
    gen = sample_index.generation
    (sample_repo / "shop" / "extra.py").write_text("from shop.models import Item\n\ndef make():\n    return Item('a', 1.0)\n")
    report = index_repo(sample_repo, workers=1)
    assert report.seconds["clusters"] >= 0
    with open_index(sample_repo, readonly=True) as reader:
        assert reader.generation == gen + 1
        assert clusters_store.has_run(reader.conn, run_key(), gen + 1)
        assert not clusters_store.has_run(reader.conn, run_key(), gen)
        _recompute_fails(monkeypatch)
        out = list_clusters(reader, min_size=1)
    assert out["generation"] == gen + 1
    assert any(m["qualified_name"] == "shop.extra.make" for c in out["results"] for m in c["top_members"]) or out["total"]


def test_nothing_changed_keeps_the_stored_run_and_skips_the_step(sample_repo, sample_index, monkeypatch):
    _recompute_fails(monkeypatch)
    report = index_repo(sample_repo, workers=1)
    assert not report.changed_any and "clusters" not in report.seconds


def test_clusters_false_leaves_them_to_the_first_writable_query(sample_repo, sample_index, monkeypatch):
    gen = sample_index.generation
    (sample_repo / "shop" / "extra.py").write_text("def lone():\n    return 1\n")
    report = index_repo(sample_repo, workers=1, clusters=False)
    assert "clusters" not in report.seconds
    with open_index(sample_repo, readonly=True) as reader:
        assert not clusters_store.has_run(reader.conn, run_key(), gen + 1)
        list_clusters(reader)  # computed in memory, not written
        assert not clusters_store.has_run(reader.conn, run_key(), gen + 1)
    with open_index(sample_repo) as writer:
        list_clusters(writer)
        assert clusters_store.has_run(writer.conn, run_key(), gen + 1)


def test_stale_run_is_never_served(sample_repo, sample_index):
    """A run stored under an older generation (another writer bumped it without clustering) is not used."""
    with open_index(sample_repo) as writer:
        gen = writer.generation
        writer.conn.execute("UPDATE cluster_runs SET generation = ?", (gen - 1,))
        writer.conn.commit()
    with open_index(sample_repo, readonly=True) as reader:
        assert clusters_store.load_run(reader.conn, run_key(), gen) is None
        assert list_clusters(reader, min_size=1)["generation"] == gen  # recomputed in memory, served


def test_a_fresh_read_only_process_answers_from_the_store(sample_repo, sample_index):
    """A new process (an MCP server's) reads the writer's run: label propagation never runs in it."""
    code = (
        "import json\n"
        "import lore.graphs.related as rel\n"
        "from lore import list_clusters, open_index\n"
        "def boom(*a, **k):\n"
        "    raise SystemExit('recomputed')\n"
        "rel.compute_clusters = boom\n"
        f"with open_index({str(sample_repo)!r}, readonly=True) as idx:\n"
        "    print(json.dumps(list_clusters(idx, min_size=1)))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr + res.stdout
    with open_index(sample_repo, readonly=True) as idx:
        assert json.loads(res.stdout) == json.loads(json.dumps(list_clusters(idx, min_size=1)))


def test_listing_stored_clusters_needs_neither_the_graph_nor_numpy(sample_repo, sample_index):
    code = (
        "import json, sys\n"
        "from lore import list_clusters, open_index\n"
        f"with open_index({str(sample_repo)!r}, readonly=True) as idx:\n"
        "    out = list_clusters(idx, min_size=1)\n"
        "print(json.dumps({'total': out['total'], 'heavy': [m for m in ('numpy', 'scipy', 'lore.graphs')\n"
        "                                                   if m in sys.modules]}))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert got["total"] >= 1 and got["heavy"] == []


def test_a_bad_engine_name_fails_even_when_the_run_is_stored(sample_index):
    from lore.errors import LoreError

    with pytest.raises(LoreError, match="bogus"):
        list_clusters(sample_index, engine="bogus")


def test_a_failure_to_precompute_never_fails_the_index_run(sample_repo, sample_index, monkeypatch, caplog):
    def broken(*a, **k):
        raise RuntimeError("label propagation broke")

    monkeypatch.setattr("lore.graphs.related.compute_clusters", broken)
    (sample_repo / "shop" / "extra.py").write_text("def lone():\n    return 1\n")
    with caplog.at_level("WARNING", logger="lore"):
        report = index_repo(sample_repo, workers=1)
    assert report.changed_any and "clusters" not in report.seconds
    assert "label propagation broke" in caplog.text
    with open_index(sample_repo, readonly=True) as reader:
        assert not clusters_store.has_run(reader.conn, run_key(), reader.generation)


def test_lore_index_no_clusters_leaves_them_to_the_first_query(tmp_path):
    """``lore index --no-clusters`` stores none (and says no clusters step ran); the default stores them."""
    (tmp_path / "m.py").write_text("def f():\n    g()\n\ndef g():\n    f()\n")
    db = tmp_path / "i.db"

    def run(*flags):
        out = subprocess.run([sys.executable, "-m", "lore", "index", str(tmp_path), "--db", str(db), "--json", *flags],
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    report = run("--no-clusters")
    assert "clusters" not in report["seconds"]
    with open_index(db, readonly=True) as idx:
        assert not clusters_store.has_run(idx.conn, run_key(), report["generation"])
    report = run("--rebuild")
    assert "clusters" in report["seconds"]
    with open_index(db, readonly=True) as idx:
        assert clusters_store.has_run(idx.conn, run_key(), report["generation"])


def test_a_body_edit_carries_the_clusters_and_the_saved_graph_forward(sample_repo, sample_index, monkeypatch):
    """A refresh whose changed file reads the same to the resolver (a comment, a line moved) leaves the
    graph as it was: the clusters and the saved graph of the last generation serve the new one, with
    nothing recomputed, and they equal what a fresh index of the same tree computes."""
    import numpy as np

    from lore.graphs.build import build_graph
    from lore.store import db as store_db

    gen = sample_index.generation
    orders = sample_repo / "shop" / "orders.py"
    orders.write_text("# moved down by a comment\n\n" + orders.read_text())
    monkeypatch.setattr("lore.graphs.build.build_graph", lambda *a, **k: pytest.fail("graph rebuilt"))
    _recompute_fails(monkeypatch)
    report = index_repo(sample_repo, workers=1)
    assert report.flow == "kept" and report.changed == ["shop/orders.py"] and "clusters" not in report.seconds
    monkeypatch.undo()
    db = sample_repo / ".lore" / "index.db"
    with open_index(sample_repo, readonly=True) as reader:
        assert reader.generation == gen + 1 and clusters_store.has_run(reader.conn, run_key(), gen + 1)
        stamp = store_db.index_stamp(reader.conn)
        saved = sorted(p.name for p in (db.parent / "index.db.graph").iterdir())
        assert saved == [stamp.replace(":", "-")]
        carried, rebuilt = reader.graph(), build_graph(reader.conn, db)
        assert carried.stamp == rebuilt.stamp == stamp
        for name in ("calls", "types", "imports", "inherits", "contains"):
            a, b = carried.matrix(name), rebuilt.matrix(name)
            assert (a != b).nnz == 0, name
        assert np.array_equal(carried.nodes.ids, rebuilt.nodes.ids)
        stored = list_clusters(reader, min_size=1)
    fresh = sample_repo.parent / "fresh.db"
    index_repo(sample_repo, db=fresh, workers=1)
    with open_index(fresh, readonly=True) as other:
        again = list_clusters(other, min_size=1)
    assert stored["results"] == again["results"]
