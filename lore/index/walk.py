"""Walking a repository: .gitignore-aware, language by extension, binary and huge files skipped.

Nothing here parses: the walker yields :class:`SourceFile` entries (path, language, size, mtime);
the indexer decides what to read and hash. Symlinks are never followed out of the root.

What is not walked, and why, is kept: each file a rule excluded is counted under that rule
(``.gitignore:1 "/*"``, ``exclude "gen/" (.loreignore)``, ``built-in skip: virtualenv``), folders that
are not the project's code (:mod:`lore.index._skips`) are listed, and a walk that found nothing to
index can say which rule excluded the most (:meth:`WalkResult.nothing_indexed`). Include patterns win
over ``.gitignore``, exclude patterns and the built-in skips. The walk keeps its own stack of
folders, so a tree nested a thousand deep does not reach Python's recursion limit.
"""

from __future__ import annotations

import errno
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import pathspec

from ..languages import EXTENSIONS, FILE_NAMES, LANGUAGES
from ._files import kind_of
from ._names import escape_name, needs_escape
from ._names import unescape_name as unescape_name  # re-exported: callers import it from here
from ._skips import BY_NAME, NEVER_WALKED, QUIET, by_contents, by_name, by_siblings

DEFAULT_MAX_FILE_SIZE = 2_000_000  # bytes; generated or vendored giants are skipped with a warning
# folders skipped by name wherever they are, git or not (the watcher ignores changes under them too)
ALWAYS_SKIP_DIRS = frozenset(BY_NAME)
UNKNOWN_EXTENSION = "unknown extension"
NOT_SELECTED = "language not selected"
BUILT_IN = "built-in skip: "
COUNT_LIMIT = 200_000  # entries a walk that found nothing looks at to count what its rules excluded

# language by extension (or by whole file name), as ``lore.languages.language_for`` decides, without pathlib
_BY_EXTENSION: dict[str, str] = EXTENSIONS
_BY_FILE_NAME: dict[str, str] = FILE_NAMES

_TEST_DIR_NAMES = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs"})


@dataclass(slots=True)
class SourceFile:
    path: str  # relative to root, '/'-separated
    abspath: str
    language: str
    size: int
    mtime_ns: int
    ctime_ns: int = 0  # the inode's change time: no copy tool can set it back (see lore.index._files)


@dataclass
class WalkResult:
    """What a walk found, and what it left out.

    ``skipped`` counts files that were looked at and refused (too large, unreadable, special files);
    ``excluded`` counts files by the rule that kept them out (a gitignore line, an exclude pattern, a
    built-in skip, an unknown extension). Files under a folder a rule pruned are not looked at, so
    they are counted only by :meth:`count_pruned` (which a walk that found nothing calls).
    ``skipped_dirs`` lists the built-in skips worth telling a user about (``venv``: ``virtualenv``);
    ``ignore_files`` the ``.gitignore`` files in force.
    """

    files: list[SourceFile] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> count
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)
    excluded: Counter[str] = field(default_factory=Counter)  # rule -> files it kept out
    skipped_dirs: list[tuple[str, str]] = field(default_factory=list)  # (folder, reason), built-in skips
    started_ns: int = 0  # wall clock when the walk began: a file changed after it is looked at again next run
    ignore_files: list[str] = field(default_factory=list)
    pruned: list[tuple[str, str]] = field(default_factory=list)  # (absolute folder, rule): not walked
    counted: bool = False  # count_pruned() ran
    count_complete: bool = True  # ... and looked at every entry (not stopped at COUNT_LIMIT)

    def skip(self, reason: str, path: str) -> None:
        self.skipped[reason] += 1
        self.skipped_paths.setdefault(reason, [])
        if len(self.skipped_paths[reason]) < 20:
            self.skipped_paths[reason].append(path)

    def count_pruned(self, *, limit: int = COUNT_LIMIT) -> None:
        """Count the files under the folders a rule pruned into :attr:`excluded` (once; at most ``limit`` entries).

        Version control folders inside are not counted: they are nobody's source.
        """
        if self.counted:
            return
        self.counted = True
        seen = 0
        for top, rule in sorted(self.pruned):
            stack = [top]
            while stack:
                try:
                    with os.scandir(stack.pop()) as it:
                        entries = list(it)
                except OSError:
                    continue
                for e in entries:
                    seen += 1
                    if seen > limit:
                        self.count_complete = False
                        return
                    try:
                        if e.is_dir(follow_symlinks=False):
                            if e.name not in NEVER_WALKED:
                                stack.append(e.path)
                            continue
                        if not e.is_file(follow_symlinks=False):
                            continue
                    except OSError:
                        continue
                    self.excluded[rule if _language(e.name) else UNKNOWN_EXTENSION] += 1

    def exclusions(self) -> dict[str, int]:
        """Files kept out, by rule, most first (ties by rule), the size limit included: the report's ``excluded``."""
        out = Counter(self.excluded)
        for reason, n in self.skipped.items():
            if reason.startswith("larger than"):
                out[reason] += n
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def nothing_indexed(self) -> str:
        """One sentence: why this walk found no file to index and how to override it (counts the pruned folders).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / ".gitignore").write_text("/*\\n")
        >>> for name in ("a.py", "b.py", "notes.txt"):
        ...     _ = (d / name).write_text("x = 1\\n")
        >>> print(walk(d).nothing_indexed())
        no file indexed: all 2 source files are excluded by .gitignore:1 "/*"; 2 other files have no language lore reads (override: lore index --no-gitignore, or an include pattern in .lore/config.toml)
        """
        self.count_pruned()
        counts = self.exclusions()
        unknown = counts.pop(UNKNOWN_EXTENSION, 0)
        some = "" if self.count_complete else "at least "
        if not counts:
            if not unknown:
                return "no file indexed: there are no files under the root; pass the root of a repository"
            return (f"no file indexed: none of {some}{unknown} files has the extension of a language lore reads "
                    f"(such as {', '.join(sorted(set(_BY_EXTENSION.values())))})")
        total = sum(counts.values())
        top, n = next(iter(counts.items()))
        if n == total:
            head = (f"all {some}{total} source files are excluded by {top}" if total > 1 or some
                    else f"its one source file is excluded by {top}")
        else:
            others = [f"{rule} {k}" for rule, k in list(counts.items())[1:4]]
            more = len(counts) - 4
            head = (f"{some}{total} source files are excluded, most ({n}) by {top}; also " + ", ".join(others)
                    + (f" and {more} more rules" if more > 0 else ""))
        if unknown:
            head += f"; {unknown} other {'file has' if unknown == 1 else 'files have'} no language lore reads"
        return f"no file indexed: {head} (override: {_override(top)})"


def _override(rule: str) -> str:
    """How to let in what ``rule`` keeps out."""
    if rule.startswith(BUILT_IN):
        return ("an include pattern naming a path inside the folder: lore index --include 'venv/mine/', "
                "or include in .lore/config.toml")
    if rule.startswith("larger than"):
        return "lore index --max-file-size BYTES, or max_file_size in .lore/config.toml"
    if rule.startswith("exclude "):
        return "remove the pattern, or an include pattern: lore index --include PATTERN, or include in .lore/config.toml"
    if rule == NOT_SELECTED:
        return "ask for that language too"
    return "lore index --no-gitignore, or an include pattern in .lore/config.toml"


def _language(name: str) -> str | None:
    dot = name.rfind(".")
    return (_BY_EXTENSION.get(name[dot:].lower()) if dot > 0 else None) or _BY_FILE_NAME.get(name)


# interpreters whose scripts lore reads without an extension (``bin/nvm-exec``, ``libexec/bats-core/bats``)
_SHEBANG_LANGUAGES = {b"bash": "bash", b"sh": "bash"}


def shebang_language(path: str) -> str | None:
    """The language of an extensionless script by its first line (``#!/bin/bash``, ``#!/usr/bin/env sh``),
    reading at most 128 bytes; ``None`` for any other file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "run").write_bytes(b"#!/usr/bin/env bash\\necho hi\\n")
    >>> shebang_language(str(d / "run")), shebang_language(str(d / "nothing-here"))
    ('bash', None)
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(128)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].split()
    if words and words[0].rsplit(b"/", 1)[-1] == b"env":  # #!/usr/bin/env [-S] bash
        words = [w for w in words[1:] if not w.startswith(b"-")]
    return _SHEBANG_LANGUAGES.get(words[0].rsplit(b"/", 1)[-1]) if words else None


def is_test_path(path: str) -> bool:
    """Whether ``path`` looks like test code (test directories, ``test_*.py``, ``*_test.go``, ``*.spec.ts``...).

    Examples
    --------
    >>> is_test_path("pkg/tests/test_api.py"), is_test_path("pkg/api.py"), is_test_path("src/a.spec.ts")
    (True, False, True)
    """
    parts = path.split("/")
    if any(p in _TEST_DIR_NAMES or _is_dotnet_test_project(p) or _is_test_source_set(p) for p in parts[:-1]):
        return True
    name = parts[-1]
    if name.endswith(".swift") and any(p == "Tests" or p.endswith("Tests") for p in parts[:-1]):
        return True  # SwiftPM test targets: Tests/<Target>Tests/ (Xcode: <App>Tests/)
    stem = name.split(".", 1)[0]
    return (
        stem.startswith("test_")
        or stem.endswith("_test")
        or stem.endswith("_tests")
        or (stem.endswith("_spec") and name.endswith(".rb"))
        or name == "conftest.py"
        or ".test." in name
        or ".spec." in name
        or (stem.endswith("Test") and name.endswith(".java"))
        or (stem.endswith(("Test", "Tests")) and name.endswith((".cs", ".php", ".kt")))
        # ScalaTest, munit (utest's FooTests live under test/: scala-xml's TokenTests.scala is no test)
        or (stem.endswith(("Test", "Spec", "Suite")) and name.endswith(".scala"))
    )


def _is_test_source_set(part: str) -> bool:
    """A Gradle / Kotlin Multiplatform test source set: ``jvmTest``, ``commonTest``, ``androidUnitTest``."""
    return part[:1].islower() and part.endswith("Test") and part.isalnum()


def _is_dotnet_test_project(part: str) -> bool:
    """A .NET test project's folder, named after its assembly: ``App.Tests``, ``App.UnitTests.Core``."""
    return "." in part and any(w in _TEST_DIR_NAMES or w.endswith("tests") for w in part.lower().split(".")[1:])


@dataclass(frozen=True, slots=True)
class _Ignore:
    """One ``.gitignore`` in force: its patterns apply to paths below ``prefix``."""

    prefix: str  # '' or 'sub/dir/'
    source: str  # the file, relative to the root
    spec: pathspec.PathSpec
    lines: tuple[str, ...]  # the non-empty lines (pathspec drops empty ones), with their line numbers:
    numbers: tuple[int, ...]

    def rule(self, index: int | None) -> str:
        if index is None or index >= len(self.lines):
            return f"{self.source}:?"
        return f'{self.source}:{self.numbers[index]} "{self.lines[index].strip()}"'


def _load_ignore(path: str, prefix: str) -> _Ignore | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    # pathspec makes one pattern per non-empty line (comments included): its index among those names the line
    kept = [(n, line) for n, line in enumerate(lines, 1) if line]
    return _Ignore(prefix, prefix + ".gitignore", pathspec.GitIgnoreSpec.from_lines(lines),
                   tuple(line for _, line in kept), tuple(n for n, _ in kept))


class _Include:
    """Include patterns (gitignore syntax): a file they match is indexed whatever excluded it.

    A folder a rule pruned is walked only if a pattern could match below it: any pattern for a
    folder pruned by an ignore rule (``*.c`` matches at every depth), but only a pattern that names a
    path into it for a built-in skip (``*.py`` must not pull a virtualenv back in; ``venv/mine/`` does).
    """

    def __init__(self, patterns: tuple[str, ...] | list[str]) -> None:
        self.spec = pathspec.GitIgnoreSpec.from_lines(list(patterns)) if patterns else None
        self.paths: list[list[str]] = []  # literal leading folders of anchored patterns
        self.anywhere = False  # some pattern matches at any depth
        for raw in patterns:
            p = raw.strip()
            if not p or p.startswith(("#", "!")):
                continue
            body = p.rstrip("/")
            if "/" not in body or body.startswith("**/"):
                self.anywhere = True
                continue
            literal: list[str] = []
            for seg in body.lstrip("/").split("/"):
                if any(c in seg for c in "*?[") or not seg:
                    break
                literal.append(seg)
            if literal:
                self.paths.append(literal)
            else:
                self.anywhere = True

    def match(self, rel: str) -> bool:
        return self.spec is not None and self.spec.match_file(rel)

    def reaches(self, rel_dir: str, *, strict: bool) -> bool:
        if self.spec is None:
            return False
        if self.anywhere and not strict:
            return True
        segs = rel_dir.split("/")
        for lit in self.paths:
            n = min(len(lit), len(segs))
            if lit[:n] == segs[:n]:
                return True
        return False


def walk(
    root: str | os.PathLike[str],
    *,
    exclude: tuple[str, ...] | list[str] = (),
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    languages: set[str] | None = None,
    include: tuple[str, ...] | list[str] = (),
    gitignore: bool = True,
    exclude_sources: tuple[str, ...] | list[str] | None = None,
) -> WalkResult:
    """Files under ``root`` that lore can index, sorted by path.

    Parameters
    ----------
    root : path
        The folder to walk.
    exclude : gitignore-style patterns relative to the root, on top of the ``.gitignore`` files.
    max_file_size : files larger than this many bytes are skipped and counted in ``WalkResult.skipped``.
    languages : only these languages (default: every language lore reads).
    include : gitignore-style patterns whose files are indexed even when ``.gitignore``, an exclude
        pattern or a built-in skip leaves them out (see :class:`_Include` for folders).
    gitignore : read ``.gitignore`` files (each applies to its own subtree); False ignores them.
    exclude_sources : where each ``exclude`` pattern came from, to name it in ``WalkResult.excluded``.

    Folders that are not the project's code (virtualenvs, ``node_modules``, build output: see
    :mod:`lore.index._skips`) are skipped with or without git. Binary files (a NUL byte in the first
    8 KiB) are found by the parser, not here.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for p in ("app.py", "venv/pyvenv.cfg", "venv/lib/python3.12/site-packages/pip/x.py", "notes.txt"):
    ...     (d / p).parent.mkdir(parents=True, exist_ok=True); _ = (d / p).write_text("x = 1\\n")
    >>> r = walk(d)
    >>> [f.path for f in r.files], r.skipped_dirs, dict(r.excluded)
    (['app.py'], [('venv', 'virtualenv')], {'unknown extension': 1})
    """
    root_str = os.path.realpath(os.fspath(root))
    result = WalkResult(started_ns=time.time_ns())  # before any file is looked at (change detection)
    sources = list(exclude_sources) if exclude_sources is not None else [""] * len(exclude)
    # pathspec drops empty patterns: keep the others' sources aligned with the spec's pattern indexes
    exclude_lines = [p for p in exclude if p]
    sources = [src for p, src in zip(exclude, sources, strict=False) if p]
    excludes = pathspec.GitIgnoreSpec.from_lines(exclude_lines) if exclude_lines else None
    none_of = _any_pattern(excludes)  # one C-level match that rules out every pattern (the usual answer)
    includes = _Include(include)
    by_extension, by_file_name = _BY_EXTENSION, _BY_FILE_NAME

    def ignored(rel: str, is_dir: bool, ignores: tuple[_Ignore, ...]) -> str | None:
        """The rule that ignores ``rel``: an exclude pattern first, else the last .gitignore line deciding."""
        probe = rel + "/" if is_dir else rel
        if excludes is not None and (none_of is None or none_of.match(probe)):
            res = excludes.check_file(probe)
            if res.include and res.index is not None:
                pat, src = exclude_lines[res.index], sources[res.index] if res.index < len(sources) else ""
                return f'exclude "{pat}"' + (f" ({src})" if src else "")
        verdict = None
        for ig in ignores:
            if ig.prefix and not rel.startswith(ig.prefix):
                continue
            res = ig.spec.check_file(probe[len(ig.prefix):])
            if res.include is not None:
                verdict = (ig, res.index) if res.include else None
        return verdict[0].rule(verdict[1]) if verdict else None

    # each folder to visit: (absolute path, path relative to the root, .gitignore files in force,
    # and when a rule excluded the folder but an include pattern may match below it, (rule, strict))
    stack: list[tuple[str, str, tuple[_Ignore, ...], tuple[str, bool] | None]] = [(root_str, "", (), None)]
    while stack:
        dirpath, rel_dir, ignores, forced = stack.pop()
        try:
            with os.scandir(dirpath) as it:
                entries = list(it)  # the final list is sorted by path: listing order does not matter
        except OSError:
            result.skip("unreadable directory", rel_dir or ".")
            continue
        names = {e.name for e in entries}
        if rel_dir and (forced is None or not forced[1]):
            reason = by_contents(dirpath, names)  # a virtualenv is known by what it holds, not its name
            if reason is not None:
                if not includes.reaches(rel_dir, strict=True):
                    if forced is None:
                        result.skipped_dirs.append((rel_dir, reason))
                    result.pruned.append((dirpath, forced[0] if forced else BUILT_IN + reason))
                    continue
                forced = (forced[0] if forced else BUILT_IN + reason, True)
        if gitignore and forced is None and ".gitignore" in names:
            ig = _load_ignore(os.path.join(dirpath, ".gitignore"), rel_dir + "/" if rel_dir else "")
            if ig is not None:
                ignores = (*ignores, ig)
                result.ignore_files.append(ig.source)
        # no .gitignore in force here: only an exclude pattern can ignore an entry, and the one regular
        # expression of them all (none_of) rules most paths out in C before ignored() is called (the kernel's
        # --no-gitignore walk made 56k calls that returned None, against the five default patterns)
        gitignored = bool(ignores)
        for entry in entries:
            name = entry.name
            # the usual name (ASCII, printable, no backslash) needs no escape: tested inline, not by a call
            if not (name.isascii() and name.isprintable() and "\\" not in name) and needs_escape(name):
                name = escape_name(name)  # the entry keeps the real name; the index stores it escaped
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                if entry.is_symlink():
                    target = os.path.realpath(entry.path)
                    if not (target == root_str or target.startswith(root_str + os.sep)):
                        result.skip("symlink outside the root", rel)
                        continue
                    if os.path.isdir(target):
                        result.skip("symlinked directory", rel)
                        continue
                if entry.is_dir(follow_symlinks=False):
                    if name in NEVER_WALKED:
                        continue
                    reason = by_name(name)
                    if reason in QUIET:
                        continue
                    reason = reason or by_siblings(name, entry.path, names)
                    # a built-in skip is reopened only by a pattern naming a path into it (strict)
                    strict = reason is not None
                    if forced is not None:  # inside an excluded folder: only towards an include pattern
                        rule: str | None = forced[0]
                        strict = strict or forced[1]
                    else:
                        rule = (ignored(rel, True, ignores) if gitignored or excludes is not None
                                and (none_of is None or none_of.match(rel + "/")) else None)
                        if rule is None and reason is not None:
                            rule = BUILT_IN + reason
                    if rule is None:
                        stack.append((entry.path, rel, ignores, None))
                    elif includes.reaches(rel, strict=strict):
                        stack.append((entry.path, rel, ignores, (rule, strict)))
                    else:
                        if forced is None and reason is not None and rule.startswith(BUILT_IN):
                            result.skipped_dirs.append((rel, reason))
                        result.pruned.append((entry.path, rule))
                    continue
                if not entry.is_file():
                    # a pipe, a socket, a device (or a symlink to one): never opened, but counted
                    if forced is None and not ignored(rel, False, ignores):
                        try:
                            kind = kind_of(os.stat(entry.path).st_mode) or "not a regular file"
                        except FileNotFoundError:
                            kind = "broken symlink" if entry.is_symlink() else "vanished"
                        except OSError as exc:
                            kind = "symlink loop" if exc.errno == errno.ELOOP else "unreadable"
                        result.skip(kind, rel)
                    continue
            except OSError as exc:
                result.skip("symlink loop" if exc.errno == errno.ELOOP else "unreadable", rel)
                continue
            dot = name.rfind(".")  # _language(), inline: it runs for every file of the tree
            lang = (by_extension.get(name[dot:].lower()) if dot > 0 else None) or by_file_name.get(name)
            if lang is None and dot < 0:  # an extensionless script: its first line names the language
                lang = shebang_language(entry.path)
            if lang is None:
                result.excluded[UNKNOWN_EXTENSION] += 1
                continue
            if languages is not None and lang not in languages:
                result.excluded[NOT_SELECTED] += 1
                continue
            if forced is not None:
                rule = forced[0]
            elif gitignored or excludes is not None and (none_of is None or none_of.match(rel)):
                rule = ignored(rel, False, ignores)
            else:
                rule = None
            if rule is not None and not includes.match(rel):
                result.excluded[rule] += 1
                continue
            try:
                st = entry.stat()
            except OSError:
                result.skip("unreadable", rel)
                continue
            if st.st_size > max_file_size:
                result.skip(f"larger than {max_file_size} bytes", rel)
                continue
            result.files.append(SourceFile(rel, entry.path, lang, st.st_size, st.st_mtime_ns, st.st_ctime_ns))

    result.files.sort(key=lambda f: f.path)
    result.skipped_dirs.sort()
    result.ignore_files.sort()
    kept: list[SourceFile] = []
    for f in result.files:  # an escaped name can spell a real one (`a\\xe9.py`): the first one wins
        if kept and kept[-1].path == f.path:
            result.skip("name collision", f.path)
            continue
        kept.append(f)
    result.files = kept
    _claim(kept, languages)
    return result


def _any_pattern(spec: pathspec.PathSpec | None) -> re.Pattern[str] | None:
    """One regular expression that matches where any pattern of ``spec`` matches, when every pattern
    excludes (no ``!`` pattern): a path it does not match is decided by none of them, so pathspec's loop
    over the patterns in Python (every file of the walk, against the five default patterns) is skipped.
    None when a pattern re-includes or has no regular expression (then pathspec decides every path).

    Examples
    --------
    >>> spec = pathspec.GitIgnoreSpec.from_lines(["*.min.js", "build/"])
    >>> rx = _any_pattern(spec)
    >>> bool(rx.match("a/x.min.js")), bool(rx.match("build/")), bool(rx.match("a/x.js"))
    (True, True, False)
    >>> _any_pattern(pathspec.GitIgnoreSpec.from_lines(["*.js", "!keep.js"])) is None
    True
    """
    if spec is None:
        return None
    parts = []
    for pat in spec.patterns:
        rx = getattr(pat, "regex", None)
        if pat.include is None:  # a blank or comment line: decides nothing
            continue
        if not pat.include or rx is None or "(?P=" in rx.pattern:
            return None
        parts.append("(?:" + _GROUP_NAME.sub("(?:", rx.pattern) + ")")  # the patterns share group names
    try:
        return re.compile("|".join(parts)) if parts else None
    except re.error:
        return None


_GROUP_NAME = re.compile(r"\(\?P<[^>]+>")


def _claim(files: list[SourceFile], languages: set[str] | None) -> None:
    """The languages that read files of another's extension by their project (C++: the ``.h`` headers of a
    C++ project) take them over, ``Language.claims`` deciding from the paths alone."""
    paths = [f.path for f in files]
    for lang in LANGUAGES:
        if lang.claims is None or (languages is not None and lang.name not in languages):
            continue
        claimed = set(lang.claims(paths))
        for f in files:
            if f.path in claimed:
                f.language = lang.name


def is_binary(data: bytes) -> bool:
    """A NUL byte in the first 8 KiB marks a file as binary (git's heuristic)."""
    return b"\x00" in data[:8192]
