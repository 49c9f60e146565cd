"""Shared fixtures: tiny repositories written into tmp_path and indexed."""

from __future__ import annotations

import os
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


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


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
