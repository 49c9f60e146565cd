"""Tables fit the terminal's width and cut a long name in the middle on a boundary, never inside a word."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from lore.cli import app
from lore.cli._format import PATH_SEPS, Column, cut_words, elide_name, table_lines

runner = CliRunner()
NAME = "lore.graphs.engines.local.hybrid.explain"


def _whole_parts(shown: str, full: str) -> bool:
    """``shown`` is ``full``, or a head and a tail of ``full`` around ``…`` that each end / start on a boundary."""
    if "…" not in shown:
        return shown == full
    head, tail = shown.split("…")
    return (full.startswith(head) and full.endswith(tail) and len(head) + len(tail) < len(full)
            and (not head or head[-1] in "./_:") and (not tail or full[len(full) - len(tail) - 1] in "./_:"))


@pytest.mark.parametrize("width", range(14, 45))
def test_a_name_is_cut_on_boundaries_at_every_width(width):
    shown = elide_name(NAME, width)
    assert len(shown) <= width and _whole_parts(shown, NAME), shown
    assert shown.endswith("explain")  # the name's own part is the last to go


def test_the_example_of_the_issue():
    assert elide_name(NAME, 29) == "lore.graphs.…hybrid.explain"
    assert elide_name("src/requests/adapters.py:120", 22, seps=PATH_SEPS) == "src/…adapters.py:120"
    assert elide_name("shop.orders.Order.amount", 15) == "…Order.amount"  # the method keeps its class
    assert elide_name("pkg.Class.__init__", 12) == "…__init__"  # a dunder stays whole


def test_text_is_cut_after_a_whole_word_and_a_list_says_more_follow():
    assert cut_words("alpha beta gamma delta", 15) == "alpha beta…"
    assert cut_words("a.b.Alpha, a.b.Beta, a.b.Gamma", 24) == "a.b.Alpha, a.b.Beta, …"


def test_narrow_table_keeps_every_line_within_the_width():
    rows = [("1", NAME, "method", "lore/graphs/hybrid.py:120"), ("22", "short", "function", "a.py:1")]
    cols = (Column("id", align="right"), Column("symbol", "name"), Column("kind"), Column("location", "path"))
    lines = table_lines(cols, rows, cols=50)
    assert all(len(ln) <= 50 for ln in lines), lines
    assert "short" in lines[3] and lines[3].split()[-1] == "a.py:1"


def _symbols_in(output: str) -> list[str]:
    return re.findall(r"^\s*\d+  (\S+)  ", output, flags=re.M)


@pytest.mark.parametrize("columns", [60, 100])
def test_search_and_clusters_fit_the_width_and_never_break_a_name(sample_repo, sample_index, columns):
    env = {"COLUMNS": str(columns)}
    res = runner.invoke(app, ["search", "order amount item", "--db", str(sample_repo), "--min-score", "0", "-n", "20"],
                        env=env)
    assert res.exit_code == 0, res.output
    assert max(map(len, res.stdout.splitlines())) <= columns, res.stdout
    from lore.api import open_index

    with open_index(sample_repo / ".lore" / "index.db", readonly=True) as idx:
        names = [r["qualified_name"] for r in idx.search("order amount item", min_score=0, limit=20)["results"]]
    shown = _symbols_in(res.stdout)
    assert shown and len(shown) == len(names)
    assert all(_whole_parts(s, n) for s, n in zip(shown, names, strict=True)), list(zip(shown, names, strict=True))
    clusters = runner.invoke(app, ["graph", "clusters", "--db", str(sample_repo), "--min-size", "1"], env=env)
    assert clusters.exit_code == 0 and max(map(len, clusters.stdout.splitlines())) <= columns, clusters.stdout


def test_docs_tables_keep_the_file_and_the_innermost_heading(tmp_path):
    docs = tmp_path / "documentation" / "user_guide"
    docs.mkdir(parents=True)
    body = "\n\n".join(f"Paragraph {i} about retrying failed requests with exponential backoff." for i in range(3))
    (docs / "advanced_configuration.md").write_text(
        f"# Advanced Usage Guide\n\n## Retrying Requests\n\n### Custom Backoff Policies\n\n{body}\n", encoding="utf-8")
    db = tmp_path / "index.db"
    assert runner.invoke(app, ["docs", "add", str(tmp_path / "documentation"), "--db", str(db),
                               "--embedder", "hashing"]).exit_code == 0
    res = runner.invoke(app, ["docs", "search", "backoff", "--db", str(db), "--mode", "keyword"],
                        env={"COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert max(map(len, lines)) <= 100, res.stdout
    row = lines[3]  # title, header, rule, the first row
    assert "advanced_configuration.md" in row  # the file, not a cut inside its name
    assert "Custom Backoff Policies" in row  # the innermost heading whole
