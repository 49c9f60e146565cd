"""Flags the headers a file includes ``#define``: they decide that file's undecided ``#if`` branches.

A header's valueless ``#define GUNZIP`` (zlib's ``inflate.h``) is defined in every translation unit that
includes it, and only there: ``inflate.c``'s ``#ifdef GUNZIP`` is taken, while a source that includes no such
header reads the flag as before (project-wide, :func:`lore.languages.c._build._skipped`). A name counts when a
header the file includes (directly or not, before the branch's header when it sits in one) defines it whatever
its own undecided branches do (not only under ``#ifdef O_CLOEXEC``, not ``#undef``'d again: the extractor marks
those ``"=un NAME"``), or defines it unless a flag no file of the project defines is defined (``#ifndef NO_GZIP``).
Only a branch the project's knowledge leaves undecided is read again here, so a decided one (a configured kernel's
options) costs nothing more. What the project tells comes from :mod:`._build` (:class:`Known`), which calls this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping
from typing import NamedTuple

from .._rules import world_cache
from ._ifexpr import DEFINED, _Layered, evaluate
from ._includes import _C_SOURCE_EXTS


class Known(NamedTuple):
    """What the project tells (from :mod:`._build`, which owns it): the macros its headers agree on, the names its
    files define, and which paths are another system's."""

    macros: Mapping[str, object]
    defines: Container[str]
    other_platform: Callable[[str], bool]


def unit_skips(world, known: Known, ctx, cond: str, header: int | None = None) -> bool:
    """Whether the branch state ``cond`` (``"?...|EXPR"``) is off in ``ctx``'s translation unit once the flags
    its included headers surely define are read as defined (``!defined(GUNZIP)`` after ``#define GUNZIP``); a
    branch of the header ``header`` (a file id) read in that unit sees the flags of the headers before it."""
    if ctx is None or not cond.startswith("?"):
        return False
    expr = cond.partition("|")[2]
    if not expr or not _open(world, expr, known.macros):
        return False
    words = frozenset(re.findall(r"[A-Za-z_]\w*", expr))
    defined = _closure_defines(world, known, ctx, words, header)
    if not defined:
        return False
    key = (expr, defined, not ctx.frow.path.endswith(".c"))
    cache = world_cache(world, "c-unit-flag-off", dict)
    got = cache.get(key)
    if got is None:
        macros = _Layered(dict.fromkeys(defined, DEFINED), known.macros)
        got = cache[key] = evaluate(expr, macros, cplusplus=None if key[2] else False) is False
    return got


def _open(world, expr: str, base: Mapping[str, object]) -> bool:
    """Whether the project's own knowledge leaves ``expr`` undecided (only then can a unit's flags decide it)."""
    cache = world_cache(world, "c-expr-open", dict)
    got = cache.get(expr)
    if got is None:
        got = cache[expr] = evaluate(expr, base, cplusplus=None) is None
    return got


def _this_unit(world, name: str, fid: int) -> dict:
    """A memo of the unit ``fid``, kept for the last :data:`UNITS` units asked about. A memo of every unit (a
    header order of up to :data:`MAX_HEADERS` per source file) held the whole kernel's in each resolving process
    (peak RSS 2.95 -> 3.53 GB); a memo of one unit alone was emptied and built again each time resolving one file
    alternated between its own unit and a candidate's in another source (``mm/slab_common.c`` and ``mm/slub.c``:
    37 header orders built for 11 units on a one-file refresh of a kernel subsystem copy)."""
    slot = world_cache(world, name, dict)
    memo = slot.pop(fid, None)
    if memo is None:
        memo = {}
        if len(slot) >= UNITS:
            del slot[next(iter(slot))]  # the unit asked about least recently
    slot[fid] = memo  # (re)inserted last: the dict's order is the order of last use
    return memo


UNITS = 16  # units whose memos are kept at once (a refresh of mm/slab_common.c reads 11; a memo: MAX_HEADERS ids)


def _closure_defines(world, known: Known, ctx, words: frozenset[str], header: int | None) -> frozenset[str]:
    """Of ``words``, the names the headers ``ctx`` includes surely define where ``header`` is read (when given: the
    headers included before it, and those it includes itself; a ``config.h`` included after ``zconf.h`` does not
    reach ``zconf.h``'s branches), else anywhere in ``ctx``'s unit."""
    cache = _this_unit(world, "c-unit-flags", ctx.frow.id)
    key = (words, header)
    got = cache.get(key)
    if got is None:
        order, ends = _preorder(world, ctx, known.other_platform)
        if header is None:
            seen = order
        elif header in ends:
            at = order.index(header)
            seen = order[:at] + order[at + 1:ends[header]]
        else:
            seen = []
        found: set[str] = set()
        for fid in seen:
            found |= words & _header_defines(world, fid, known.defines)
            if len(found) == len(words):
                break
        got = cache[key] = frozenset(found)
    return got


def _preorder(world, ctx, other_platform: Callable[[str], bool]) -> tuple[list[int], dict[int, int]]:
    """The headers of ``ctx``'s unit in the order the preprocessor first reads them (depth first through each
    header's own includes, at most :data:`MAX_HEADERS`), and for each the position after the headers it brings."""
    cache = _this_unit(world, "c-unit-preorder", ctx.frow.id)
    got = cache.get(ctx.frow.id)
    if got is None:
        order: list[int] = []
        ends: dict[int, int] = {}
        seen = {ctx.frow.id}
        stack = [(ctx.frow.id, iter(_steps(world, ctx.frow.id, ctx, other_platform)))]
        while stack:
            fid, it = stack[-1]
            nxt = next((h for h in it if h is not None and h not in seen), None)
            if nxt is None or len(order) >= MAX_HEADERS:
                stack.pop()
                if fid != ctx.frow.id:
                    ends[fid] = len(order)
                continue
            seen.add(nxt)
            order.append(nxt)
            stack.append((nxt, iter(_steps(world, nxt, None, other_platform))))
        got = cache[ctx.frow.id] = (order, ends)
    return got


MAX_HEADERS = 512  # headers followed per unit (a kernel file reaches thousands; the flags sit in the first ones)


def _steps(world, fid: int, ctx, other_platform: Callable[[str], bool]) -> tuple[int | None, ...]:
    """The header file ids ``fid``'s own ``#include``\\ s name, in order (``None`` for a source file), leaving out
    an include in a branch a default build skips or may skip (``#if defined(__APPLE__)`` ``#include
    "uv/darwin.h"``, ``#ifdef HAVE_CONFIG_H`` ``#include "config.h"``: the extractor marks its line ``"=oi LINE"``)
    and another system's header."""
    cache = world_cache(world, "c-unit-steps", dict)
    got = cache.get(fid)
    if got is None:
        c = ctx if ctx is not None else world.ctx(fid)
        if c is None:
            return ()
        off = {int(e[4:]) for e in c.pf.defines if e.startswith("=oi ")}
        out: list[int | None] = []
        for imp in c.pf.imports:
            if imp.module.startswith("namespace ") or imp.line in off:
                continue
            v = c.rules.module_value(world, c, imp.module)
            if v is None or v[0] != "pkg":
                continue
            for mid in v[1]:
                hid = world.module_file.get(mid)
                f = world.files.get(hid) if hid is not None else None
                out.append(hid if f is not None and not f.path.endswith(_C_SOURCE_EXTS) and
                           not other_platform(f.path) else None)
        got = cache[fid] = tuple(out)
    return got


def _header_defines(world, fid: int, project: Container[str]) -> frozenset[str]:
    """The macro names a header surely defines: plain ``defines`` entries not marked ``=un``, and those marked
    ``"=un NAME FLAG ..."`` (defined unless one of those flags is) when no file of the project defines any of the
    flags (zlib's ``#ifndef NO_GZIP`` / ``#define GUNZIP``)."""
    cache = world_cache(world, "c-header-defines", dict)
    got = cache.get(fid)
    if got is None:
        c = world.ctx(fid)
        entries = c.pf.defines if c is not None else ()
        unsure: set[str] = set()
        for e in entries:
            if e.startswith("=un "):
                name, *flags = e[4:].split()
                if not flags or any(f in project for f in flags):
                    unsure.add(name)
        got = cache[fid] = frozenset(e for e in entries if " " not in e and e[:1] != "=" and e not in unsure)
    return got
