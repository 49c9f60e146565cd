"""Hunks of old commits mapped onto today's definitions by carrying their lines forward, as blame does.

The miner (:mod:`lore.index.history`) walks the commits newest first. For every file it keeps a
:class:`LineMap`: where each line of the version a commit left sits in today's file. A commit's
hunks (``-a,b +c,d`` of ``git log -p -U0``) say how the version before it became the version after
it: the lines outside its hunks moved by the lines added and removed above them, the ``b`` lines of a
hunk were replaced by its ``c..c+d-1``. So the map of the older version is the newer map composed
with that step: integer arithmetic over hunks, no old version read or parsed (parsing them was most
of a first index's history cost: requests 688 versions, 1.9 of 2.3 CPU seconds).

A line that survives to today maps to one line; a line that a later commit replaced maps to the
lines that replaced it (a range), one it removed to the two lines around the gap. A hunk is attributed to today's innermost function, method or
class at each line it maps to exactly, and, for a range, to the smallest definition containing the
whole range (the change happened somewhere in it: only what encloses all of it is certain). Lines of
a file before its creation, and of a region whose replacement was itself removed, map to nothing:
code that no longer exists cannot be in a related list anyway.

Against the mapping by each version's own definitions (:class:`lore.index.revisions.RevisionSpans`,
still the co-change ground truth of the benchmarks) it follows a definition through a rename of its
name, and loses one moved to another place of its file (a move is a removal and an addition).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

_DEAD_LO = 1 << 62  # a line that maps to nothing: (lo, hi) with lo > hi, which min / max over a range skip
_DEAD_HI = -1


class Commit(Protocol):
    """What is read of a commit here (:class:`lore.index.gitlog.Commit` has it)."""

    sha: str
    renames: list[tuple[str, str]]
    hunks: dict[str, list[tuple[int, int, int, int]]]
    created: list[str]


class LineMap:
    """Lines of one version of a file -> today's lines: line ``y`` maps to ``(lo[y-1], hi[y-1])`` (one
    line when equal, a range when a later commit replaced it, nothing when ``lo > hi``), and a line past
    the lists to ``y + tail`` (``tail`` ``None``: to nothing).

    Examples
    --------
    >>> today = LineMap()                       # today's version: every line is itself
    >>> older = today.before([(2, 1, 2, 3)])    # a commit replaced line 2 by lines 2-4
    >>> [older.at(y) for y in (1, 2, 3)]
    [(1, 1), (2, 4), (5, 5)]
    >>> oldest = older.before([(1, 0, 2, 1)])   # and before it, one line was added after line 1
    >>> [oldest.at(y) for y in (1, 2, 3)]
    [(1, 1), (5, 5), (6, 6)]
    """

    __slots__ = ("hi", "lo", "tail")

    def __init__(self, lo: list[int] | None = None, hi: list[int] | None = None, tail: int | None = 0) -> None:
        self.lo = [] if lo is None else lo
        self.hi = [] if hi is None else hi
        self.tail = tail

    @classmethod
    def dead(cls) -> LineMap:
        """A version none of whose lines exists today (before the file's creation)."""
        return cls(tail=None)

    def at(self, y: int) -> tuple[int, int]:
        """Today's ``(first, last)`` line of version line ``y`` (``first > last``: nothing)."""
        if 0 < y <= len(self.lo):
            return self.lo[y - 1], self.hi[y - 1]
        if self.tail is None or y <= 0:
            return _DEAD_LO, _DEAD_HI
        return y + self.tail, y + self.tail

    def _extend(self, n: int) -> None:
        k = len(self.lo)
        if n <= k:
            return
        if self.tail is None:
            self.lo.extend([_DEAD_LO] * (n - k))
            self.hi.extend([_DEAD_HI] * (n - k))
        else:
            self.lo.extend(range(k + 1 + self.tail, n + 1 + self.tail))
            self.hi.extend(range(k + 1 + self.tail, n + 1 + self.tail))

    def before(self, hunks: Sequence[tuple[int, int, int, int]]) -> LineMap:
        """The map of the version before a commit whose hunks (old start, old count, new start, new
        count; in file order, as git prints them) made this one's version."""
        if self.tail is None and not self.lo:
            return self
        self._extend(max((c + max(d, 1) for _a, _b, c, d in hunks), default=0))
        lo, hi = self.lo, self.hi
        nlo: list[int] = []
        nhi: list[int] = []
        pos = 1  # the next old line to place
        delta = 0  # new line - old line, outside the hunks seen so far
        for a, b, c, d in hunks:
            start = a if b > 0 else a + 1  # the first old line this hunk touches (an insertion: after line a)
            if start > pos:  # unchanged old lines: the same lines of the newer version, shifted
                nlo += lo[pos + delta - 1:start + delta - 1]
                nhi += hi[pos + delta - 1:start + delta - 1]
            if b > 0:  # replaced lines: wherever the lines that replaced them went; removed ones: the gap between
                # the lines around it (what holds both holds the gap: not a neighbour that happens to precede it)
                r0 = c if d > 0 else max(c, 1)
                r1 = c + d - 1 if d > 0 else c + 1
                seg_lo, seg_hi = min(lo[r0 - 1:r1], default=_DEAD_LO), max(hi[r0 - 1:r1], default=_DEAD_HI)
                nlo += [seg_lo] * b
                nhi += [seg_hi] * b
            delta += d - b
            pos = a + b if b > 0 else a + 1
        nlo += lo[max(pos + delta - 1, 0):]
        nhi += hi[max(pos + delta - 1, 0):]
        return LineMap(nlo, nhi, None if self.tail is None else self.tail + delta)


class LineSpans:
    """Hunks mapped onto today's definitions through :class:`LineMap` s (a span map of
    :func:`lore.index.history.touched_symbols`, which calls :meth:`step` after each commit).

    ``spans``: today's path (of the index) -> ``[(start, end, symbol id)]``; ``prefix``: the indexed
    folder inside the repository (a map's key is the repository's path). ``maps`` is shared with a
    :meth:`sibling`. Counts: :attr:`hunks` ranges mapped, :attr:`lost` of them that map to no line of today.
    """

    def __init__(self, spans: Mapping[str, Sequence[tuple[int, int, int]]], *, prefix: str = "",
                 maps: dict[str, LineMap] | None = None) -> None:
        self.spans = spans
        self.prefix = prefix
        self.maps: dict[str, LineMap] = {} if maps is None else maps
        self._inner: dict[str, tuple[list[int], list[tuple[int, int, int]]]] = {}
        self.hunks = self.lost = 0

    def _today(self, path: str) -> tuple[list[int], list[tuple[int, int, int]]] | None:
        got = self._inner.get(path)
        if got is None:
            spans = sorted(self.spans.get(path) or (), key=lambda t: (t[1] - t[0], t[0], t[2]))  # smallest first
            inner = [-1] * max((e for _s, e, _i in spans), default=0)
            for s, e, sid in reversed(spans):  # the largest first: a smaller one inside it overwrites it
                inner[s - 1:e] = [sid] * (e - s + 1)
            got = self._inner[path] = (inner, spans)
        return got if got[1] else None

    def touched(self, commit: object, path_then: str, today_path: str, ranges: Sequence[tuple[int, int]]) -> set[int]:
        """Today's ids of the definitions the hunks ``ranges`` (lines of the version ``commit`` left) changed."""
        today = self._today(today_path) if ranges else None
        if today is None:
            return set()
        inner, spans = today
        m = self.maps.get(self.prefix + today_path)
        out: set[int] = set()
        for r0, r1 in ranges:
            self.hunks += 1
            hit = False
            for y in range(r0, r1 + 1):
                lo, hi = m.at(y) if m is not None else (y, y)
                if lo > hi:
                    continue
                hit = True
                if lo == hi:
                    if lo <= len(inner) and inner[lo - 1] != -1:
                        out.add(inner[lo - 1])
                    continue
                for s, e, sid in spans:  # smallest first: the innermost definition holding the whole range
                    if s <= lo and hi <= e:
                        out.add(sid)
                        break
            self.lost += not hit
        return out

    def step(self, commit: Commit, renamed_to: Mapping[str, str]) -> None:
        """Carry the maps of the files ``commit`` changed to the versions before it (``renamed_to``: a path
        at that commit -> today's path, the commit's own renames included). The repository's index keeps
        maps only for the files it holds definitions of; a folder's keeps them all (its sweeps are told
        by the files outside too)."""
        everything = bool(self.prefix)
        for path in commit.created:
            key = renamed_to.get(path, path)
            if everything or key in self.spans:
                self.maps[key] = LineMap.dead()
        for path, hunks in commit.hunks.items():
            key = renamed_to.get(path, path)
            if everything or key in self.spans:
                self.maps[key] = self.maps.get(key, LineMap()).before(hunks)

    def advance(self, commits: Iterable[Commit]) -> list[tuple[str, str]]:
        """Step through ``commits`` (newest first; newer than those to map: the working tree's changes, the
        commits after an ``until`` cut) and return their renames, newest first."""
        renamed_to: dict[str, str] = {}
        renames: list[tuple[str, str]] = []
        for c in commits:
            for old, new in c.renames:
                renamed_to[old] = renamed_to.get(new, new)
                renames.append((old, new))
            self.step(c, renamed_to)
        return renames

    def sibling(self, top: str | Path) -> LineSpans:
        """The same maps over the files outside the indexed folder of the checkout at ``top``: today's
        definitions of a file there are parsed from the working tree on first use, with made-up negative
        ids (see ``outside`` of :func:`lore.index.history.touched_symbols`)."""
        return LineSpans(WorkingTreeSpans(Path(top)), maps=self.maps)

    def close(self) -> None:
        """Nothing to release (a span map's protocol)."""


class WorkingTreeSpans(dict):
    """Repository path -> today's ``[(start, end, made-up negative id)]`` of its functions, methods and
    classes, parsed from the working tree on first use (test files and other languages: none)."""

    def __init__(self, top: Path) -> None:
        super().__init__()
        self.top = top
        self._next = -1

    def get(self, path: str, default=None):  # type: ignore[override]
        if path in self:
            return self[path]
        from ..languages import language_for
        from .revisions import MAX_BLOB, parse_spans
        from .walk import is_test_path

        out: list[tuple[int, int, int]] = []
        lang = None if is_test_path(path) else language_for(path)
        full = self.top / path
        try:
            if lang is not None and full.is_file() and full.stat().st_size <= MAX_BLOB:
                for s, e, _q in sorted(parse_spans(path, full.read_bytes(), lang.name), key=lambda t: (t[0], t[1], t[2])):
                    out.append((s, e, self._next))
                    self._next -= 1
        except Exception:  # noqa: BLE001  (a file that cannot be read or parsed holds no definitions here)
            out = []
        self[path] = out
        return out


_TEST_GLOBS = {"tests": ":(exclude,glob)**/tests/**", "test": ":(exclude,glob)**/test/**",
               "test_": ":(exclude,glob)**/test_*"}


def code_pathspecs(paths: Iterable[str]) -> list[str] | None:
    """The git pathspecs of the files whose hunks the line maps need, from the paths (of the repository)
    holding definitions: their extensions anywhere, test folders and ``test_*`` files left out where no
    such path is among them. ``None`` (every file) when a path has no extension.

    Examples
    --------
    >>> code_pathspecs(["pkg/a.py", "pkg/sub/b.py", "cmd/main.go"])
    [':(glob)**/*.go', ':(glob)**/*.py', ':(exclude,glob)**/test/**', ':(exclude,glob)**/test_*', ':(exclude,glob)**/tests/**']
    >>> code_pathspecs(["Makefile"]) is None
    True
    """
    suffixes: set[str] = set()
    excluded = dict(_TEST_GLOBS)
    for path in paths:
        parts = path.split("/")
        name = parts[-1]
        dot = name.rfind(".")
        if dot <= 0:
            return None
        suffixes.add(name[dot:])
        for d in parts[:-1]:
            excluded.pop(d, None)
        if name.startswith("test_"):
            excluded.pop("test_", None)
    if not suffixes:
        return None
    return [*(f":(glob)**/*{s}" for s in sorted(suffixes)), *sorted(excluded.values())]
