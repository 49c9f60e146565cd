"""Symbol spans as they were at each commit: a hunk is mapped onto the code it changed, not today's.

Co-change (the history signal of the ranker, and the co-change ground truth of the benchmarks) maps
every hunk of a commit onto the function, method or class it changed. With today's line spans
(:class:`lore.index.history.Spans`), a hunk of an old commit lands on whatever sits at its line
numbers now: after years of edits above it, that is a neighbour of the code that really changed, so
the pairs drift towards "nearby in the same file". :class:`RevisionSpans` reads each changed file as
it was after the commit (one ``git cat-file --batch`` process for the whole history, started on the
first file it needs), finds its definitions, maps the hunk onto the innermost definition of that
version, and names it by its qualified name inside its module; a name that no longer exists in
today's version of the file (renamed, deleted) is left out, never attributed to a neighbour.

What a commit changed never changes, so the names found per (commit, path) are kept in ``names``
(the index stores them with its history, :func:`encode_names`): a later run maps only the commits
it has not seen onto today's symbols from scratch, and spawns no git process when there are none.
Python and Go files are read by a definitions-only query (:func:`python_spans`, :func:`go_spans`: the
spans and names lore's parser gives, at about half and a third of its cost); other languages by their
parser. What a version's parse gives is cached for the user by blob id (:class:`BlobSpans`).
"""

from __future__ import annotations

import marshal
import subprocess
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ..errors import NotAGitRepositoryError
from ..languages import language_for, parse_source
from ..parsers import _ts
from .history_cache import BlobSpans
from .walk import DEFAULT_MAX_FILE_SIZE, is_test_path

SPAN_KINDS = ("function", "method", "class")
_PLACEHOLDER = "M"  # the module name a historical version is parsed under (stripped again below)
CACHE_FILES = 4096  # parsed file versions kept (a file changed by consecutive commits is read once each)
MAX_BLOB = DEFAULT_MAX_FILE_SIZE  # a bigger file version (vendored, generated) is skipped, as the indexer skips it
_PY_DEFS = "(function_definition name: (identifier) @name) @def\n(class_definition name: (identifier) @name) @def"

Names = dict[tuple[str, str], tuple[str, ...]]  # (commit, path then) -> qualified names its hunks changed


class Commit(Protocol):
    """What is read of a commit here (:class:`lore.index.history.Commit` has it)."""

    sha: str


def python_spans(data: bytes) -> list[tuple[int, int, str]]:
    """(start line, end line, qualified name inside the module) of every function, method and class of
    a Python source, as lore's Python parser gives them (a decorated definition starts at its first
    decorator), without the rest of the extraction.

    Examples
    --------
    >>> python_spans(b"class A:\\n    @property\\n    def f(self):\\n        def g():\\n            pass\\n")
    [(1, 5, 'A'), (2, 5, 'A.f'), (4, 5, 'A.f.g')]
    """
    tree = _ts.parse("python", data)
    caps = _ts.captures(_ts.query("python", _PY_DEFS), tree.root_node)
    out: list[tuple[int, int, str]] = []
    stack: list[tuple[int, str]] = []  # enclosing definitions: (end byte, qualified name)
    for d, n in zip(caps.get("def", []), caps.get("name", []), strict=True):
        while stack and stack[-1][0] <= d.start_byte:
            stack.pop()
        qname = (stack[-1][1] + "." if stack else "") + data[n.start_byte:n.end_byte].decode("utf-8", "replace")
        stack.append((d.end_byte, qname))
        top = d.parent if d.parent is not None and d.parent.type == "decorated_definition" else d
        out.append((top.start_point[0] + 1, d.end_point[0] + 1, qname))
    return out


_GO_DEFS = ("[(function_declaration) (method_declaration) (method_elem) (type_spec) (type_alias)] @def")
_GO_SPAN = {"function_declaration", "method_declaration", "method_elem"}  # kinds function / method (types are not spans)


def go_spans(data: bytes) -> list[tuple[int, int, str]]:
    """(start line, end line, qualified name inside the module) of every function and method of a Go
    source (interface methods included), as lore's Go parser names them (a method is ``Recv.name``,
    whatever file declares ``Recv``), without the rest of the extraction (about a third of its cost).

    Examples
    --------
    >>> go_spans(b"package p\\ntype S struct{}\\nfunc (s *S) Run() {\\n}\\ntype I interface {\\n  M()\\n}\\nfunc F() {}\\n")
    [(3, 4, 'S.Run'), (6, 6, 'I.M'), (8, 8, 'F')]
    """
    tree = _ts.parse("go", data)
    out: list[tuple[int, int, str]] = []
    stack: list[tuple[int, str]] = []  # enclosing definitions: (end byte, qualified name)

    def text(node) -> str:
        return data[node.start_byte:node.end_byte].decode("utf-8", "replace") if node is not None else ""

    for d in _ts.captures(_ts.query("go", _GO_DEFS), tree.root_node).get("def", []):
        while stack and stack[-1][0] <= d.start_byte:
            stack.pop()
        name = text(d.child_by_field_name("name"))
        if not name:
            continue
        prefix = stack[-1][1] + "." if stack else ""
        if d.type == "method_declaration":
            recv = d.child_by_field_name("receiver")
            decl = recv.named_children[0] if recv is not None and recv.named_child_count else None
            rtype = decl.child_by_field_name("type") if decl is not None else None
            while rtype is not None and rtype.type in ("pointer_type", "parenthesized_type"):
                rtype = rtype.named_children[0] if rtype.named_child_count else None
            if rtype is not None and rtype.type == "generic_type":
                rtype = rtype.child_by_field_name("type")
            if rtype is not None and rtype.type == "type_identifier":
                prefix = text(rtype) + "."
        qname = prefix + name
        stack.append((d.end_byte, qname))
        if d.type in _GO_SPAN:
            out.append((d.start_point[0] + 1, d.end_point[0] + 1, qname))
    return out


def encode_names(names: Names) -> bytes:
    """The names cache as one compact blob (sorted, so equal caches give equal bytes)."""
    return zlib.compress(marshal.dumps(sorted((sha, path, list(got)) for (sha, path), got in names.items())), 1)


def decode_names(blob: bytes | None) -> Names:
    """The names cache of :func:`encode_names` (empty for ``None`` or a damaged blob)."""
    if not blob:
        return {}
    try:
        rows = marshal.loads(zlib.decompress(blob))
        return {(str(sha), str(path)): tuple(got) for sha, path, got in rows}
    except (ValueError, TypeError, EOFError, zlib.error):
        return {}


def parse_spans(path: str, data: bytes, language: str) -> list[tuple[int, int, str]]:
    """(start line, end line, qualified name inside the module) of the functions, methods and classes
    of one file version, smallest spans first (the innermost definition at a line is found first)."""
    if language == "python":
        spans = python_spans(data)
    elif language == "go":
        spans = go_spans(data)
    else:
        pf = parse_source(path, data, language, _PLACEHOLDER)
        prefix = _PLACEHOLDER + "."
        spans = [(s.start_line, s.end_line or s.start_line, s.qualified_name[len(prefix):]) for s in pf.symbols
                 if s.kind in SPAN_KINDS and s.qualified_name.startswith(prefix) and "<" not in s.qualified_name]
    spans.sort(key=lambda t: (t[1] - t[0], t[0]))
    return spans


class WorkingTreeNames(dict):
    """Today's path -> {qualified name inside its module: a made-up negative id}, filled on first use from
    the file in the working tree (the files outside an indexed folder, which the index does not hold)."""

    def __init__(self, top: Path) -> None:
        super().__init__()
        self.top = top
        self._next = -1

    def get(self, path: str, default=None):  # type: ignore[override]
        if path in self:
            return self[path]
        names: dict[str, int] = {}
        lang = None if is_test_path(path) else language_for(path)  # the miner maps no test file (history.py)
        full = self.top / path
        try:
            if lang is not None and full.is_file() and full.stat().st_size <= MAX_BLOB:
                for *_, qname in sorted(parse_spans(path, full.read_bytes(), lang.name), key=lambda t: t[2]):
                    if qname not in names:
                        names[qname] = self._next
                        self._next -= 1
        except Exception:  # noqa: BLE001  (a file that cannot be read or parsed holds no definitions here)
            names = {}
        self[path] = names
        return names


class RevisionSpans:
    """Hunks mapped with the spans of the file version each commit produced.

    ``today``: today's path -> {qualified name inside its module (``Session.send``): symbol id};
    see :func:`today_names`. ``names``: what earlier runs found per (commit, path), reused and
    extended (:attr:`used` says which entries this run asked for). ``cache``: the user's parsed
    versions by blob id (:class:`BlobSpans`; ``None``: parse every version read). Use as a context
    manager (it may own a ``git cat-file`` process, and writes the cache on close).

    Counts: :attr:`read` versions parsed, :attr:`cached` versions taken from the cache,
    :attr:`missing` versions that could not be read or parsed.
    """

    def __init__(self, root: str | Path, today: dict[str, dict[str, int]], names: Names | None = None,
                 cache: BlobSpans | None = None) -> None:
        self.root = Path(root)
        if not self.root.is_dir():
            raise NotAGitRepositoryError(str(root))
        self.today = today
        self.names: Names = names if names is not None else {}
        self.cache = cache
        self.used: set[tuple[str, str]] = set()
        self._spans: OrderedDict[str, list[tuple[int, int, str]]] = OrderedDict()
        self.read = self.missing = self.cached = 0
        self._git: subprocess.Popen | None = None

    def __enter__(self) -> RevisionSpans:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()
        git, self._git = self._git, None
        if git is None:
            return
        if git.poll() is None:
            git.stdin.close()  # type: ignore[union-attr]
            git.wait()
        git.stdout.close()  # type: ignore[union-attr]

    def sibling(self, top: str | Path) -> RevisionSpans:
        """Spans for the files outside the indexed folder of the checkout at ``top``: today's definitions
        of a file there are read from the working tree on first use and given made-up negative ids (see
        :class:`lore.index.history.touched_symbols`' ``outside``). It shares this one's cache of parsed
        versions; close it when done."""
        return RevisionSpans(top, WorkingTreeNames(Path(top)), dict(self.names), cache=self.cache)

    def prefetch(self, wanted: Sequence[tuple[str, str, str | None]]) -> None:
        """Read from the cache, in a few queries, the versions ``(commit, path then, blob id)`` the
        mapping will ask for (those whose names are not known yet)."""
        if self.cache is None:
            return
        keys = []
        for sha, path, oid in wanted:
            lang = language_for(path)
            if oid and lang is not None and (sha, path) not in self.names:
                keys.append(BlobSpans.key(oid, lang.name))
        self.cache.prefetch(keys)

    def touched(self, commit: Commit, path_then: str, today_path: str, ranges: Sequence[tuple[int, int]]) -> set[int]:
        """Today's ids of the definitions the hunks ``ranges`` (new-side lines of ``path_then`` at
        ``commit``) changed: the innermost function, method or class of that version at each line."""
        today = self.today.get(today_path)
        if not today or not ranges:
            return set()
        key = (commit.sha, path_then)
        self.used.add(key)
        got = self.names.get(key)
        if got is None:
            missing = self.missing
            oid = (getattr(commit, "blobs", None) or {}).get(path_then)
            got = self._changed(commit.sha, path_then, oid, ranges)
            if self.missing == missing:  # the version was read: what the commit changed there is final
                self.names[key] = got
        return {sid for q in got if (sid := today.get(q)) is not None}

    def _changed(self, sha: str, path: str, oid: str | None, ranges: Sequence[tuple[int, int]]) -> tuple[str, ...]:
        spans = self._version(sha, path, oid)
        out: set[str] = set()
        for lo, hi in ranges:
            for line in range(lo, hi + 1):
                for s, e, qname in spans:
                    if s <= line <= e:
                        out.add(qname)
                        break  # innermost only
        return tuple(sorted(out))

    def _version(self, sha: str, path: str, oid: str | None) -> list[tuple[int, int, str]]:
        lang = language_for(path)
        if lang is None:
            return []
        mem = f"{oid}:{lang.name}" if oid else f"{sha}:{path}"
        got = self._spans.get(mem)
        if got is not None:
            self._spans.move_to_end(mem)
            return got
        ckey = BlobSpans.key(oid, lang.name) if oid and self.cache is not None else None
        spans = self.cache.get(ckey) if ckey is not None and self.cache is not None else None
        if spans is not None:
            self.cached += 1
        else:
            data = self._blob(oid or f"{sha}:{path}")
            if data is None:  # git gone, or a version too big to parse: nothing mapped, nothing kept
                self.missing += 1
                return []
            try:
                spans = parse_spans(path, data, lang.name)
            except Exception:  # a parser failure: nothing mapped, nothing kept
                self.missing += 1
                return []
            self.read += 1
            if ckey is not None and self.cache is not None:
                self.cache.put(ckey, spans)
        self._spans[mem] = spans
        if len(self._spans) > CACHE_FILES:
            self._spans.popitem(last=False)
        return spans

    def _process(self) -> subprocess.Popen:
        if self._git is None:
            try:
                self._git = subprocess.Popen(["git", "-C", str(self.root), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE)
            except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
                raise NotAGitRepositoryError(str(self.root)) from exc
        return self._git

    def _blob(self, spec: str) -> bytes | None:
        """The content of ``rev:path`` (``None`` when the object is missing or not a file)."""
        if "\n" in spec or "\r" in spec:  # one request per line: such a name would shift every later answer
            return None
        proc = self._process()
        try:
            proc.stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            header = proc.stdout.readline().split()  # type: ignore[union-attr]
            if len(header) != 3:  # "<spec> missing" / "ambiguous"
                return None
            size = int(header[2])
            if size > MAX_BLOB:  # read past it (the stream must stay in step), never parse it
                left = size + 1
                while left > 0 and (chunk := proc.stdout.read(min(left, 1 << 20))):  # type: ignore[union-attr]
                    left -= len(chunk)
                return None
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
