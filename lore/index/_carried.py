"""Whole-project tallies a refresh carries over from the last run instead of reading every file again.

The C/C++ rules ask what all files' ``#define``\\ s and ``#include``\\ s add up to
(:mod:`lore.languages.c._macro_tally`). A fresh index counts them from every file's records; each later run
starts from the tally saved with the last state, takes away the old records of the files it re-parsed or
removed and adds their new ones (:func:`start`), and saves the result with the state it commits
(:func:`finish`, in the same transaction). Without a tally saved for the current state (an index written
by an older lore, an old record that could not be read) the rules count every file, as before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from ..languages.c import _build as c_build
from ..languages.c import _macro_tally
from ..parsers.records import ParsedFile, decode
from ..store import db as store_db
from ..store import derived_state
from .resolve import World

_C_FAMILY = ("c", "cpp")


def start(conn: sqlite3.Connection, world: World, gone: list[ParsedFile] | None,
          fresh: Mapping[int, tuple[ParsedFile | bytes, object]], full: bool) -> set[int]:
    """Before any rule runs: give ``world`` the last state's tally with ``gone`` (the old records of the
    re-parsed and removed files; ``None``: not all known) taken away and the records of ``fresh`` added.

    Returns the files to resolve again because what the rules read of the tally changed (a header's
    ``#define`` a condition elsewhere reads): every C/C++ file then, since which definitions a flag hides
    is not known without reading them all. Empty on a full build, and when the answers stayed the same.

    On a full build the tally is left to the first rule that asks, in each resolving process. Counted here
    before the fork it saved about a second of CPU per forked resolver on kmm, but on the whole kernel under
    ``--memory 3G`` the parent built every file's context for it and the index cost 764 CPU s and 3.38 GB
    peak RSS against 713 s and 2.95 GB counted lazily (one run each, this session's code otherwise equal)."""
    if full or not _has_c(world):
        return set()
    new = []
    for fid, (record, _ids) in fresh.items():
        f = world.files.get(fid)
        if f is not None and f.language in _C_FAMILY:
            new.append(decode(record) if isinstance(record, bytes) else record)
    tally, changed = _macro_tally.carried(conn, store_db.index_stamp(conn), gone, new)
    if tally is not None:
        c_build.adopt_tally(world, tally)
    elif gone is not None:  # no tally saved for this state: counted from every file, then compared
        changed = _macro_tally.moved(c_build.tally_of(world), [pf for pf in gone if pf.language in _C_FAMILY], new)
    if not changed:
        return set()
    return {fid for fid, f in world.files.items() if f.language in _C_FAMILY}


def held(world: World) -> _macro_tally.MacroTally | None:
    """The world's tally, to save with the state the run commits (counted now from every file if no rule
    needed it); ``None`` when the index has no C/C++ file. Taken before the world is released."""
    return c_build.tally_of(world) if _has_c(world) else None


def finish(conn: sqlite3.Connection, tally: _macro_tally.MacroTally | None, stamp: str) -> None:
    """Save ``tally`` (:func:`held`) as the state ``stamp``'s, or forget the saved one when there is none."""
    if tally is None:
        derived_state.drop(conn, _macro_tally.STATE_KEY)
        return
    _macro_tally.save(conn, stamp, tally)


def _has_c(world: World) -> bool:
    return any(f.language in _C_FAMILY for f in world.files.values())
