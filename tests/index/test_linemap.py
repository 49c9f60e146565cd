"""Line maps carried through hunks (lore.index.linemap): an old line that every later diff kept lands on
its line of today; the rest lands inside the file or nowhere."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from lore.index.linemap import LineMap, LineSpans, code_pathspecs


def _hunks(old: list[int], new: list[int]) -> tuple[list[tuple[int, int, int, int]], dict[int, int]]:
    """The -U0 hunks (old start, old count, new start, new count) turning ``old`` into ``new``, numbered as
    git numbers them (a count of 0 names the line before the gap), and old index -> new index of the kept lines."""
    hunks: list[tuple[int, int, int, int]] = []
    kept: dict[int, int] = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            kept.update({i1 + k: j1 + k for k in range(i2 - i1)})
            continue
        b, d = i2 - i1, j2 - j1
        hunks.append((i1 + 1 if b else i1, b, j1 + 1 if d else j1, d))
    return hunks, kept


edit = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 40), st.integers(1, 4))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 30), st.lists(st.lists(edit, min_size=1, max_size=4), min_size=1, max_size=6))
def test_a_line_kept_by_every_later_diff_lands_on_its_line_today(size, history):
    today = list(range(size))
    fresh = [size]
    versions = [today]  # newest first: each older version is made from the next newer one by some edits
    for edits in history:
        v = list(versions[-1])
        for what, at, n in edits:
            at = min(at, len(v))
            if what in ("delete", "replace"):
                del v[at:at + n]
            if what in ("insert", "replace"):
                v[at:at] = range(fresh[0], fresh[0] + n)
                fresh[0] += n
        versions.append(v)
    m = LineMap()
    where = {i: i for i in range(len(today))}  # index in the newest version seen so far -> index today
    for newer, older in zip(versions, versions[1:], strict=False):
        hunks, kept = _hunks(older, newer)
        m = m.before(hunks)
        where = {i: where[j] for i, j in kept.items() if j in where}
        for y in range(1, len(older) + 1):
            lo, hi = m.at(y)
            if y - 1 in where:
                assert (lo, hi) == (where[y - 1] + 1, where[y - 1] + 1)
            elif lo <= hi:
                assert 1 <= lo <= hi <= len(today) + 1  # (a gap after the last line: the line past it)


def test_a_hunk_counts_for_the_smallest_definition_holding_the_lines_that_replaced_it():
    spans = LineSpans({"m.py": [(1, 20, 1), (3, 8, 2), (10, 18, 3)]})  # class 1 holding methods 2 and 3
    spans.maps["m.py"] = LineMap().before([(4, 1, 4, 6)])  # a later commit replaced old line 4 by lines 4-9
    assert spans.touched(None, "m.py", "m.py", [(4, 4)]) == {1}  # 4-9 spans methods 2 and ...: the class
    spans.maps["m.py"] = LineMap().before([(4, 1, 4, 3)])  # ... or lines 4-6, all inside method 2
    assert spans.touched(None, "m.py", "m.py", [(4, 4)]) == {2}
    assert spans.touched(None, "m.py", "m.py", [(3, 3), (12, 12)]) == {2, 3}  # kept lines: where they are


def test_code_pathspecs_keep_test_folders_that_hold_code():
    assert ":(exclude,glob)**/tests/**" not in (code_pathspecs(["pkg/tests/helpers.py"]) or [])
