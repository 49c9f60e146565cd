"""Co-change ground truth mined from a repository's git history.

Two symbols that keep changing in the same commits are related in the way a maintainer feels it.
The history is read with one ``git log -p -U0 -M`` call: every hunk's line range is mapped onto the
symbols whose line spans contain it (the innermost function, method or class). Commits touching
more than ``max_files`` files (mass renames, reformatting, vendoring) and merge commits are
skipped, and so are the hunks of a file's creation (adding a file is not changing its symbols
together); renames are followed (``-M``) so older paths count for today's file; test code is left
out unless asked for. Pairs changed together in at least ``min_count`` commits are the judgements.

Approximation, stated in the report: symbol line spans come from the index of the *current*
checkout, so a hunk of an old commit is mapped with today's spans; code that moved within its file
since then is attributed by position. The time split (``split``) mines only commits at or after T and
keeps pairs that never changed together before T: it asks whether structure predicts future
co-changes.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..errors import EmptyGroundTruthError, InvalidArgumentError, NotAGitRepositoryError

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_COMMIT = "\x1elore-commit "
SPAN_KINDS = ("function", "method", "class")
SPAN_APPROXIMATION = ("symbol spans come from the index of the current checkout; hunks of older commits are "
                      "mapped onto today's line spans")


@dataclass
class Commit:
    sha: str
    time: int
    files: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # path (at that commit) -> line ranges
    renames: list[tuple[str, str]] = field(default_factory=list)  # (old path, new path)


def git_root(path: str | Path) -> Path:
    """The top directory of the git checkout containing ``path``; NotAGitRepositoryError otherwise."""
    p = Path(path)
    if not p.is_dir():
        raise NotAGitRepositoryError(str(path))
    try:
        done = subprocess.run(["git", "-C", str(p), "rev-parse", "--show-toplevel"], capture_output=True,
                              text=True, check=False)
    except FileNotFoundError as exc:  # git itself is missing
        raise NotAGitRepositoryError(str(path)) from exc
    if done.returncode != 0 or not done.stdout.strip():
        raise NotAGitRepositoryError(str(path))
    return Path(done.stdout.strip())


def parse_time(value: str | None) -> int | None:
    """A date (``2024-01-31``), an ISO datetime or epoch seconds, as epoch seconds (UTC when no zone)."""
    if value is None or value == "":
        return None
    v = str(value).strip()
    if v.isdigit():
        return int(v)
    try:
        dt = datetime.fromisoformat(v)
    except ValueError as exc:
        raise InvalidArgumentError(f"cannot read the time {value!r}; use YYYY-MM-DD, an ISO datetime or epoch seconds") from exc
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(dt.timestamp())


def read_history(root: Path, *, since: int | None = None, until: int | None = None) -> list[Commit]:
    """Commits newest first with their changed line ranges (new side; a pure deletion marks its position)."""
    cmd = ["git", "-C", str(root), "-c", "core.quotepath=off", "log", "--no-merges", "-M", "-p", "-U0",
           "--no-color", "--no-ext-diff", f"--format={_COMMIT}%H %ct"]
    if since is not None:
        cmd.append(f"--since=@{since}")
    if until is not None:
        cmd.append(f"--until=@{until}")
    done = subprocess.run(cmd, capture_output=True, check=False)
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace")
        if "does not have any commits" in err:
            return []
        raise NotAGitRepositoryError(str(root))
    commits: list[Commit] = []
    cur: Commit | None = None
    path: str | None = None
    old_path: str | None = None
    for raw in done.stdout.decode("utf-8", "replace").split("\n"):  # not splitlines: \x1e is a line break there
        if raw.startswith(_COMMIT):
            sha, ts = raw[len(_COMMIT):].split()
            cur = Commit(sha, int(ts))
            commits.append(cur)
            path = None
            continue
        if cur is None:
            continue
        if raw.startswith("diff --git "):
            m = re.match(r"diff --git a/(.*) b/(.*)$", raw)
            path = m.group(2) if m else None
            if path is not None:
                cur.files.setdefault(path, [])
        elif raw.startswith("new file mode") and path is not None:
            # a file's creation is not a co-change of its symbols: ignore its hunks
            cur.files[path] = []
            path = None
        elif raw.startswith("rename from "):
            old_path = raw[len("rename from "):]
        elif raw.startswith("rename to ") and old_path is not None:
            cur.renames.append((old_path, raw[len("rename to "):]))
            old_path = None
        elif raw.startswith("+++ "):
            target = raw[4:]
            if target == "/dev/null":
                path = None  # deleted file: nothing of it exists today
            elif target.startswith("b/") and path is not None:
                path = target[2:]
                cur.files.setdefault(path, [])
        elif raw.startswith("@@") and path is not None:
            m = _HUNK.match(raw)
            if m:
                start = int(m.group(3))
                count = int(m.group(4)) if m.group(4) is not None else 1
                cur.files[path].append((start, start + max(count, 1) - 1))
    return commits


@dataclass
class Spans:
    """Line spans of the index's symbols per file path (innermost lookup)."""

    by_path: dict[str, list[tuple[int, int, int]]]  # path -> (start, end, symbol id), smallest spans first

    def symbols_at(self, path: str, lo: int, hi: int) -> set[int]:
        out: set[int] = set()
        spans = self.by_path.get(path)
        if not spans:
            return out
        for line in range(lo, hi + 1):
            for s, e, sid in spans:
                if s <= line <= e:
                    out.add(sid)
                    break  # innermost only
        return out


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


def mine_pairs(commits: list[Commit], spans: Spans, *, max_files: int = 10,
               split: int | None = None) -> tuple[CoChange, CoChange | None]:
    """Symbol pairs changed in the same commit, following renames to today's paths.

    Returns (pairs of the commits at or after ``split`` -- all commits without a split, pairs of
    the commits before ``split`` or None).
    """
    renamed_to: dict[str, str] = {}  # path at some commit -> path today
    after = CoChange(Counter(), {})
    before = CoChange(Counter(), {}) if split is not None else None
    for c in commits:  # newest first, so a rename is known before the older commits that use the old path
        for old, new in c.renames:
            renamed_to[old] = renamed_to.get(new, new)
        out = before if (before is not None and split is not None and c.time < split) else after
        out.commits_seen += 1
        if len(c.files) > max_files:
            out.commits_skipped_large += 1
            continue
        touched: set[int] = set()
        for path, ranges in c.files.items():
            today = renamed_to.get(path, path)
            for lo, hi in ranges:
                touched |= spans.symbols_at(today, lo, hi)
        if not touched:
            continue
        out.commits_used += 1
        for a, b in itertools.combinations(sorted(touched), 2):
            out.pairs[(a, b)] += 1
            out.first[(a, b)] = min(out.first.get((a, b), c.time), c.time)
    return after, before


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
                   include_tests: bool = False, max_files: int = 10, min_count: int = 2) -> dict[int, list[int]]:
    """Co-change judgements of ``repo``'s history over an existing index of its checkout (ids in the graph)."""
    root = git_root(repo)
    commits = read_history(root, since=parse_time(since), until=parse_time(until))
    co, _ = mine_pairs(commits, symbol_spans(idx, include_tests=include_tests), max_files=max_files)
    g = idx.graph()
    pairs = judgements_from(co, min_count=min_count)
    return {s: [t for t in ts if g.nodes.has(t)] for s, ts in pairs.items() if g.nodes.has(s)}


def run_cochange(repo: str | Path, *, since: str | None = None, until: str | None = None,
                 split: str | None = None, include_tests: bool = False, max_files: int = 10,
                 min_count: int = 2, db: str | Path | None = None,
                 algorithms: tuple[str, ...] | None = None, seed: int = 0) -> dict:
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
        spans = symbol_spans(idx, include_tests=include_tests)
        co, before = mine_pairs(commits, spans, max_files=max_files, split=t_split)
        pairs = judgements_from(co, min_count=min_count, before=before)
        info = {
            "corpus": str(root), "commits": co.commits_seen + (before.commits_seen if before else 0),
            "commits_used": co.commits_used, "commits_skipped_large": co.commits_skipped_large,
            "max_files": max_files, "min_count": min_count, "include_tests": include_tests,
            "split": split, "since": since, "until": until, "approximation": SPAN_APPROXIMATION,
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
