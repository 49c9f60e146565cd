"""Python module names: the dotted import path of a file.

Found by walking up through package directories (those holding an ``__init__.py``), so
``src/pkg/mod.py`` is ``pkg.mod`` and ``pkg/__init__.py`` is ``pkg``; directories without one inside a
package are namespace portions of it (``src/pkg/sansio/app.py`` is ``pkg.sansio.app``). A root that is itself a package
(indexing ``site-packages/networkx``) keeps its name as the first part. A loose script is named by its
directory path, so it stays unique.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

_PY_SUFFIXES = (".py", ".pyi")


def python_package_dirs(paths: list[str]) -> set[str]:
    """Directories (relative, '' for the root) that contain an ``__init__.py``.

    Examples
    --------
    >>> sorted(python_package_dirs(["__init__.py", "pkg/__init__.pyi", "pkg/mod.py", "pkg/sub/x__init__.py"]))
    ['', 'pkg']
    """
    out: set[str] = set()
    for p in paths:
        head, _, name = p.rpartition("/")
        if name in ("__init__.py", "__init__.pyi"):
            out.add(head)
    return out


def module_name(path: str, package_dirs: set[str], root_name: str = "") -> str:
    """The module name of the Python file ``path``, given the package directories of the repository.

    Examples
    --------
    >>> dirs = {"src/pkg", "src/pkg/sub"}
    >>> module_name("src/pkg/sub/mod.py", dirs)
    'pkg.sub.mod'
    >>> module_name("src/pkg/__init__.py", dirs)
    'pkg'
    >>> module_name("scripts/run.py", dirs)
    'scripts.run'
    >>> module_name("src/pkg/sansio/app.py", dirs)  # no __init__.py in sansio: a namespace portion of pkg
    'pkg.sansio.app'
    """
    pp = PurePosixPath(path)
    stem = pp.name
    for suf in _PY_SUFFIXES:
        if stem.endswith(suf):
            stem = stem[: -len(suf)]
            break
    parts: list[str] = [] if stem == "__init__" else [stem]
    d = str(pp.parent) if str(pp.parent) != "." else ""
    if d not in package_dirs:
        # a directory without __init__.py inside a regular package is a namespace portion of it
        # (``src/flask/sansio/app.py`` imports as ``flask.sansio.app``): climb to that package
        gap: list[str] = []
        a = d
        while a and a not in package_dirs:
            ap = PurePosixPath(a)
            gap.insert(0, ap.name)
            a = str(ap.parent) if str(ap.parent) != "." else ""
        if a in package_dirs and (a or root_name):
            parts = gap + parts
            d = a
    if d in package_dirs:
        # climb while the directory is a package
        while d in package_dirs:
            if d == "":
                if root_name:
                    parts.insert(0, root_name)
                break
            dp = PurePosixPath(d)
            parts.insert(0, dp.name)
            d = str(dp.parent) if str(dp.parent) != "." else ""
    else:
        # a loose script: name it by its directory path so it stays unique
        if d:
            parts = list(PurePosixPath(d).parts) + parts
    return ".".join(p.replace("-", "_") for p in parts) or (root_name or "__main__")


def is_package_file(path: str) -> bool:
    """Whether ``path`` is a package's ``__init__`` (relative imports resolve from itself).

    Examples
    --------
    >>> is_package_file("pkg/__init__.py"), is_package_file("pkg/init.py"), is_package_file("__init__.pyi")
    (True, False, True)
    """
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return (name[:dot] if dot > 0 else name) == "__init__"


def module_namer(paths: Sequence[str], root_name: str) -> Callable[[str], str]:
    """Name the Python files ``paths`` of one repository whose root directory is called ``root_name``.

    Examples
    --------
    >>> name = module_namer(["__init__.py", "core.py", "tools/run.py"], "networkx")
    >>> name("core.py"), name("__init__.py"), name("tools/run.py")
    ('networkx.core', 'networkx', 'networkx.tools.run')
    """
    package_dirs = python_package_dirs(list(paths))
    root = root_name if "" in package_dirs else ""
    return lambda path: module_name(path, package_dirs, root)
