"""PDF documents: text per page, page numbers in citations, clear skip reasons (encrypted, scanned, broken)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.cli import app as lore_app
from lore.docs import add_documents, search_docs, search_similar
from lore.docs.pdf import chunk_pages, read_pdf

from .pdfgen import write_encrypted_pdf, write_pdf

pytest.importorskip("pypdf")
runner = CliRunner()

MANUAL = [
    ["Widget manual", "Installing the widget needs a screwdriver and ten minutes."],
    None,  # a full-page figure: no text, but it still counts as page 2
    ["Retries", "The widget retries failed uploads with exponential backoff."],
    ["Cleaning", "Wipe the widget with a dry cloth; never immerse it in water."],
]


def test_read_pdf_pages_and_title(tmp_path: Path):
    pdf = read_pdf(write_pdf(tmp_path / "m.pdf", MANUAL, title="Widget Manual v2"))
    assert pdf.skip_reason == "" and pdf.title == "Widget Manual v2" and len(pdf.pages) == 4
    assert pdf.pages[1] == "" and "exponential backoff" in pdf.pages[2]
    chunks = chunk_pages(pdf.pages)
    assert [c.page for c in chunks] == [1, 3, 4]
    assert all(pdf.text[c.start_char : c.end_char] == c.content for c in chunks)
    assert [c.chunk_index for c in chunks] == [0, 1, 2] and {c.total_chunks for c in chunks} == {3}


def test_long_page_is_cut_but_never_across_pages(tmp_path: Path):
    long_page = [f"Line {i} of the long page says something about widgets and gears." for i in range(80)]
    pdf = read_pdf(write_pdf(tmp_path / "long.pdf", [long_page, ["Short last page."]]))
    chunks = chunk_pages(pdf.pages, max_chars=400, overlap=40)
    assert len(chunks) > 5 and max(len(c.content) for c in chunks) <= 400
    assert {c.page for c in chunks[:-1]} == {1} and chunks[-1].page == 2 and chunks[-1].content == "Short last page."


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: write_pdf(p, [None, None]), "no text layer in 2 page(s), probably a scan; run OCR"),
        (lambda p: write_encrypted_pdf(p, [["secret plans"]]), "encrypted PDF that needs a password"),
        (lambda p: p.write_bytes(b"%PDF-1.4\nnot really a pdf\n") and p, "not a readable PDF"),
    ],
)
def test_unreadable_pdfs_are_skipped_with_a_reason(tmp_path: Path, make, reason):
    path = tmp_path / "docs" / "bad.pdf"
    path.parent.mkdir()
    make(path)
    assert reason in read_pdf(path).skip_reason
    out = add_documents(tmp_path, [tmp_path / "docs"], embedder="hashing")
    assert out["skipped"] == 1 and out["added"] == 0 and out["chunks"] == 0
    assert out["documents"] == [{"path": "docs/bad.pdf", "status": "skipped", "reason": read_pdf(path).skip_reason}]


def test_empty_user_password_opens(tmp_path: Path):
    pdf = read_pdf(write_encrypted_pdf(tmp_path / "open.pdf", [["readable by anyone"]], password=""))
    assert pdf.skip_reason == "" and pdf.pages == ["readable by anyone"]


def test_cli_add_pdf_then_cite_pages(tmp_path: Path):
    write_pdf(tmp_path / "manual.pdf", MANUAL, title="Widget Manual v2")
    write_pdf(tmp_path / "scan.pdf", [None])
    db = str(tmp_path / ".lore" / "index.db")
    res = runner.invoke(lore_app, ["docs", "add", str(tmp_path / "manual.pdf"), str(tmp_path / "scan.pdf"),
                                   "--embedder", "hashing", "--db", db])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "1 added" in res.output and "1 skipped" in res.output
    assert "skipped scan.pdf: no text layer" in res.output
    hit = search_docs(db, "exponential backoff", mode="keyword")["results"][0]
    cite = hit["citations"][0]
    assert (cite["source_file"], cite["source_type"], cite["page"]) == ("manual.pdf", "pdf", 3)
    assert hit["document"]["title"] == "Widget Manual v2"
    res = runner.invoke(lore_app, ["docs", "similar", "wipe with a dry cloth", "--db", db, "--json", "-n", "1"])
    doc = json.loads(res.output)["documents"][0]
    assert (doc["source_type"], doc["page_number"], doc["chunk_index"], doc["total_chunks"]) == ("pdf", 4, 2, 3)
    # unchanged bytes: not parsed again
    again = add_documents(db, [tmp_path / "manual.pdf"], embedder="hashing")
    assert again["unchanged"] == 1 and again["embedded"] == 0
    assert search_similar(db, "screwdriver", limit=1)["documents"][0]["page_number"] == 1
