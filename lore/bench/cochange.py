"""Co-change ground truth mined from a repository's git history.

Two symbols that keep changing in the same commits are related in the way a maintainer feels it.
The history is read with one ``git log -p -U0 -M`` call: every hunk's line range is mapped onto the
symbols whose line spans contain it (the innermost function, method or class). Commits touching
more than ``max_files`` files (mass renames, reformatting, vendoring) and merge commits are
skipped, and so are the hunks of a file's creation (adding a file is not changing its symbols
together); renames are followed (``-M``) so older paths count for today's file; test code is left
out unless asked for. Pairs changed together in at least ``min_count`` commits are the judgements.

Spans (``spans=``): ``"revision"`` (the default) maps a hunk with the version of the file its commit
produced and names the definition it changed by qualified name (:mod:`lore.index.revisions`);
``"today"`` maps it with the line spans of the current checkout, which attributes the hunks of old
commits to whatever sits at those lines now (in requests from 2013 on, 51 of the 364 pairs it
judged are pairs the revision mapping finds; the rest are neighbours of the code that changed).
The time split (``split``) mines only commits at or after T and keeps pairs that never changed
together before T: it asks whether structure predicts future co-changes.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import EmptyGroundTruthError, InvalidArgumentError
from ..index.history import Commit, SpanMap, Spans, git_root, parse_time, read_history, touched_symbols
from ..index.revisions import RevisionSpans, today_names

__all__ = ["Commit", "CoChange", "Spans", "cochange_pairs", "git_root", "judgements_from", "median_cut", "mine_pairs", "parse_time",
           "read_history", "run_cochange", "symbol_spans"]

SPAN_KINDS = ("function", "method", "class")
SPAN_APPROXIMATION = ("symbol spans come from the index of the current checkout; hunks of older commits are "
                      "mapped onto today's line spans")


def revision_spans(idx, repo: str | Path, *, include_tests: bool) -> RevisionSpans:
    """Hunks mapped with each commit's own version of the file (see :mod:`lore.index.revisions`),
    onto the index's symbols (tests left out unless ``include_tests``). Close it after use."""
    from ._data import symbol_table

    rows = [(sid, r[2], r[3], r[4]) for sid, r in symbol_table(idx).items()
            if r[4] and (r[3] == "module" or include_tests or not r[9])]
    return RevisionSpans(git_root(repo), today_names(rows))


def symbol_spans(idx, *, include_tests: bool) -> Spans:
    from ._data import symbol_table

    by_path: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for sid, r in symbol_table(idx).items():
        if r[3] not in SPAN_KINDS or not r[4] or (r[9] and not include_tests):
            continue
        by_path[r[4]].append((int(r[5]), int(r[6] or r[5]), sid))
    for spans in by_path.values():
        spans.sort(key=lambda t: (t[1] - t[0], t[0]))
    return Spans(dict(by_path))


@dataclass
class CoChange:
    pairs: Counter  # (a, b) with a < b -> commits changing both
    first: dict[tuple[int, int], int]  # pair -> first commit time
    commits_seen: int = 0
    commits_used: int = 0
    commits_skipped_large: int = 0


def mine_pairs(commits: list[Commit], spans: SpanMap, *, max_files: int = 10,
               split: int | None = None) -> tuple[CoChange, CoChange | None]:
    """Symbol pairs changed in the same commit, following renames to today's paths.

    Returns (pairs of the commits at or after ``split`` -- all commits without a split, pairs of
    the commits before ``split`` or None).
    """
    after = CoChange(Counter(), {})
    before = CoChange(Counter(), {}) if split is not None else None
    for c, ids in touched_symbols(commits, spans, max_files=max_files):
        out = before if (before is not None and split is not None and c.time < split) else after
        out.commits_seen += 1
        if ids is None:
            out.commits_skipped_large += 1
            continue
        if not ids:
            continue
        out.commits_used += 1
        for a, b in itertools.combinations(ids, 2):
            out.pairs[(a, b)] += 1
            out.first[(a, b)] = min(out.first.get((a, b), c.time), c.time)
    return after, before


def _mine(idx, root: Path, commits: list[Commit], *, spans: str, include_tests: bool, max_files: int,
          split: int | None = None) -> tuple[CoChange, CoChange | None]:
    if spans == "today":
        return mine_pairs(commits, symbol_spans(idx, include_tests=include_tests), max_files=max_files, split=split)
    if spans != "revision":
        raise InvalidArgumentError(f"spans must be 'revision' or 'today', got {spans!r}")
    with revision_spans(idx, root, include_tests=include_tests) as rs:
        return mine_pairs(commits, rs, max_files=max_files, split=split)


def median_cut(idx, repo: str | Path, *, max_files: int = 10) -> str:
    """The median committer date (``YYYY-MM-DD``, UTC) of the commits that change >= 2 indexed symbols.

    The temporal split of the leave-one-corpus-out benchmark (:mod:`lore.bench.corpora`): half of a
    repository's co-change evidence before it (what the history signal may see), half after it
    (the judgements).
    """
    root = git_root(repo)
    spans = symbol_spans(idx, include_tests=False)
    times = sorted(c.time for c, ids in touched_symbols(read_history(root), spans, max_files=max_files)
                   if ids is not None and len(ids) > 1)
    if not times:
        raise EmptyGroundTruthError(f"no commit of {root} changes two indexed symbols; no split to make")
    return datetime.fromtimestamp(times[len(times) // 2], UTC).strftime("%Y-%m-%d")


def judgements_from(co: CoChange, *, min_count: int = 2, before: CoChange | None = None) -> dict[int, list[int]]:
    """Symmetric ground truth: each symbol -> partners it changed with at least ``min_count`` times."""
    pairs: dict[int, list[int]] = defaultdict(list)
    for (a, b), n in sorted(co.pairs.items()):
        if n < min_count or (before is not None and (a, b) in before.pairs):
            continue
        pairs[a].append(b)
        pairs[b].append(a)
    return dict(pairs)


def cochange_pairs(idx, repo: str | Path, *, since: str | None = None, until: str | None = None,
                   include_tests: bool = False, max_files: int = 10, min_count: int = 2,
                   spans: str = "revision") -> dict[int, list[int]]:
    """Co-change judgements of ``repo``'s history over an existing index of its checkout (ids in the graph).

    ``spans``: ``"revision"`` maps each hunk with the version of the file its commit produced;
    ``"today"`` with today's line spans (the approximation of earlier runs, kept to compare).
    """
    root = git_root(repo)
    commits = read_history(root, since=parse_time(since), until=parse_time(until))
    co = _mine(idx, root, commits, spans=spans, include_tests=include_tests, max_files=max_files)[0]
    g = idx.graph()
    pairs = judgements_from(co, min_count=min_count)
    return {s: [t for t in ts if g.nodes.has(t)] for s, ts in pairs.items() if g.nodes.has(s)}


def run_cochange(repo: str | Path, *, since: str | None = None, until: str | None = None,
                 split: str | None = None, include_tests: bool = False, max_files: int = 10,
                 min_count: int = 2, db: str | Path | None = None,
                 algorithms: tuple[str, ...] | None = None, seed: int = 0, spans: str = "revision") -> dict:
    """Mine co-change pairs of ``repo`` and score lore's related lists against them.

    ``db``: an existing index of the repository (default: the checkout is indexed into a temporary
    database). ``split``: mine commits from T on and score pairs that first changed together after T.
    """
    from ..api import open_index
    from ..index import index_repo
    from .structural import DEFAULT_USER_ALGORITHMS, score_pairs

    t0 = time.perf_counter()
    if max_files < 2:
        raise InvalidArgumentError(f"max_files must be at least 2, got {max_files}")
    if min_count < 1:
        raise InvalidArgumentError(f"min_count must be at least 1, got {min_count}")
    root = git_root(repo)
    t_since, t_until, t_split = parse_time(since), parse_time(until), parse_time(split)
    commits = read_history(root, since=t_since, until=t_until)
    tmp = None
    try:
        if db is None:
            tmp = Path(tempfile.mkdtemp(prefix="lore-bench-cochange-"))
            index_repo(root, db=tmp / "index.db", workers=1)
            idx = open_index(tmp / "index.db")
        else:
            idx = open_index(db)
        co, before = _mine(idx, root, commits, spans=spans, include_tests=include_tests, max_files=max_files,
                           split=t_split)
        pairs = judgements_from(co, min_count=min_count, before=before)
        info = {
            "corpus": str(root), "commits": co.commits_seen + (before.commits_seen if before else 0),
            "commits_used": co.commits_used, "commits_skipped_large": co.commits_skipped_large,
            "max_files": max_files, "min_count": min_count, "include_tests": include_tests,
            "split": split, "since": since, "until": until, "spans": spans,
            **({"approximation": SPAN_APPROXIMATION} if spans == "today" else {}),
        }
        if not pairs:
            raise EmptyGroundTruthError(
                f"no symbol pair of {root} changed together in {min_count}+ commits "
                f"({co.commits_used} usable commits); widen the time range or lower --min-count"
            )
        g = idx.graph()
        pairs = {s: [t for t in ts if g.nodes.has(t)] for s, ts in pairs.items() if g.nodes.has(s)}
        report = score_pairs(idx, pairs, info=info, algorithms=algorithms or DEFAULT_USER_ALGORITHMS, seed=seed)
        report["suite"] = "cochange"
        idx.close()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    report["seconds"] = round(time.perf_counter() - t0, 2)
    return report
