"""A tiny indexed repository and a helper that drives ``python -m lore serve`` with the SDK's client."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

SHOP = {
    "shop/__init__.py": "from .orders import Order, place_order\n",
    "shop/models.py": '''
        class Item:
            """A thing to sell."""

            def __init__(self, name: str, price: float) -> None:
                self.name = name
                self.price = price

            def total(self, qty: int) -> float:
                return self.price * qty


        class DigitalItem(Item):
            """An item without shipping."""

            def total(self, qty: int) -> float:
                return round(self.price * qty, 2)
    ''',
    "shop/validate.py": '''
        def check_name(name: str) -> str:
            """Reject empty names."""
            if not name:
                raise ValueError("empty name")
            return name.strip()


        def check_qty(qty: int) -> int:
            if qty < 1:
                raise ValueError("qty must be positive")
            return qty
    ''',
    "shop/orders.py": '''
        import logging

        from .models import Item
        from .validate import check_name, check_qty

        log = logging.getLogger(__name__)


        class Order:
            """An order of one item."""

            def __init__(self, item: Item, qty: int = 1) -> None:
                self.item = item
                self.qty = check_qty(qty)

            def amount(self) -> float:
                return self.item.total(self.qty)


        def place_order(name: str, price: float, qty: int) -> Order:
            """Create and log an order."""
            item = Item(check_name(name), price)
            order = Order(item, qty)
            log.info("order %s", order.amount())
            return order


        def place_bulk_order(name: str, price: float, qty: int) -> Order:
            """Create a large order with a discount."""
            item = Item(check_name(name), price * 0.9)
            order = Order(item, check_qty(qty))
            log.info("bulk order %s", order.amount())
            return order
    ''',
    "shop/refunds.py": '''
        from .orders import Order, place_order
        from .validate import check_qty


        def refund_order(order: Order) -> float:
            """Give the money back."""
            check_qty(order.qty)
            return -order.amount()


        def exchange(order: Order, name: str) -> Order:
            refund_order(order)
            return place_order(name, order.item.price, order.qty)
    ''',
    "tests/test_orders.py": """
        from shop.orders import place_order


        def test_place_order():
            assert place_order("pen", 1.0, 2).amount() == 2.0
    """,
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def shop_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(repository root, index file) of the shop fixture, indexed once per test session."""
    from lore.index import index_repo

    root = write_tree(tmp_path_factory.mktemp("mcp") / "shop_repo", SHOP)
    db = root / ".lore" / "index.db"
    index_repo(root, db=db, workers=1)
    return root, db


def server_params(db: Path, *extra: str):
    from mcp import StdioServerParameters

    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    return StdioServerParameters(
        command=sys.executable, args=["-m", "lore", "serve", "--db", str(db), *extra], env=env
    )


def run_session(db: Path, body: Callable[[Any], Awaitable[Any]], *extra: str, timeout: float = 60) -> Any:
    """Start the server as a subprocess, open a ``ClientSession`` over stdio, run ``body(session)``."""
    from mcp import ClientSession, stdio_client

    async def main() -> Any:
        with anyio.fail_after(timeout):
            with open(os.devnull, "w") as errlog:
                async with stdio_client(server_params(db, *extra), errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return await body(session)

    return anyio.run(main)


def payload(result: Any) -> Any:
    """The JSON of a successful tool result."""
    assert not result.is_error, result.content[0].text
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


def error_text(result: Any) -> str:
    """The one-sentence message of a tool error."""
    assert result.is_error, f"expected a tool error, got {result.content[0].text[:200]}"
    text = result.content[0].text
    assert "\n" not in text and "Traceback" not in text, text
    return text
