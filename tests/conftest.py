"""Shared fixtures: tiny repositories written into tmp_path and indexed."""

from __future__ import annotations

import os
import pickle
import sqlite3
import textwrap
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _history_cache_of_the_session(tmp_path_factory: pytest.TempPathFactory):
    """Index runs in tests keep the parsed file versions of git history in a cache of this session, never
    in the user's (``~/.cache/lore/history-spans.sqlite``); inherited by the miners and CLIs tests start."""
    old = os.environ.get("LORE_HISTORY_CACHE")
    os.environ["LORE_HISTORY_CACHE"] = str(tmp_path_factory.mktemp("history-cache") / "history-spans.sqlite")
    yield
    if old is None:
        os.environ.pop("LORE_HISTORY_CACHE", None)
    else:
        os.environ["LORE_HISTORY_CACHE"] = old


def sigint_default() -> None:
    """``preexec_fn`` of a child a test will Ctrl-C: SIGINT's default action back. A shell starts a background
    job (``cmd &`` without job control, as a CI runner may) with SIGINT ignored, children inherit that, and a
    Python started so never raises KeyboardInterrupt: the test would wait for an exit that never comes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


EDGE_TABLES = ("symbols", "symbol_refs", "type_refs", "file_imports", "symbol_relationships")


def dump_edge_tables(db: Path) -> dict[str, list[tuple]]:
    """Every row of the symbol and edge tables of the index at ``db``, sorted: two indexes that must be equal."""
    conn = sqlite3.connect(db)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in EDGE_TABLES}
    finally:
        conn.close()


def resolve_elsewhere(root: Path, db: Path, monkeypatch: pytest.MonkeyPatch):
    """Index ``root`` into ``db``, capturing the resolver's world pickled as ``resolve_ray`` ships it, then
    rename ``root`` away (a worker's machine has no such folder) and resolve the same files from the copy.

    Returns ``(world copy, edges resolved from the copy, edges the indexer resolved)``.
    """
    from lore.index import indexer, resolve_pool
    from lore.index.resolve import resolve_files

    captured = {}

    def capture(world, file_ids, db_path, workers, progress=None, *, sink):
        loader = world._load_records  # what resolve_ray ships: the world with every record, pickled first
        world._load_records = resolve_pool._all_records(loader, sorted(world.files))
        captured["blob"] = pickle.dumps(world)
        world._load_records = loader
        captured["ids"] = list(file_ids)
        captured["edges"] = edges = resolve_files(world, file_ids)
        sink(edges)
        return [], 0

    monkeypatch.setattr(indexer, "resolve_parallel", capture)
    indexer.index_repo(root, db=db, workers=1)
    root.rename(root.parent / "elsewhere")
    copy = pickle.loads(captured["blob"])
    return copy, resolve_pool.resolve_chunk(copy, copy.next_id, captured["ids"])[0], captured["edges"]


@pytest.fixture
def make_repo(tmp_path: Path):
    """``make_repo({"pkg/a.py": "..."})`` writes the files (dedented) and returns the root."""

    def make(files: dict[str, str | bytes], name: str = "repo") -> Path:
        return write_tree(tmp_path / name, files)

    return make


SAMPLE = {
    "shop/__init__.py": "from .orders import Order, place_order\n",
    "shop/models.py": '''
        class Item:
            """A thing to sell."""

            def __init__(self, name: str, price: float) -> None:
                self.name = name
                self.price = price

            def total(self, qty: int) -> float:
                return self.price * qty
    ''',
    "shop/orders.py": '''
        import logging
        from typing import Optional

        from .models import Item

        log = logging.getLogger(__name__)


        class Order:
            def __init__(self, item: Item, qty: int = 1) -> None:
                self.item = item
                self.qty = qty

            def amount(self) -> float:
                return self.item.total(self.qty)

            def describe(self) -> str:
                return f"{self.item.name} x{self.qty}: {self.amount()}"


        class RushOrder(Order):
            def amount(self) -> float:
                return super().amount() * 1.5


        def place_order(name: str, price: float, rush: bool = False) -> Optional[Order]:
            item = Item(name, price)
            order = RushOrder(item) if rush else Order(item)
            log.info("placed %s", order.describe())
            return order
    ''',
    "shop/report.py": '''
        from shop import place_order
        from shop.orders import Order


        def summarize(orders: list[Order]) -> float:
            return sum(o.amount() for o in orders)


        def demo() -> float:
            o = place_order("pen", 2.0)
            return summarize([o]) + o.amount()
    ''',
    "tests/test_orders.py": '''
        from shop.orders import place_order


        def test_place():
            assert place_order("a", 1.0).amount() == 1.0
    ''',
}


@pytest.fixture
def sample_repo(make_repo) -> Path:
    return make_repo(SAMPLE, name="sample")


@pytest.fixture
def sample_index(sample_repo: Path):
    from lore import index_repo, open_index

    index_repo(sample_repo, workers=1)
    idx = open_index(sample_repo)
    yield idx
    idx.close()
