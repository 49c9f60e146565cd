"""``lore completion bash|zsh|fish|powershell``: print the shell's completion script for ``lore``.

The same script that ``lore --show-completion`` prints for the shell it detects (typer's), here for the
shell named, so it can be written to a file in a setup script or a dotfiles repository:
``lore completion bash > ~/.local/share/bash-completion/completions/lore``. The script calls ``lore``
back with ``_LORE_COMPLETE`` set, which the root app answers with the commands and options that fit.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..errors import InvalidArgumentError
from ._app import JsonOpt, command, emit_json

SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
PROG = "lore"


def completion_script(shell: str) -> str:
    """The completion script of ``shell`` for the ``lore`` command.

    Examples
    --------
    >>> "complete -o default -F _lore_completion lore" in completion_script("bash")
    True
    """
    if shell not in SHELLS:
        raise InvalidArgumentError(f"no completion for shell {shell!r}; choose one of: {', '.join(SHELLS)}")
    from typer.completion import get_completion_script

    return get_completion_script(prog_name=PROG, complete_var=f"_{PROG.upper()}_COMPLETE", shell=shell).strip() + "\n"


def completion_cmd(
    shell: Annotated[str, typer.Argument(help=f"The shell: {' | '.join(SHELLS)}.")],
    as_json: JsonOpt = False,
) -> None:
    """Print the shell completion script for lore (e.g. `lore completion bash >> ~/.bashrc`)."""
    script = completion_script(shell)
    if as_json:
        emit_json({"shell": shell, "script": script})
        return
    typer.echo(script, nl=False)


def register(app: typer.Typer) -> None:
    """Add ``completion`` to ``app``."""
    command(app, "completion")(completion_cmd)
