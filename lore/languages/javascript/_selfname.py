"""A package importing itself by its own name (TypeScript's self-name resolution): ``import { z } from
'zod/v3'`` inside the ``zod`` package resolves through the ``exports`` of the repository's root
``package.json`` when the root ``tsconfig.json`` (or ``jsconfig.json``) resolves modules as ``node16``,
``nodenext`` or ``bundler`` (the modes that read ``exports``). Each entry's target is chosen as Node and
TypeScript do: the first key of a conditions object that is an active condition (the config's
``customConditions``, then ``types``, ``import``, ``require``, ``node``, ``default``), arrays tried in order.
A target that names no indexed file (``./dist/index.d.ts`` of an unbuilt checkout) leaves the import
external, as TypeScript cannot resolve it either; ``compilerOptions.paths`` and ``baseUrl`` come first.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from ._config import CONFIG_NAMES, PathMap, _inside, _read, loose_json

_MODES = frozenset({"node16", "nodenext", "bundler"})
_ALWAYS = ("types", "import", "require", "node", "default")
_EXTENDS_DEPTH = 8


def _compiler_options(root: Path, rel: str, depth: int = 0) -> dict:
    """``compilerOptions`` of the config ``rel`` over those of the relative configs it extends."""
    data = loose_json(_read(root / rel)) if depth <= _EXTENDS_DEPTH else None
    if not isinstance(data, dict):
        return {}
    merged: dict = {}
    ext = data.get("extends")
    for parent in ([ext] if isinstance(ext, str) else ext if isinstance(ext, list) else []):
        if isinstance(parent, str) and parent.startswith("."):
            target = _inside(posixpath.dirname(rel), parent)
            if target is not None:
                merged.update(_compiler_options(root, target if target.endswith(".json") else target + ".json",
                                                depth + 1))
    opts = data.get("compilerOptions")
    if isinstance(opts, dict):
        merged.update(opts)
    return merged


def pick(value: object, conditions: tuple[str, ...]) -> str | None:
    """The target an ``exports`` value gives under the active ``conditions``.

    Examples
    --------
    >>> v = {"@zod/source": "./src/index.ts", "types": "./index.d.cts", "import": "./index.js"}
    >>> pick(v, ("@zod/source",) + _ALWAYS), pick(v, _ALWAYS), pick({"browser": "./b.js"}, _ALWAYS)
    ('./src/index.ts', './index.d.cts', None)
    >>> pick([{"worker": "./w.js"}, "./main.js"], _ALWAYS)
    './main.js'
    """
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for v in value:
            got = pick(v, conditions)
            if got is not None:
                return got
        return None
    if isinstance(value, dict):
        for key, v in value.items():
            if key in conditions:
                return pick(v, conditions)  # the first active key decides (no fallback past it)
    return None


def self_reference(root: Path) -> PathMap | None:
    """The specifiers the repository's own package name maps onto its files, or ``None``."""
    config = next((n for n in CONFIG_NAMES if (root / n).is_file()), None)
    if config is None:
        return None
    opts = _compiler_options(root, config)
    mode = str(opts.get("moduleResolution") or "").lower()
    if mode not in _MODES:
        return None
    pkg = loose_json(_read(root / "package.json"))
    if not isinstance(pkg, dict) or not isinstance(pkg.get("name"), str) or "exports" not in pkg:
        return None
    name, exports = pkg["name"], pkg["exports"]
    if not isinstance(exports, dict) or not any(str(k).startswith(".") for k in exports):
        exports = {".": exports}  # "exports": "./x.js" or a conditions object: the package's root
    custom = opts.get("customConditions")
    conditions = tuple(c for c in custom if isinstance(c, str)) if isinstance(custom, list) else ()
    patterns: list[tuple[str, str | None, tuple[str, ...]]] = []
    for key, value in exports.items():
        target = pick(value, conditions + _ALWAYS) if isinstance(key, str) and key.startswith(".") else None
        rel = _inside("", target) if target and target.startswith("./") else None
        if not rel or key.count("*") > 1:
            continue
        spec = name + key[1:]
        prefix, star, suffix = spec.partition("*")
        patterns.append((prefix, suffix if star else None, (rel,)))
    return PathMap(patterns) if patterns else None
