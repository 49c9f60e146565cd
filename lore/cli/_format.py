"""Output a person reads, and output a script reads: graph rows fitted to 100 columns, or CSV / TSV.

A rich table of six columns folds qualified names and ``why`` text into tall, narrow cells; here a
row is one line (id, score, symbol, kind, location) with its ``why`` wrapped beneath it, long paths
and names elided in the middle, so ``lore graph related`` reads in a 100-column terminal.
"""

from __future__ import annotations

import csv
import shutil
import sys
import textwrap
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
         7  0.5     pkg.mod.…r.handle  method  pkg/mod.py:12
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
        loc = elide(loc, max(12, min(len(loc), room // 2)))
        symbol = elide(symbol, max(12, room - len(loc)))
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
