"""A tiny indexed repository (code, code vectors, documents) and helpers that drive ``python -m lore serve``
with the SDK's own client, over stdio or streamable HTTP."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import write_tree

# Module-level code that leaves a marker file if anything ever imports or runs it: the server must not.
_TRAP = 'open(__file__ + ".executed", "w").close()\n'

SHOP = {
    "setup.py": _TRAP + "from setuptools import setup\n\nsetup(name='shop')\n",
    "shop/__init__.py": "from .orders import Order, place_order\n",
    "shop/boom.py": _TRAP
    + textwrap.dedent(
        '''
        def detonate() -> None:
            """Runs only if someone calls it; the module-level line above runs on any import."""
            raise SystemExit("indexed code was executed")
        '''
    ),
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

DOCS = {
    "docs/orders.md": """
        # Orders

        Place an order with `place_order`; bulk orders get a discount. See [refunds](refunds.md).

        ## Quantities

        Every order checks its quantity with `check_qty` before it is placed. Prices will be checked by
        `check_price`, which does not exist yet.
    """,
    "docs/refunds.md": """
        # Refunds

        A refund gives the order amount back to the customer and checks the quantity again.
    """,
    "docs/shipping.md": """
        # Shipping

        Digital items ship without a parcel; physical orders ship in a box.
    """,
}




def build_index(root: Path) -> Path:
    """Index ``root`` (code, hashing code vectors, the docs/ files) the way a user would; returns the index file."""
    from lore.api import index_repo
    from lore.docs.api import add_documents
    from lore.search.api import build_code_vectors

    db = root / ".lore" / "index.db"
    index_repo(root, db=db, workers=1)
    build_code_vectors(db, embedder="hashing")
    docs = sorted((root / "docs").glob("*.md"))
    add_documents(db, docs, library="shop", topic="guides", tags="orders", embedder="hashing", progress=False)
    return db


def executed_markers(*roots: Path) -> list[Path]:
    """Marker files left by indexed code that was imported or run (there must be none)."""
    return [p for r in roots for p in r.rglob("*.executed")]


@pytest.fixture(scope="session")
def shop_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(repository root, index file) of the shop fixture, indexed once per test session. Read-only: tests that
    change the repository or the index use :func:`fresh_copy`."""
    root = write_tree(tmp_path_factory.mktemp("mcp") / "shop_repo", {**SHOP, **DOCS})
    return root, build_index(root)


def fresh_copy(shop_repo: tuple[Path, Path], dest: Path) -> tuple[Path, Path]:
    """A copy of the shop repository at ``dest`` with its own index."""
    shutil.copytree(shop_repo[0], dest, ignore=shutil.ignore_patterns(".lore"))
    return dest, build_index(dest)


def server_params(db: Path, *extra: str):
    from mcp import StdioServerParameters

    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    return StdioServerParameters(
        command=sys.executable, args=["-m", "lore", "serve", "--db", str(db), *extra], env=env
    )


def run_session(db: Path, body: Callable[[Any], Awaitable[Any]], *extra: str, timeout: float = 120) -> Any:
    """Start ``lore serve`` as a subprocess, open a ``ClientSession`` over stdio, run ``body(session)``."""
    from mcp import ClientSession, stdio_client

    async def main() -> Any:
        with anyio.fail_after(timeout):
            with open(os.devnull, "w") as errlog:
                async with stdio_client(server_params(db, *extra), errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return await body(session)

    return anyio.run(main)


def run_http_session(
    db: Path, body: Callable[[Any], Awaitable[Any]], *extra: str, timeout: float = 60
) -> Any:
    """Start ``lore serve --http 127.0.0.1:PORT``, connect the SDK's streamable HTTP client, run ``body(session)``."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    params = server_params(db, "--http", f"127.0.0.1:{port}", *extra)
    proc = subprocess.Popen(
        [params.command, *params.args], env=params.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )

    async def main() -> Any:
        with anyio.fail_after(timeout):
            while True:  # wait for the port
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    assert proc.poll() is None, "the HTTP server exited"
                    await anyio.sleep(0.1)
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await body(session)

    try:
        return anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


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


def expected_graph(idx: Any, args: dict) -> dict:
    """What ``lore_graph`` over MCP answers on its first page (``next_cursor`` aside): the library's answer for
    the same call, the query type named ``relation``, rows made compact by :func:`lore.mcp_server.compact_graph_row`."""
    from lore.api import lore_graph
    from lore.mcp_server import compact_graph_row

    a = dict(args)
    relation, kinds = a.pop("relation"), a.pop("kind", None)
    a.update(a.pop("options", None) or {})
    compact = a.pop("compact", True)
    a.pop("max_tokens", None)
    out = lore_graph(idx, kind=relation, result_kind=kinds, **a)
    out["query"] = {"relation": out["query"].pop("kind"), **out["query"]}
    if kinds:
        out["query"]["kind"] = kinds
    if compact:
        out["results"] = [compact_graph_row(r, relation) for r in out["results"]]
    return out


def first_page(answer: dict) -> dict:
    """An answer without its ``next_cursor`` (what the library, which does not page, answers)."""
    return {k: v for k, v in answer.items() if k != "next_cursor"}
