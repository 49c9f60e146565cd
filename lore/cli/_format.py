"""Output a person reads, and output a script reads: rows fitted to the terminal, or CSV / TSV.

A rich table folds qualified names into tall, narrow cells broken mid-word; here a graph row is one
line (id, score, symbol, kind, location) with its ``why`` wrapped beneath it, and the other lists
(``lore search``, ``lore docs search``, ``lore graph clusters``) are plain tables fitted to the
terminal's width (100 columns when piped). A name too long for its column is cut in the middle on a
``.`` ``/`` ``_`` boundary (``lore.graphs.…hybrid.explain``: head and tail both readable), text is cut
after a whole word, and nothing is ever broken inside a word that fits its column.
"""

from __future__ import annotations

import csv
import shutil
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from ..errors import InvalidArgumentError
from ._app import fmt_loc, fmt_why, result_footer

MAX_WIDTH = 100
FORMATS = ("table", "csv", "tsv")
COLUMNS = ("id", "qualified_name", "kind", "path", "line", "score", "why")
FormatOpt = Annotated[str, typer.Option("--format", help="table | csv | tsv (rows for scripts; --json has every field).")]


def check_format(fmt: str) -> str:
    """``fmt`` if it is one of :data:`FORMATS`, else a one-line :class:`~lore.errors.InvalidArgumentError`."""
    if fmt not in FORMATS:
        raise InvalidArgumentError(f"unknown --format {fmt!r}; choose from {', '.join(FORMATS)} (or --json)")
    return fmt


def elide(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters by an ellipsis in the middle (both ends stay readable).

    Examples
    --------
    >>> elide("django/contrib/admin/options.py:1204", 24)
    'django/cont…ions.py:1204'
    """
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = (width - 1) // 2
    tail = width - 1 - head
    return text[:head] + "…" + text[len(text) - tail:]


# where a name may be cut: coarse boundaries first (path parts, words), then finer ones (dots, underscores)
PATH_SEPS = "/\\ "
DOT_SEPS = "./\\:>, -"
NAME_SEPS = "./\\_:>, -"
_LEVELS = {PATH_SEPS: (PATH_SEPS, DOT_SEPS, NAME_SEPS), DOT_SEPS: (DOT_SEPS, NAME_SEPS), NAME_SEPS: (DOT_SEPS, NAME_SEPS)}


def _parts(text: str, seps: str) -> list[str]:
    """``text`` split before each word that follows a separator of ``seps`` (parts keep their trailing
    separators); leading underscores stay with their word, so ``__init__`` is one part.

    >>> _parts("Dict.__init__", NAME_SEPS), _parts("a__b/c", NAME_SEPS)
    (['Dict.', '__init__'], ['a__', 'b/', 'c'])
    """
    starts = [0]
    for p in range(1, len(text)):
        if text[p] in seps or text[p - 1] not in seps:
            continue
        r = p
        while r > 0 and text[r - 1] == "_":
            r -= 1
        # an underscore run after a separator (or at the start) opens the word: `.__init__`, `_private`
        starts.append(r if r < p and (r == 0 or text[r - 1] in seps) else p)
    starts = sorted(set(starts))
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True) if text[a:b]]


def elide_name(text: str, width: int, *, seps: str = NAME_SEPS) -> str:
    """``text`` cut to ``width`` by ``…`` in the middle, on separator boundaries only.

    The last part (the name's own) is kept first, with its container when it fits (``…Order.amount``);
    then the shorter of head and tail takes its next part while one fits, so both ends stay readable. Only a single part longer than ``width`` is cut
    inside (by :func:`elide`): there is no boundary to cut at.

    Examples
    --------
    >>> elide_name("lore.graphs.engines.local.hybrid.explain", 29)
    'lore.graphs.…hybrid.explain'
    >>> elide_name("requests/adapters/HTTPAdapter.py:120", 20, seps=PATH_SEPS)
    '…HTTPAdapter.py:120'
    >>> elide_name("pkg.mod.Handler.handle", 30)
    'pkg.mod.Handler.handle'
    """
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    # coarse boundaries first (path parts, dotted names), underscores only when a whole part cannot fit
    for level in _LEVELS.get(seps, (seps,)):
        parts = _parts(text, level)
        if len(parts) > 1 and len(parts[-1]) + 1 <= width:
            break
    else:
        return elide(text, width)
    budget = width - 1
    i, j = 0, len(parts) - 1  # head = parts[:i], tail = parts[j:]
    head, tail = 0, len(parts[j])
    if j > 1 and tail + len(parts[j - 1]) <= budget:  # the name with its container (Order.amount) first
        j -= 1
        tail += len(parts[j])
    blocked = [False, False]  # head, tail
    while i < j and not all(blocked):
        side = 0 if (head <= tail and not blocked[0]) or blocked[1] else 1  # the shorter side grows
        size = len(parts[i] if side == 0 else parts[j - 1])
        if head + tail + size > budget:
            blocked[side] = True
        elif side == 0:
            head, i = head + size, i + 1
        else:
            tail, j = tail + size, j - 1
    if i >= j:  # everything fitted after all
        return text
    return "".join(parts[:i]) + "…" + "".join(parts[j:])


def cut_words(text: str, width: int) -> str:
    """``text`` on one line, cut after the last whole word that fits (``…`` marks the cut).

    Examples
    --------
    >>> cut_words("shop.orders.Order, shop.models.Item, shop.report.summarize", 40)
    'shop.orders.Order, shop.models.Item, …'
    >>> cut_words("a short text", 20)
    'a short text'
    >>> cut_words("requests.structures.CaseInsensitiveDict, requests.models.Request", 30)
    '…CaseInsensitiveDict …'
    """
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    if width <= 1:
        return "…"[:width]
    room = flat[: width - 1]
    cut = room.rfind(" ")
    if cut <= 0:  # the first word alone is too long: cut that one name on its own boundaries
        first, _, rest = flat.partition(" ")
        first = first.rstrip(",;")
        return elide_name(first, width - 2) + " …" if rest else elide_name(first, width)
    head = room[:cut].rstrip()
    if head.endswith((",", ";")):  # a list cut after an item: say more items follow
        return head + " …" if len(head) + 2 <= width else head + "…"
    return head + "…"


@dataclass(frozen=True)
class Column:
    """A table column: ``style`` says how a cell too wide is cut (``fixed`` never, ``name`` / ``path`` in the
    middle on boundaries (``path`` keeps a ``[n/m]`` citation whole), ``crumbs`` whole headings of a
    ``A > B > C`` trail from the end, ``list`` (names joined by commas) after a whole item, ``text`` (prose) after a whole word, ``spill`` (the last column only) not at all: a cell
    that does not fit goes on the lines below its row, wrapped at words); ``min`` is the narrowest it is
    squeezed to."""

    header: str
    style: str = "fixed"
    align: str = "left"
    min: int = 12


def _fit(cell: str, width: int, style: str) -> str:
    """``cell`` cut to ``width`` by ``style`` (see :class:`Column`).

    >>> _fit("docs/user/quickstart.rst [9/19] p.2", 30, "path")
    '…quickstart.rst [9/19] p.2'
    >>> _fit("Advanced Usage > Custom Verbs", 20, "crumbs")
    '… > Custom Verbs'
    """
    if len(cell) <= width:
        return cell
    if style == "name":
        return elide_name(cell, width)
    if style == "path":
        # a citation's "[chunk/total]" (and page) after the path stays whole: only the path is cut
        path, bracket, rest = cell.partition(" [")
        suffix = bracket + rest
        if suffix and len(suffix) + len(path.rsplit("/", 1)[-1]) + 1 <= width:
            return elide_name(path, width - len(suffix), seps=PATH_SEPS) + suffix
        return elide_name(path, width, seps=PATH_SEPS)  # too narrow for both: the file before its chunk
    if style == "crumbs":  # a document's "Guide > Section > Subsection": the innermost headings first
        crumbs = cell.split(" > ")
        for k in range(1, len(crumbs)):
            shown = "… > " + " > ".join(crumbs[k:])
            if len(shown) <= width:
                return shown
        return cut_words(crumbs[-1], width)
    if style == "list":
        return cut_words(cell, width)
    if style == "text":  # prose: after a whole word, unless that leaves too little to read
        cut = cut_words(cell, width)
        return cut if len(cut) >= width // 2 else " ".join(cell.split())[: width - 1] + "…"
    return cell


def table_lines(columns: Sequence[Column], rows: Sequence[Sequence[Any]], *, cols: int) -> list[str]:
    """``rows`` as a header, a rule and one line per row, at most ``cols`` wide where the columns allow it.

    Each column starts at its widest cell; while the table is too wide, the widest column that may be cut
    gives up one character (never below its ``min``); then every cell is fitted by its column's style.

    Examples
    --------
    >>> cols = (Column("id", align="right"), Column("symbol", "name"), Column("kind"))
    >>> for line in table_lines(cols, [("7", "lore.graphs.engines.local.hybrid.explain", "method")], cols=40):
    ...     print(line)
    id  symbol                        kind
    --  ----------------------------  ------
     7  lore.graphs.…hybrid.explain   method
    """
    cells = [tuple(" ".join(str(c).split()) if col.style != "fixed" else str(c) for c, col in zip(r, columns, strict=True))
             for r in rows]
    widths = [max([len(col.header), *(len(r[k]) for r in cells)]) for k, col in enumerate(columns)]
    floor = [len(col.header) if col.style == "fixed" else max(len(col.header), min(col.min, widths[k]))
             for k, col in enumerate(columns)]
    excess = sum(widths) + 2 * (len(columns) - 1) - cols
    while excess > 0:
        # a spilling column first (its cells lose nothing: they move below the row), then prose (a snippet
        # reads cut; a name or a file does not), then the widest
        k = max((k for k in range(len(columns)) if columns[k].style != "fixed" and widths[k] > floor[k]),
                key=lambda k: (columns[k].style == "spill", columns[k].style == "text", widths[k] - floor[k], -k),
                default=None)
        if k is None:  # every column at its narrowest: the line stays longer than cols
            break
        widths[k] -= 1
        excess -= 1

    def line(values: tuple[str, ...]) -> list[str]:
        out, below = [], ""
        for v, w, col in zip(values, widths, columns, strict=True):
            if col.style == "spill" and len(v) > w:
                v, below = "", v
            v = _fit(v, w, col.style)
            out.append(v.rjust(w) if col.align == "right" else v.ljust(w))
        head = ["  ".join(out).rstrip()]
        if below:  # under the second column, like the why lines of `lore graph related`
            indent = " " * (widths[0] + 2 + 2)
            head += textwrap.wrap(below, width=max(cols, len(indent) + 20), initial_indent=indent,
                                  subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        return head

    lines = line(tuple(c.header for c in columns)) + line(tuple("-" * w for w in widths))
    for c in cells:
        lines += line(c)
    return lines


def table_width() -> int:
    """Columns for a table: ``COLUMNS`` if set, else the terminal's, else 100 (piped), and at least 40."""
    return max(40, shutil.get_terminal_size((MAX_WIDTH, 24)).columns)


def print_table(title: str, columns: Sequence[Column], rows: Sequence[Sequence[Any]], footer: str = "") -> None:
    """A title line, :func:`table_lines` fitted to :func:`table_width`, and a footer wrapped to the same width."""
    cols = table_width()
    out = sys.stdout
    out.write(cut_words(title, cols) + "\n")
    for text in table_lines(columns, rows, cols=cols):
        out.write(text + "\n")
    if footer:
        out.write("\n".join(textwrap.wrap(footer, width=cols, break_long_words=False)) + "\n")


def width() -> int:
    """Columns to fit: the terminal's, at most :data:`MAX_WIDTH` (and :data:`MAX_WIDTH` when piped)."""
    if not sys.stdout.isatty():
        return MAX_WIDTH
    return max(40, min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 24)).columns))


def fitted_lines(data: dict[str, Any], *, cols: int = MAX_WIDTH) -> list[str]:
    """A graph envelope as lines of at most ``cols`` characters: one head line per row, its why wrapped below.

    Examples
    --------
    >>> rows = [{"id": 7, "qualified_name": "pkg.mod.Handler.handle", "kind": "method", "path": "pkg/mod.py",
    ...          "line": 12, "score": 0.5, "why": {"shared": [{"relation": "callees", "name": "pkg.util.parse",
    ...          "weight": 0.25}]}}]
    >>> print("\\n".join(fitted_lines({"results": rows}, cols=70)))
         7  0.5     pkg.mod.Handler.handle  method  pkg/mod.py:12
                    callees pkg.util.parse (0.25)
    >>> print("\\n".join(fitted_lines({"results": rows}, cols=56)))
         7  0.5     …Handler.handle  method  pkg/mod.py:12
                    callees pkg.util.parse (0.25)
    """
    lines: list[str] = []
    indent = " " * 16  # under the symbol, past the id and score columns
    for r in data["results"]:
        rid = str(r.get("id") if r.get("id") is not None else "-")
        score = f"{r['score']:.4g}" if isinstance(r.get("score"), float | int) else ""
        head = f"{rid:>6}  {score:<7} "
        symbol = r.get("qualified_name") or r.get("name") or ""
        kind = r.get("kind") or ""
        loc = fmt_loc(r)
        room = cols - len(head) - len(kind) - 4
        # the location gets at most half of what is left; the symbol the rest; each elided in the middle
        loc = elide_name(loc, max(12, min(len(loc), room // 2)), seps=PATH_SEPS)
        symbol = elide_name(symbol, max(12, room - len(loc)))
        lines.append(f"{head}{symbol}  {kind}  {loc}".rstrip()[:cols])
        why = fmt_why(r.get("why"))
        if why:
            lines.extend(textwrap.wrap(why, width=cols, initial_indent=indent, subsequent_indent=indent,
                                       break_on_hyphens=False))
        if r.get("also_at"):  # the definition's other copies (stubs, @overload signatures), folded into this row
            lines.extend(textwrap.wrap("also at " + _places(r["also_at"]), width=cols, initial_indent=indent,
                                       subsequent_indent=indent, break_on_hyphens=False))
    return lines


def _places(places: list[str]) -> str:
    """``path:line`` places with the lines of one path together.

    Examples
    --------
    >>> _places(["pkg/mod.py:4", "pkg/mod.py:6", "pkg/mod.pyi:1"])
    'pkg/mod.py:4, 6; pkg/mod.pyi:1'
    """
    by: dict[str, list[str]] = {}
    for p in places:
        path, _, line = p.rpartition(":")
        by.setdefault(path, []).append(line)
    return "; ".join(f"{path}:{', '.join(lines)}" for path, lines in by.items())


def print_fitted(title: str, data: dict[str, Any]) -> None:
    """:func:`fitted_lines` under a title, with the same footer as the table form."""
    cols = width()
    out = sys.stdout
    out.write(elide(title, cols) + "\n")
    for line in fitted_lines(data, cols=cols):
        out.write(line + "\n")
    out.write("\n".join(textwrap.wrap(result_footer(data), width=cols)) + "\n")


def write_delimited(rows: list[dict[str, Any]], fmt: str, columns: tuple[str, ...] = COLUMNS) -> None:
    """Rows as CSV or TSV on stdout, a header first; ``why`` as its one-line text, lists joined by ``;``."""
    delim = "\t" if fmt == "tsv" else ","
    w = csv.writer(sys.stdout, delimiter=delim, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        cells = []
        for c in columns:
            v = r.get(c)
            if c == "why":
                v = fmt_why(v)
            elif isinstance(v, list):
                v = ";".join(str(x.get("qualified_name", x) if isinstance(x, dict) else x) for x in v)
            elif isinstance(v, float):
                v = f"{v:.6g}"
            text = "" if v is None else str(v)
            cells.append(text.replace("\t", " ").replace("\n", " ") if fmt == "tsv" else text)
        w.writerow(cells)
