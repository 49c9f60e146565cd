from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.docs.chunking import chunk_text, clean_heading, document_title, source_type_for
from lore.errors import InvalidArgumentError

FIXTURES = Path(__file__).parent / "fixtures"


def fenced_blocks(text: str) -> list[str]:
    return re.findall(r"```.*?```", text, flags=re.S)


def test_markdown_breadcrumbs_and_levels():
    text = "# Guide\n\nIntro.\n\n## Install\n\nStep.\n\n### Linux\n\napt.\n\n#### Deep\n\nstays inside.\n\n## Use\n\nGo."
    chunks = chunk_text(text, source_type="markdown")
    assert [c.breadcrumb for c in chunks] == [
        "Guide",
        "Guide > Install",
        "Guide > Install > Linux",
        "Guide > Use",
    ]
    assert "#### Deep" in chunks[2].content  # h4 does not split
    assert [c.chunk_index for c in chunks] == [0, 1, 2, 3]
    assert {c.total_chunks for c in chunks} == {4}


def test_breadcrumb_resets_on_sibling_and_cleans_markup():
    text = "# A\n\n## `B` [x](y)\n\nb\n\n# C\n\n### D\n\nd"
    assert [c.breadcrumb for c in chunk_text(text)] == ["A", "A > B x", "C", "C > D"]


def test_setext_headings():
    text = "Title\n=====\n\nintro\n\nPart\n----\n\nbody"
    assert [c.breadcrumb for c in chunk_text(text)] == ["Title", "Title > Part"]


def test_rst_headings_labels_and_overlines():
    text = (FIXTURES / "errors.rst").read_text()
    chunks = chunk_text(text, source_type="rst")
    assert [c.breadcrumb for c in chunks] == [
        "Error handling",
        "Error handling > Timeouts",
        "Error handling > Retry policy",
        "Error handling > Status codes",
    ]
    assert chunks[2].content.startswith(".. _retry-policy:")  # a label stays with the section it names
    over = "=====\nTitle\n=====\n\nx\n\nSub\n---\n\ny\n"
    assert [c.breadcrumb for c in chunk_text(over, source_type="rst")] == ["Title", "Title > Sub"]


def test_offsets_map_back_to_source():
    for name in ("guide/install.md", "errors.rst", "notes.txt"):
        text = (FIXTURES / name).read_text()
        for c in chunk_text(text, source_type=source_type_for(name), max_chars=120, overlap=20):
            assert text[c.start_char : c.end_char] == c.content


def test_long_section_cut_at_paragraphs_with_overlap():
    paras = [f"Paragraph {i} " + "word " * 40 for i in range(12)]
    text = "# T\n\n" + "\n\n".join(paras)
    chunks = chunk_text(text, max_chars=600, overlap=60)
    assert len(chunks) > 3
    assert all(len(c.content) <= 600 for c in chunks)
    for a, b in zip(chunks, chunks[1:], strict=False):
        assert a.end_char > b.start_char, "consecutive chunks overlap"
        assert a.end_char - b.start_char <= 60 + 1
        assert text[a.end_char - 1] != " " and text[b.start_char - 1] in "\n "  # starts on a boundary
    # all but the last end at a paragraph boundary (blank line after)
    assert all(text[c.end_char :].lstrip(" ").startswith("\n\n") for c in chunks[:-1])


def test_fenced_code_never_split():
    code = "```python\n" + "\n".join(f"x{i} = {i}" for i in range(60)) + "\n```"
    text = "# T\n\n" + "intro " * 50 + "\n\n" + code + "\n\n" + "outro " * 50
    chunks = chunk_text(text, max_chars=300, overlap=30)
    assert any(code in c.content for c in chunks)  # the oversized block stays whole
    for c in chunks:
        assert c.content.count("```") % 2 == 0, c.content


def test_fence_hides_headings():
    text = "# Real\n\n```\n# not a heading\n```\n\n## Next\n\nx"
    assert [c.breadcrumb for c in chunk_text(text)] == ["Real", "Real > Next"]


def test_rst_literal_block_never_split():
    block = "Example::\n\n" + "\n".join(f"    line {i}" for i in range(50)) + "\n\nAfter."
    text = "T\n=\n\n" + "lead " * 40 + "\n\n" + block
    chunks = chunk_text(text, source_type="rst", max_chars=250, overlap=20)
    assert any("line 0" in c.content and "line 49" in c.content for c in chunks)


def test_plain_text_by_paragraphs():
    text = (FIXTURES / "notes.txt").read_text()
    chunks = chunk_text(text, source_type="text", max_chars=100, overlap=0)
    assert [c.breadcrumb for c in chunks] == ["", ""]
    assert chunks[0].content.startswith("Release notes")


def test_titles_and_types():
    assert document_title("# Hello `x`\n", source_type="markdown") == "Hello x"
    assert document_title("plain first line\nmore", source_type="text") == "plain first line"
    assert document_title("", source_type="markdown", fallback="stem") == "stem"
    assert source_type_for("a/B.RST") == "rst" and source_type_for("x.py") == "text"
    assert clean_heading("**Bold** and *it*") == "Bold and it"


def test_bad_sizes():
    with pytest.raises(InvalidArgumentError):
        chunk_text("x", max_chars=10)
    with pytest.raises(InvalidArgumentError):
        chunk_text("x", max_chars=200, overlap=150)
    with pytest.raises(InvalidArgumentError):
        chunk_text("x", source_type="docx")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="abc xyz\n", min_size=0, max_size=300),
            st.sampled_from(["# H1", "## H2", "### H3", "```", "```py\ncode\n```", "\n\n", "    indented"]),
        ),
        max_size=25,
    )
)
def test_invariants_on_random_markdown(parts):
    text = "\n".join(parts)
    chunks = chunk_text(text, max_chars=150, overlap=20)
    for c in chunks:
        assert text[c.start_char : c.end_char] == c.content
        assert c.content.strip() == c.content and c.content
    starts = [c.start_char for c in chunks]
    assert starts == sorted(starts)
    covered = "".join(text[c.start_char : c.end_char] for c in chunks)
    assert len(covered) >= len(text.strip()) - text.count("\n") - text.count(" ")  # nothing big dropped


def test_crlf_reads_like_lf():
    lf = "# A\n\n```\n# not a heading\n```\n\n## B\n\n" + "\n\n".join("word " * 30 for _ in range(8))
    crlf = lf.replace("\n", "\r\n")
    a = chunk_text(lf, max_chars=400, overlap=40)
    b = chunk_text(crlf, max_chars=400, overlap=40)
    assert [c.breadcrumb for c in b] == [c.breadcrumb for c in a] == ["A"] + ["A > B"] * (len(a) - 1)
    assert [c.content.replace("\r\n", "\n") for c in b] == [c.content for c in a]
    for c in b:
        assert crlf[c.start_char : c.end_char] == c.content
    assert all(crlf[c.end_char :].lstrip(" ").startswith("\r\n\r\n") for c in b[:-1])  # cut at blank lines, not mid-paragraph


def test_overlap_never_pushes_a_fitting_code_block_over_the_limit():
    code = "```python\n" + "x = 1\n\n" * 40 + "```"  # 290 characters: fits a 300-character chunk alone
    text = "# T\n\n" + "\n\n".join("lead " * 12 for _ in range(6)) + "\n\n" + code + "\n\nafter."
    chunks = chunk_text(text, max_chars=300, overlap=60)
    holding = [c for c in chunks if "```python" in c.content]
    assert len(holding) == 1 and code in holding[0].content
    assert all(len(c.content) <= 300 for c in chunks)
    before = chunks[chunks.index(holding[0]) - 1]
    assert holding[0].start_char >= before.end_char  # the block's chunk starts at the block, no overlap


def test_default_sizes():
    from lore.docs.chunking import DEFAULT_MAX_CHARS, DEFAULT_OVERLAP

    assert (DEFAULT_MAX_CHARS, DEFAULT_OVERLAP) == (1500, 150)
    text = "# T\n\n" + "\n\n".join(f"Paragraph {i} " + "word " * 50 for i in range(30))
    chunks = chunk_text(text)
    assert all(len(c.content) <= 1500 for c in chunks) and len(chunks) >= 5
    overlaps = [a.end_char - b.start_char for a, b in zip(chunks, chunks[1:], strict=False)]
    assert all(0 < o <= 151 for o in overlaps)
