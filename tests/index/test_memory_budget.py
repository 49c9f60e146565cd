"""A memory budget changes what the indexer holds at once, never what it writes.

Under a budget the resolver drops the scope tables of the files it read least recently and builds them
again from their records when read again, and the records of fresh files stay compressed
(:mod:`lore.index._memory`). Here the budget is made to bind on small trees (a context bound of one
record item: every context is dropped as soon as another is built), and every edge table must come out
equal to an unbounded run's: Python (values that travel are solved over every file, before the fork)
and C (include closures and project-wide macro tables read every file's context), one process and two.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore import index_repo
from lore.cli import app
from lore.errors import InvalidArgumentError
from lore.index import _memory, resolve_pool
from lore.index.resolve import World
from tests.conftest import EDGE_TABLES, dump_edge_tables

ROOT = Path(__file__).resolve().parents[2]


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "lore" / "index", root / "lore" / "index", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "lore" / "algorithms", root / "lore" / "algorithms",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests" / "fixtures" / "c", root / "csrc")
    return root


@pytest.mark.parametrize("workers", [1, 2])
def test_a_binding_budget_writes_the_same_index(tmp_path, monkeypatch, workers):
    root = _tree(tmp_path)
    monkeypatch.setattr(resolve_pool, "MIN_FILES_PER_WORKER", 4)  # forked chunks on a small tree
    index_repo(root, db=tmp_path / "free.db", workers=workers, memory=None)
    built: list[int | None] = []
    bound = World.bound_contexts

    def spy(self, items):
        built.append(items)
        bound(self, items)

    monkeypatch.setattr(World, "bound_contexts", spy)
    monkeypatch.setattr(_memory, "CTX_BYTES_PER_ITEM", 1 << 50)  # room for one record item: always evicting
    monkeypatch.setattr(_memory, "DECODED_PER_SOURCE_BYTE", 1 << 30)  # records stay compressed
    decoded: list[int] = []
    load = resolve_pool.RecordLoader.__call__

    def counting(self, file_id):
        if isinstance(self.fresh.get(file_id, (None,))[0], bytes):
            decoded.append(file_id)
        return load(self, file_id)

    monkeypatch.setattr(resolve_pool.RecordLoader, "__call__", counting)
    index_repo(root, db=tmp_path / "tight.db", workers=workers, memory="256M")
    assert built == [1]
    if workers > 1:  # parsed by workers (in this process, the records come decoded)
        assert len(decoded) > len(set(decoded))  # compressed records, decoded again once their context was dropped
    free, tight = dump_edge_tables(tmp_path / "free.db"), dump_edge_tables(tmp_path / "tight.db")
    assert sum(len(v) for v in free.values()) > 1000
    for table in EDGE_TABLES:
        assert free[table] == tight[table], f"{table}: {len(set(free[table]) ^ set(tight[table]))} rows differ"


def test_contexts_are_dropped_least_recently_read_first(tmp_path):
    root = tmp_path / "repo"
    for name in "abcd":
        (root / f"{name}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / f"{name}.py").write_text(f"def {name}():\n    pass\n")
    index_repo(root, db=tmp_path / "i.db", memory="256M")
    from lore.index.resolve import FileRow, SymRow
    from lore.index.resolve_pool import RecordLoader
    from lore.store import read

    conn = sqlite3.connect(tmp_path / "i.db")
    symbols = [SymRow(*r) for r in read.symbol_rows_for_world(conn)]
    files = [FileRow(fid, path, lang, mod, msid, False) for fid, path, lang, mod, msid in read.file_rows(conn)]
    world = World(symbols, files, RecordLoader({}, conn), read.max_symbol_id(conn) + 1)
    ids = sorted(world.files)
    per_file = world.ctx(ids[0]).items
    world.bound_contexts(2 * per_file)
    for fid in ids[:3]:  # the third goes over the bound: the first built goes (reads are ordered from now on)
        world.ctx(fid)
    assert list(world._ctx) == [ids[1], ids[2]] and world.contexts_evicted
    world.ctx(ids[1])  # read again: now the most recent
    world.ctx(ids[3])  # over the bound: the least recently read (ids[2]) goes
    assert list(world._ctx) == [ids[1], ids[3]]
    assert world.work_seen.keys() == set(ids)  # the chunks are cut by every context ever built
    conn.close()


def test_memory_sizes():
    assert _memory.parse_memory("3G") == 3 << 30
    assert _memory.parse_memory("512 MiB") == 512 << 20
    assert _memory.parse_memory(1 << 30) == 1 << 30
    for bad in ("lots", "-1G", "10M", True):
        with pytest.raises(InvalidArgumentError):
            _memory.parse_memory(bad)
    assert _memory.budget(None) is None or _memory.budget(None) >= _memory.MIN_BUDGET


def test_cli_takes_a_budget_and_refuses_a_bad_one(tmp_path):
    (tmp_path / "m.py").write_text("def f():\n    g()\n\ndef g():\n    pass\n")
    runner = CliRunner()
    ok = runner.invoke(app, ["index", str(tmp_path), "--memory", "1G", "--history", "off", "--no-clusters"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["index", str(tmp_path), "--memory", "lots", "--history", "off"])
    assert bad.exit_code == 2
    assert "3G" in bad.output


def test_the_budget_is_a_setting(tmp_path, monkeypatch):
    from lore.index import indexer
    from lore.index.config import load_settings

    (tmp_path / ".lore").mkdir()
    (tmp_path / ".lore" / "config.toml").write_text('memory = "2G"\n')
    (tmp_path / "m.py").write_text("def f():\n    pass\n")
    s = load_settings(tmp_path)
    assert (s.memory, s.sources["memory"]) == ("2G", ".lore/config.toml")
    assert load_settings(tmp_path, memory="1G").memory == "1G"  # the command line wins
    seen: list[int | None] = []
    budget = indexer.memory_budget
    monkeypatch.setattr(indexer, "memory_budget", lambda m: seen.append(budget(m)) or budget(m))
    from lore.index.pipeline import run_index

    run_index(tmp_path, history="off")
    assert seen == [2 << 30]
    (tmp_path / ".lore" / "config.toml").write_text('memory = "a lot"\n')
    with pytest.raises(InvalidArgumentError, match="config.toml"):
        load_settings(tmp_path)


def test_a_pass_over_every_file_leaves_the_contexts_read_again():
    """A pass that reads every file once (the C rules' project-wide tables) goes through probation; the
    contexts read again (the headers every source file reads) stay."""
    from lore.index._contexts import Segments

    s = Segments(10, [])
    for header in (1, 2):
        s.add(header, 2)
        s.touch(header)  # read again: protected
    dropped = []
    for fid in range(100, 200):  # the pass
        s.add(fid, 2)
        while s.over():
            dropped.append(s.victim())
    assert 1 not in dropped and 2 not in dropped
    assert dropped == list(range(100, 197))
