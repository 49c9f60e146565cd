"""Naming a symbol the way its language's users write it.

Wherever lore takes a symbol (``lore graph``, ``lore show``, :class:`lore.api.Index`, every MCP tool), a
reference is tried in these forms, in order; the first form that any symbol answers to decides:

1. an id (an int, or digits);
2. ``path:line``: the innermost definition containing that line of the file at ``path`` (relative to
   the indexed root, absolute under it, or a unique end of indexed paths: ``requests/sessions.py:500``
   for ``src/requests/sessions.py``);
3. the qualified name as the index stores it (``requests.sessions.Session``, ``mm.slab_common.kfree``);
4. a public re-export: a name a module imports at module level, or a star import / ``export * from``
   of it, in Python, TypeScript, JavaScript and Rust (``requests.Session``, ``lore.api.lore_graph``; an
   ``index.ts`` also stands for its directory, so ``src.Widget`` finds ``export * from './lib/widget'``),
   and a Go package as its users write it, by import path or package name
   (``github.com/spf13/cobra.Command.Execute``, ``cobra.Command.Execute``);
5. a path as Java's and Rust's users write it: ``org.jsoup.nodes.Node.outerHtml`` (package, class,
   member; the index also keeps the file ``Node.java`` as a module), ``crate::a::b::f`` and
   ``memchr::memmem::Finder::find`` (from the crate's root, whatever files hold the modules);
6. a module path as an import writes it, with slashes (``src/utils/url.getPath``, also after
   ``./``), and a file with a name in it (``src/utils/url.ts:getPath``, ``pkg/api.py:Session.get``:
   defined there or re-exported by it);
7. a suffix of qualified names on dot boundaries (``Session.request``, ``Command.Execute``,
   ``Node.outerHtml``, ``Type::method``), which is also a C function's global name (``kfree``).

JSDoc's namepaths read as the same names: ``Hono#fetch`` (an instance member) is ``Hono.fetch``, and
``module:src/utils/url.getPath`` is ``src/utils/url.getPath``.

C++'s ``ns::Class::method`` is read as ``ns.Class.method``. A name several symbols answer to raises
:class:`~lore.errors.AmbiguousSymbolError` listing them, except where they are one definition a user
means (:func:`one_definition`): a ``.pyi`` stub or ``@overload`` copies beside the implementation,
header prototypes beside the definition, ``static`` C functions beside the global one. A name nothing
answers to raises :class:`~lore.errors.UnknownSymbolError` with the closest names (:mod:`._names`).

Every form is a lookup through an index of the store (qualified name, short name, file module, file
path), so naming a symbol costs a few milliseconds on an index of a million symbols.
"""

from __future__ import annotations

import posixpath
import re
import sqlite3
from dataclasses import dataclass

from ..errors import AmbiguousSymbolError, UnknownSymbolError
from ..store import db as store_db
from ..store import names as store_names
from ..store import read
from ..store.names import NameRow

# languages whose module-level imports are visible to importers (the resolver's ``imports_reexported``)
REEXPORTING = frozenset({"python", "typescript", "tsx", "javascript", "rust"})
INDEX_MODULES = ("index",)  # ``src/index.ts`` is imported as ``src``: it stands for its directory
C_FAMILY = frozenset({"c", "cpp"})
# languages whose per-file module symbol is not something their users name (the package is the
# directory in Go and Java; C and C++ have no modules): ``main`` means the function, not main.go
FILE_NOT_NAMESPACE = frozenset({"c", "cpp", "go", "java"})
HEADER_EXTENSIONS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".inl", ".tcc")
_JSDOC_MEMBER = re.compile(r"(?<=[^.])#")  # a # that does not start a private member name
MAX_DEPTH = 4  # re-exports of re-exports followed at most this deep
MAX_ROWS = 500  # of more symbols with one suffix, the first (by id) are listed, and all are counted

_PATH_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+)$")
# a file and a name defined or re-exported in it: src/utils/url.ts:getPath, pkg/api.py:Session.get
_PATH_NAME = re.compile(r"^(?P<path>[^:]+\.[A-Za-z0-9]+):(?P<name>[A-Za-z_$][\w$.]*)$")
_JSDOC_MODULE = "module:"
_GO_MAJOR = re.compile(r"^v\d+$")


@dataclass(frozen=True)
class Match:
    """The symbols one reference answers to, and the form that found them (see the module docstring)."""

    form: str
    rows: tuple[NameRow, ...]
    total: int = 0  # how many symbols answer, when more than ``rows`` holds (a very common suffix)


def find_symbols(conn: sqlite3.Connection, ref: int | str) -> Match | None:
    """Every symbol ``ref`` answers to in its first form that matches anything, or None.

    The rows are every candidate of that form, before :func:`one_definition` folds them.

    Examples
    --------
    >>> import tempfile, pathlib, lore
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "pkg").mkdir()
    >>> _ = (d / "pkg" / "__init__.py").write_text("from .mod import Thing\\n")
    >>> _ = (d / "pkg" / "mod.py").write_text("class Thing:\\n    def go(self):\\n        pass\\n")
    >>> _ = lore.index_repo(d, clusters=False)
    >>> with lore.open_index(d) as idx:
    ...     [(m.form, [r.qualified_name for r in m.rows]) for m in
    ...      (find_symbols(idx.conn, "pkg.Thing"), find_symbols(idx.conn, "Thing.go"), find_symbols(idx.conn, "pkg/mod.py:3"))]
    [('reexport', ['pkg.mod.Thing']), ('suffix', ['pkg.mod.Thing.go']), ('path_line', ['pkg.mod.Thing.go'])]
    """
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdigit()):
        sid = int(ref)
        if not -(2**63) <= sid < 2**63:  # SQLite ints are 64-bit
            return None
        row = store_names.name_row_by_id(conn, sid)
        return Match("id", (row,)) if row is not None else None
    if not isinstance(ref, str) or not ref.strip():
        return None
    name = ref.strip()
    at = _PATH_LINE.match(name)
    if at:
        found = _at_line(conn, at.group("path"), int(at.group("line")))
        return Match("path_line", tuple(found)) if found else None
    if name.startswith(_JSDOC_MODULE):  # JSDoc namepath: module:src/utils/url.getPath
        name = name[len(_JSDOC_MODULE):]
    if "#" in name:  # JSDoc's instance member: Hono#fetch; a private member's own name (Ser.#serialize) stays
        name = _JSDOC_MEMBER.sub(".", name)
    named = _PATH_NAME.match(name)
    if named:
        found = _in_file(conn, named.group("path"), named.group("name"))
        return Match("path_name", _unique(found)) if found else None
    if "::" in name:  # C++: ns::Class::method
        name = name.replace("::", ".").strip(".")
    while name.startswith("./"):
        name = name[2:]
    if not name or name.startswith(".") or name.endswith(".") or ".." in name:
        return None
    rows = store_names.name_rows_by_qname(conn, name)
    if rows:
        return Match("qualified_name", tuple(rows))
    found = _reexported(conn, name, 0, set()) + _go_named(conn, name)
    if found:
        return Match("reexport", _unique(found))
    found = _java_named(conn, name) or _rust_named(conn, name)
    if found:
        return Match("language_path", _unique(found))
    if "/" in name and "//" not in name:  # a module path as an import writes it: src/utils/url.getPath
        dotted = name.replace("/", ".")
        found = list(store_names.name_rows_by_qname(conn, dotted)) or _reexported(conn, dotted, 0, set())
        if found:
            return Match("module_path", _unique(found))
    ids = store_names.ids_ending_with(conn, name.rsplit(".", 1)[-1], name)
    suffix = store_names.name_rows_by_ids(conn, ids[:MAX_ROWS])  # externals are left out here
    if suffix:
        return Match("suffix", tuple(suffix), len(ids) if len(ids) > MAX_ROWS else 0)
    return None


def _java_named(conn: sqlite3.Connection, name: str) -> list[NameRow]:
    """``org.jsoup.nodes.Node.outerHtml`` as Java's users write it: the package, the top-level class (also
    the name of its file, which the index keeps as a module: ``...nodes.Node.Node.outerHtml``) and the rest."""
    parts = name.split(".")
    k = next((i for i, p in enumerate(parts) if p[:1].isupper()), None)
    if k is None or k == 0:  # no package written: the suffix form answers (Node.outerHtml)
        return []
    dotted = ".".join([*parts[: k + 1], parts[k], *parts[k + 1:]])
    rows = store_names.name_rows_by_qname(conn, dotted) + store_names.name_rows_by_ids(
        conn, store_names.ids_ending_with(conn, parts[-1], dotted)[:MAX_ROWS])
    return [r for r in rows if r.language == "java"]


_RUST_FILE_MODULES = frozenset({"lib", "main", "mod"})


def _rust_named(conn: sqlite3.Connection, name: str) -> list[NameRow]:
    """``crate::a::b::f``, ``memchr::arch::all::memchr::One::new`` as Rust's users write them (``::`` read as
    ``.``): a path from a crate root (``crate`` or the crate's name) whose modules are files or directories
    (``a/b.rs``, ``a/b/mod.rs``, items of ``lib.rs``), matched against qualified names without the
    ``lib`` / ``main`` / ``mod`` parts that only name a file."""
    parts = name.split(".")
    if len(parts) < 2 or not parts[0][:1].islower():  # Type::method: the suffix form answers
        return []
    rest = ".".join(parts[1:])
    crate = parts[0].replace("-", "_")
    rows = [r for r in store_names.name_rows_by_ids(conn, store_names.ids_ending_with(conn, parts[-1], parts[-1])[:MAX_ROWS])
            if r.language == "rust"]
    out = []
    for r in rows:
        q = ".".join(p for p in r.qualified_name.split(".") if p not in _RUST_FILE_MODULES)
        if not q.endswith("." + rest):
            continue
        root = q[: -len(rest) - 1].replace("-", "_")  # where the path starts: the crate's source directory
        if root == "src" or root in (crate, f"{crate}.src") or root.endswith((f".{crate}", f".{crate}.src")) \
                or (crate == "crate" and root.rsplit(".", 1)[-1] == "src"):
            out.append(r)
    return out


def resolve_symbol(conn: sqlite3.Connection, ref: int | str) -> int:
    """The one symbol id ``ref`` names (see the module docstring).

    Raises
    ------
    AmbiguousSymbolError
        several symbols answer to ``ref`` and they are not one definition; the message lists them.
    UnknownSymbolError
        nothing answers to ``ref``; the message proposes the closest names.
    """
    match = find_symbols(conn, ref)
    if match is None:
        if not isinstance(ref, str) or ref.strip().isdigit() or not ref.strip():
            raise UnknownSymbolError(int(ref) if isinstance(ref, str) and ref.strip().isdigit() else ref)
        from ._names import did_you_mean_hint

        name = ref.strip()
        hint, candidates = ("", []) if _PATH_LINE.match(name) else did_you_mean_hint(conn, name)
        exc = UnknownSymbolError(name, hint or _path_hint(conn, name))
        exc.candidates = candidates  # type: ignore[attr-defined]  # for callers that list them
        raise exc
    rows = one_definition(match.rows, ref if isinstance(ref, str) else "")
    if len(rows) == 1 and not match.total:
        return rows[0].id
    total = match.total - len(match.rows) + len(rows) if match.total else len(rows)
    raise AmbiguousSymbolError(ref.strip() if isinstance(ref, str) else ref, [candidate(r) for r in rows], total)


def candidate(row: NameRow) -> dict:
    """A symbol as a name's candidate: ``{"id", "qualified_name", "kind", "at"}`` (``at`` = path:line)."""
    return {"id": row.id, "qualified_name": row.qualified_name, "kind": row.kind,
            "at": f"{row.path}:{row.line}" if row.path else None}


def one_definition(rows: tuple[NameRow, ...] | list[NameRow], ref: str = "") -> list[NameRow]:
    """The candidates left once copies of one definition fold into the one a user means.

    - a ``.pyi`` stub beside a module of the same qualified name: the module's symbol;
    - several Python definitions of one qualified name in one file (``@overload`` signatures before
      the implementation, a redefinition): the last one, which is what runs;
    - C / C++ declarations in a header beside a definition in a source file (same name within their
      files: ``kfree``, ``ns.Foo.bar``): the definition;
    - for a bare C name (``kfree``), global (non-``static``) functions before ``static`` ones;
    - in Go, C, C++ and Java, a definition before a file's module symbol of the same name.

    Several definitions left (``kfree`` in two .c files built under different configurations) stay
    an ambiguity.

    Examples
    --------
    >>> def row(i, q, path, line, exported=1, lang="python", mod="m"):
    ...     return NameRow(i, q, "function", path, line, line, exported, lang, mod)
    >>> [r.id for r in one_definition([row(1, "m.f", "m.py", 3), row(2, "m.f", "m.py", 7), row(3, "m.f", "m.pyi", 1)])]
    [2]
    >>> [r.id for r in one_definition([row(4, "inc.slab.kfree", "inc/slab.h", 1, lang="c", mod="inc.slab"),
    ...                                row(5, "mm.slob.kfree", "mm/slob.c", 2, lang="c", mod="mm.slob")])]
    [5]
    """
    rows = list(rows)
    if len(rows) < 2:
        return rows
    implemented = {r.qualified_name for r in rows if not r.path.endswith(".pyi")}
    rows = [r for r in rows if not (r.path.endswith(".pyi") and r.qualified_name in implemented)]
    last: dict[tuple[str, str], NameRow] = {}
    for r in rows:
        if r.language == "python":
            key = (r.path, r.qualified_name)
            if key not in last or (r.line, r.id) > (last[key].line, last[key].id):
                last[key] = r
    rows = [r for r in rows if r.language != "python" or last[(r.path, r.qualified_name)] is r]
    defined = {_local(r) for r in rows if r.language in C_FAMILY and not _is_header(r.path)}
    rows = [r for r in rows if not (r.language in C_FAMILY and _is_header(r.path) and _local(r) in defined)]
    if "." not in ref and all(r.language in C_FAMILY for r in rows) and any(r.exported for r in rows):
        rows = [r for r in rows if r.exported]
    if any(r.kind != "module" for r in rows):  # a Go / C / Java file is no name of its language
        rows = [r for r in rows if not (r.kind == "module" and r.language in FILE_NOT_NAMESPACE)]
    return sorted(rows, key=lambda r: r.id)


def _unique(rows: list[NameRow]) -> tuple[NameRow, ...]:
    return tuple(sorted({r.id: r for r in rows}.values(), key=lambda r: r.id))


def _local(row: NameRow) -> str:
    """The qualified name below its file's module (``kfree`` of ``mm.slob.kfree``)."""
    prefix = row.module + "."
    return row.qualified_name[len(prefix):] if row.module and row.qualified_name.startswith(prefix) else row.qualified_name


def _is_header(path: str) -> bool:
    return path.lower().endswith(HEADER_EXTENSIONS)


def _at_line(conn: sqlite3.Connection, path: str, line: int) -> list[NameRow]:
    """The innermost symbol at ``line`` of the file ``path`` (relative to the root, absolute under it,
    or the end of indexed paths on a ``/`` boundary: ``requests/sessions.py`` for
    ``src/requests/sessions.py``); one per file when that end fits several files."""
    rel = _relative(conn, path)
    if rel is None:
        return []
    got = store_names.file_lines(conn, rel)
    files = [(got[0], rel, got[1])] if got is not None else store_names.files_ending_with(conn, rel)
    rows = [store_names.innermost_at(conn, fid, line) for fid, _path, _lines in files]
    return [r for r in rows if r is not None]


def _in_file(conn: sqlite3.Connection, path: str, name: str) -> list[NameRow]:
    """The symbols ``name`` is in the module of the file at ``path`` (relative to the root, absolute
    under it, or a unique end of indexed paths): defined there, or re-exported by it."""
    rel = _relative(conn, path)
    if rel is None:
        return []
    got = store_names.file_lines(conn, rel)
    fids = [got[0]] if got is not None else [fid for fid, _p, _n in store_names.files_ending_with(conn, rel)]
    out: list[NameRow] = []
    for module in read.modules_of_files(conn, fids):
        target = f"{module}.{name}" if module else name
        out += [r for r in store_names.name_rows_by_qname(conn, target) if r.path] or _reexported(conn, target, 0, set())
    return out


def _relative(conn: sqlite3.Connection, path: str) -> str | None:
    rel = path.replace("\\", "/")
    if posixpath.isabs(rel):
        root = (store_db.get_meta(conn, "root") or "").replace("\\", "/").rstrip("/")
        if not root or not rel.startswith(root + "/"):
            return None
        rel = rel[len(root) + 1 :]
    rel = posixpath.normpath(rel)
    return None if rel.startswith("../") or rel in (".", "..") else rel


def _path_hint(conn: sqlite3.Connection, name: str) -> str:
    at = _PATH_LINE.match(name)
    if not at:
        return ""
    rel = _relative(conn, at.group("path"))
    got = store_names.file_lines(conn, rel) if rel else None
    files = [got] if got is not None else (store_names.files_ending_with(conn, rel) if rel else [])
    if not files:
        return (f"no indexed file {at.group('path')!r} (paths are relative to the indexed root; "
                "`lore status` says which root)")
    return f"line {at.group('line')} is past the end of {at.group('path')} ({files[0][-1]} lines)"


def _reexported(conn: sqlite3.Connection, name: str, depth: int, seen: set[str]) -> list[NameRow]:
    """The symbols ``name`` reaches through module-level imports of a re-exporting language."""
    if depth > MAX_DEPTH or name in seen:
        return []
    seen.add(name)
    parts = name.split(".")
    out: list[NameRow] = []
    for k in range(len(parts) - 1, 0, -1):  # module = the first k parts, longest first
        module, imported, rest = ".".join(parts[:k]), parts[k], parts[k + 1 :]
        modules = [module, *(f"{module}.{m}" for m in INDEX_MODULES)]
        for imp in store_names.reexports(conn, modules, imported):
            if imp.language not in REEXPORTING:
                continue
            if imp.name == "*" and imp.alias is None:
                if imp.target_module is None:
                    continue
                target = ".".join([imp.target_module, imported, *rest])
            elif imp.target_qname is not None:
                target = ".".join([imp.target_qname, *rest])
            else:
                continue
            rows = [r for r in store_names.name_rows_by_qname(conn, target) if r.path]  # not an external
            out += rows or _reexported(conn, target, depth + 1, seen)
    return out


def _go_named(conn: sqlite3.Connection, name: str) -> list[NameRow]:
    """The Go symbols ``name`` spells by package import path or package name + the name in the package.

    The package part must name a directory of Go files first (a scan of the Go file paths, small
    beside the symbols); only then are the symbols of that name looked up.
    """
    cut = name.rfind("/") + 1
    head, dot, rest = name[cut:].partition(".")
    if not dot:
        return []
    paths = store_names.go_file_paths(conn)
    if not paths:
        return []
    modules = _go_modules(conn)
    by_dir = {posixpath.dirname(p) for p in paths}
    # (package spelled, the name inside it): `cobra` + `Command.Execute`; with a path, every dot of its
    # last element may end the package (`gopkg.in/yaml.v3.Node`)
    spellings = [(name[:cut] + head, rest)]
    if cut:
        pieces = rest.split(".")
        spellings += [(name[:cut] + ".".join([head, *pieces[:k]]), ".".join(pieces[k:])) for k in range(1, len(pieces))]
    out: list[NameRow] = []
    for package, local in spellings:
        if not local:
            continue
        dirs = {d for d in by_dir if (import_path(d, modules) if cut else package_name(import_path(d, modules))) == package}
        if not dirs:
            continue
        ids = store_names.ids_ending_with(conn, local.rsplit(".", 1)[-1], local)
        for r in store_names.name_rows_by_ids(conn, ids):
            if r.language == "go" and posixpath.dirname(r.path) in dirs and _local(r) == local:
                out.append(r)
    return out


def _go_modules(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(directory, module path) of every go.mod of the index."""
    out = []
    for path, signature in store_names.go_module_paths(conn):
        if signature.startswith("module "):
            out.append((posixpath.dirname(path), signature[len("module "):].strip()))
    return out


def import_path(directory: str, modules: list[tuple[str, str]]) -> str:
    """The Go import path of the package in ``directory``: its go.mod's module path and the directories
    below it (the directory itself outside every go.mod).

    Examples
    --------
    >>> import_path("doc", [("", "github.com/spf13/cobra")]), import_path("", [("", "github.com/spf13/cobra")])
    ('github.com/spf13/cobra/doc', 'github.com/spf13/cobra')
    >>> import_path("tools/gen", [("", "example.com/app"), ("tools", "example.com/tools")]), import_path("x/y", [])
    ('example.com/tools/gen', 'x/y')
    """
    for mdir, mpath in sorted(modules, key=lambda m: (-len(m[0]), m[0])):  # the deepest go.mod holds it
        if not mdir:
            return f"{mpath}/{directory}" if directory else mpath
        if directory == mdir or directory.startswith(mdir + "/"):
            below = directory[len(mdir) + 1 :]
            return f"{mpath}/{below}" if below else mpath
    return directory


def package_name(path: str) -> str:
    """The name Go code calls a package by: the last element of its import path, without a major
    version (``.../v2``, ``gopkg.in/yaml.v3``).

    Examples
    --------
    >>> package_name("github.com/spf13/cobra"), package_name("example.com/mod/v2"), package_name("gopkg.in/yaml.v3")
    ('cobra', 'mod', 'yaml')
    """
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _GO_MAJOR.match(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    head, _, ver = last.rpartition(".")
    return head if head and _GO_MAJOR.match(ver) else last
