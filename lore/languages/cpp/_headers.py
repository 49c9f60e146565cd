"""Which ``.h`` headers are C++: decided by the project around them, as their compiler is.

A ``.h`` file is C by its extension, but in a C++ project (``leveldb/db.h``, ``yaml-cpp/node.h``) every
file that includes it is compiled as C++, so it is read with the C++ grammar and recorded as ``cpp``. The
walker asks :func:`cpp_headers` once per walk, from the paths alone (nothing is read): a header whose
source of the same stem next to it is C++ (``snappy.h`` beside ``snappy.cc``) is C++, one whose twin is C
(``cJSON.h`` beside ``cJSON.c``) is C; otherwise the nearest folder around it that holds sources (its own,
then its parents': ``include/`` holds none) decides by their majority, four to one at least. Headers
left undecided stay C, and the C parser still reads one that looks like C++ by itself with the C++
grammar (``lore.languages.c._parser``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

C_SOURCES = frozenset({".c"})
CPP_SOURCES = frozenset({".cc", ".cpp", ".cxx", ".c++"})
MAJORITY = 4  # C++ sources per C source (or the reverse) for a folder to decide its headers


def cpp_headers(paths: Iterable[str]) -> set[str]:
    """The ``.h`` files among ``paths`` (repository-relative, ``/``-separated) that belong to C++ code.

    Examples
    --------
    >>> sorted(cpp_headers(["include/kv/db.h", "db/db.cc", "db/c.cc", "db/log.cc", "util/a.cc", "util/a.h", "db/c_test.c"]))
    ['include/kv/db.h', 'util/a.h']
    >>> sorted(cpp_headers(["cJSON.c", "cJSON.h", "test.c", "fuzz/a.cpp"]))
    []
    >>> sorted(cpp_headers(["lib/x.h", "lib/x.c", "lib/y.h", "app/main.cpp", "app/gui.cpp", "app/view.cpp", "app/ui.cpp"]))
    []
    """
    headers: list[tuple[str, str, str]] = []  # (path, folder, stem)
    stems: dict[tuple[str, str], str] = {}
    own: dict[str, Counter] = {}  # folder -> its own sources by kind
    for p in paths:
        d, _, base = p.rpartition("/")
        stem, dot, ext = base.rpartition(".")
        if not dot or not stem.lstrip("."):  # no extension (as splitext: ".h", "..c" have none)
            continue
        ext = "." + ext.lower()
        if ext == ".h":
            headers.append((p, d, stem))
            continue
        kind = "cpp" if ext in CPP_SOURCES else "c" if ext in C_SOURCES else None
        if kind is None:
            continue
        stems.setdefault((d, stem), kind)
        own.setdefault(d, Counter())[kind] += 1
    counts: dict[str, Counter] = {}
    for d, here in own.items():  # every folder above a source counts it (its subtree's sources): once per folder
        while True:
            counts.setdefault(d, Counter()).update(here)
            if not d:
                break
            d = d.rpartition("/")[0]  # the parent (paths are relative, normalized: as posixpath.dirname)
    out: set[str] = set()
    by_folder: dict[str, bool] = {}  # a folder's verdict for its headers without a twin: the kernel's 20k headers sit in 1.5k folders
    for h, d, stem in headers:
        twin = stems.get((d, stem))
        if twin is not None:
            if twin == "cpp":
                out.add(h)
            continue
        got = by_folder.get(d)
        if got is None:
            got = by_folder[d] = _folder_is_cpp(counts, d)
        if got:
            out.add(h)
    return out


def _folder_is_cpp(counts: dict[str, Counter], d: str) -> bool:
    """Whether the nearest folder at or above ``d`` that holds sources holds C++ ones by the majority."""
    while True:
        n = counts.get(d)
        if n:
            return n["cpp"] >= MAJORITY * max(n["c"], 1) or bool(n["cpp"] and not n["c"])
        if not d:
            return False
        d = d.rpartition("/")[0]
