"""``lore config``: the effective index settings of a repository and where each one came from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import LoreError
from ..index.config import load_settings
from ._app import JsonOpt, command, emit_json, out


def config_cmd(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    exclude: Annotated[list[str] | None, typer.Option("--exclude", "-x", help="A command-line pattern to show on top (as `lore index -x` would add).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the settings `lore index` uses here and where each came from (defaults, pyproject.toml, .lore/config.toml, .loreignore)."""
    if not path.is_dir():
        raise LoreError(f"{path} is not a directory; pass the repository root")
    data = load_settings(path.resolve(), exclude=tuple(exclude or ())).to_dict()
    if as_json:
        emit_json(data)
        return
    out.print(f"settings for {data['root']}", markup=False)
    out.print("read from: " + (", ".join(data["files"]) or "no settings files (defaults only)"), markup=False)
    s = data["settings"]
    for key in ("max_file_size", "workers"):
        value = s[key]["value"]
        out.print(f"{key:<14} {'auto' if value is None else value!s:<12} ({s[key]['source']})", markup=False)
    out.print("exclude", markup=False)
    for e in s["exclude"]:
        out.print(f"  {e['value']:<30} ({e['source']})", markup=False)


def register(app: typer.Typer) -> None:
    """Add ``config`` to ``app``."""
    command(app, "config")(config_cmd)
