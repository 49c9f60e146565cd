"""The resolver's world survives a pickle (what Ray ships to its tasks) with its flow solution intact."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

from lore.index import indexer, resolve_pool
from lore.index.resolve import resolve_files

LORE_INDEX = Path(__file__).resolve().parents[2] / "lore" / "index"


def test_world_round_trip_keeps_call_site_caches(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    shutil.copytree(LORE_INDEX, root / "pyindex", ignore=shutil.ignore_patterns("__pycache__"))
    captured = {}
    original = resolve_pool.resolve_parallel

    def capture(world, file_ids, db_path, workers, progress=None, *, sink):
        world.solve_flow()
        loader = world._load_records
        world._load_records = resolve_pool._all_records(loader, sorted(world.files))
        captured["blob"] = pickle.dumps(world)
        world._load_records = loader
        captured["sites"] = {name: len(getattr(world, name)) for name in ("_site_targets", "_site_got")}
        captured["ids"] = list(file_ids)
        edges = resolve_files(world, file_ids)
        captured["edges"] = edges
        sink(edges)
        return [], 0

    monkeypatch.setattr(indexer, "resolve_parallel", capture)
    indexer.index_repo(root, db=tmp_path / "i.db", workers=1)
    monkeypatch.setattr(indexer, "resolve_parallel", original)
    assert captured["sites"]["_site_got"] > 20  # the flow rounds bound call sites that the edge pass reuses

    copy = pickle.loads(captured["blob"])
    for name in ("_site_targets", "_site_got"):
        assert len(getattr(copy, name)) == captured["sites"][name]  # keyed by plain values: they travel
    got = resolve_pool.resolve_chunk(pickle.loads(captured["blob"]), copy.next_id, captured["ids"])[0]
    want = captured["edges"]
    assert (got.refs, got.types, got.imports, got.rels) == (want.refs, want.types, want.imports, want.rels)

def test_a_resolver_process_that_dies_fails_the_run(tmp_path, monkeypatch):
    """One forked process per chunk but the first: a chunk whose process dies fails the run, nothing is committed."""
    import os

    import pytest

    root = tmp_path / "repo"
    shutil.copytree(LORE_INDEX, root / "pyindex", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 1)
    real = resolve_pool._work

    def die_on_chunk_1(task, spill):
        if task[0] == 1:
            os._exit(3)
        return real(task, spill)

    monkeypatch.setattr(resolve_pool, "_work", die_on_chunk_1)
    with pytest.raises(RuntimeError, match=r"exit code 3\) on chunk 1"):
        indexer.index_repo(root, db=tmp_path / "i.db", workers=2)
    monkeypatch.setattr(resolve_pool, "_work", real)
    report = indexer.index_repo(root, db=tmp_path / "i.db", workers=2)
    assert report.full and report.generation == 1
