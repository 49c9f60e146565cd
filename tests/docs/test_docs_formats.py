"""Formats by content: reST and Markdown written as .txt, plain text, PDF, all in one folder, cited right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.cli import app as lore_app
from lore.docs import search_docs, search_similar
from lore.docs.chunking import detect_source_type, document_title, sniff_markup

from .mixed import MARKDOWN_AS_TXT, PLAIN, RST_AS_TXT, write_mixed

pytest.importorskip("pypdf")
runner = CliRunner()


def test_sniffing():
    assert sniff_markup(RST_AS_TXT) == "rst" and sniff_markup(MARKDOWN_AS_TXT) == "markdown"
    assert sniff_markup(PLAIN) == "text"
    assert detect_source_type(RST_AS_TXT, "x.txt") == "rst"
    assert detect_source_type(RST_AS_TXT, "x.md") == "markdown"  # an explicit extension is trusted
    assert document_title(RST_AS_TXT, source_type="rst") == "Cache backends"
    # even read as plain text, a title is never an adornment line
    assert document_title("=====\nTitle\n=====\n", source_type="text") == "Title"


@pytest.fixture
def mixed_db(tmp_path: Path) -> Path:
    docs = write_mixed(tmp_path)
    db = tmp_path / ".lore" / "index.db"
    res = runner.invoke(lore_app, ["docs", "add", str(docs), "--embedder", "hashing", "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["added"] == 5 and out["skipped"] == 0
    return db


def _chunks(db: Path, query: str) -> list[dict]:
    return search_docs(db, query, mode="keyword", limit=100)["results"]


def test_rst_in_txt_gets_titles_and_sections(mixed_db: Path):
    hits = _chunks(mixed_db, "createcachetable")
    assert hits[0]["document"]["title"] == "Cache backends"
    assert hits[0]["breadcrumb"] == "Cache backends > Database caching"
    assert hits[0]["citations"][0]["source_type"] == "rst"
    memcached = _chunks(mixed_db, "PyMemcacheCache")[0]
    assert memcached["breadcrumb"] == "Cache backends > Memcached" and "CACHES" in memcached["content"]


def test_markdown_in_txt_and_plain_text(mixed_db: Path):
    hit = _chunks(mixed_db, "collectstatic")[0]
    assert (hit["document"]["title"], hit["breadcrumb"]) == ("Deployment checklist", "Deployment checklist > Static files")
    note = _chunks(mixed_db, "signing keys")[0]
    assert note["citations"][0]["source_type"] == "text" and note["breadcrumb"] == ""
    assert note["document"]["title"] == "Meeting notes, Tuesday."


@pytest.mark.parametrize(
    ("query", "source_file", "source_type", "page", "section"),
    [
        ("nightly volume snapshots kept thirty days", "docs/ops.pdf", "pdf", 2, None),
        ("database cache table createcachetable", "docs/caching.txt", "rst", None, "Cache backends > Database caching"),
        ("collectstatic static files", "docs/deploy.txt", "md", None, "Deployment checklist > Static files"),
        ("rotate the signing keys", "docs/notes.txt", "txt", None, None),
        ("log every request latency", "docs/guide.md", "md", None, "Guide > Logging"),
    ],
)
def test_search_similar_cites_every_format(mixed_db: Path, query, source_file, source_type, page, section):
    top = search_similar(mixed_db, query, limit=1)["documents"][0]
    assert (top["source_file"], top["source_type"], top["page_number"]) == (source_file, source_type, page)
    meta = json.loads(top["metadata"])
    assert meta.get("section") == section
    res = runner.invoke(lore_app, ["docs", "similar", query, "--db", str(mixed_db), "--json", "-n", "1"])
    assert json.loads(res.output)["documents"][0] == top
