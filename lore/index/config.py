"""Settings that stick: ``[tool.lore]`` in ``pyproject.toml``, ``.lore/config.toml``, ``.loreignore``.

``lore index --exclude`` is forgotten by the next run; these files are not. The effective settings
of a repository are read from, lowest precedence first:

1. lore's defaults (vendored, minified JavaScript such as ``*.min.js`` is skipped);
2. ``[tool.lore]`` in the repository's ``pyproject.toml``;
3. ``.lore/config.toml`` (top-level keys, or a ``[lore]`` table);
4. ``.loreignore`` at the root (gitignore syntax, one pattern per line; ``!pattern`` re-includes);
5. the command line (``--exclude``, ``--include``, ``--no-gitignore``, ``--max-file-size``, ``--workers``).

Scalar settings (``compile_commands``, ``gitignore``, ``max_file_size``, ``memory``, ``workers``) take the value of the last source
that sets them; ``exclude`` patterns add up in that order, so a later ``!vendor/keep.min.js``
re-includes a file an earlier pattern skipped. ``include`` patterns add up too, and win over
everything that leaves a file out: ``.gitignore`` files, exclude patterns and the built-in skips of
folders that are not the project's code (:mod:`lore.index._skips`; a built-in skip only for a pattern
that names a path into it). ``gitignore = false`` stops reading ``.gitignore`` files, for trees whose
``.gitignore`` excludes everything (Debian's kernel source package says ``/*``). Every value remembers
where it came from (``lore config``).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._files import read_text_bounded
from ..errors import InvalidArgumentError
from ..languages.c._compdb import LOCATIONS as COMPDB_LOCATIONS
from ._memory import parse_memory
from ._skips import RULES
from .walk import DEFAULT_MAX_FILE_SIZE, walk

DEFAULT_EXCLUDES = ("*.min.js", "*.min.mjs", "*.min.cjs", "*-min.js", "*.bundle.js")
KEYS = ("compile_commands", "exclude", "gitignore", "include", "max_file_size", "memory", "workers")  # compile_commands: C's
SCALARS = ("compile_commands", "gitignore", "max_file_size", "memory", "workers")
DEFAULT = "default"
CLI = "command line"


@dataclass
class Settings:
    """The effective settings of one repository, each with its source.

    ``exclude`` is the list of gitignore-style patterns in precedence order (the walker applies them
    as one spec, so a later ``!pattern`` wins); ``exclude_sources`` names the source of each, and
    ``include`` / ``include_sources`` likewise.
    """

    root: str
    exclude: list[str] = field(default_factory=list)
    exclude_sources: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=list)
    include_sources: list[str] = field(default_factory=list)
    gitignore: bool = True
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    workers: int | None = None
    memory: str | int | None = None  # the indexer's memory budget (lore.index._memory), e.g. "3G"
    compile_commands: str | None = None  # C/C++'s compilation database; None: the first of _compdb.LOCATIONS
    sources: dict[str, str] = field(default_factory=lambda: dict.fromkeys(SCALARS, DEFAULT))
    files: list[str] = field(default_factory=list)  # the settings files that exist, in precedence order

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each setting as ``{"value", "source"}``, excludes as a list of them."""
        return {
            "root": self.root,
            "files": list(self.files),
            "settings": {
                "exclude": [{"value": p, "source": s} for p, s in zip(self.exclude, self.exclude_sources, strict=True)],
                "include": [{"value": p, "source": s} for p, s in zip(self.include, self.include_sources, strict=True)],
                "gitignore": {"value": self.gitignore, "source": self.sources["gitignore"]},
                "max_file_size": {"value": self.max_file_size, "source": self.sources["max_file_size"]},
                "workers": {"value": self.workers, "source": self.sources["workers"]},
                "memory": {"value": self.memory, "source": self.sources["memory"]},
                "compile_commands": {"value": self.compile_commands, "source": self.sources["compile_commands"]},
            },
        }


def _read_toml(path: Path) -> dict[str, Any]:
    text = read_text_bounded(path, "config file", fix="fix or remove it")  # a regular file of bounded size
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidArgumentError(f"{path} is not valid TOML ({exc}); fix or remove it") from None


def _check(table: dict[str, Any], source: str) -> dict[str, Any]:
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise InvalidArgumentError(f"{source}: unknown setting {unknown[0]!r}; lore reads {', '.join(KEYS)}")
    for key in ("exclude", "include"):
        if key in table:
            ex = table[key]
            if isinstance(ex, str):
                ex = [ex]
            if not isinstance(ex, list) or not all(isinstance(p, str) for p in ex):
                raise InvalidArgumentError(f"{source}: {key} must be a list of gitignore-style patterns")
            table = {**table, key: ex}
    v = table.get("compile_commands")  # read by lore.languages.c._compdb
    if v is not None and not isinstance(v, str):
        raise InvalidArgumentError(f"{source}: compile_commands must be the path of a compile_commands.json, got {v!r}")
    v = table.get("gitignore")
    if v is not None and not isinstance(v, bool):
        raise InvalidArgumentError(f"{source}: gitignore must be true or false, got {v!r}")
    if table.get("memory") is not None:
        try:
            parse_memory(table["memory"])
        except InvalidArgumentError as exc:
            raise InvalidArgumentError(f"{source}: {exc}") from None
    for key in ("max_file_size", "workers"):
        v = table.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise InvalidArgumentError(f"{source}: {key} must be a positive integer, got {v!r}")
    return table


def _ignore_lines(path: Path) -> list[str]:
    text = read_text_bounded(path, "ignore file", fix="fix or remove it", errors="replace")
    return [ln.rstrip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def load_settings(
    root: str | os.PathLike[str],
    *,
    exclude: tuple[str, ...] | list[str] = (),
    max_file_size: int | None = None,
    workers: int | None = None,
    include: tuple[str, ...] | list[str] = (),
    gitignore: bool | None = None,
    memory: str | int | None = None,
) -> Settings:
    """The effective settings of the repository at ``root``, the command line's on top.

    Parameters
    ----------
    root : path
        Repository root (where ``pyproject.toml``, ``.lore/`` and ``.loreignore`` are looked for).
    exclude, max_file_size, workers, include, gitignore, memory
        Command-line values; ``None`` (or no patterns) leaves the files' values in place.

    Raises
    ------
    InvalidArgumentError
        A settings file that is not valid TOML, or holds an unknown key or a value of the wrong type.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "pyproject.toml").write_text('[tool.lore]\\nexclude = ["build/"]\\nmax_file_size = 500000\\n')
    >>> _ = (d / ".loreignore").write_text("# generated\\ngen/\\n")
    >>> s = load_settings(d, workers=2)
    >>> s.exclude[-2:], s.max_file_size, s.sources["max_file_size"], s.sources["workers"]
    (['build/', 'gen/'], 500000, 'pyproject.toml [tool.lore]', 'command line')
    """
    root_path = Path(root)
    s = Settings(root=str(root_path))
    s.exclude = list(DEFAULT_EXCLUDES)
    s.exclude_sources = [DEFAULT] * len(DEFAULT_EXCLUDES)

    def apply(table: dict[str, Any], source: str) -> None:
        for p in table.get("exclude", []):
            s.exclude.append(p)
            s.exclude_sources.append(source)
        for p in table.get("include", []):
            s.include.append(p)
            s.include_sources.append(source)
        for key in SCALARS:
            if table.get(key) is not None:
                setattr(s, key, table[key])
                s.sources[key] = source

    pyproject = root_path / "pyproject.toml"
    if pyproject.is_file():
        try:
            table = _read_toml(pyproject).get("tool", {}).get("lore")
        except InvalidArgumentError:
            # someone else's broken pyproject.toml must not stop `lore index`; ours (it names tool.lore) does
            if "tool.lore" in read_text_bounded(pyproject, "config file", errors="replace"):
                raise
            table = None
        if table is not None:
            source = "pyproject.toml [tool.lore]"
            if not isinstance(table, dict):
                raise InvalidArgumentError(f"{source} must be a table")
            apply(_check(table, source), source)
            s.files.append(str(pyproject))
    own = root_path / ".lore" / "config.toml"
    if own.is_file():
        data = _read_toml(own)
        table = data.get("lore", data) if isinstance(data.get("lore"), dict) else data
        apply(_check(table, ".lore/config.toml"), ".lore/config.toml")
        s.files.append(str(own))
    ignore = root_path / ".loreignore"
    if ignore.is_file():
        apply({"exclude": _ignore_lines(ignore)}, ".loreignore")
        s.files.append(str(ignore))
    apply(_check({"exclude": list(exclude), "include": list(include), "gitignore": gitignore,
                  "max_file_size": max_file_size, "workers": workers, "memory": memory}, CLI), CLI)
    return s


def walk_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments of :func:`lore.index.walk.walk` (and ``index_repo``) these settings give."""
    return {"exclude": tuple(settings.exclude), "exclude_sources": tuple(settings.exclude_sources),
            "include": tuple(settings.include), "gitignore": settings.gitignore,
            "max_file_size": settings.max_file_size}


def describe_settings(root: str | os.PathLike[str], **cli: Any) -> dict[str, Any]:
    """What ``lore config`` shows: the settings with their sources, the built-in skips, and what a walk finds.

    Parameters
    ----------
    root : path
        Repository root.
    **cli
        Command-line values, as :func:`load_settings` takes them.

    Returns
    -------
    dict
        :meth:`Settings.to_dict`, plus ``builtin_skips`` (the rules: folders, reason, how recognised),
        ``ignore_files`` (the ``.gitignore`` files in force; none with ``gitignore = false``) and
        ``walk``: the number of files ``lore index`` would index and the folders it skips here.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / ".gitignore").write_text("build/\\n")
    >>> (d / "node_modules").mkdir()
    >>> _ = (d / "m.py").write_text("x = 1\\n")
    >>> info = describe_settings(d)
    >>> info["ignore_files"], info["walk"]
    (['.gitignore'], {'files': 1, 'skipped_dirs': [{'path': 'node_modules', 'reason': 'npm packages'}]})
    """
    settings = load_settings(root, **cli)
    walked = walk(root, **walk_options(settings))
    out = settings.to_dict()
    if settings.compile_commands is None:  # what C/C++ files would be read with (lore.languages.c._compdb)
        found = next((rel for rel in COMPDB_LOCATIONS if os.path.isfile(os.path.join(root, rel))), None)
        out["settings"]["compile_commands"]["found"] = found
    out["builtin_skips"] = [{"folders": f, "reason": r, "rule": how} for f, r, how in RULES]
    out["ignore_files"] = list(walked.ignore_files)
    out["walk"] = {"files": len(walked.files),
                   "skipped_dirs": [{"path": p, "reason": r} for p, r in walked.skipped_dirs]}
    return out
