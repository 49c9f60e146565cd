"""Reading ``git log``: the commits of a repository with the lines each one changed, and the renames.

``git log -p -U0 -M`` gives, per commit (newest first), the changed files, the line ranges of each
hunk on both sides (``-a,b +c,d``: old start and count, new start and count), the files it created,
its renames and the blob ids of the versions it left; the miner asks for the hunks of the code files
only (``hunks_of``: a ``--name-status`` log names every commit and file, a path-limited one diffs). The miner (:mod:`lore.index.history`)
and the co-change ground truth (:mod:`lore.bench.cochange`) read commits only through here, so both
count the same commits.
"""

from __future__ import annotations

import marshal
import re
import subprocess
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NotAGitRepositoryError

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_INDEX = re.compile(r"^index [0-9a-f]+\.\.([0-9a-f]{40,64})\b")  # --full-index: the new version's blob id
_COMMIT = "\x1elore-commit "
_CONTENT = (b"+", b"-")  # the first byte of a removed or added line

@dataclass
class Commit:
    sha: str
    time: int
    files: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # path (at that commit) -> line ranges
    renames: list[tuple[str, str]] = field(default_factory=list)  # (old path, new path)
    blobs: dict[str, str] = field(default_factory=dict)  # path (at that commit) -> git's id of the version it left
    hunks: dict[str, list[tuple[int, int, int, int]]] = field(default_factory=dict)  # path -> (old start, old count,
    # new start, new count) of every hunk, as git prints them: what carries a line of an older version to today's
    created: list[str] = field(default_factory=list)  # paths this commit added (before it, nothing of them existed)



def read_history(root: Path, *, since: int | None = None, until: int | None = None, rev: str | None = None,
                 max_commits: int | None = None, pathspec: str | None = None,
                 hunks_of: Sequence[str] | None = None) -> list[Commit]:
    """Commits newest first with their changed line ranges (new side; a pure deletion marks its position).

    ``since`` / ``until``: committer times (epoch seconds), ``since`` inclusive, ``until`` exclusive
    (filtered here, not only by git, so that a split at T puts every commit on exactly one side).
    ``rev``: start from this revision (default HEAD). ``max_commits``: the newest that many, after
    the time filter. ``pathspec``: only commits (and the files of them) under this directory of the
    repository. ``hunks_of``: git pathspecs of the files whose hunks are wanted (``None``: all): every
    commit and every file it changed are still read (``--name-status``: the large-commit filter counts
    them), but git diffs only those files (the diff is most of ``git log -p``'s cost; requests: 0.29 of
    0.32 CPU s, of which a third for its tests); their blob ids are not read.
    """
    base = ["git", "-C", str(root), "-c", "core.quotepath=off", "log", "--no-merges", "-M", "--no-color",
            "--no-ext-diff", f"--format={_COMMIT}%H %ct"]
    window: list[str] = []
    if since is not None:
        window.append(f"--since=@{since}")
    if until is not None:
        window.append(f"--until=@{until}")
    if max_commits is not None:
        window.append(f"--max-count={int(max_commits) + 50}")  # a few spare for the exact time filter below
    revs = [rev] if rev is not None else []
    tail = ["--", *([pathspec] if pathspec else [])] if rev is not None or pathspec else []
    if hunks_of is None:
        out = _run([*base, "-p", "-U0", "--full-index", *window, *revs, *tail], root)
        commits = _parse_log(out) if out else []
    else:
        out = _run([*base, "--name-status", *window, *revs, *tail], root)
        commits = _parse_status(out) if out else []
        if commits and hunks_of:
            # the same window's commits that touch those files are among the same count of newest ones
            # (and only files the first read named are taken: a folder's ``pathspec`` holds)
            oldest = min(c.time for c in commits)
            diffs = _run([*base, "-p", "-U0", "--full-history", *window, f"--since=@{oldest}", *revs, "--", *hunks_of], root)
            by_sha = {c.sha: c for c in commits}
            for d in _parse_log(diffs or b""):
                c = by_sha.get(d.sha)
                if c is None:
                    continue
                for path, ranges in d.files.items():
                    if path in c.files and path not in c.created:
                        c.files[path] = ranges
                for path, hunks in d.hunks.items():
                    if path in c.files and path not in c.created:
                        c.hunks[path] = hunks
    commits = [c for c in commits if (since is None or c.time >= since) and (until is None or c.time < until)]
    return commits[:max_commits] if max_commits is not None else commits


def _run(cmd: list[str], root: Path) -> bytes:
    """The output of a ``git log`` (empty for a repository without commits; NotAGitRepositoryError when it fails)."""
    try:
        done = subprocess.run(cmd, capture_output=True, check=False)
    except FileNotFoundError as exc:  # git itself is missing
        raise NotAGitRepositoryError(str(root)) from exc
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace")
        if "does not have any commits" in err:
            return b""
        raise NotAGitRepositoryError(str(root))
    return done.stdout


def _parse_status(text: bytes) -> list[Commit]:
    """Commits of a ``--name-status`` log: every file changed (no ranges), the files created, the renames."""
    commits: list[Commit] = []
    cur: Commit | None = None
    for raw in text.decode("utf-8", "replace").split("\n"):  # not splitlines: \x1e is a line break there
        if raw.startswith(_COMMIT):
            sha, ts = raw[len(_COMMIT):].split()
            cur = Commit(sha, int(ts))
            commits.append(cur)
        elif cur is not None and raw:
            parts = raw.split("\t")
            status = parts[0][:1]
            if status == "R" and len(parts) == 3:
                cur.files.setdefault(parts[2], [])
                cur.renames.append((parts[1], parts[2]))
            elif len(parts) == 2:  # (a deleted file counts as changed, as in the -p log)
                cur.files.setdefault(parts[1], [])
                if status == "A":
                    cur.created.append(parts[1])
    return commits


def _parse_log(text: bytes | str) -> list[Commit]:
    commits: list[Commit] = []
    cur: Commit | None = None
    path: str | None = None
    old_path: str | None = None
    in_hunks = False  # past a file's first hunk: a "+++ " line is an added line's content, not a header
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    # the content of removed and added lines (most of a -U0 log) is dropped before anything is decoded
    # (split on b"\n", not splitlines: \x1e is a line break there)
    kept = [raw.decode("utf-8", "replace") for raw in text.split(b"\n") if raw[:1] not in _CONTENT or raw[:4] == b"+++ "]
    for raw in kept:
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
            in_hunks = False
            if path is not None:
                cur.files.setdefault(path, [])
        elif raw.startswith("new file mode") and path is not None:
            # a file's creation is not a co-change of its symbols: ignore its hunks
            cur.files[path] = []
            cur.created.append(path)
            path = None
        elif raw.startswith("index ") and path is not None:
            m = _INDEX.match(raw)
            if m and m.group(1).strip("0"):  # all zeros: the file was deleted
                cur.blobs[path] = m.group(1)
        elif raw.startswith("rename from "):
            old_path = raw[len("rename from "):]
        elif raw.startswith("rename to ") and old_path is not None:
            cur.renames.append((old_path, raw[len("rename to "):]))
            old_path = None
        elif raw.startswith("+++ ") and not in_hunks:
            target = raw[4:]
            if target == "/dev/null":
                path = None  # deleted file: nothing of it exists today
            elif target.startswith("b/") and path is not None:
                path = target[2:]
                cur.files.setdefault(path, [])
        elif raw.startswith("@@") and path is not None:
            in_hunks = True
            m = _HUNK.match(raw)
            if m:
                start = int(m.group(3))
                count = int(m.group(4)) if m.group(4) is not None else 1
                cur.files[path].append((start, start + max(count, 1) - 1))
                cur.hunks.setdefault(path, []).append(
                    (int(m.group(1)), int(m.group(2)) if m.group(2) is not None else 1, start, count))
    return commits



class LogCache:
    """The parsed commits of the last mining, by their identity (repository, HEAD, window, cap).

    Reading ``git log -p`` is most of a mining run (0.65 of 0.82 s on flask's 2,000 commits); a new
    index generation with the same HEAD needs only the mapping onto the symbols' new line spans.
    ``load`` reads the store; a fresh log waits in ``pending`` for the caller's write transaction.
    """

    def __init__(self, load: Callable[[str], bytes | None]) -> None:
        self.load = load
        self.pending: tuple[str, bytes] | None = None
        self.hit = False  # the commits came from ``load`` (not damaged)


def _rows(commits: list[Commit]) -> list:
    return [(c.sha, c.time, [(p, [tuple(r) for r in rs]) for p, rs in c.files.items()], [tuple(r) for r in c.renames],
             sorted(c.blobs.items()), [(p, [tuple(h) for h in hs]) for p, hs in c.hunks.items()], list(c.created))
            for c in commits]


def _commits(rows) -> list[Commit]:
    return [Commit(sha, t, {p: [tuple(r) for r in rs] for p, rs in files}, [tuple(r) for r in renames], dict(blobs),
                   {p: [tuple(h) for h in hs] for p, hs in hunks}, list(created))
            for sha, t, files, renames, blobs, hunks, created in rows]


def _encode_log(commits: list[Commit], later: list[Commit]) -> bytes:
    """The commits of a window and the ``later`` ones (newer than it: their renames and hunks carry its lines to today)."""
    return zlib.compress(marshal.dumps((_rows(commits), _rows(later))), 1)


def _decode_log(blob: bytes) -> tuple[list[Commit], list[Commit]]:
    rows, later = marshal.loads(zlib.decompress(blob))
    return _commits(rows), _commits(later)


def worktree_changes(root: Path) -> Commit | None:
    """The uncommitted changes of the checkout at ``root`` (``git diff HEAD``) as one commit named
    ``worktree``, or ``None`` (no change, or git failed): the index holds the working tree's lines, so
    the lines of HEAD are carried to them through these hunks first."""
    try:
        done = subprocess.run(["git", "-C", str(root), "-c", "core.quotepath=off", "diff", "-M", "-U0", "--no-color",
                               "--no-ext-diff", "--full-index", "HEAD"], capture_output=True, check=False)
    except FileNotFoundError:
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return None
    got = _parse_log(f"{_COMMIT}worktree 0\n".encode() + done.stdout)
    return got[0] if got else None
