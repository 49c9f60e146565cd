"""How every question to Jedi is set up: the project it sees and the answers saved for its version.

The benchmark's questions (:mod:`lore.bench._jedi_oracle`) and the second questions asked with the dynamic
parameter search unbounded (:mod:`lore.bench._jedi_unions`) must see the same modules, so both build their
Jedi project here.
"""

from __future__ import annotations

import json
from pathlib import Path


def cached_answers(jedi, cache_file: Path | None) -> dict[str, dict]:
    """The answers saved in ``cache_file`` by this version of Jedi (``site.key -> answer``), else none."""
    if cache_file is not None and cache_file.exists():
        data = json.loads(cache_file.read_text())
        if data.get("jedi") == jedi.__version__:
            return dict(data.get("answers", {}))
    return {}


def jedi_project(jedi, project, root: Path):
    """A fresh Jedi project over ``root``: the project's source folders first, then the root, then the
    environment's path (no guessing of the path by Jedi, so every question sees the same modules)."""
    env_path = list(jedi.get_default_environment().get_sys_path())
    first = [str((root / d).resolve()) for d in project.source_dirs]
    return jedi.Project(root, sys_path=list(dict.fromkeys([*first, str(root), *env_path])), smart_sys_path=False)
