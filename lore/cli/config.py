"""``lore config``: the effective index settings of a repository and where each one came from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import LoreError
from ..index.config import describe_settings
from ._app import JsonOpt, command, emit_json, out


def config_cmd(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    exclude: Annotated[list[str] | None, typer.Option("--exclude", "-x", help="A command-line pattern to show on top (as `lore index -x` would add).")] = None,
    include: Annotated[list[str] | None, typer.Option("--include", "-i", help="A command-line include pattern to show on top (as `lore index -i` would add).")] = None,
    gitignore: Annotated[bool | None, typer.Option("--gitignore/--no-gitignore", help="Show the settings as `lore index --no-gitignore` (or --gitignore) would use them.", show_default=False)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the settings `lore index` uses here and where each came from (defaults, pyproject.toml, .lore/config.toml, .loreignore), the ignore files in force and the folders it skips as not the project's code."""
    if not path.is_dir():
        raise LoreError(f"{path} is not a directory; pass the repository root")
    data = describe_settings(path.resolve(), exclude=tuple(exclude or ()), include=tuple(include or ()),
                             gitignore=gitignore)
    if as_json:
        emit_json(data)
        return
    out.print(f"settings for {data['root']}", markup=False)
    out.print("read from: " + (", ".join(data["files"]) or "no settings files (defaults only)"), markup=False)
    s = data["settings"]
    for key in ("gitignore", "max_file_size", "memory", "workers"):
        value = s[key]["value"]
        shown = "auto" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        out.print(f"{key:<14} {shown:<12} ({s[key]['source']})", markup=False)
    cc = s["compile_commands"]
    if cc["value"] is not None:
        out.print(f"{'compile_commands':<17} {cc['value']} ({cc['source']})", markup=False)
    else:
        found = cc.get("found")
        out.print(f"{'compile_commands':<17} auto: " + (f"{found} (found)" if found else "none found (C/C++ read "
                  "without build flags; looked for compile_commands.json, build/compile_commands.json)")
                  + " (default)", markup=False)
    for key in ("exclude", "include"):
        out.print(key + ("" if s[key] else ": none"), markup=False)
        for e in s[key]:
            out.print(f"  {e['value']:<30} ({e['source']})", markup=False)
    ignore = data["ignore_files"]
    out.print("ignore files in force: " + (", ".join(ignore) if ignore else
                                           "none" if s["gitignore"]["value"] else "none (gitignore = false)"),
              markup=False)
    out.print("built-in skips (not the project's code; with or without git; an include pattern naming a path "
              "inside reopens them)", markup=False)
    for r in data["builtin_skips"]:
        out.print(f"  {r['folders']:<40} {r['reason']}: {r['rule']}", markup=False)
    w = data["walk"]
    skipped = ", ".join(f"{d['path']}/ ({d['reason']})" for d in w["skipped_dirs"][:10])
    more = len(w["skipped_dirs"]) - 10
    out.print(f"lore index would index {w['files']} files here" + (f"; skipping {skipped}" if skipped else "")
              + (f" and {more} more folders" if more > 0 else ""), markup=False)


def register(app: typer.Typer) -> None:
    """Add ``config`` to ``app``."""
    command(app, "config")(config_cmd)
