"""Every command of the ``lore`` app, walked from the same click tree ``lore --help`` is drawn from."""

from __future__ import annotations

from typing import Any

import typer.main

from lore.cli import app


def commands(*, hidden: bool = False) -> dict[str, Any]:
    """``{"graph related": <command>, ...}``: every leaf command by its full name (hidden ones on request)."""
    found: dict[str, Any] = {}

    def walk(cmd: Any, prefix: str) -> None:
        for name, sub in getattr(cmd, "commands", {}).items():
            if sub.hidden and not hidden:
                continue
            full = f"{prefix} {name}".strip()
            if getattr(sub, "commands", None):
                walk(sub, full)
            else:
                found[full] = sub

    walk(typer.main.get_command(app), "")
    return found


def groups() -> list[str]:
    """The names of the command groups (``graph``, ``docs``, ``bench``)."""
    root = typer.main.get_command(app)
    return [name for name, sub in root.commands.items() if getattr(sub, "commands", None)]  # type: ignore[attr-defined]


def option_names(cmd: Any) -> set[str]:
    """Every spelling of every visible option of ``cmd`` (``--limit``, ``-n``, ``--no-include-tests``)."""
    return {o for p in cmd.params if not getattr(p, "hidden", False) for o in (*p.opts, *p.secondary_opts)
            if o.startswith("-")}
