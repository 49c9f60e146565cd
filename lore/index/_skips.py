"""Folders that are not a project's own code: skipped by every walk, in git trees and without git alike.

A ``.gitignore`` usually keeps virtualenvs, ``node_modules`` and build output out of a git checkout,
but a project unpacked from a tarball, or one that never had git, has none; indexing its ``venv/``
buried 35 project files under 714 of ``pip._vendor``. These rules apply everywhere, so an index of a
tree is the same with or without git. Each rule is decided by evidence, not by name alone, where the
name can also hold real source (``build/``, ``dist/``, ``target/``, ``env/``, ``venv/``):

* by name, anywhere: version control and lore's own folder (never reopened), caches, installed
  packages (``node_modules``, ``site-packages``), tox and nox environments, ``.venv``;
* by what the folder holds: a virtualenv (``pyvenv.cfg``, or ``bin/activate`` with
  ``lib/python*/site-packages``), a conda environment (``conda-meta/``), whatever its name;
* by what sits beside it: ``target/`` beside ``Cargo.toml`` or ``pom.xml``; ``build/`` beside
  ``build.gradle``; ``build/`` beside a Python project file when it holds setuptools output
  (``lib/``, ``lib.*``, ``bdist.*``, ``temp.*``); ``build/`` beside ``package.json`` when it holds
  ``asset-manifest.json`` or source maps; ``dist/`` beside ``package.json`` or a Python project file.

A ``build/`` without such evidence is walked: in C, Go or CMake projects it often holds real source.
"""

from __future__ import annotations

import glob
import os

VCS = "version control"
CACHE = "cache"
METADATA = "package metadata"
QUIET = frozenset({VCS, CACHE, METADATA, "lore's index"})  # hold no source: never worth a word in a summary

# directories skipped by name wherever they are; version control and .lore are never reopened by an include
NEVER_WALKED = frozenset({".git", ".hg", ".svn", ".lore"})
BY_NAME: dict[str, str] = {
    ".git": VCS, ".hg": VCS, ".svn": VCS, ".lore": "lore's index",
    "__pycache__": CACHE, ".mypy_cache": CACHE, ".pytest_cache": CACHE, ".ruff_cache": CACHE,
    "node_modules": "npm packages",
    "site-packages": "installed packages", "dist-packages": "installed packages", ".eggs": "installed packages",
    ".tox": "tox environments", ".nox": "nox environments",
    ".venv": "virtualenv",
}
PYTHON_PROJECT = ("pyproject.toml", "setup.py", "setup.cfg")
_SETUPTOOLS_OUTPUT = ("lib.", "bdist.", "temp.")

# what `lore config` and docs/indexing.md show: (folders, why, how it is recognised)
RULES: tuple[tuple[str, str, str], ...] = (
    (".git/ .hg/ .svn/ .lore/", "version control, lore's index", "by name, anywhere; never walked"),
    ("__pycache__/ .mypy_cache/ .pytest_cache/ .ruff_cache/ *.egg-info/", "caches, package metadata", "by name"),
    ("node_modules/", "npm packages", "by name"),
    ("site-packages/ dist-packages/ .eggs/", "installed packages", "by name"),
    (".tox/ .nox/ .venv/", "tox, nox environments, virtualenv", "by name"),
    ("any folder with pyvenv.cfg, or bin/activate + lib/python*/site-packages", "virtualenv", "by contents"),
    ("any folder with conda-meta/", "conda environment", "by contents"),
    ("target/", "Rust / Maven build output", "beside Cargo.toml or pom.xml"),
    ("build/", "Gradle build output", "beside build.gradle(.kts)"),
    ("build/", "Python build output", "beside pyproject.toml/setup.py/setup.cfg, holding lib/, lib.*, bdist.* or temp.*"),
    ("build/", "JS build output", "beside package.json, holding asset-manifest.json or *.map"),
    ("dist/", "Python / JS build output", "beside pyproject.toml/setup.py/setup.cfg or package.json"),
)


def by_name(name: str) -> str | None:
    """The reason a folder called ``name`` is skipped wherever it is, or None.

    Examples
    --------
    >>> by_name("node_modules"), by_name("foo.egg-info"), by_name("src")
    ('npm packages', 'package metadata', None)
    """
    reason = BY_NAME.get(name)
    if reason is None and name.endswith(".egg-info"):
        return METADATA
    return reason


def by_siblings(name: str, path: str, siblings: set[str]) -> str | None:
    """The reason the folder ``name`` (at ``path``) is build output, judged by the files beside it, or None.

    Examples
    --------
    >>> by_siblings("target", "/nonexistent/target", {"Cargo.toml", "src"})
    'Rust build output'
    >>> by_siblings("build", "/nonexistent/build", {"CMakeLists.txt"}) is None
    True
    """
    if name == "target":
        if "Cargo.toml" in siblings:
            return "Rust build output"
        if "pom.xml" in siblings:
            return "Maven build output"
        return None
    python = any(p in siblings for p in PYTHON_PROJECT)
    js = "package.json" in siblings
    if name == "dist":
        return "Python build output" if python else "JS build output" if js else None
    if name != "build":
        return None
    if "build.gradle" in siblings or "build.gradle.kts" in siblings:
        return "Gradle build output"
    if not (python or js):
        return None
    try:
        with os.scandir(path) as it:
            inside = [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
    except OSError:
        return None
    if python and any(d and (n == "lib" or n.startswith(_SETUPTOOLS_OUTPUT)) for n, d in inside):
        return "Python build output"  # setuptools copies the package to build/lib/<pkg>: a mirror of the source
    if js and any(n == "asset-manifest.json" or n.endswith(".map") for n, _ in inside):
        return "JS build output"
    return None


def by_contents(path: str, names: set[str]) -> str | None:
    """The reason the folder at ``path``, whose entries are ``names``, is an environment, whatever its name.

    Examples
    --------
    >>> by_contents("/nonexistent/env", {"pyvenv.cfg", "bin", "lib"}), by_contents("/x", {"src"})
    ('virtualenv', None)
    """
    if "pyvenv.cfg" in names:
        return "virtualenv"
    if "conda-meta" in names:
        return "conda environment"
    # a virtualenv made before pyvenv.cfg existed (virtualenv < 20): the activate script and site-packages
    for bin_dir, lib_dir, site in (("bin", "lib", "python*/site-packages"), ("Scripts", "Lib", "site-packages")):
        if bin_dir in names and lib_dir in names and os.path.isfile(os.path.join(path, bin_dir, "activate")) \
                and glob.glob(os.path.join(glob.escape(path), lib_dir, site)):
            return "virtualenv"
    return None
