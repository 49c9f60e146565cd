"""Split markdown, reStructuredText and plain text into overlapping chunks with breadcrumbs.

Sections start at h1-h3 headings (deeper headings stay inside their section). A section longer
than ``max_chars`` is cut at the last blank line before the limit (looking back at most half a
chunk), else at the last line break, else at the last space; a cut never falls inside a fenced code
block (markdown ```` ``` ```` / ``~~~``) or an indented rst literal block, so a block longer than the
limit makes one oversized chunk rather than a broken one (a lead-in shorter than a quarter of the
limit stays with its block). Consecutive chunks of a section overlap by about ``overlap``
characters, starting on a line or word boundary; no overlap is carried into a chunk where it would
push a code block that fits the limit over it. Plain text has no headings: it is cut at paragraph
boundaries only. CRLF line endings read like LF.

Every chunk is an exact slice of the source text: ``text[chunk.start_char:chunk.end_char] ==
chunk.content``, so citations can point back into the file.

Examples
--------
>>> text = "# Guide\\n\\nIntro.\\n\\n## Install\\n\\nRun pip.\\n"
>>> [(c.breadcrumb, c.content) for c in chunk_text(text, source_type="markdown")]
[('Guide', '# Guide\\n\\nIntro.'), ('Guide > Install', '## Install\\n\\nRun pip.')]
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InvalidArgumentError

CHUNKER_VERSION = "chunker-3"  # bump when the same text would be cut differently (3: .txt sniffed for markup)
DEFAULT_MAX_CHARS = 1500
DEFAULT_OVERLAP = 150
SOURCE_TYPES = ("markdown", "rst", "text", "pdf")  # pdf: page text, cut like plain text
_EXTENSIONS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".txt": "text",
    ".text": "text",
    ".pdf": "pdf",
}
DOC_EXTENSIONS = tuple(sorted(_EXTENSIONS))


@dataclass(frozen=True)
class Chunk:
    """One chunk: an exact slice ``[start_char, end_char)`` of its document."""

    chunk_index: int
    total_chunks: int
    breadcrumb: str
    content: str
    start_char: int
    end_char: int
    page: int | None = None


@dataclass(frozen=True)
class _Section:
    start: int
    end: int
    crumbs: tuple[str, ...]


def source_type_for(path: str | Path) -> str:
    """``markdown`` / ``rst`` / ``text`` / ``pdf`` from a file name (unknown extensions are text)."""
    return _EXTENSIONS.get(Path(path).suffix.lower(), "text")


_SNIFF_RST = (
    (re.compile(r"^\.\. [\w:-]+::", re.M), 3),  # directive
    (re.compile(r"^\.\. _[^:`\n]+:\s*$", re.M), 3),  # label
    (re.compile(r":[a-z][\w:.-]*:`[^`\n]+`"), 2),  # role
    (re.compile(r"^([^\w\s])\1{2,}[ \t]*\n[^\n]*\S[^\n]*\n\1{3,}[ \t]*$", re.M), 3),  # overlined title
    (re.compile(r"^\S[^\n]*\n([=\-~^\"'`#*+:.])\1{2,}[ \t]*$", re.M), 1),  # underlined title (md has = and -)
    (re.compile(r"``[^`\n]+``"), 1),  # inline literal
)
_SNIFF_MD = (
    (re.compile(r"^ {0,3}#{1,6}[ \t]+\S", re.M), 3),  # ATX heading
    (re.compile(r"^ {0,3}(```|~~~)", re.M), 3),  # fence
    (re.compile(r"!?\[[^\]\n]+\]\([^)\s]+\)"), 2),  # inline link
    (re.compile(r"^ {0,3}[-*] \[[ x]\] ", re.M), 2),  # task list
)


def sniff_markup(text: str, *, sample: int = 20_000) -> str:
    """``rst``, ``markdown`` or ``text``: what the first ``sample`` characters are written in.

    Each markup scores its own constructs (reST: directives, labels, roles, over- and underlined
    titles, double-backquote literals; Markdown: ``#`` headings, fences, links); the higher score wins,
    and a text with none of them is plain. Underlined titles count for reST (Markdown setext
    headings are the same two lines, and the reST reader parses them alike).

    >>> sniff_markup("=====\\nTitle\\n=====\\n\\nSee :doc:`intro`.\\n")
    'rst'
    >>> sniff_markup("# Title\\n\\n```py\\nx = 1\\n```\\n")
    'markdown'
    >>> sniff_markup("Just a note.\\n\\nAnother line.\\n")
    'text'
    """
    head = text[:sample].replace("\r\n", "\n")
    rst = sum(weight * len(p.findall(head)) for p, weight in _SNIFF_RST)
    md = sum(weight * len(p.findall(head)) for p, weight in _SNIFF_MD)
    if not rst and not md:
        return "text"
    return "markdown" if md > rst else "rst"


def detect_source_type(text: str, path: str | Path) -> str:
    """The format to chunk ``text`` as: ``.md``/``.rst``/``.pdf`` by extension, anything else by content.

    Django's documentation, for one, is reStructuredText in ``.txt`` files.

    >>> detect_source_type("Title\\n=====\\n\\n.. note::\\n\\n   Hi.\\n", "intro.txt")
    'rst'
    >>> detect_source_type("plain words\\n", "notes.md")
    'markdown'
    """
    by_name = source_type_for(path)
    return by_name if by_name != "text" else sniff_markup(text)


def check_chunk_sizes(max_chars: int, overlap: int) -> None:
    if max_chars < 100:
        raise InvalidArgumentError(f"max_chars must be at least 100, got {max_chars}")
    if not 0 <= overlap <= max_chars // 2:
        raise InvalidArgumentError(
            f"overlap must be between 0 and max_chars/2 ({max_chars // 2}), got {overlap}"
        )


# ---------------------------------------------------------------- headings and protected blocks

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$|^ {0,3}(#{1,6})[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RST_ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_RST_ROLE = re.compile(r":[\w:.-]+:`([^`<]*?)(?:\s*<[^>]*>)?`")


def clean_heading(text: str) -> str:
    """Heading text without inline markup: ``Using `pip` [here](x)`` -> ``Using pip here``.

    >>> clean_heading(":func:`flask.Flask.run` and ``app``")
    'flask.Flask.run and app'
    """
    text = _MD_LINK.sub(r"\1", text)
    text = _RST_ROLE.sub(r"\1", text)
    text = re.sub(r"`+([^`]*)`+_?", r"\1", text)
    text = re.sub(r"(\*\*|__|\*)(\S.*?)\1", r"\2", text)
    return " ".join(text.split())


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()
    return starts


def _lines(text: str) -> list[str]:
    """The lines of ``text`` without their ``\\r`` (so CRLF files read like LF files; offsets are kept)."""
    return [line.rstrip("\r") for line in text.split("\n")]


def _markdown_structure(text: str) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """(heading offset, level, title) and protected (start, end) spans of fenced code blocks."""
    lines = _lines(text)
    starts = _line_starts(text)
    headings: list[tuple[int, int, str]] = []
    fences: list[tuple[int, int]] = []
    fence: tuple[str, int, int] | None = None  # (char, length, start offset)
    for i, line in enumerate(lines[: len(starts)]):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= fence[1] and not line.strip(" `~"):
                fences.append((fence[2], starts[i] + len(line)))
                fence = None
            continue
        if m:
            fence = (m.group(1)[0], len(m.group(1)), starts[i])
            continue
        h = _ATX.match(line)
        if h:
            level = len(h.group(1) or h.group(3))
            headings.append((starts[i], level, clean_heading(h.group(2) or "")))
            continue
        # setext heading: a text line underlined with === (h1) or --- (h2)
        if (
            i + 1 < len(lines)
            and line.strip()
            and not line.startswith(("    ", "\t", ">", "-", "*", "+", "|"))
        ):
            under = lines[i + 1].strip()
            if under and len(under) >= 2 and (set(under) == {"="} or set(under) == {"-"}):
                prev_blank = (
                    i == 0 or not lines[i - 1].strip() or headings and headings[-1][0] == starts[i - 1]
                )
                if prev_blank:
                    headings.append((starts[i], 1 if under[0] == "=" else 2, clean_heading(line)))
    if fence is not None:
        fences.append((fence[2], len(text)))
    return headings, fences


def _rst_structure(text: str) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """(heading offset, level, title) and protected spans of indented literal / directive blocks."""
    lines = _lines(text)
    starts = _line_starts(text)
    n = len(starts)
    styles: list[tuple[str, bool]] = []
    headings: list[tuple[int, int, str]] = []
    blocks: list[tuple[int, int]] = []
    i = 0
    while i < n:
        line = lines[i]
        # a line ending in '::' (a literal block or a directive) protects the indented block after it
        if line.rstrip().endswith("::"):
            j = i + 1
            last = i
            while j < n and (not lines[j].strip() or lines[j][:1] in (" ", "\t")):
                if lines[j].strip():
                    last = j
                j += 1
            if last > i:
                blocks.append((starts[i], starts[last] + len(lines[last])))
                i = last + 1
                continue
        # overline + title + underline
        if (
            _RST_ADORN.match(line)
            and i + 2 < n
            and lines[i + 1].strip()
            and not _RST_ADORN.match(lines[i + 1])
            and lines[i + 2].strip() == line.strip()
        ):
            style = (line[0], True)
            title = lines[i + 1].strip()
            if style not in styles:
                styles.append(style)
            headings.append((starts[i], styles.index(style) + 1, clean_heading(title)))
            i += 3
            continue
        if (
            line.strip()
            and not line.startswith((" ", "\t"))
            and not _RST_ADORN.match(line)
            and i + 1 < n
            and _RST_ADORN.match(lines[i + 1])
            and len(lines[i + 1].rstrip()) >= len(line.rstrip())
            and (i == 0 or not lines[i - 1].strip())
        ):
            style = (lines[i + 1][0], False)
            if style not in styles:
                styles.append(style)
            headings.append((starts[i], styles.index(style) + 1, clean_heading(line)))
            i += 2
            continue
        i += 1
    return [(_label_start(lines, starts, pos), level, title) for pos, level, title in headings], blocks


_RST_TARGET = re.compile(r"^\.\. _[^:`]+:\s*$")


def _label_start(lines: list[str], starts: list[int], pos: int) -> int:
    """Move a section start back over the ``.. _label:`` lines that name it (they belong to it)."""
    i = bisect.bisect_left(starts, pos)
    j, first = i - 1, i
    while j >= 0 and (not lines[j].strip() or _RST_TARGET.match(lines[j])):
        if lines[j].strip():
            first = j
        j -= 1
    return starts[first]


def _sections(text: str, headings: list[tuple[int, int, str]], max_level: int = 3) -> list[_Section]:
    cuts = [(pos, level, title) for pos, level, title in headings if level <= max_level]
    sections: list[_Section] = []
    path: list[tuple[int, str]] = []
    prev_start, prev_crumbs = 0, ()
    for pos, level, title in cuts:
        if pos > prev_start:
            sections.append(_Section(prev_start, pos, prev_crumbs))
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, title))
        prev_start, prev_crumbs = pos, tuple(t for _, t in path if t)
    sections.append(_Section(prev_start, len(text), prev_crumbs))
    return sections


# ---------------------------------------------------------------- cutting


def _inside(pos: int, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The protected span strictly containing ``pos`` (a cut at its edges is fine)."""
    for s, e in spans:
        if s < pos < e:
            return s, e
        if s >= pos:
            break
    return None


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")


def _last_break(text: str, floor: int, limit: int, spans: list[tuple[int, int]]) -> int:
    """The last paragraph break (blank line), else line break, else space in ``[floor, limit)`` outside
    protected spans, or -1."""
    best = -1
    for m in _BLANK_LINE.finditer(text, floor, limit):
        if not _inside(m.start(), spans):
            best = m.start()
    if best != -1:
        return best
    for pattern in ("\n", " "):
        pos = text.rfind(pattern, floor, limit)
        while pos != -1 and _inside(pos, spans):
            pos = text.rfind(pattern, floor, pos)
        if pos != -1:
            return pos
    return -1


def _find_cut(text: str, start: int, end: int, max_chars: int, spans: list[tuple[int, int]]) -> int:
    """Where to end a chunk that starts at ``start`` in a section ending at ``end``."""
    limit = start + max_chars
    pos = _last_break(text, start + max_chars // 2, limit, spans)
    if pos > start:
        return pos
    span = _inside(limit, spans)
    if span is not None:  # the limit falls in a code block: end before it, or keep a short lead-in with it
        return span[0] if span[0] > start + max_chars // 4 else min(span[1], end)
    return limit


def _overlap_start(
    text: str, cut: int, prev_start: int, overlap: int, max_chars: int, spans: list[tuple[int, int]]
) -> int:
    if overlap <= 0:
        return cut
    pos = max(cut - overlap, prev_start + 1)
    nl = text.find("\n", pos, cut)
    if nl != -1:
        pos = nl + 1
    else:
        sp = text.find(" ", pos, cut)
        pos = sp + 1 if sp != -1 else cut
    span = _inside(pos, spans)
    if span is not None:  # never start a chunk in the middle of a code block
        pos = min(span[1], cut)
    # no overlap where it would push a code block that fits the limit on its own over it
    nxt = next(((s, e) for s, e in spans if s >= cut), None)
    if nxt is not None and nxt[0] <= cut + max_chars // 4 and nxt[1] - pos > max_chars >= nxt[1] - cut:
        return cut
    return pos


def _cut_section(
    text: str, sec: _Section, max_chars: int, overlap: int, spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    start, end = _strip_span(text, sec.start, sec.end)
    pieces: list[tuple[int, int]] = []
    while start < end:
        if end - start <= max_chars:
            pieces.append((start, end))
            break
        cut = _find_cut(text, start, end, max_chars, spans)
        s, e = _strip_span(text, start, cut)
        if e > s:
            pieces.append((s, e))
        if cut >= end:
            break
        nxt = _overlap_start(text, cut, start, overlap, max_chars, spans)
        nxt, _ = _strip_span(text, nxt, end)
        start = nxt if nxt > start else cut
    return pieces


def chunk_text(
    text: str,
    *,
    source_type: str = "markdown",
    max_chars: int = DEFAULT_MAX_CHARS,
    overlap: int = DEFAULT_OVERLAP,
) -> list[Chunk]:
    """Chunks of ``text`` (see the module docstring).

    Parameters
    ----------
    text : str
        The whole document.
    source_type : {"markdown", "rst", "text"}
        How to find headings and code blocks; ``text`` cuts by paragraphs only.
    max_chars : int
        Size limit of a chunk (a code block longer than this stays whole).
    overlap : int
        Characters repeated from the end of one chunk at the start of the next in a section.

    Examples
    --------
    >>> chunks = chunk_text("one\\n\\n" * 300, source_type="text", max_chars=200, overlap=20)
    >>> len(chunks) > 5, max(len(c.content) for c in chunks) <= 200
    (True, True)
    """
    if source_type not in SOURCE_TYPES:
        raise InvalidArgumentError(
            f"unknown source type {source_type!r}; choose one of: {', '.join(SOURCE_TYPES)}"
        )
    check_chunk_sizes(max_chars, overlap)
    if source_type == "markdown":
        headings, spans = _markdown_structure(text)
    elif source_type == "rst":
        headings, spans = _rst_structure(text)
    else:
        headings, spans = [], []
    pieces: list[tuple[int, int, str]] = []
    for sec in _sections(text, headings):
        crumb = " > ".join(sec.crumbs)
        for s, e in _cut_section(text, sec, max_chars, overlap, spans):
            pieces.append((s, e, crumb))
    total = len(pieces)
    return [Chunk(i, total, crumb, text[s:e], s, e) for i, (s, e, crumb) in enumerate(pieces)]


def document_title(text: str, *, source_type: str, fallback: str = "") -> str:
    """The first h1 (or the first heading of any level), else the first non-empty line, else ``fallback``.

    >>> document_title("intro\\n\\n# Real title\\n", source_type="markdown")
    'Real title'
    """
    if source_type == "markdown":
        headings, _ = _markdown_structure(text)
    elif source_type == "rst":
        headings, _ = _rst_structure(text)
    else:
        headings = []
    if headings:
        best = min(headings, key=lambda h: (h[1], h[0]))
        if best[2]:
            return best[2]
    if source_type in ("text", "pdf"):
        for line in text.splitlines():
            if line.strip() and not _RST_ADORN.match(line.strip()):  # never a title of '=====' alone
                return line.strip()[:120]
    return fallback
