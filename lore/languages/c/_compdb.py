"""The flags a build passes each C/C++ file: the project's ``compile_commands.json``.

CMake (``-DCMAKE_EXPORT_COMPILE_COMMANDS=ON``), Bear and Meson write one database of the commands that
compile each translation unit. When the repository holds one (at its root or in ``build/``, or where the setting
``compile_commands`` says: ``compile_commands = "out/compile_commands.json"`` in ``.lore/config.toml`` or
``[tool.lore]``), each entry's
``-D``/``-U`` (what ``#if`` reads in that unit), ``-I``/``-iquote``/``-isystem`` (where ``#include`` looks,
first first) and ``-include``/``-imacros`` (headers read before the file) are what resolution reads for that
file, instead of guessing a default build: a source file listed nowhere is not compiled, and a header the
build generates into an include folder (``config.h``, ``event2/event-config.h``, left out of the index by
``.gitignore``) gives its ``#define``s to the units whose ``-I`` finds it, and so does a header a command reads
first (``-include include/generated/autoconf.h``). A header is read with the flags of
the source file that asks (the unit it is compiled in), else with what every unit agrees on.

Only the repository's own files are read: a regular file (a symlink only when it stays inside the
repository), at most :data:`MAX_BYTES` (a generated header at most :data:`MAX_HEADER_BYTES`); paths an entry
names outside the repository (system folders) are left out. A database that is not valid JSON costs one
warning line and the index goes on as without one. The kernel has no database: nothing changes there.
"""

from __future__ import annotations

import json
import logging
import os
import posixpath
import re
import shlex
import stat
import tomllib
from collections import Counter
from dataclasses import dataclass, field

from .._rules import world_cache
from ._ifexpr import DEFINED

__all__ = ["CompDb", "Flags", "compdb", "flags_for", "load", "read_flags", "read_project"]

LOCATIONS = ("compile_commands.json", "build/compile_commands.json")
MAX_BYTES = 64 * 1024 * 1024  # a large tree's database is tens of MB
MAX_HEADER_BYTES = 1024 * 1024
MAX_ENTRIES = 500_000
_log = logging.getLogger("lore")
_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*?)[ \t]*$", re.M)
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif|define)\b[ \t]*(\w*)", re.M)
_INT = re.compile(r"^\(?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?$")


@dataclass(frozen=True, slots=True)
class Flags:
    """What one compile command tells: ``defines`` (name -> an int, the text of the value, :data:`DEFINED`, or
    ``None`` for ``-U``), ``includes`` (repository-relative folders searched, first first; ``""`` is the root)
    and ``forced`` (repository-relative headers read before the file)."""

    defines: dict[str, object] = field(default_factory=dict)
    includes: tuple[str, ...] = ()
    forced: tuple[str, ...] = ()


@dataclass(slots=True)
class CompDb:
    """A repository's compilation database: ``files`` maps each compiled file (repository-relative) to its
    :class:`Flags`; ``path`` is where the database is, repository-relative."""

    path: str
    files: dict[str, Flags]

    def defined_anywhere(self) -> frozenset[str]:
        """Every name some unit ``-D``s."""
        return frozenset(n for f in self.files.values() for n, v in f.defines.items() if v is not None)

    def common(self) -> Flags:
        """The flags of a file no entry names (a header): the defines every unit agrees on, the include
        folders of all units, the most used first."""
        if not self.files:
            return Flags()
        flags = list(self.files.values())
        first = flags[0].defines
        agreed = {n: v for n, v in first.items() if all(f.defines.get(n, _MISSING) == v for f in flags[1:])}
        counts = Counter(d for f in flags for d in dict.fromkeys(f.includes))
        order = sorted(counts, key=lambda d: (-counts[d], d))
        return Flags(agreed, tuple(order), ())


_MISSING = object()


def _value(text: str) -> object:
    """A macro's value as :func:`lore.languages.c._ifexpr.evaluate` reads it: an int, else its text."""
    m = _INT.match(text)
    if m:
        return int(m.group(1), 0)
    return text if text else DEFINED


def _inside(root_real: str, path: str) -> str | None:
    """``path`` relative to the repository (``""`` for its root) when it is inside it, else ``None``."""
    real = os.path.realpath(path)
    if real == root_real:
        return ""
    if real.startswith(root_real + os.sep):
        return real[len(root_real) + 1:].replace(os.sep, "/")
    return None


def read_flags(args: list[str], directory: str, root_real: str) -> Flags:
    """The flags of one compile command (its ``arguments``), paths made repository-relative.

    Examples
    --------
    >>> f = read_flags(["cc", "-DA", "-DB=2", "-D", "C=x y", "-UD", "-I", "inc", "-Iout/gen", "-I/usr/include",
    ...                 "-include", "cfg.h", "-c", "a.c"], "/r", "/r")
    >>> f.defines, f.includes, f.forced
    ({'A': 1, 'B': 2, 'C': 'x y', 'D': None}, ('inc', 'out/gen'), ('cfg.h',))
    """
    defines: dict[str, object] = {}
    includes: list[str] = []
    forced: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        opt, val = None, None
        for o in ("-D", "-U", "-I", "-iquote", "-isystem", "-idirafter", "-include", "-imacros"):
            if a == o:
                opt, val = o, args[i + 1] if i + 1 < len(args) else None
                i += 1
                break
            if a.startswith(o) and o in ("-D", "-U", "-I"):
                opt, val = o, a[len(o):]
                break
        i += 1
        if opt is None or val is None:
            continue
        if opt == "-D":
            name, eq, text = val.partition("=")
            if name.isidentifier():
                defines[name] = _value(text.strip()) if eq else 1
        elif opt == "-U":
            if val.isidentifier():
                defines[val] = None
        else:
            rel = _inside(root_real, os.path.join(directory, val))
            if rel is not None:
                (forced if opt in ("-include", "-imacros") else includes).append(rel)
    return Flags(defines, tuple(dict.fromkeys(includes)), tuple(forced))


def _read_regular(path: str, root_real: str, limit: int) -> bytes | None:
    """The bytes of a regular file inside the repository of at most ``limit`` bytes, else ``None``."""
    if _inside(root_real, path) is None:
        return None  # a symlink out of the repository
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        data = os.read(fd, limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def load(root: str) -> CompDb | None:
    """The compilation database of the repository at ``root`` (:data:`LOCATIONS`, first found), or ``None``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "build").mkdir()
    >>> _ = (d / "build" / "compile_commands.json").write_text(json.dumps([{"directory": str(d / "build"),
    ...     "file": "../src/a.c", "command": "cc -DHAVE_X -I../include -c ../src/a.c"}]))
    >>> db = load(str(d))
    >>> db.path, db.files
    ('build/compile_commands.json', {'src/a.c': Flags(defines={'HAVE_X': 1}, includes=('include',), forced=())})
    >>> _ = (d / "compile_commands.json").write_text("[{")
    >>> load(str(d)) is None
    True
    """
    root_real = os.path.realpath(root)
    configured = configured_path(root)
    for rel in (configured,) if configured else LOCATIONS:
        path = os.path.join(root, rel)
        if not os.path.lexists(path) and not configured:
            continue
        data = _read_regular(path, root_real, MAX_BYTES)
        try:
            entries = json.loads(data) if data is not None else None
        except ValueError:
            entries = None
        if not isinstance(entries, list):
            _log.warning("lore: %s is not a readable compilation database (a JSON list of commands, a regular "
                         "file of at most %d MB inside the repository); C/C++ files are read without it",
                         rel, MAX_BYTES >> 20)
            return None
        files: dict[str, Flags] = {}
        for e in entries[:MAX_ENTRIES]:
            got = _entry(e, root_real)
            if got is not None and got[0] not in files:  # the first command of a file compiled twice
                files[got[0]] = got[1]
        return CompDb(rel, files)
    return None


def configured_path(root: str) -> str | None:
    """The ``compile_commands`` setting of the repository (``.lore/config.toml``, else ``[tool.lore]`` in
    ``pyproject.toml``: :mod:`lore.index.config` checks both), or ``None``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "pyproject.toml").write_text('[tool.lore]\\ncompile_commands = "out/compile_commands.json"\\n')
    >>> configured_path(str(d))
    'out/compile_commands.json'
    """
    for rel, keys in ((".lore/config.toml", ()), ("pyproject.toml", ("tool", "lore"))):
        data = _read_regular(os.path.join(root, rel), os.path.realpath(root), MAX_HEADER_BYTES)
        try:
            table = tomllib.loads(data.decode("utf-8")) if data is not None else None
        except (ValueError, UnicodeDecodeError):
            table = None
        for k in keys:
            table = table.get(k) if isinstance(table, dict) else None
        if isinstance(table, dict) and not keys and isinstance(table.get("lore"), dict):
            table = table["lore"]
        v = table.get("compile_commands") if isinstance(table, dict) else None
        if isinstance(v, str) and v:
            return v
    return None


def _entry(e: object, root_real: str) -> tuple[str, Flags] | None:
    if not isinstance(e, dict):
        return None
    directory, file = e.get("directory"), e.get("file")
    if not isinstance(directory, str) or not isinstance(file, str):
        return None
    args = e.get("arguments")
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        command = e.get("command")
        if not isinstance(command, str):
            return None
        try:
            args = shlex.split(command)
        except ValueError:
            return None
    rel = _inside(root_real, os.path.join(directory, file))
    if not rel:
        return None
    return rel, read_flags(args, directory, root_real)


PROJECT_KEY = "c.compdb"  # world.project_data's key: what :func:`read_project` read, or None


def read_project(root: str, data: dict, world) -> None:
    """Read the database and the headers it makes the units read (generated ``-I`` headers, ``-include``)
    once, into ``data`` (``world.project_data``): resolution reads them from there, never from the file
    system, so a world resolved on another machine (Ray) gives the same edges, and the index can tell when
    they changed (:mod:`lore.index._project`). ``data["inputs"]`` gets the files this read looked at."""
    if PROJECT_KEY in data:
        return
    data[PROJECT_KEY] = None
    inputs = data.setdefault("inputs", set())
    configured = configured_path(root)
    inputs.update((".lore/config.toml", "pyproject.toml") + ((configured,) if configured else LOCATIONS))
    db = load(root)
    if db is None or not db.files:
        return
    paths = {f.path for f in world.files.values()}
    if not any(p in paths for p in db.files):
        _log.warning("lore: %s names no file of the repository (written for another checkout?); C/C++ files "
                     "are read without it", db.path)
        return
    root_real = os.path.realpath(root)
    specs = sorted(_specs_read(world))
    generated: dict[str, dict[str, object]] = {}
    forced: dict[str, dict[str, object]] = {}
    for flags in db.files.values():
        for folder in flags.includes:
            if folder in generated:
                continue
            got = generated[folder] = {}
            for spec in specs:
                rel = posixpath.normpath(f"{folder}/{spec}" if folder else spec)
                if rel.startswith("../") or rel in paths:
                    continue
                inputs.add(rel)  # looked for: one the build writes later changes the units that find it
                header = _read_regular(os.path.join(root, rel), root_real, MAX_HEADER_BYTES)
                if header is not None:
                    got.update(header_defines(header))
        for rel in flags.forced:
            if rel not in forced:
                inputs.add(rel)
                header = _read_regular(os.path.join(root, rel), root_real, MAX_HEADER_BYTES)
                forced[rel] = header_defines(header) if header is not None else {}
    data[PROJECT_KEY] = {"db": db, "generated": generated, "forced": forced}


def _project(world) -> dict | None:
    return getattr(world, "project_data", {}).get(PROJECT_KEY)


def compdb(world) -> CompDb | None:
    """The database of the world's repository, as :func:`read_project` read it, or ``None``."""
    got = _project(world)
    return got["db"] if got is not None else None


def header_defines(data: bytes) -> dict[str, object]:
    """The ``#define``s a generated configuration header makes whatever the build (outside any ``#if`` but its
    include guard).

    Examples
    --------
    >>> header_defines(b"#ifndef CFG_H\\n#define CFG_H\\n#define HAVE_A 1\\n/* #undef HAVE_B */\\n#define V \\"x\\"\\n"
    ...                b"#ifdef Q\\n#define HAVE_C 1\\n#endif\\n#define F(x) x\\n#endif\\n")
    {'HAVE_A': 1, 'V': '"x"'}
    """
    out: dict[str, object] = {}
    directives = list(_DIRECTIVE.finditer(data))
    guard = b""
    if len(directives) > 1 and directives[0].group(1) == b"ifndef" and directives[1].group(1) == b"define" \
            and directives[0].group(2) == directives[1].group(2):
        guard = directives[0].group(2)
    depth, floor = 0, 1 if guard else 0
    defines = {m.start(): m for m in _DEFINE.finditer(data)}
    for d in directives:
        kind = d.group(1)
        if kind in (b"if", b"ifdef", b"ifndef"):
            depth += 1
        elif kind == b"endif":
            depth -= 1
        elif depth <= floor and d.start() in defines:
            m = defines[d.start()]
            name = m.group(1).decode("ascii")
            if name.encode() != guard:
                text = m.group(2).split(b"/*")[0].split(b"//")[0].strip()
                out[name] = _value(text.decode("utf-8", "replace"))
    return out


def _generated(world, folder: str) -> dict[str, object]:
    """The defines of the headers a build generated into the repository folder ``folder`` (an ``-I`` folder):
    the files an ``#include`` of the project names there that are on disk but not indexed."""
    got = _project(world)
    return got["generated"].get(folder, {}) if got is not None else {}


def _forced(world, rel: str) -> dict[str, object]:
    """The unconditional ``#define``s of a header a command reads first (``-include``/``-imacros``)."""
    got = _project(world)
    return got["forced"].get(rel, {}) if got is not None else {}


def _specs_read(world) -> set[str]:
    """What the ``#include``s of the project's C/C++ files name, read from their records without keeping
    a file context (the indexer's world stays as small as before)."""
    out: set[str] = set()
    for fid, f in sorted(world.files.items()):
        if f.language in ("c", "cpp"):
            loaded = world._load_records(fid)
            for i in loaded[0].imports if loaded is not None else ():
                if not i.module.startswith("namespace "):
                    out.add(i.module.strip('<>"'))
    return out


def flags_for(world, path: str) -> Flags | None:
    """The flags ``path`` is compiled with, generated headers' defines included (see the module docstring);
    ``None`` when the repository has no database or does not compile ``path``."""
    db = compdb(world)
    if db is None:
        return None
    cache = world_cache(world, "c-compdb-flags", dict)
    if path in cache:
        return cache[path]
    own = db.files.get(path)
    got = None
    if own is not None:
        defines = dict(own.defines)
        generated: dict[str, object] = {}
        for folder in own.includes:  # the first folder that has a header is the one read
            for name, v in _generated(world, folder).items():
                generated.setdefault(name, v)
        for rel in own.forced:  # -include: read before the file (the kernel's autoconf.h)
            generated.update(_forced(world, rel))
        defines.update(generated)  # a header's #define comes after the command line's -D / -U
        got = Flags(defines, own.includes, own.forced)
    cache[path] = got
    return got
