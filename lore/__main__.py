"""``python -m lore``: the ``lore`` command."""

from .cli import main

main()
