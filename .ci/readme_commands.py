"""Print the README's two commands, one a line, exactly as written (CI runs them literally).

They are the lines of the first fenced shell block under the heading "Two commands". Each line is
printed whole, its trailing comment included: bash reads a `#` after a blank as a comment, as a user's
shell does. Exit 1 with one line when the README has no such block or it does not hold two commands.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def two_commands(readme: str) -> list[str]:
    """The command lines of the first shell block after the "Two commands" heading."""
    heading = re.search(r"^#+\s+Two commands\s*$", readme, flags=re.MULTILINE)
    if heading is None:
        return []
    block = re.search(r"^```(?:bash|sh|shell|console)[^\n]*\n(.*?)^```", readme[heading.end():],
                      flags=re.MULTILINE | re.DOTALL)
    if block is None:
        return []
    return [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]


def main() -> int:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    commands = two_commands(readme.read_text(encoding="utf-8"))
    if len(commands) != 2:
        print(f"README.md: expected two commands under 'Two commands', found {len(commands)}", file=sys.stderr)
        return 1
    print("\n".join(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
