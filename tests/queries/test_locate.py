"""``locate``: a bug report in, the files and functions to read first out, each with its reasons; the same
from the Python API and the CLI (``lore locate TEXT | - | --file``)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lore
from lore.api import index_repo, open_index
from lore.cli import app
from lore.errors import InvalidArgumentError
from lore.queries.locate import frames_in, locate
from tests.conftest import write_tree

SHOP = {
    "shop/__init__.py": "",
    "shop/validate.py": '''
        def check_name(name):
            """Reject empty names."""
            if not name:
                raise ValueError("empty name")
            return name.strip()


        def check_qty(qty):
            if qty < 1:
                raise ValueError("qty must be positive")
            return qty
    ''',
    "shop/refunds.py": '''
        from .validate import check_qty


        def refund_order(order):
            """Give the money back."""
            check_qty(order.qty)
            return -order.amount()
    ''',
    "shop/shipping.py": '''
        def ship_parcel(order, box):
            """Put the order in a box and send it."""
            return box.send(order)
    ''',
    "tests/test_refunds.py": '''
        from shop.refunds import refund_order


        def test_refund_order_with_zero_qty():
            refund_order(None)
    ''',
}
TRACEBACK = """Refunds of zero items crash.

Traceback (most recent call last):
  File "/home/ci/build/tests/test_refunds.py", line 5, in test_refund_order_with_zero_qty
    refund_order(None)
  File "/home/ci/build/shop/refunds.py", line 6, in refund_order
    check_qty(order.qty)
  File "/home/ci/build/shop/validate.py", line 10, in check_qty
    raise ValueError("qty must be positive")
ValueError: qty must be positive
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    root = write_tree(tmp_path_factory.mktemp("locate") / "shop",
                      {k: textwrap.dedent(v).lstrip("\n") for k, v in SHOP.items()})
    index_repo(root, workers=1)
    return root


def test_frames_are_read_innermost_first():
    assert [p for p, _ in frames_in(TRACEBACK)] == [
        "/home/ci/build/shop/validate.py", "/home/ci/build/shop/refunds.py", "/home/ci/build/tests/test_refunds.py"]
    java = "java.lang.IllegalStateException: bad\n\tat com.x.Orders.place(Orders.java:42)\n\tat com.x.Main.main(Main.java:7)"
    assert frames_in(java) == [("Orders.java", 42), ("Main.java", 7)]
    assert frames_in("no trace here, only words") == []


def test_a_traceback_puts_its_frames_first_with_their_reasons(shop):
    with open_index(shop) as idx:
        out = locate(idx, TRACEBACK, limit=5, files=3)
    names = [r["qualified_name"] for r in out["results"]]
    assert names[:2] == ["shop.validate.check_qty", "shop.refunds.refund_order"]  # innermost frame first
    top = out["results"][0]
    assert top["why"]["frames"] == [{"frame": 1, "line": 10}] and top["why"]["summary"].startswith("stack frame 1")
    assert out["files"][0]["path"] == "shop/validate.py" and len(out["files"]) == 3
    assert out["query"]["frames"] == 3 and out["total"] >= len(out["results"])
    # the test frame is evidence too (it ran), even though test code is left out by default
    assert "tests.test_refunds.test_refund_order_with_zero_qty" in names


def test_prose_alone_is_found_by_words_and_the_graph_adds_neighbours(shop):
    with open_index(shop) as idx:
        out = locate(idx, "shipping a parcel in a box sends the wrong order", limit=10)
    first = out["results"][0]
    assert first["qualified_name"] == "shop.shipping.ship_parcel" and "search hit 1" in first["why"]["summary"]
    assert out["query"]["frames"] == 0
    assert any("graph" in r["why"] for r in out["results"]), "related lists of the top hits add rows"
    assert all(not r["path"].startswith("tests/") for r in out["results"])  # test code off by default


def test_answers_are_deterministic_and_bounded(shop):
    with open_index(shop) as idx:
        a = locate(idx, TRACEBACK, limit=2, files=0)
        b = locate(idx, TRACEBACK, limit=2, files=0)
        with pytest.raises(InvalidArgumentError, match="needs the text of a bug report"):
            locate(idx, "   ")
    assert a == b and len(a["results"]) == 2 and a["files"] == [] and a["truncated"] is True


def test_python_api_and_cli_agree(shop, tmp_path):
    assert lore.locate is locate and "locate" in lore.__all__
    report = tmp_path / "issue.txt"
    report.write_text(TRACEBACK)
    runner = CliRunner()
    via_file = runner.invoke(app, ["locate", "--file", str(report), "--db", str(shop), "--json", "-n", "3"])
    via_stdin = runner.invoke(app, ["locate", "-", "--db", str(shop), "--json", "-n", "3"], input=TRACEBACK)
    via_arg = runner.invoke(app, ["locate", TRACEBACK, "--db", str(shop), "--json", "-n", "3"])
    assert via_file.exit_code == via_stdin.exit_code == via_arg.exit_code == 0, via_file.output
    with open_index(shop) as idx:
        expected = locate(idx, TRACEBACK, limit=3)
    assert json.loads(via_file.output) == json.loads(via_stdin.output) == json.loads(via_arg.output) == expected
    table = runner.invoke(app, ["locate", "--file", str(report), "--db", str(shop)])
    assert table.exit_code == 0 and "shop/validate.py" in table.output and "stack frame 1" in table.output
    both = runner.invoke(app, ["locate", "words", "--file", str(report), "--db", str(shop)])
    assert both.exit_code == 2 and "not two of them" in both.output


def test_the_graph_brings_the_callee_of_the_best_hit_and_says_so(shop):
    # check_qty says nothing about refunds; refund_order, the best hit, calls it
    with open_index(shop) as idx:
        out = locate(idx, "refunding an order gives the wrong amount back", limit=10)
    rows = {r["qualified_name"]: r for r in out["results"]}
    assert out["results"][0]["qualified_name"] == "shop.refunds.refund_order"
    callee = rows["shop.validate.check_qty"]["why"]
    assert callee["graph"] == [{"seed": "shop.refunds.refund_order", "edge": "calls", "direction": "out",
                                "text_match": False}]
    assert callee["summary"].endswith("called by refunds.refund_order")


def test_a_report_about_other_code_says_nothing_matched_well(shop):
    with open_index(shop) as idx:
        own = locate(idx, TRACEBACK, limit=3)
        other = locate(idx, "Traceback (most recent call last):\n  File \"k8s/autoscaler.py\", line 9, in scale_pods\n"
                            "KeyError: 'replicas'\n", limit=3)
    assert own["match"]["weak"] is False and "weak" not in own
    assert other["match"]["weak"] is True and other["weak"].startswith("nothing matched well")
    table = CliRunner().invoke(app, ["locate", "-", "--db", str(shop)], input="KeyError in k8s/autoscaler.py, scale_pods\n")
    assert table.exit_code == 0 and "nothing matched" in " ".join(table.output.split())
