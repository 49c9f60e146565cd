"""Walking a repository: .gitignore-aware, language by extension, binary and huge files skipped.

Nothing here parses: the walker yields :class:`SourceFile` entries (path, language, size, mtime);
the indexer decides what to read and hash. Symlinks are never followed out of the root.
"""

from __future__ import annotations

import errno
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from ..languages import EXTENSIONS, FILE_NAMES
from ._files import kind_of

DEFAULT_MAX_FILE_SIZE = 2_000_000  # bytes; generated or vendored giants are skipped with a warning
ALWAYS_SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".lore", "__pycache__", "node_modules", ".tox", ".nox", ".venv", ".mypy_cache",
     ".pytest_cache", ".ruff_cache", ".eggs"}
)

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


@dataclass
class WalkResult:
    files: list[SourceFile] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> count
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)

    def skip(self, reason: str, path: str) -> None:
        self.skipped[reason] += 1
        self.skipped_paths.setdefault(reason, [])
        if len(self.skipped_paths[reason]) < 20:
            self.skipped_paths[reason].append(path)


def is_test_path(path: str) -> bool:
    """Whether ``path`` looks like test code (test directories, ``test_*.py``, ``*_test.go``, ``*.spec.ts``...).

    Examples
    --------
    >>> is_test_path("pkg/tests/test_api.py"), is_test_path("pkg/api.py"), is_test_path("src/a.spec.ts")
    (True, False, True)
    """
    parts = path.split("/")
    if any(p in _TEST_DIR_NAMES for p in parts[:-1]):
        return True
    name = parts[-1]
    stem = name.split(".", 1)[0]
    return (
        stem.startswith("test_")
        or stem.endswith("_test")
        or stem.endswith("_tests")
        or name == "conftest.py"
        or ".test." in name
        or ".spec." in name
        or (stem.endswith("Test") and name.endswith(".java"))
    )


def _load_ignore(dirpath: Path) -> pathspec.PathSpec | None:
    gi = dirpath / ".gitignore"
    if not gi.is_file():
        return None
    try:
        lines = gi.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


def walk(
    root: str | os.PathLike[str],
    *,
    exclude: tuple[str, ...] | list[str] = (),
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    languages: set[str] | None = None,
) -> WalkResult:
    """Files under ``root`` that lore can index, sorted by path.

    ``exclude`` takes gitignore-style patterns relative to the root. Nested ``.gitignore`` files
    apply to their own subtree. Files larger than ``max_file_size`` and binary files (a NUL byte in
    the first 8 KiB) are skipped and counted in ``WalkResult.skipped``.
    """
    root_path = Path(root).resolve()
    result = WalkResult()
    excludes = pathspec.GitIgnoreSpec.from_lines(list(exclude)) if exclude else None
    # stack of (directory relative prefix, spec) for nested .gitignore files
    specs: list[tuple[str, pathspec.PathSpec]] = []

    def ignored(rel: str, is_dir: bool) -> bool:
        probe = rel + "/" if is_dir else rel
        if excludes is not None and excludes.match_file(probe):
            return True
        verdict = False
        for prefix, spec in specs:
            if prefix and not rel.startswith(prefix):
                continue
            sub = rel[len(prefix):] + ("/" if is_dir else "")
            res = spec.check_file(sub)
            if res.include is not None:
                verdict = bool(res.include)
        return verdict

    root_str = str(root_path)

    def visit(dirpath: str, rel_dir: str) -> None:
        try:
            with os.scandir(dirpath) as it:
                entries = list(it)  # the final list is sorted by path: listing order does not matter
        except OSError:
            result.skip("unreadable directory", rel_dir or ".")
            entries = []
        spec = _load_ignore(Path(dirpath)) if any(e.name == ".gitignore" for e in entries) else None
        pushed = False
        if spec is not None:
            specs.append((rel_dir + "/" if rel_dir else "", spec))
            pushed = True
        for entry in entries:
            name = entry.name
            if needs_escape(name):
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
                    if name in ALWAYS_SKIP_DIRS or ignored(rel, True):
                        continue
                    visit(entry.path, rel)
                    continue
                if not entry.is_file():
                    # a pipe, a socket, a device (or a symlink to one): never opened, but counted
                    if not ignored(rel, False):
                        try:
                            reason = kind_of(os.stat(entry.path).st_mode) or "not a regular file"
                        except FileNotFoundError:
                            reason = "broken symlink" if entry.is_symlink() else "vanished"
                        except OSError as exc:
                            reason = "symlink loop" if exc.errno == errno.ELOOP else "unreadable"
                        result.skip(reason, rel)
                    continue
            except OSError as exc:
                result.skip("symlink loop" if exc.errno == errno.ELOOP else "unreadable", rel)
                continue
            dot = name.rfind(".")
            lang = (_BY_EXTENSION.get(name[dot:].lower()) if dot > 0 else None) or _BY_FILE_NAME.get(name)
            if lang is None or (languages is not None and lang not in languages):
                continue
            if ignored(rel, False):
                continue
            try:
                st = entry.stat()
            except OSError:
                result.skip("unreadable", rel)
                continue
            if st.st_size > max_file_size:
                result.skip(f"larger than {max_file_size} bytes", rel)
                continue
            result.files.append(SourceFile(rel, entry.path, lang, st.st_size, st.st_mtime_ns))
        if pushed:
            specs.pop()

    visit(root_str, "")
    result.files.sort(key=lambda f: f.path)
    kept: list[SourceFile] = []
    for f in result.files:  # an escaped name can spell a real one (`a\\xe9.py`): the first one wins
        if kept and kept[-1].path == f.path:
            result.skip("name collision", f.path)
            continue
        kept.append(f)
    result.files = kept
    return result


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def needs_escape(name: str) -> bool:
    r"""Whether :func:`escape_name` changes ``name`` (not UTF-8, a backslash, a control character).

    Examples
    --------
    >>> needs_escape("café.py"), needs_escape("lit\\x41.py"), needs_escape("a\nb.py")
    (False, True, True)
    """
    return not _is_utf8(name) or any(ch == "\\" or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in name)


def escape_name(name: str) -> str:
    r"""A file name as the index stores it: printable on one line, and the exact name back with :func:`unescape_name`.

    Undecodable bytes (the OS hands them to Python as surrogate escapes, which SQLite cannot store)
    and control characters (a newline would split an error line, an escape sequence would reach the
    terminal) become ``\xNN``; a backslash becomes ``\\``, so a name that spells an escape
    (``lit\x41.py``) is never read back as another one. Every other name, the usual case, is stored
    as it is.

    Examples
    --------
    >>> import os
    >>> name = os.fsdecode(b"latin\xe9.py")
    >>> escape_name(name), escape_name("lit\\x41.py"), escape_name("a\nb.py"), escape_name("café.py")
    ('latin\\xe9.py', 'lit\\\\x41.py', 'a\\x0ab.py', 'café.py')
    >>> all(unescape_name(escape_name(n)) == n for n in (name, "lit\\x41.py", "a\nb.py", "\\"))
    True
    """
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def unescape_name(text: str) -> str:
    r"""The OS name (with surrogate escapes) of a name :func:`escape_name` escaped; the inverse of it.

    ``\xNN`` below ``\x80`` is that character (a control character), from ``\x80`` up the undecodable
    byte; a backslash that starts neither form is kept as it is.
    """
    if "\\" not in text:
        return text
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1 : i + 2] == "\\":
            out.append("\\")
            i += 2
            continue
        if ch == "\\" and text[i + 1 : i + 2] == "x":
            try:
                code = int(text[i + 2 : i + 4], 16) if len(text) >= i + 4 else -1
            except ValueError:
                code = -1
            if 0 <= code < 0x80:
                out.append(chr(code))
                i += 4
                continue
            if code >= 0x80:
                out.append(chr(0xDC00 + code))
                i += 4
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def is_binary(data: bytes) -> bool:
    """A NUL byte in the first 8 KiB marks a file as binary (git's heuristic)."""
    return b"\x00" in data[:8192]
