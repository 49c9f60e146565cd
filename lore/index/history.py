"""Logical coupling: which symbols changed in the same commits, read from git at index time.

Where the indexed root is a git checkout, :func:`refresh_history` reads the ``git log -M`` of the
repository (from its top directory, whatever folder is indexed: a folder's index gets the same
pairs for its files as the whole repository's; :mod:`lore.index.gitlog`, capped at ``max_commits``
newest commits, and the mapping at a time ``budget``), carries every hunk to today's lines through the
hunks of the commits after it (:mod:`lore.index.linemap`: no old file version is read or parsed),
maps it onto today's innermost function, method or class there, and stores, per pair of symbols, the
number of commits that changed both, and per symbol the number of commits that changed it
(:mod:`lore.store.history`). As in the co-change literature (Zimmermann et al. 2005, Ying et al.
2004) merge commits, commits touching more than ``max_files`` files (mass renames, reformatting,
vendoring) and the hunks of a file's creation are left out; renames are followed (``-M``).

No git, not a repository, a shallow clone or no commit: the run is stored empty with the reason,
and the ranker's history signal is simply 0. Never an error: history is a hint, not a requirement.

``until`` (a date, an ISO datetime, epoch seconds, or a revision) keeps only commits strictly older
than that time (committer time), or the revision and its ancestors: the benchmark builds an index
whose history ends where its co-change ground truth begins, so the signal never sees the commits
it is graded on.

An index run mines after its code is committed, now or in a detached process
(:mod:`lore.index.history_job`). The git reading and hunk mapping here are shared with :mod:`lore.bench.cochange` (the ground
truth), so the signal and the judgements count commits the same way.
"""

from __future__ import annotations

import json
import subprocess
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from ..errors import InvalidArgumentError, NotAGitRepositoryError
from ..store import db as store_db
from ..store import history as store_history
from ._cpu import process_tree_cpu
from .gitlog import Commit, LogCache, _decode_log, _encode_log, read_history, worktree_changes

MAX_COMMITS = 2000
MAX_FILES = 50
FORMAT = 6  # of the mining: a stored run of another format is mined again (2: each commit's own file version;
# 3: the repository root's history whatever folder is indexed, blob ids read from the log; 4: a folder tells a
# sweep by the definitions the whole commit changed; 5: test files are not mapped; 6: hunks carried to today's lines,
# lore.index.linemap, no old version parsed)
BUDGET = 120.0  # wall seconds a mining run maps commits for; the rest waits for the next run (see mine)
MAX_SYMBOLS = 200  # a commit that touches more symbols than this is a sweep, not a coupling


def _git(root: Path, *args: str) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return None


def git_root(path: str | Path) -> Path:
    """The top directory of the git checkout containing ``path``; NotAGitRepositoryError otherwise."""
    p = Path(path)
    if not p.is_dir():
        raise NotAGitRepositoryError(str(path))
    done = _git(p, "rev-parse", "--show-toplevel")
    if done is None or done.returncode != 0 or not done.stdout.strip():
        raise NotAGitRepositoryError(str(path))
    return Path(done.stdout.strip())


def parse_time(value: str | None) -> int | None:
    """A date (``2024-01-31``), an ISO datetime or epoch seconds, as epoch seconds (UTC when no zone).

    Examples
    --------
    >>> parse_time("1970-01-02")
    86400
    >>> parse_time(None) is None
    True
    """
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


@dataclass
class Spans:
    """Line spans of the index's symbols per file path (innermost lookup)."""

    by_path: dict[str, list[tuple[int, int, int]]]  # path -> (start, end, symbol id), smallest spans first

    @classmethod
    def build(cls, rows) -> Spans:
        """From ``(path, start, end, symbol id)`` rows."""
        by_path: dict[str, list[tuple[int, int, int]]] = {}
        for path, start, end, sid in rows:
            by_path.setdefault(path, []).append((int(start), int(end or start), int(sid)))
        for spans in by_path.values():
            spans.sort(key=lambda t: (t[1] - t[0], t[0]))
        return cls(by_path)

    def touched(self, commit: Commit, path_then: str, today_path: str, ranges) -> set[int]:
        """The symbols the hunks ``ranges`` of a commit changed, by today's spans of ``today_path``
        (``commit`` and ``path_then`` are not read: see :class:`lore.index.revisions.RevisionSpans`
        for the spans of the version the commit produced)."""
        out: set[int] = set()
        for lo, hi in ranges:
            out |= self.symbols_at(today_path, lo, hi)
        return out

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


class SpanMap(Protocol):
    """Whatever maps a commit's hunks onto symbol ids: :class:`Spans` (today's lines) or
    :class:`lore.index.revisions.RevisionSpans` (the lines of the version the commit produced)."""

    def touched(self, commit: Commit, path_then: str, today_path: str, ranges) -> set[int]: ...


Outside = Callable[[Commit, set[int], list[tuple[str, str, list[tuple[int, int]]]]], set[int]]


def touched_symbols(commits: list[Commit], spans: SpanMap, *, max_files: int,
                    path_map: Callable[[str], str | None] | None = None,
                    later_renames: Sequence[tuple[str, str]] = (), outside: Outside | None = None):
    """Per usable commit (newest first): (commit, sorted symbol ids it changed), following renames to today's paths.

    Commits touching more than ``max_files`` files are skipped (yielded with ``None``); ``path_map``
    turns a path of the repository into one of the index (``None``: outside the indexed root);
    ``later_renames`` (newest first) are the renames of the commits newer than ``commits``.
    ``outside(commit, ids inside, [(path then, path today, ranges)] outside the indexed root)``: more
    ids (negative: definitions the index does not hold) for the files outside, so that a folder's index
    tells a sweep by the same count as the repository's.
    """
    renamed_to: dict[str, str] = {}  # path at some commit -> path today
    for old, new in later_renames:
        renamed_to[old] = renamed_to.get(new, new)
    step = getattr(spans, "step", None)  # a map that carries lines from version to version (linemap.LineSpans)
    for c in commits:  # newest first, so a rename is known before the older commits that use the old path
        for old, new in c.renames:
            renamed_to[old] = renamed_to.get(new, new)
        if len(c.files) > max_files:
            if step is not None:
                step(c, renamed_to)
            yield c, None
            continue
        touched: set[int] = set()
        elsewhere: list[tuple[str, str, list[tuple[int, int]]]] = []
        for path, ranges in c.files.items():
            today = renamed_to.get(path, path)
            if path_map is not None:
                mapped = path_map(today)
                if mapped is None:
                    if ranges:
                        elsewhere.append((path, today, ranges))
                    continue
                today = mapped
            touched |= spans.touched(c, path, today, ranges)
        if outside is not None and elsewhere:
            touched |= outside(c, touched, elsewhere)
        if step is not None:
            step(c, renamed_to)
        yield c, sorted(touched)


def count_pairs(per_commit: list[list[int]]) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """:func:`._pairs.count_pairs` (sorted (a, b, commits) and (symbol, commits) rows)."""
    from ._pairs import count_pairs as _count_pairs

    return _count_pairs(per_commit)


def _resolve_until(root: Path, until: str | None) -> tuple[int | None, str | None]:
    """(time, revision) of an ``until`` value: a date / datetime / epoch seconds, else a revision of the repository."""
    if until is None or str(until) == "":
        return None, None
    try:
        return parse_time(until), None
    except InvalidArgumentError:
        pass
    done = _git(root, "rev-parse", "--verify", "--quiet", f"{until}^{{commit}}")
    if done is None or done.returncode != 0 or not done.stdout.strip():
        raise InvalidArgumentError(f"history_until {until!r} is neither a date nor a revision of {root}")
    return None, done.stdout.strip()


def mine(root: str | Path, spans: SpanMap | Callable[[Path, str], SpanMap], *, until: str | None = None, max_commits: int = MAX_COMMITS,
         max_files: int = MAX_FILES, max_symbols: int = MAX_SYMBOLS, log_cache: LogCache | None = None,
         budget: float | None = None, progress: Callable[[str, int, int], None] | None = None,
         hunks_of: Sequence[str] | None = None) -> tuple[dict, list[tuple[int, int, int]], list[tuple[int, int]]]:
    """(summary, pairs, touched) of the checkout at ``root`` mapped onto ``spans`` (paths relative to ``root``;
    or a function of the repository's top directory and the indexed folder's path in it (``src/``, or
    ``""``) that makes them, called only when there is a history to map).

    The commits are the repository's (from its top directory), whatever folder ``root`` is: a
    folder's index counts the same commits, skips the same large ones and so gets the same pairs
    for its files as the whole repository's index. The window is the ``max_commits`` newest
    commits (before ``until``), and mapping them stops after ``budget`` wall seconds (``None``: no
    limit; the summary's ``cut_by_budget`` counts the older commits left out; with the caches, the
    next run gets further). ``progress("history", done, total)`` follows the mapping. ``hunks_of``: git
    pathspecs of the only files whose hunks are read (:func:`lore.index.linemap.code_pathspecs`; ``None``: all).

    The summary says why the history is empty when it is (``reason``); it never raises for a
    missing git, a directory outside any repository, a shallow clone or an empty repository. With a
    ``log_cache``, the commits of an earlier mining with the same identity are reused.
    """
    root = Path(root)
    empty = count_pairs([])
    base = {"format": FORMAT, "until": None if until is None else str(until), "max_commits": max_commits,
            "max_files": max_files, "max_symbols": max_symbols}
    top = _git(root, "rev-parse", "--show-toplevel", "--show-prefix", "--is-shallow-repository")
    if top is None:
        return {**base, "reason": "git is not installed"}, *empty
    lines = top.stdout.split("\n")
    if top.returncode != 0 or len(lines) < 3:
        return {**base, "reason": "not a git checkout"}, *empty
    prefix, shallow, head = lines[1].strip(), lines[2].strip(), head_of(root)
    top_dir = Path(lines[0].strip())
    if head is None:
        return {**base, "reason": "no commit yet"}, *empty
    touched_here = _git(root, "log", "-1", "--format=%H", "--", ".")
    if touched_here is not None and touched_here.returncode == 0 and not touched_here.stdout.strip():
        # in another repository (a package under a git-managed toolchain): none of these files is tracked
        return {**base, "head": head, "reason": "no commit touches these files"}, *empty
    if shallow == "true":
        return {**base, "head": head, "reason": "shallow clone (its history is cut)"}, *empty
    t_until, rev = _resolve_until(root, until)
    # HEAD names its whole history: any checkout (and which files' hunks were read)
    ident = json.dumps([FORMAT, head, t_until, rev, max_commits, *([list(hunks_of)] if hunks_of is not None else [])])
    cached = log_cache.load(ident) if log_cache is not None else None
    if progress is not None:
        progress("history", 0, 0)
    decoded: tuple[list[Commit], list[Commit]] | None = None
    if cached is not None:  # the same commits as last time: only the mapping onto today's symbols is redone
        try:
            decoded = _decode_log(cached)
        except (ValueError, TypeError, EOFError, zlib.error):  # a damaged entry: read git again (and replace it)
            decoded = None
    if decoded is not None:
        commits, later = decoded
        if log_cache is not None:
            log_cache.hit = True
    else:
        try:
            commits = read_history(top_dir, until=t_until, rev=rev, max_commits=max_commits, hunks_of=hunks_of)
        except NotAGitRepositoryError:
            return {**base, "head": head, "reason": "git log failed"}, *empty
        later = []
        if t_until is not None or rev is not None:  # the window ends before HEAD: its lines and paths are carried
            try:  # to today's through the commits since
                later = read_history(top_dir, since=t_until, rev=None if rev is None else f"{rev}..HEAD", hunks_of=hunks_of)
            except NotAGitRepositoryError:
                return {**base, "head": head, "reason": "git log failed"}, *empty
        if log_cache is not None:
            log_cache.pending = (ident, _encode_log(commits, later))

    def path_map(path: str) -> str | None:
        if not prefix:
            return path
        return path[len(prefix):] if path.startswith(prefix) else None

    per_commit: list[list[int]] = []
    skipped_files = skipped_symbols = done = 0
    if callable(spans):
        spans = spans(top_dir, prefix)
    later_renames = [r for c in later for r in c.renames]
    advance = getattr(spans, "advance", None)
    if advance is not None:  # lines carried to today's: through the working tree's changes and the later commits
        now = worktree_changes(top_dir)
        later_renames = advance(([now] if now is not None else []) + later)
    outside: Outside | None = None
    sibling = getattr(spans, "sibling", None)
    other: SpanMap | None = None
    if prefix and sibling is not None:
        other = sibling(top_dir)

        def outside(c: Commit, inside: set[int], files: list[tuple[str, str, list[tuple[int, int]]]]) -> set[int]:
            """The definitions outside the folder a commit changed, when they could make it a sweep: a commit
            that changes nothing inside needs none, and one whose changed lines outside are too few neither."""
            if other is None or not inside or len(inside) + sum(hi - lo + 1 for *_, rs in files for lo, hi in rs) <= max_symbols:
                return set()
            out: set[int] = set()
            for path_then, today, ranges in files:
                out |= other.touched(c, path_then, today, ranges)
            return out
    prefetch = getattr(spans, "prefetch", None)
    if prefetch is not None:  # the cached versions in a few reads, not one per file
        prefetch([(c.sha, p, c.blobs.get(p)) for c in commits if len(c.files) <= max_files
                  for p, ranges in c.files.items() if ranges])
    deadline = None if budget is None else time.monotonic() + budget
    total = len(commits)
    mapping = touched_symbols(commits, spans, max_files=max_files, path_map=path_map, later_renames=later_renames,
                              outside=outside)
    for _c, ids in mapping:
        done += 1
        if ids is None:
            skipped_files += 1
        elif len(ids) > max_symbols:
            skipped_symbols += 1
        elif ids and ids[-1] >= 0:  # the ids of the index (those outside the folder are negative)
            per_commit.append([i for i in ids if i >= 0])
        if progress is not None and (done % 8 == 0 or done == total):
            progress("history", done, total)
        if deadline is not None and done < total and time.monotonic() > deadline:
            break
    close = getattr(other, "close", None)
    if close is not None:
        close()
    mapped = commits[:done]
    pairs, touched = count_pairs(per_commit)
    summary = {**base, "head": head, "commits_read": len(commits), "commits_used": len(per_commit), "renames_after": len(later_renames),
               "skipped_large": skipped_files + skipped_symbols, "cut_by_budget": total - done,
               "newest": max((c.time for c in mapped), default=None),
               "oldest": min((c.time for c in mapped), default=None), "reason": ""}
    return summary, pairs, touched


def head_of(root: str | Path) -> str | None:
    """HEAD's commit of the checkout at ``root``, or ``None`` (no git, not a repository, no commit)."""
    done = _git(Path(root), "rev-parse", "--verify", "--quiet", "HEAD")
    return done.stdout.strip() if done is not None and done.returncode == 0 and done.stdout.strip() else None


def refresh_history(db: str | Path, root: str | Path, *, until: str | None = None, max_commits: int = MAX_COMMITS,
                    max_files: int = MAX_FILES, max_symbols: int = MAX_SYMBOLS, force: bool = False,
                    budget: float | None = None,
                    progress: Callable[[str, int, int], None] | None = None,
                    span_cache: str | Path | None | bool = None, cpu_since: float | None = None) -> dict:
    """Mine ``root``'s git history onto the index at ``db`` and store it, unless the stored run is current.

    A run is current when it was mapped onto the index's generation with the same HEAD, ``until``
    and caps, and was not cut by the time ``budget`` (seconds; ``None``: none). Returns the run's
    summary (with ``"kept": True`` when nothing was redone, ``"stale": True`` when the index moved to
    another generation or was replaced while this run mined: nothing was written then).
    ``span_cache``: the user's cache file of parsed commit logs (:class:`lore.index.history_cache.BlobSpans`;
    ``None``: the user's lore cache, ``False``: no cache). ``progress("history", done, total)``
    follows the commits mapped. The summary's ``cpu`` is the CPU seconds the run cost, its ``git``
    processes included (:func:`lore.index._cpu.process_tree_cpu`), counted from ``cpu_since`` (a reading of it;
    ``None``: this call's start; the background miner gives 0.0, its whole process).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from lore.index import index_repo
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    pass\\n")
    >>> _ = index_repo(d, db=d / "i.db")
    >>> refresh_history(d / "i.db", d)["reason"]
    'not a git checkout'
    """
    t0 = time.perf_counter()
    cpu0 = process_tree_cpu() if cpu_since is None else cpu_since
    conn = store_db.connect(db)
    try:
        gen = store_db.generation(conn)
        stamp = store_db.index_stamp(conn)
        head = head_of(root)
        stored = store_history.run_summary(conn)
        if stored is not None and not force:
            old = _loads(stored[1])
            same = (stored[0] == gen and old.get("format") == FORMAT and old.get("head") == head and old.get("until") == (None if until is None else str(until))
                    and old.get("max_commits") == max_commits and old.get("max_files") == max_files
                    and old.get("max_symbols", MAX_SYMBOLS) == max_symbols and not old.get("cut_by_budget"))
            if same:
                return {**old, "kept": True}
        # (the user's cache of parsed logs, and the line maps: no grammar is loaded, no old version parsed)
        from .history_cache import BlobSpans
        from .linemap import LineSpans, code_pathspecs

        blobs = None if span_cache is False else BlobSpans(None if span_cache in (None, True) else str(span_cache))
        from_user: list[str] = []

        def load_log(key: str) -> bytes | None:  # this index's, else the user's (another checkout, a rebuild)
            if force:
                return None
            got = store_history.load_log(conn, key)
            if got is None and blobs is not None:
                got = blobs.load_log(key)
                if got is not None:
                    from_user.append(key)
                    cache.pending = (key, got)  # kept in the index too
            return got

        cache = LogCache(load_log)
        made: list[LineSpans] = []
        # no test file is mapped: related lists and co-change judgements leave tests out
        by_path: dict[str, list[tuple[int, int, int]]] = {}
        # a name defined more than once in a file (typing overloads, a property's setter, a definition in each
        # branch of an if) is one definition for its history: it counts for the first, as names resolve
        first: dict[tuple[str, str], int] = {}
        names = store_history.symbol_names(conn)  # (by id: the first comes first)
        for sid, qname, _kind, path in names:
            first.setdefault((path, qname), sid)
        # (an anonymous function, ``<lambda>``, is not a definition of its own: its lines count for the enclosing one)
        canon = {sid: first[(path, qname)] for sid, qname, _kind, path in names if "<" not in qname}
        for path, start, end, sid in store_history.symbol_spans(conn, tests=False):
            if int(sid) in canon:
                by_path.setdefault(path, []).append((int(start), int(end or start), canon[int(sid)]))

        def spans(top: Path, prefix: str) -> LineSpans:  # only where there is a history to map
            made.append(LineSpans(by_path, prefix=prefix))
            return made[0]

        try:
            summary, pairs, touched = mine(root, spans, until=until, max_commits=max_commits, max_files=max_files,
                                           max_symbols=max_symbols, log_cache=cache, budget=budget, progress=progress,
                                           hunks_of=code_pathspecs(by_path))
            if not cache.hit:
                from_user.clear()  # (a damaged entry: read from git instead, and replaced)
            if blobs is not None and cache.pending is not None and not from_user:
                blobs.save_log(*cache.pending)
        finally:
            if blobs is not None:
                blobs.close()
        summary["seconds"] = round(time.perf_counter() - t0, 3)
        summary["cpu"] = round(process_tree_cpu() - cpu0, 3)  # (the git processes' CPU included)
        if made:  # what the line maps carried: hunks mapped, and those whose lines no longer exist today
            summary["hunks_mapped"] = made[0].hunks
            summary["hunks_gone"] = made[0].lost
        if not summary.get("reason"):  # where the commits came from: git, this index's cache or the user's
            summary["log_from"] = "user cache" if from_user else "git" if cache.pending is not None else "index"
        conn.close()
        conn = store_db.connect(db)  # the file now at ``db``: a rebuild may have replaced the one mined for
        with store_db.write_transaction(conn, db):
            if store_db.index_stamp(conn) != stamp:  # another generation, or another index: this run is stale
                return {**summary, "stale": True}
            store_history.save_run(conn, gen, summary, pairs, touched)
            if cache.pending is not None:
                store_history.save_log(conn, *cache.pending)
        return summary
    finally:
        conn.close()


def _loads(text: str) -> dict:
    import json

    try:
        got = json.loads(text)
    except ValueError:
        return {}
    return got if isinstance(got, dict) else {}
