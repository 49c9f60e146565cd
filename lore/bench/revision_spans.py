"""Symbol spans as they were at each commit: a hunk is mapped onto the code it changed, not today's.

Co-change ground truth maps every hunk of a commit onto the function, method or class it changed.
With today's line spans (:class:`lore.index.history.Spans`), a hunk of an old commit lands on
whatever sits at its line numbers now: after years of edits above it, that is a neighbour of the
code that really changed, so the judged pairs drift towards "nearby in the same file" (the very
baseline the ranker is measured against). :class:`RevisionSpans` reads each changed file as it
was after the commit (one ``git cat-file --batch`` process for the whole history), parses it with
lore's own parser, maps the hunk onto the innermost definition of that version, and names it by its
qualified name inside its module; a name that no longer exists in today's version of the file
(renamed, deleted) is left out, never attributed to a neighbour.
"""

from __future__ import annotations

import subprocess
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from ..errors import NotAGitRepositoryError
from ..index.history import Commit
from ..languages import language_for, parse_source

SPAN_KINDS = ("function", "method", "class")
_PLACEHOLDER = "M"  # the module name a historical version is parsed under (stripped again below)
CACHE_FILES = 4096  # parsed file versions kept (a file changed by consecutive commits is read once each)


class RevisionSpans:
    """Hunks mapped with the spans of the file version each commit produced.

    ``today``: today's path -> {qualified name inside its module (``Session.send``): symbol id};
    see :func:`today_names`. Use as a context manager (it owns a ``git cat-file`` process).
    """

    def __init__(self, root: str | Path, today: dict[str, dict[str, int]]) -> None:
        self.root = Path(root)
        self.today = today
        self._spans: OrderedDict[tuple[str, str], list[tuple[int, int, str]]] = OrderedDict()
        self.read = self.missing = 0
        try:
            self._git = subprocess.Popen(["git", "-C", str(self.root), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE)
        except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
            raise NotAGitRepositoryError(str(root)) from exc

    def __enter__(self) -> RevisionSpans:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._git.poll() is None:
            self._git.stdin.close()  # type: ignore[union-attr]
            self._git.wait()
        self._git.stdout.close()  # type: ignore[union-attr]

    def touched(self, commit: Commit, path_then: str, today_path: str, ranges: Sequence[tuple[int, int]]) -> set[int]:
        """Today's ids of the definitions the hunks ``ranges`` (new-side lines of ``path_then`` at
        ``commit``) changed: the innermost function, method or class of that version at each line."""
        names = self.today.get(today_path)
        if not names or not ranges:
            return set()
        spans = self._version(commit.sha, path_then)
        out: set[int] = set()
        for lo, hi in ranges:
            for line in range(lo, hi + 1):
                for s, e, qname in spans:
                    if s <= line <= e:
                        sid = names.get(qname)
                        if sid is not None:
                            out.add(sid)
                        break  # innermost only
        return out

    def _version(self, sha: str, path: str) -> list[tuple[int, int, str]]:
        key = (sha, path)
        got = self._spans.get(key)
        if got is not None:
            self._spans.move_to_end(key)
            return got
        data = self._blob(f"{sha}:{path}")
        lang = language_for(path)
        spans: list[tuple[int, int, str]] = []
        if data is not None and lang is not None:
            self.read += 1
            pf = parse_source(path, data, lang.name, _PLACEHOLDER)
            prefix = _PLACEHOLDER + "."
            for s in pf.symbols:
                if s.kind in SPAN_KINDS and s.qualified_name.startswith(prefix) and "<" not in s.qualified_name:
                    spans.append((s.start_line, s.end_line or s.start_line, s.qualified_name[len(prefix):]))
            spans.sort(key=lambda t: (t[1] - t[0], t[0]))
        else:
            self.missing += 1
        self._spans[key] = spans
        if len(self._spans) > CACHE_FILES:
            self._spans.popitem(last=False)
        return spans

    def _blob(self, spec: str) -> bytes | None:
        """The content of ``rev:path`` (``None`` when the object is missing or not a file)."""
        if "\n" in spec or "\r" in spec:  # one request per line: such a name would shift every later answer
            return None
        proc = self._git
        try:
            proc.stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            header = proc.stdout.readline().split()  # type: ignore[union-attr]
            if len(header) != 3:  # "<spec> missing" / "ambiguous"
                return None
            size = int(header[2])
            data = proc.stdout.read(size + 1)[:size]  # type: ignore[union-attr]
        except (OSError, ValueError):  # git gone: nothing more is read (an empty truth is reported as such)
            return None
        return data if header[1] == b"blob" else None


def today_names(rows) -> dict[str, dict[str, int]]:
    """Today's path -> {qualified name inside its module: symbol id}, from symbol rows
    ``(id, qualified_name, kind, path)``; the module rows name the prefix to strip."""
    modules: dict[str, str] = {}
    defs: list[tuple[int, str, str]] = []
    for sid, qname, kind, path in rows:
        if not path:
            continue
        if kind == "module":
            modules.setdefault(path, qname)
        elif kind in SPAN_KINDS:
            defs.append((sid, qname, path))
    out: dict[str, dict[str, int]] = {}
    for sid, qname, path in sorted(defs):
        mod = modules.get(path)
        if mod is None or not qname.startswith(mod + "."):
            continue
        out.setdefault(path, {}).setdefault(qname[len(mod) + 1:], sid)
    return out
