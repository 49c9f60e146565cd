"""docs/commands.md: a section for every command and group ``lore --help`` lists, and no option that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

from ._walk import commands, groups, option_names

DOC = Path(__file__).parents[2] / "docs" / "commands.md"
GLOBAL = {"--help", "--version", "--install-completion", "--show-completion"}


def _sections() -> dict[str, str]:
    """``{"graph related": "<text of its section>", ...}`` from the ``### `lore ...` `` headings."""
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^#{2,3} `lore ([a-z -]+)`.*$", text, flags=re.M)
    return {parts[k].strip(): parts[k + 1] for k in range(1, len(parts), 2)}


def test_every_command_and_group_has_a_section():
    sections = _sections()
    missing = [name for name in [*commands(), *groups()] if name not in sections]
    assert not missing, f"commands missing from docs/commands.md: {missing}"
    unknown = [name for name in sections if name not in commands() and name not in groups()]
    assert not unknown, f"docs/commands.md documents commands lore does not have: {unknown}"


def test_every_option_a_section_names_exists():
    cmds = commands()
    wrong = {}
    for name, text in _sections().items():
        if name not in cmds:
            continue
        text = re.sub(r"`lore (?!" + re.escape(name) + r"\b)[^`]*`", "", text)  # other commands' options
        named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", text))
        bad = named - option_names(cmds[name]) - GLOBAL
        if bad:
            wrong[name] = sorted(bad)
    assert not wrong, f"options in docs/commands.md that the command does not have: {wrong}"


def test_every_section_has_an_example():
    for name, text in _sections().items():
        if name in commands():
            assert f"lore {name}" in text.split("```bash", 1)[-1], f"no example for lore {name}"
