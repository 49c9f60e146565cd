"""Module specifiers a project's ``tsconfig.json`` (or ``jsconfig.json``) maps onto its own files.

``compilerOptions.paths`` (``"worktop": ["./router.ts"]``, ``"@app/*": ["./packages/*/src"]``) sends a
bare specifier into the repository, as TypeScript's module resolution does: a monorepo importing its
own packages by name (``import { Router } from 'worktop'``, ``'@trpc/client'``) calls project code, never
a package of that name. The config read is the repository's own, at its root, for every file (one
program, as the TypeScript oracle of ``benchmarks/langs/ts_oracle.py`` builds it; a folder's own
config is not read: an app of a monorepo whose tsconfig maps names the root's does not keeps them
external), with its ``extends`` chain (relative files only: a base config of an installed package is
not here). Targets resolve against ``baseUrl`` when one is set, else
against the folder of the config that declares ``paths``. Config files are JSON with comments and
trailing commas. A specifier no pattern matches, or whose targets name no indexed file, stays external.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
_EXTENDS_DEPTH = 8
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def loose_json(text: str) -> object:
    """JSON with ``//`` and ``/* */`` comments and trailing commas (tsconfig's dialect), or ``None``.

    Examples
    --------
    >>> loose_json('{"a": "x//y", /* c */ "b": [1, 2,], // d\\n}')
    {'a': 'x//y', 'b': [1, 2]}
    >>> loose_json("{") is None
    True
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':  # a string, copied whole (a ``//`` inside it is no comment)
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i: j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(ch)
            i += 1
    try:
        return json.loads(_TRAILING_COMMA.sub(r"\1", "".join(out)))
    except ValueError:
        return None


class PathMap:
    """The ``paths`` patterns of one config: ``(prefix, suffix, targets)``, exact ones first, then the
    wildcards by the length of their prefix (TypeScript's order); targets are repository-relative."""

    def __init__(self, patterns: list[tuple[str, str | None, tuple[str, ...]]]) -> None:
        exact = [(p, None, t) for p, s, t in patterns if s is None]
        wild = sorted(((p, s, t) for p, s, t in patterns if s is not None), key=lambda x: -len(x[0]))
        self.patterns = exact + wild

    def targets(self, spec: str) -> list[str]:
        """The repository-relative paths ``spec`` may name, in the order TypeScript tries them.

        Examples
        --------
        >>> m = PathMap([("worktop", None, ("src/router.d.ts", "src/router.ts")),
        ...              ("@app/", "", ("packages/*/src",)), ("@app/x", "", ("lib/*",))])
        >>> m.targets("worktop"), m.targets("@app/xy"), m.targets("@app/core"), m.targets("react")
        (['src/router.d.ts', 'src/router.ts'], ['lib/y'], ['packages/core/src'], [])
        """
        for prefix, suffix, targets in self.patterns:
            if suffix is None:
                if spec == prefix:
                    return list(targets)
            elif spec.startswith(prefix) and spec.endswith(suffix) and len(spec) >= len(prefix) + len(suffix):
                star = spec[len(prefix): len(spec) - len(suffix)]
                return [t.replace("*", star, 1) for t in targets]
        return []


def _inside(base: str, rel: str) -> str | None:
    """``rel`` joined to the repository-relative folder ``base``; ``None`` when it leaves the repository."""
    got = posixpath.normpath(posixpath.join(base, rel))
    if got == ".":
        return ""
    return None if got.startswith("..") or got.startswith("/") else got


def _options(root: Path, rel: str, depth: int = 0) -> tuple[str | None, dict | None, str]:
    """``(baseUrl, paths, folder paths resolve against)`` of the config file ``rel`` and what it extends;
    folders are repository-relative."""
    data = loose_json(_read(root / rel)) if depth <= _EXTENDS_DEPTH else None
    if not isinstance(data, dict):
        return None, None, ""
    here = posixpath.dirname(rel)
    base_url, paths, paths_dir = None, None, ""
    ext = data.get("extends")
    for parent in ([ext] if isinstance(ext, str) else ext if isinstance(ext, list) else []):
        if isinstance(parent, str) and parent.startswith("."):
            target = _inside(here, parent)
            if target is not None:
                if not target.endswith(".json"):
                    target += ".json"
                b, p, d = _options(root, target, depth + 1)
                base_url, paths, paths_dir = b if b is not None else base_url, p if p is not None else paths, d or paths_dir
    opts = data.get("compilerOptions")
    if isinstance(opts, dict):
        if isinstance(opts.get("baseUrl"), str):
            base_url = _inside(here, opts["baseUrl"])
        if isinstance(opts.get("paths"), dict):
            paths, paths_dir = opts["paths"], here
    return base_url, paths, (base_url if base_url is not None else paths_dir)


_MAX_CONFIG_BYTES = 1 << 20


def _read(path: Path) -> str:
    """The config's text; empty for a symlink, a file that is not regular or one over 1 MiB (a hostile
    checkout's ``tsconfig.json`` must not make the indexer read outside the repository or without bound)."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > _MAX_CONFIG_BYTES:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def config_of(root: Path, rel: str) -> tuple[str | None, PathMap] | None:
    """``(baseUrl, paths)`` of the config file ``rel`` (repository-relative), or ``None`` without either."""
    base_url, paths, against = _options(root, rel)
    patterns: list[tuple[str, str | None, tuple[str, ...]]] = []
    for key, targets in (paths or {}).items():
        if not isinstance(key, str) or not isinstance(targets, list) or key.count("*") > 1:
            continue
        got = tuple(t for t in (_inside(against, x) for x in targets if isinstance(x, str)) if t is not None)
        if not got:
            continue
        prefix, star, suffix = key.partition("*")
        patterns.append((prefix, suffix if star else None, got))
    if base_url is None and not patterns:
        return None
    return base_url, PathMap(patterns)


def nearest_config(root: Path, folder: str, cache: dict) -> tuple[str | None, PathMap] | None:
    """The config at or nearest above the repository-relative ``folder`` (``""``: the root's), memoized in ``cache``."""
    if folder in cache:
        return cache[folder]
    got = None
    for name in CONFIG_NAMES:
        rel = f"{folder}/{name}" if folder else name
        if (root / rel).is_file():
            got = config_of(root, rel)
            break
    else:
        got = nearest_config(root, posixpath.dirname(folder), cache) if folder else None
    cache[folder] = got
    return got
