"""Output a person reads: related rows within 100 columns, the docstring once, CSV / TSV, serve's address."""

from __future__ import annotations

import csv
import io

import pytest
from typer.testing import CliRunner

from lore.cli import app
from lore.cli._format import elide, fitted_lines

runner = CliRunner()


@pytest.fixture
def repo(sample_repo, sample_index):
    return sample_repo


def test_related_fits_100_columns(repo):
    res = runner.invoke(app, ["graph", "related", "shop.orders.Order.amount", "--db", str(repo), "--include-tests"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert max(map(len, lines)) <= 100, max(lines, key=len)
    assert any("shop.orders.RushOrder.amount" in ln for ln in lines)


def test_long_names_and_paths_are_elided_and_why_wrapped():
    row = {"id": 1, "qualified_name": "a." * 60 + "deep", "kind": "method", "path": "x/" * 50 + "m.py", "line": 3,
           "score": 0.1, "why": {"shared": [{"relation": "callers", "name": f"pkg.caller_{i}", "weight": 0.5}
                                            for i in range(12)]}}
    lines = fitted_lines({"results": [row]}, cols=100)
    assert all(len(ln) <= 100 for ln in lines) and len(lines) > 2
    assert "…" in lines[0] and lines[0].rstrip().endswith("m.py:3")
    assert "pkg.caller_11" in " ".join(lines)  # wrapped, not cut
    assert elide("abcdef", 6) == "abcdef" and elide("abcdefgh", 5) == "ab…gh"


@pytest.mark.parametrize("fmt,delim", [("csv", ","), ("tsv", "\t")])
def test_csv_and_tsv_beside_json(repo, fmt, delim):
    res = runner.invoke(app, ["graph", "callers", "shop.orders.Order.amount", "--db", str(repo), "--format", fmt])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.output), delimiter=delim))
    assert list(rows[0]) == ["id", "qualified_name", "kind", "path", "line", "score", "why"]
    assert "shop.orders.Order.describe" in {r["qualified_name"] for r in rows}
    clusters = runner.invoke(app, ["graph", "clusters", "--db", str(repo), "--min-size", "1", "--format", fmt])
    assert clusters.exit_code == 0 and clusters.output.startswith(delim.join(["cluster", "size", "cohesion"]))


def test_unknown_format_is_one_line(repo):
    res = runner.invoke(app, ["graph", "call", "shop.orders.Order.amount", "--db", str(repo), "--format", "xml"])
    assert res.exit_code == 2 and "unknown --format 'xml'" in res.output


def test_show_prints_the_docstring_once(repo):
    res = runner.invoke(app, ["show", "shop.models.Item", "--db", str(repo)])
    assert res.exit_code == 0 and res.output.count("A thing to sell.") == 1, res.output
    short = runner.invoke(app, ["show", "shop.models.Item", "--db", str(repo), "--snippet", "0"])
    assert short.output.count("A thing to sell.") == 1, short.output  # no source: the docstring alone


def test_serve_http_prints_its_address(repo, monkeypatch):
    import lore.mcp_server as ms

    seen = {}
    monkeypatch.setattr(ms, "serve", lambda db, **kw: seen.update(db=db, **kw))
    res = runner.invoke(app, ["serve", "--http", "127.0.0.1:8765", "--db", str(repo)])
    assert res.exit_code == 0, res.output
    assert "http://127.0.0.1:8765/mcp" in res.output and seen["http"] == "127.0.0.1:8765"
