"""Search reads everything (issue 37): whole bodies, files' text, whole bug reports as queries."""

from __future__ import annotations

from pathlib import Path

import pytest

from lore.index import index_repo
from lore.search.api import search
from lore.search.graphfuse import fuse
from lore.search.longquery import informative_terms, is_long, weighted_expression, weighted_terms
from lore.store.db import connect

from .conftest import write_repo

# the retry handling of send sits past the first 2,000 characters of its body, as HTTPAdapter.send's does
ADAPTER = (
    "class Adapter:\n"
    "    def send(self, request):\n"
    + "".join(f"        part_{i} = request.prepare_part({i})\n" for i in range(100))
    + "        return self.max_retries.increment(request)\n\n"
    "    def close(self):\n        return None\n"
)
FILES = {
    "web/adapter.py": ADAPTER,
    "web/login.py": "def check(user):\n    # authentication: the password and the token must agree\n    return user.ok\n",
    "web/render.py": "def page(body):\n    return '<html>' + body\n",
    "web/forms.py": "def field(name):\n    return name\n\n\ndef validate(form):\n    return field(form)\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    root = write_repo(tmp_path_factory.mktemp("everything") / "repo", FILES)
    index_repo(root)
    return root


def _names(out: dict) -> list[str]:
    return [r["qualified_name"] for r in out["results"]]


def test_whole_body_is_searched(repo):
    assert len(ADAPTER.split("def close")[0]) > 2000
    out = search(repo, "retries", mode="keyword", expand=0)
    assert _names(out)[:1] == ["web.adapter.Adapter.send"]


def test_file_search_reads_content(repo):
    out = search(repo, "authentication", files=True, mode="keyword")
    assert [r["path"] for r in out["results"]][:1] == ["web/login.py"]


def test_long_query_is_read_whole_not_refused(repo):
    prose = "The page renders fine and the forms validate, but the adapter keeps going. " * 40
    query = prose + "\nTraceback (most recent call last):\n  File \"web/adapter.py\", line 3, in send\n"
    assert len(query) > 2000 and is_long(query)
    out = search(repo, query, mode="keyword", expand=0, min_score=0.0, limit=10)
    assert _names(out)[0] == "web.adapter.Adapter.send"
    # the frame's words come from the end of the report: nothing was cut
    terms = dict(weighted_terms(query))
    assert terms[("send",)] == 3 and terms[("adapter",)] == 3


def test_long_query_terms_are_bounded_by_distinct_terms(repo):
    words = " ".join(f"word{i}" for i in range(5000)) + " send adapter"
    conn = connect(repo / ".lore" / "index.db", readonly=True)
    try:
        kept = informative_terms(conn, "symbols_fts", weighted_terms(words), limit=40)
    finally:
        conn.close()
    assert 0 < len(kept) <= 40 and (("send",), 1) in kept
    out = search(repo, words, mode="keyword", expand=0, min_score=0.0)
    assert "web.adapter.Adapter.send" in _names(out)


def test_identifiers_and_frames_weigh_more():
    terms = dict(weighted_terms("calling `field` and validate() then page_body.strip breaks, also render plain words"))
    assert terms[("field",)] == 2 and terms[("validate",)] == 2 and terms[("page", "body")] == 2
    assert terms[("render",)] == 1 and ("also",) in terms
    assert weighted_expression([(("a",), 3)]) == '"a" OR "a" OR "a"'


def test_graph_fusion_brings_the_callee_of_a_hit(repo):
    # `validate` is named; `field` is only called by it: the graph lifts the callee into the rows
    query = "When I validate a form the result is wrong;\nthe validation step seems broken for every form\n" * 3
    plain = search(repo, query, mode="keyword", expand=0, graph=False, min_score=0.0, limit=10)
    fused = search(repo, query, mode="keyword", expand=0, min_score=0.0, limit=10)
    assert "web.forms.field" not in _names(plain)
    assert "web.forms.field" in _names(fused)
    row = next(r for r in fused["results"] if r["qualified_name"] == "web.forms.field")
    assert row["found_by"]["graph"]["seed_qualified_name"] == "web.forms.validate"
    assert row["found_by"]["graph"]["edge"] == "calls" and "keyword" not in row["found_by"]


def test_graph_fusion_keeps_the_named_hit_above_a_hub_of_hits():
    # a helper that every hit calls (or a class that holds them) is linked to the hits by its place
    # in the code; it gains its best vote, not one per hit, and stays below the hits the report names
    scores = {1: 1.0, 2: 0.9, 3: 0.8, 4: 0.7, 5: 0.6, 9: 0.5}
    edges = [(s, 9, "calls", "out") for s in (1, 2, 3, 4, 5)] + [(s, 10, "contains", "in") for s in (1, 2, 3)]
    fused = fuse(scores, edges, seeds=[1, 2, 3, 4, 5])
    order = sorted(fused, key=lambda i: (-fused[i], i))
    assert order[:3] == [1, 2, 3]
    assert fused[9] == pytest.approx(0.7) and fused[10] == pytest.approx(0.2)


def test_scores_say_when_nothing_matched_well(repo):
    good = search(repo, "validate form field", mode="keyword", any_terms=True)
    assert good["match"]["weak"] is False and good["match"]["share"] == 1.0 and "weak" not in good
    # one known word among unknown ones: the best row still scores 1, the match says it is weak
    poor = search(repo, "kubernetes autoscaler validate", mode="keyword", any_terms=True)
    assert poor["results"][0]["score"] == 1.0
    assert poor["match"]["weak"] is True and poor["match"]["basis"] == "best row"
    assert poor["match"]["held"] == ["validate"] and set(poor["match"]["missing"]) == {"kubernetes", "autoscaler"}
    assert poor["weak"].startswith("nothing matched well") and "kubernetes" in poor["weak"]
    none = search(repo, "database migration rollback", mode="keyword")
    assert none["total"] == 0 and none["match"]["share"] == 0.0 and none["weak"].startswith("nothing matched")
    # a report is judged by its code words the index holds: its own identifiers, or another project's
    own = "The adapter never retries.\nCalling `Adapter.send` with max_retries set sends once;\nsee web/adapter.py\n"
    other = "The blueprint never registers.\nCalling `Blueprint.register` with url_prefix set fails;\nsee flask/app.py\n"
    assert search(repo, own)["match"]["weak"] is False
    foreign = search(repo, other)
    assert foreign["match"]["basis"] == "index" and foreign["match"]["weak"] is True and "weak" in foreign
    assert "blueprint" in foreign["match"]["missing"]


def test_the_cli_footer_says_nothing_matched_well(repo):
    from typer.testing import CliRunner

    from lore.cli import app

    res = CliRunner().invoke(app, ["search", "kubernetes autoscaler validate", "--db", str(repo), "--mode", "keyword"])
    text = " ".join(res.output.split())  # the footer wraps at the terminal's width
    assert res.exit_code == 0 and "nothing matched well" in text and "kubernetes" in text
