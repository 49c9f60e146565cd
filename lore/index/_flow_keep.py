"""Keeping the solution of values that travel (:mod:`._flow`) from one index run to the next.

Solving the flow reads every file of the index (about 1.5 s on Django), and the solution depends on
every file, so a refresh would pay that for a one-line edit. Most edits do not change what the
resolver reads, only where things are: a changed body, a comment, a docstring, a line inserted above.

:func:`shape` is a digest of what resolution reads from a file with every position replaced by the
order of the records and which of them share a line (lookups only ever compare lines: a binding is
visible to a use on the same or a later line). Two versions of a file with the same shape resolve
identically, so when every changed file of a refresh keeps its shape (and no file is added or
removed), the solution the last run stored (:func:`save`, in the same transaction as the rows it
describes) is the solution of this run too (:func:`load`). Anything else solves again from scratch.
The stored solution names the resolver's source it came from, so a lore upgrade never reuses one.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from functools import cache
from pathlib import Path

from ..parsers.records import ParsedFile
from ..store import db as store_db
from ._flow import _STAR

META_KEY = "flow_solution"
_LAMBDA = re.compile(r"<lambda:(\d+):(\d+)>")
# the code that decides the solution: every module of the resolver's package and of the languages' rules (a list
# of chosen modules went stale as rules moved into new ones: _members, _keys_params, _given ... were missing)
_RESOLVER_PACKAGES = ("index", "languages")

Solution = dict[tuple[int, int], "set | None"]
Subclasses = dict[int, list[int]]


def shape(pf: ParsedFile) -> str:
    """A digest of the records of ``pf`` as resolution reads them, positions replaced by their order.

    Examples
    --------
    >>> from lore.languages import parse_source
    >>> a = parse_source("m.py", b"def f(cb):\\n    cb()\\n", "python", "m")
    >>> b = parse_source("m.py", b"# moved down\\n\\ndef f(cb):\\n    # a comment\\n    cb()\\n", "python", "m")
    >>> c = parse_source("m.py", b"def f(cb):\\n    cb(f)\\n", "python", "m")
    >>> shape(a) == shape(b), shape(a) == shape(c)
    (True, False)
    """
    lambdas = {(s.start_line, s.start_col): i for i, s in enumerate(pf.symbols) if s.name == "<lambda>"}

    def named(text: str) -> str:  # a lambda named by its position: named by its record instead
        if "<lambda:" not in text:
            return text
        return _LAMBDA.sub(lambda m: f"<lambda#{lambdas.get((int(m[1]), int(m[2])), -1)}>", text)

    items: list[tuple[int, int, int, int, tuple]] = []
    for i, s in enumerate(pf.symbols):
        # a definition's signature is read for its ``*args`` only (a comment after the colon is part of
        # the text); a module's and a declaration's as written (Go's package clause, Rust's ``impl``)
        sig = s.signature if s.parent is None or s.is_declaration else _STAR.findall(s.signature.split("->")[0])
        items.append((0 if s.parent is None else s.start_line, s.start_col, 0, i, (  # a module has no place
            "s", s.name, named(s.qualified_name), s.kind, s.parent, sig,
            [(p, named(a)) for p, a in s.params], named(s.return_type), [named(d) for d in s.decorators],
            s.exported, s.is_declaration)))
    for i, c in enumerate(pf.calls):
        items.append((c.line, c.col, 1, i, ("c", c.caller, named(c.callee), c.kind, [named(a) for a in c.args])))
    for i, t in enumerate(pf.type_refs):
        items.append((t.line, t.col, 2, i, ("t", t.owner, named(t.type_name), t.kind)))
    for i, imp in enumerate(pf.imports):
        items.append((imp.line, 0, 3, i, ("i", imp.owner, imp.module, imp.name, imp.alias, imp.level)))
    for i, r in enumerate(pf.relations):
        items.append((r.line, 0, 4, i, ("r", r.source, named(r.target), r.kind)))
    for i, b in enumerate(pf.bindings):
        items.append((b.line, 0, 5, i, ("b", b.owner, b.name, named(b.annotation), named(b.value),
                                         named(b.alias_of), b.scope, b.until, b.branch_end, b.shut)))
    items.sort(key=lambda it: it[:4])
    out: list = [pf.language, pf.module, pf.all_names]
    last = None
    for line, _col, _kind, _i, rec in items:
        out.append((line == last, rec))  # the order, and which records share a line: all lookups compare
        last = line
    return hashlib.sha1(json.dumps(out, separators=(",", ":")).encode()).hexdigest()


def resolver_files() -> list[Path]:
    """The source files whose code decides a stored solution (see :data:`_RESOLVER_PACKAGES`), sorted."""
    top = Path(__file__).parent.parent
    return sorted(p for pkg in _RESOLVER_PACKAGES for p in (top / pkg).rglob("*") if p.suffix in (".py", ".scm"))


@cache
def resolver_version() -> str:
    """A digest of the resolver's own source: a stored solution is only as good as the code that solved it."""
    h = hashlib.sha1()
    top = Path(__file__).parent.parent
    files = resolver_files()
    if not files:  # an installation without sources: never reuse
        return ""
    for p in files:
        try:
            h.update(p.relative_to(top).as_posix().encode() + b"\0" + p.read_bytes())
        except OSError:
            return ""
    return h.hexdigest()


def save(conn: sqlite3.Connection, solution: Solution, subclasses: Subclasses) -> None:
    """Store ``solution`` (parameter -> values, ``None`` for too many) and the subclass index (class ->
    its direct subclasses: resolving every class's bases reads most files too) beside the rows they
    were computed from."""
    version = resolver_version()
    if not version:
        return
    params = [[fid, idx, None if vals is None else sorted([tag, payload] for tag, payload in vals)]
              for (fid, idx), vals in sorted(solution.items())]
    subs = sorted([base, kids] for base, kids in subclasses.items())
    store_db.set_meta(conn, META_KEY, json.dumps({"resolver": version, "params": params, "subclasses": subs},
                                                 separators=(",", ":")))


def load(conn: sqlite3.Connection) -> tuple[Solution, Subclasses] | None:
    """What the last run stored, or ``None`` (none stored, another resolver's, unreadable)."""
    raw = store_db.get_meta(conn, META_KEY)
    if not raw:
        return None
    try:
        got = json.loads(raw)
        if got.get("resolver") != resolver_version() or not got["resolver"]:
            return None
        solution = {(int(fid), int(idx)): None if vals is None else {(str(tag), int(payload)) for tag, payload in vals}
                    for fid, idx, vals in got["params"]}
        return solution, {int(base): [int(k) for k in kids] for base, kids in got["subclasses"]}
    except (ValueError, TypeError, KeyError):
        return None
