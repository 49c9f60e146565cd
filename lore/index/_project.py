"""Project build configuration never served stale: what each language reads beside its sources
(``compile_commands.json`` and the headers it names, ``tsconfig.json``'s ``paths``) is read once per run
into ``world.project_data`` (:meth:`lore.languages._rules.LanguageRules.read_project`), and its digest is
kept with the index, per language. When a language's digest changed since the last run, every file of that
language is resolved again (parsing stays incremental); a run that finds no source changed still looks at
the files those reads named (their size and mtime) and goes on to resolution when one of them changed."""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
from pathlib import Path

from ..languages import get as get_language
from ..store import project as store_project

__all__ = ["inputs_changed", "read_languages"]


class _Touched(dict):
    """A dict that records the keys a reader looks at or writes (which keys are a language's)."""

    def __init__(self, *a) -> None:
        super().__init__(*a)
        self.keys_seen: set = set()

    def __contains__(self, key) -> bool:
        self.keys_seen.add(key)
        return super().__contains__(key)

    def __setitem__(self, key, value) -> None:
        self.keys_seen.add(key)
        super().__setitem__(key, value)

    def __getitem__(self, key):
        self.keys_seen.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.keys_seen.add(key)
        return super().get(key, default)


def _stamp(root: Path, rel: str) -> list | None:
    try:
        st = os.stat(root / rel)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def read_languages(conn: sqlite3.Connection, root: Path, world, languages: list[str], full: bool) -> set[int]:
    """Fill ``world.project_data`` for ``languages``, record the digests and inputs with the index, and
    answer the files to resolve again on a refresh (not ``full``): those of each language whose project data
    differs from the last run's (an index made before digests were kept: each language with data)."""
    data = _Touched(world.project_data)
    digests: dict[str, str] = {}
    for lang in languages:
        data.keys_seen = set()
        get_language(lang).rules.read_project(root, data, world)
        mine = sorted(k for k in data.keys_seen if k != "inputs" and data.get(k) is not None)
        if mine:  # a language with nothing read keeps no digest: nothing of it can go stale
            digests[lang] = hashlib.sha256(pickle.dumps([(k, dict.__getitem__(data, k)) for k in mine],
                                                        protocol=4)).hexdigest()
    inputs = sorted(dict.pop(data, "inputs", ()))
    world.project_data = dict(data)
    old = store_project.project_digests(conn)
    store_project.set_project_state(conn, digests, {rel: _stamp(root, rel) for rel in inputs})
    changed = {lang for lang in languages if digests.get(lang) != old.get(lang)}
    return {fid for fid, f in world.files.items() if f.language in changed} if changed and not full else set()


def inputs_changed(conn: sqlite3.Connection, root: Path) -> bool:
    """Whether a file the last run's project reads named changed, appeared or went (``True`` for an index
    made before digests were kept)."""
    old = store_project.project_inputs(conn)
    if old is None:
        return True
    return any(_stamp(root, rel) != stamp for rel, stamp in old.items())
