"""The corpora of the leave-one-corpus-out benchmark: where each one's code and ground truth come from.

See-Also corpora (numpydoc "See Also" sections, :mod:`lore.bench.seealso`) differ in style: a graph
library (networkx), two array libraries with C underneath (scipy, numpy), a labelled-array library
(xarray) and a geospatial one (geopandas). networkx, scipy and numpy are read from the installed
packages (the versions the project pins); xarray and geopandas are pinned PyPI sdists, downloaded
once into the benchmark cache (``$LORE_BENCH_CACHE`` or ``~/.cache/lore-bench``) and checked against
their sha256 before extraction.

Co-change corpora (:mod:`lore.bench.cochange`) are three web/HTTP libraries: requests, httpx and
flask. Their git history is needed, so they are given as checkouts (``--repo name=PATH``, by default
``<cache>/repos/<name>``); the commits the published numbers were measured at are pinned in
:data:`COCHANGE` and checked out read-only by the caller (``git clone`` then ``git checkout <commit>``).

Each co-change corpus is split in time at ``cut``: the judgements are the pairs changed together in
commits at or after it, and the index's history (the hybrid ranker's ``history`` signal,
:mod:`lore.index.history`) is built from the commits before it only, so the signal never sees the
commits it is graded on. The cut is the median committer time of the commits that change at least
two indexed symbols in at most 10 files (:func:`lore.bench.cochange.median_cut` at the pinned
commit): half of the co-change evidence on each side, the same rule for every repository.
"""

from __future__ import annotations

import importlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import InvalidArgumentError
from ._sdist import Sdist, cache_dir, fetch_sdist


@dataclass(frozen=True)
class SeeAlsoCorpus:
    name: str
    aliases: tuple[tuple[str, str], ...]  # short import names used in docstrings: ("np", "numpy")
    sdist: Sdist | None = None  # None: the installed package
    # (repository, tag) of the same version: indexed from a checkout there (``--repo name=PATH``) the
    # corpus has a git history, so the fit sees what the history signal does to See-Also questions
    git: tuple[str, str] | None = None


SEEALSO = {
    "networkx": SeeAlsoCorpus("networkx", (("nx", "networkx"),),
                              git=("https://github.com/networkx/networkx", "networkx-3.6.1")),
    "scipy": SeeAlsoCorpus("scipy", (("np", "numpy"),)),
    "numpy": SeeAlsoCorpus("numpy", (("np", "numpy"),)),
    "xarray": SeeAlsoCorpus("xarray", (("xr", "xarray"), ("np", "numpy")), Sdist(
        "xarray", "2025.6.1", "xarray-2025.6.1.tar.gz",
        "a84f3f07544634a130d7dc615ae44175419f4c77957a7255161ed99c69c7c8b0")),
    "geopandas": SeeAlsoCorpus("geopandas", (("gpd", "geopandas"),), Sdist(
        "geopandas", "1.1.1", "geopandas-1.1.1.tar.gz",
        "1745713f64d095c43e72e08e753dbd271678254b24f2e01db8cdb8debe1d293d")),
}


@dataclass(frozen=True)
class CoChangeCorpus:
    name: str
    url: str
    commit: str
    package: str  # the source folder indexed and mined (tests are left out by the miner anyway)
    cut: str  # the temporal split: ground truth from commits at or after it, the history signal before it


COCHANGE = {
    "requests": CoChangeCorpus("requests", "https://github.com/psf/requests",
                               "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e", "src/requests", "2013-07-24"),
    "httpx": CoChangeCorpus("httpx", "https://github.com/encode/httpx",
                            "ae1b9f66238f75ced3ced5e4485408435de10768", "httpx", "2020-07-23"),
    "flask": CoChangeCorpus("flask", "https://github.com/pallets/flask",
                            "2ac89889f4cc330eabd50f295dcef02828522c69", "src/flask", "2016-11-02"),
}


def seealso_root(name: str, cache: Path | None = None) -> tuple[Path, str]:
    """(package directory to index, "name version") of a See-Also corpus."""
    spec = SEEALSO.get(name)
    if spec is None:
        raise InvalidArgumentError(f"unknown See-Also corpus {name!r}; choose one of {', '.join(SEEALSO)}")
    if spec.sdist is None:
        module = importlib.import_module(name)
        if module.__file__ is None:  # a namespace package: no directory to index
            raise InvalidArgumentError(f"{name} is installed without a source directory; reinstall it from a wheel")
        return Path(module.__file__).parent, f"{name} {module.__version__}"
    top = fetch_sdist(spec.sdist, cache, prefix=f"{name}/")
    return top / name, f"{name} {spec.sdist.version}"


def seealso_checkout(name: str, path: str | Path) -> tuple[Path, str]:
    """(package directory to index, label) of a See-Also corpus from a git checkout at its pinned tag."""
    spec = SEEALSO.get(name)
    if spec is None or spec.git is None:
        raise InvalidArgumentError(f"no git checkout is pinned for the See-Also corpus {name!r}")
    url, tag = spec.git
    p = Path(path)
    head = subprocess.run(["git", "-C", str(p), "rev-parse", "HEAD", f"{tag}^{{commit}}"], capture_output=True,
                          text=True, check=False)
    shas = head.stdout.split()
    if head.returncode != 0 or len(shas) != 2 or shas[0] != shas[1]:
        raise InvalidArgumentError(f"{p} is not a git checkout of {name} at {tag}; run "
                                   f"`git clone {url} {p} && git -C {p} checkout {tag}`")
    return p / name, f"{name} {tag} (git checkout)"


def cochange_repo(name: str, path: str | Path | None = None) -> Path:
    """The checkout of a co-change corpus: ``path`` or ``<cache>/repos/<name>``."""
    spec = COCHANGE.get(name)
    if spec is None:
        raise InvalidArgumentError(f"unknown co-change corpus {name!r}; choose one of {', '.join(COCHANGE)}")
    p = Path(path) if path else cache_dir() / "repos" / name
    if not (p / ".git").exists():
        raise InvalidArgumentError(
            f"no git checkout of {name} at {p}; run `git clone {spec.url} {p} && git -C {p} checkout {spec.commit}`"
        )
    return p
