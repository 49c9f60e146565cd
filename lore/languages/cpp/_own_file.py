"""A function the calling file defines itself is the one it calls, before another file's of the same name.

``crashhandler_windows.cpp`` and ``crashhandler_unix.cpp`` both define ``g3::internal::writeErrorMessage(int)``
(and ``subprocess-win32.cc`` / ``subprocess-posix.cc`` both ``Subprocess::Finish()``): each platform's build
compiles one of them, and a call inside one of those files reaches its own file's definition, since a program
holding that translation unit has no other (one definition per program). lore had bound the default build's
(``_unix``) from the Windows file too, where the compiler (and clangd) answers the file's own. A target defined in
another source file is replaced by the calling file's definition of the same name in the same namespaces and
class, with the same parameter types (an overload taking other types is another function); a target of the
calling file, a header's inline definition and a name the file does not define stay as they were.
"""

from __future__ import annotations

import re

from .._rules import record_of, world_cache
from ..c._overloads import _relative_name

# a parameter written with its name (``const char* s``, ``int n``): the type before the last word
_NAMED = re.compile(r"^(.*?[\w*&>\]])\s*\b[A-Za-z_]\w*$")
_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp")


def _table(world, ctx) -> dict[str, list[int]]:
    """Relative name -> the ids of the functions and methods the file defines (with a body), for the file being
    resolved only (one file's at a time: the resolver goes file by file)."""
    memo = world_cache(world, "cpp-own-definitions", dict)
    if memo.get("file") != ctx.frow.id:
        table: dict[str, list[int]] = {}
        for i, sym in enumerate(ctx.pf.symbols):
            if sym.kind in ("function", "method") and not sym.is_declaration:
                sid = ctx.ids[i]
                table.setdefault(_relative_name(world, sid), []).append(sid)
        memo["file"], memo["table"] = ctx.frow.id, table
    return memo["table"]


def param_types(signature: str, name: str) -> tuple[str, ...] | None:
    """The parameter types a signature lists, names and defaults dropped (``None`` when it shows no list).

    Examples
    --------
    >>> param_types("void log(const char* s, int n = 2)", "log"), param_types("bool Sub::Finish() const", "Finish")
    (('const char*', 'int'), ())
    >>> param_types("void f(std::map<int, int> m, int)", "f")
    ('std::map<int, int>', 'int')
    """
    at = signature.find(name + "(")
    if at < 0:
        return None
    depth, start, parts = 0, at + len(name) + 1, []
    for i in range(start, len(signature)):
        ch = signature[i]
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            if depth == 0:
                parts.append(signature[start:i])
                break
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(signature[start:i])
            start = i + 1
    else:
        return None
    out = []
    for part in parts:
        part = " ".join(part.split("=", 1)[0].split())
        if not part:
            continue
        m = _NAMED.match(part)
        out.append(m.group(1) if m else part)
    return tuple(out)


def _param_types(world, sid: int) -> tuple[str, ...] | None:
    _c, sym = record_of(world, sid)
    return param_types(sym.signature, world.syms[sid].name) if sym is not None else None


def own_definitions(world, ctx, targets: list[tuple]) -> list[tuple] | None:
    """``targets`` with each function of another source file replaced by the calling file's own definition of it
    (see above); ``None`` when none is."""
    if ctx is None or ctx.frow.path.endswith(_HEADERS) or not targets:
        return None
    own = ctx.frow.id
    table = None
    out: list[tuple] = []
    changed = False
    for t in targets:
        srow = world.syms.get(t[0]) if t[0] is not None else None
        f = world.files.get(srow.file_id) if srow is not None and srow.file_id is not None else None
        if srow is None or f is None or srow.file_id == own or srow.kind not in ("function", "method") \
                or f.path.endswith(_HEADERS):
            out.append(t)
            continue
        if table is None:
            table = _table(world, ctx)
        mine = [m for m in table.get(_relative_name(world, t[0]), ()) if _param_types(world, m) == _param_types(world, t[0])]
        if len(mine) != 1:
            out.append(t)
            continue
        out.append((mine[0], t[1], t[2]))
        changed = True
    if not changed:
        return None
    kept: dict = {}
    for t in out:  # two other files' targets may stand for the one own definition: once
        kept.setdefault(t[0], t)
    return list(kept.values())
